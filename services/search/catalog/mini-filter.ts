/**
 * A small evaluator for the subset of Meilisearch filter syntax used in relevance.json:
 * `attr = value`, `!=`, `<`, `<=`, `>`, `>=`, `attr IN [a, b]`, `attr a TO b`, `NOT`, `AND`, `OR` and
 * parentheses. Strings compare case-insensitively; an array attribute matches when any element does.
 * It checks the judged set, it is not the search engine's filter.
 */

type Value = string | number | boolean
type Doc = Readonly<Record<string, unknown>>
type Predicate = (doc: Doc) => boolean

const TOKEN = /\s*(\(|\)|\[|\]|,|!=|<=|>=|=|<|>|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s()[\],=<>!]+)/y

function tokenize (expression: string): string[] {
  const tokens: string[] = []
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < expression.length) {
    if (expression.slice(TOKEN.lastIndex).trim() === '') break
    const m = TOKEN.exec(expression)
    if (m === null) throw new Error(`cannot read filter at ${TOKEN.lastIndex}: ${expression}`)
    tokens.push(m[1] as string)
  }
  return tokens
}

function literal (token: string): Value {
  if (/^["']/.test(token)) return token.slice(1, -1).replace(/\\(.)/g, '$1')
  if (/^-?\d+(\.\d+)?$/.test(token)) return Number(token)
  if (token === 'true' || token === 'false') return token === 'true'
  return token
}

function values (doc: Doc, attribute: string): Value[] {
  const v = doc[attribute]
  if (Array.isArray(v)) return v as Value[]
  return v === undefined || v === null ? [] : [v as Value]
}

function compare (actual: Value, op: string, expected: Value): boolean {
  if (op === '=' || op === '!=') {
    const equal = typeof actual === 'string' || typeof expected === 'string'
      ? String(actual).toLowerCase() === String(expected).toLowerCase()
      : actual === expected
    return op === '=' ? equal : !equal
  }
  if (typeof actual !== 'number' || typeof expected !== 'number') return false
  switch (op) {
    case '<': return actual < expected
    case '<=': return actual <= expected
    case '>': return actual > expected
    default: return actual >= expected
  }
}

export function compileFilter (expression: string): Predicate {
  const tokens = tokenize(expression)
  let i = 0
  const peek = () => tokens[i]
  const next = () => {
    const t = tokens[i++]
    if (t === undefined) throw new Error(`unexpected end of filter: ${expression}`)
    return t
  }
  const keyword = (word: string) => peek()?.toUpperCase() === word

  function or (): Predicate {
    const parts = [and()]
    while (keyword('OR')) { i++; parts.push(and()) }
    return parts.length === 1 ? parts[0] as Predicate : (doc) => parts.some((p) => p(doc))
  }
  function and (): Predicate {
    const parts = [not()]
    while (keyword('AND')) { i++; parts.push(not()) }
    return parts.length === 1 ? parts[0] as Predicate : (doc) => parts.every((p) => p(doc))
  }
  function not (): Predicate {
    if (keyword('NOT')) {
      i++
      const inner = not()
      return (doc) => !inner(doc)
    }
    return primary()
  }
  function primary (): Predicate {
    if (peek() === '(') {
      i++
      const inner = or()
      if (next() !== ')') throw new Error(`missing ) in filter: ${expression}`)
      return inner
    }
    const attribute = String(literal(next()))
    if (keyword('IN')) {
      i++
      if (next() !== '[') throw new Error(`missing [ in filter: ${expression}`)
      const list: Value[] = []
      while (peek() !== ']') {
        list.push(literal(next()))
        if (peek() === ',') i++
      }
      i++
      return (doc) => values(doc, attribute).some((v) => list.some((l) => compare(v, '=', l)))
    }
    const op = next()
    if (!['=', '!=', '<', '<=', '>', '>='].includes(op)) {
      const from = literal(op)
      if (!keyword('TO')) throw new Error(`expected an operator after ${attribute} in filter: ${expression}`)
      i++
      const to = literal(next())
      return (doc) => values(doc, attribute).some((v) => compare(v, '>=', from) && compare(v, '<=', to))
    }
    const expected = literal(next())
    if (op === '!=') return (doc) => !values(doc, attribute).some((v) => compare(v, '=', expected))
    return (doc) => values(doc, attribute).some((v) => compare(v, op, expected))
  }

  const predicate = or()
  if (i !== tokens.length) throw new Error(`unexpected "${tokens[i] ?? ''}" in filter: ${expression}`)
  return predicate
}
