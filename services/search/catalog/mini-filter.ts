/**
 * A small evaluator of filters over plain objects, used to check the judged sets (relevance.json, the
 * assistant's constraint plans): it is not the search engine's filter. The filter is parsed by
 * `@chatsearch/filter`, the one parser of the language; this file only evaluates the conditions the
 * judged sets use (`=`, `!=`, `<`, `<=`, `>`, `>=`, `IN`, `TO`, `NOT`, `AND`, `OR`) and refuses the
 * others. Strings compare case-insensitively; an array attribute matches when any element does.
 */
import { parseFilter, type FilterNode } from '@chatsearch/filter'

type Value = string | number | boolean
type Doc = Readonly<Record<string, unknown>>
type Predicate = (doc: Doc) => boolean

/** The filter spells every value as a string; the judged documents hold numbers and booleans. */
function literal (text: string): Value {
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text)
  if (text === 'true' || text === 'false') return text === 'true'
  return text
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

function evaluate (node: FilterNode): Predicate {
  switch (node.type) {
    case 'and': {
      const parts = node.children.map(evaluate)
      return (doc) => parts.every((p) => p(doc))
    }
    case 'or': {
      const parts = node.children.map(evaluate)
      return (doc) => parts.some((p) => p(doc))
    }
    case 'not': {
      const inner = evaluate(node.child)
      return (doc) => !inner(doc)
    }
    case 'in': {
      const list = node.values.map(literal)
      return (doc) => values(doc, node.attribute).some((v) => list.some((l) => compare(v, '=', l)))
    }
    case 'range': {
      const from = literal(node.from)
      const to = literal(node.to)
      return (doc) => values(doc, node.attribute).some((v) => compare(v, '>=', from) && compare(v, '<=', to))
    }
    case 'compare': {
      const expected = literal(node.value)
      const { attribute, operator } = node
      if (operator === '!=') return (doc) => !values(doc, attribute).some((v) => compare(v, '=', expected))
      return (doc) => values(doc, attribute).some((v) => compare(v, operator, expected))
    }
    default:
      throw new Error(`the judged sets' evaluator does not read "${node.type}" conditions`)
  }
}

/** A predicate for the filter; throws on a filter that does not parse. */
export function compileFilter (expression: string): Predicate {
  const tree = parseFilter(expression)
  if (tree === null) return () => true
  return evaluate(tree)
}
