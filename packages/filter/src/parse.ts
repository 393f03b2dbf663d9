/**
 * The parser of Meilisearch's filter expression syntax
 * (https://www.meilisearch.com/docs/learn/filtering_and_sorting/filter_expression_reference):
 *
 * ```text
 * filter     = or EOF
 * or         = and ("OR" and)*
 * and        = not ("AND" not)*
 * not        = "NOT" not | primary
 * primary    = "(" or ")" | condition
 * condition  = value ("=" | "!=" | ">" | ">=" | "<" | "<=") value
 *            | value value "TO" value
 *            | value ["NOT"] "IN" "[" (value ("," value)* ","?)? "]"
 *            | value ["NOT"] "EXISTS"
 *            | value "IS" ["NOT"] ("NULL" | "EMPTY")
 *            | value ["NOT"] "CONTAINS" value
 *            | value ["NOT"] "STARTS" "WITH" value
 * value      = word | 'single quoted' | "double quoted"
 * ```
 *
 * Keywords are case-insensitive here (Meilisearch only knows them in upper case); a word that spells
 * one must be quoted to be used as an attribute or a value. Recursive descent over the token list,
 * without backtracking: linear in the length of the filter, with the nesting depth bounded.
 */
import { at, type CompareOperator, type FilterNode } from './ast.js'
import { clip, codePointOffset, FilterError, syntaxError } from './errors.js'
import { type Keyword, type Token, tokenize } from './lexer.js'
import { FILTER_LIMITS } from './limits.js'

const OPERATIONS = '`=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH` or `NOT STARTS WITH`'
const GEO = new Set(['_geoRadius', '_geoBoundingBox', '_geoPolygon', '_geoPoint', '_geoDistance', '_geo'])

/**
 * Parses a filter written in Meilisearch's filter expression syntax. Returns null for an empty or blank
 * string; throws a FilterError for a syntax error or a filter over the limits of FILTER_LIMITS.
 */
export function parseFilter (text: string): FilterNode | null {
  if (typeof text !== 'string') throw new TypeError('parseFilter expects a string')
  if (text.length > FILTER_LIMITS.maxLength) {
    throw new FilterError(`The filter is too long: ${text.length} characters, the maximum is ${FILTER_LIMITS.maxLength}`, codePointOffset(text, FILTER_LIMITS.maxLength))
  }
  if (text.trim() === '') return null
  return new Parser(text).parse()
}

class Parser {
  readonly #text: string
  readonly #tokens: Token[]
  #next = 0
  #depth = 0
  #conditions = 0
  #values = 0
  /** UTF-16 index → code point offset, only built when the filter has characters outside the BMP. */
  readonly #offsets: Uint32Array | undefined

  constructor (text: string) {
    this.#text = text
    this.#tokens = tokenize(text)
    this.#offsets = /[\ud800-\udfff]/.test(text) ? offsets(text) : undefined
  }

  parse (): FilterNode {
    const node = this.#or()
    const t = this.#peek()
    if (t.kind === ')') throw this.#error(t, 'Found a closing parenthesis `)` that does not match any opening parenthesis')
    if (t.kind !== 'eof') {
      throw this.#error(t, `Found unexpected characters at the end of the filter: \`${clip(this.#text.slice(t.start))}\`. You probably forgot an \`OR\` or an \`AND\` rule, or the quotes around a value that contains spaces`)
    }
    return node
  }

  #position (index: number): number {
    return this.#offsets === undefined ? index : this.#offsets[index]!
  }

  #error (at: Token | number, detail: string): FilterError {
    return syntaxError(this.#text, typeof at === 'number' ? at : at.start, detail)
  }

  #peek (offset = 0): Token {
    const t = this.#tokens[Math.min(this.#next + offset, this.#tokens.length - 1)]!
    if (t.fatal !== undefined) throw this.#error(t.fatal.index, t.fatal.detail)
    return t
  }

  #take (): Token {
    const t = this.#peek()
    if (t.kind !== 'eof') this.#next++
    return t
  }

  #isKeyword (t: Token, keyword: Keyword): boolean {
    return t.kind === 'word' && t.keyword === keyword
  }

  /** How a token is shown in "but instead got ..." (`nothing` at the end of the filter). */
  #got (t: Token): string {
    return t.kind === 'eof' ? 'nothing' : `\`${clip(this.#text.slice(t.start, t.end))}\``
  }

  #enter (t: Token) {
    if (++this.#depth > FILTER_LIMITS.maxDepth) {
      throw this.#error(t, `The filter is nested too deeply: more than ${FILTER_LIMITS.maxDepth} levels of parentheses and \`NOT\`. Try rewriting the filter so that it contains fewer nested conditions`)
    }
  }

  #or (): FilterNode {
    const first = this.#and()
    if (!this.#isKeyword(this.#peek(), 'OR')) return first
    const children = [first]
    while (this.#isKeyword(this.#peek(), 'OR')) {
      this.#take()
      children.push(this.#and())
    }
    return at({ type: 'or', children }, first.position ?? 0)
  }

  #and (): FilterNode {
    const first = this.#not()
    if (!this.#isKeyword(this.#peek(), 'AND')) return first
    const children = [first]
    while (this.#isKeyword(this.#peek(), 'AND')) {
      this.#take()
      children.push(this.#not())
    }
    return at({ type: 'and', children }, first.position ?? 0)
  }

  #not (): FilterNode {
    const t = this.#peek()
    if (!this.#isKeyword(t, 'NOT')) return this.#primary()
    this.#take()
    this.#enter(t)
    const child = this.#not()
    this.#depth--
    // NOT NOT x is x, as in Meilisearch.
    return child.type === 'not' ? child.child : at({ type: 'not', child }, this.#position(t.start))
  }

  #primary (): FilterNode {
    const open = this.#peek()
    if (open.kind !== '(') return this.#condition()
    this.#take()
    this.#enter(open)
    const inner = this.#or()
    const close = this.#peek()
    if (close.kind === 'eof') {
      throw this.#error(open, `Expression \`${clip(this.#text.slice(open.start))}\` is missing the following closing delimiter: \`)\``)
    }
    if (close.kind !== ')') {
      throw this.#error(close, `Was expecting \`AND\`, \`OR\` or the \`)\` closing the \`(\` at position ${this.#position(open.start)}, but instead got ${this.#got(close)}`)
    }
    this.#take()
    this.#depth--
    return inner
  }

  /** The token before the current one, to say what a missing condition should follow. */
  #after (): string {
    const previous = this.#tokens[this.#next - 1]
    if (previous === undefined) return ''
    return ` after \`${previous.kind === 'word' && previous.keyword !== undefined ? previous.keyword : previous.value}\``
  }

  #condition (): FilterNode {
    const t = this.#peek()
    if (t.kind === 'word' && GEO.has(t.value) && (t.value === '_geoRadius' || t.value === '_geoBoundingBox' || this.#peek(1).kind === '(')) {
      throw this.#error(t, `\`${t.value}\` is a geosearch filter, which this search service does not support`)
    }
    if (t.kind === 'word' && t.keyword !== undefined) {
      throw this.#error(t, `\`${t.value}\` is a reserved keyword and thus cannot be used as a field name unless it is put inside quotes. Use "${t.value}" or '${t.value}' instead`)
    }
    if (t.kind !== 'word' && t.kind !== 'string') {
      if (t.kind === 'invalid') {
        throw this.#error(t, `Was expecting an attribute name but instead got ${this.#got(t)}. An attribute name that contains characters other than letters, digits, \`_\`, \`-\` and \`.\` must be put inside quotes`)
      }
      throw this.#error(t, `Was expecting a condition (such as \`genres = horror\`)${this.#after()} but instead got ${this.#got(t)}`)
    }
    this.#take()
    const attribute = this.#checkLength(t)
    const position = this.#position(t.start)
    if (++this.#conditions > FILTER_LIMITS.maxConditions) {
      throw this.#error(t, `The filter has too many conditions: the maximum is ${FILTER_LIMITS.maxConditions}`)
    }
    const op = this.#peek()
    if (op.kind === 'op') {
      this.#take()
      const value = this.#value()
      return at({ type: 'compare', attribute, operator: op.value as CompareOperator, value }, position)
    }
    if (op.kind === 'word' || op.kind === 'string') {
      switch (op.kind === 'word' ? op.keyword : undefined) {
        case 'IN':
          this.#take()
          return at({ type: 'in', attribute, values: this.#list() }, position)
        case 'EXISTS':
          this.#take()
          return at({ type: 'exists', attribute }, position)
        case 'CONTAINS':
          this.#take()
          return at({ type: 'contains', attribute, value: this.#value() }, position)
        case 'STARTS':
          this.#take()
          this.#expectWith()
          return at({ type: 'startsWith', attribute, value: this.#value() }, position)
        case 'IS':
          this.#take()
          return this.#is(attribute, position)
        case 'NOT':
          this.#take()
          return this.#negated(attribute, position)
        case undefined: {
          // attribute from TO to
          const from = this.#value()
          const to = this.#peek()
          if (!this.#isKeyword(to, 'TO')) {
            throw this.#error(to, `Was expecting \`TO\` after \`${clip(this.#text.slice(t.start, op.end))}\` (a range is written \`attribute from TO to\`) but instead got ${this.#got(to)}. An attribute name or a value that contains spaces must be put inside quotes`)
          }
          this.#take()
          return at({ type: 'range', attribute, from, to: this.#value() }, position)
        }
      }
    }
    throw this.#error(op, `Was expecting an operation ${OPERATIONS} after \`${clip(this.#text.slice(t.start, t.end))}\`, but instead got ${this.#got(op)}`)
  }

  #expectWith () {
    const w = this.#peek()
    if (!this.#isKeyword(w, 'WITH')) throw this.#error(w, `Was expecting \`WITH\` after \`STARTS\` but instead got ${this.#got(w)}`)
    this.#take()
  }

  #is (attribute: string, position: number): FilterNode {
    let t = this.#take()
    const negated = this.#isKeyword(t, 'NOT')
    if (negated) t = this.#take()
    let node: FilterNode
    if (this.#isKeyword(t, 'NULL')) node = at({ type: 'isNull', attribute }, position)
    else if (this.#isKeyword(t, 'EMPTY')) node = at({ type: 'isEmpty', attribute }, position)
    else {
      const expected = negated ? '`NULL` or `EMPTY` after `IS NOT`' : '`NULL`, `NOT NULL`, `EMPTY` or `NOT EMPTY` after `IS`'
      throw this.#error(t, `Was expecting ${expected} but instead got ${this.#got(t)}`)
    }
    return negated ? at({ type: 'not', child: node }, position) : node
  }

  /** After `attribute NOT`: `IN [...]`, `EXISTS`, `CONTAINS value` or `STARTS WITH value`. */
  #negated (attribute: string, position: number): FilterNode {
    const t = this.#take()
    let node: FilterNode
    switch (t.kind === 'word' ? t.keyword : undefined) {
      case 'IN': node = at({ type: 'in', attribute, values: this.#list() }, position); break
      case 'EXISTS': node = at({ type: 'exists', attribute }, position); break
      case 'CONTAINS': node = at({ type: 'contains', attribute, value: this.#value() }, position); break
      case 'STARTS':
        this.#expectWith()
        node = at({ type: 'startsWith', attribute, value: this.#value() }, position)
        break
      default:
        throw this.#error(t, `Was expecting \`IN\`, \`EXISTS\`, \`CONTAINS\` or \`STARTS WITH\` after \`NOT\` but instead got ${this.#got(t)}`)
    }
    return at({ type: 'not', child: node }, position)
  }

  #checkLength (t: Token): string {
    if (t.value.length > FILTER_LIMITS.maxValueLength) {
      throw this.#error(t, `The value \`${clip(t.value)}\` is too long: ${t.value.length} characters, the maximum is ${FILTER_LIMITS.maxValueLength}`)
    }
    return t.value
  }

  #countValue (t: Token) {
    if (++this.#values > FILTER_LIMITS.maxValues) {
      throw this.#error(t, `The filter has too many values: the maximum is ${FILTER_LIMITS.maxValues}`)
    }
  }

  #value (): string {
    const t = this.#peek()
    if (t.kind === 'string' || (t.kind === 'word' && t.keyword === undefined)) {
      this.#take()
      this.#countValue(t)
      return this.#checkLength(t)
    }
    if (t.kind === 'word') {
      throw this.#error(t, `Was expecting a value but instead got \`${t.value}\`, which is a reserved keyword. To use \`${t.value}\` as a field name or a value, surround it by quotes`)
    }
    throw this.#error(t, `Was expecting a value but instead got ${this.#got(t)}`)
  }

  /** `[a, b, ...]` after `IN`. */
  #list (): string[] {
    const open = this.#peek()
    if (open.kind !== '[') throw this.#error(open, `Expected \`[\` after \`IN\` keyword but instead got ${this.#got(open)}`)
    this.#take()
    const values: string[] = []
    while (true) {
      const t = this.#peek()
      if (t.kind === ']') break
      if (t.kind === 'eof') {
        throw this.#error(t, `Expected matching \`]\` after the list of values given to \`IN[\` (opened at position ${this.#position(open.start)}) but instead got nothing`)
      }
      if (t.kind === 'word' && t.keyword !== undefined) {
        throw this.#error(t, `Expected only comma-separated values inside \`IN[..]\` but instead found \`${t.value}\`, which is a keyword. To use \`${t.value}\` as a value, surround it by quotes`)
      }
      if (t.kind !== 'word' && t.kind !== 'string') {
        throw this.#error(t, `Expected only comma-separated values inside \`IN[..]\` but instead found ${this.#got(t)}`)
      }
      values.push(this.#value())
      const after = this.#peek()
      if (after.kind === ',') this.#take()
      else if (after.kind !== ']' && after.kind !== 'eof') {
        throw this.#error(after, `Expected only comma-separated values inside \`IN[..]\` but instead found ${this.#got(after)}`)
      }
    }
    this.#take()
    return values
  }
}

/** For every UTF-16 index of `text`, the number of code points before it. */
function offsets (text: string): Uint32Array {
  const out = new Uint32Array(text.length + 1)
  let count = 0
  for (let i = 0; i < text.length; i++) {
    out[i] = count
    const c = text.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const n = text.charCodeAt(i + 1)
      if (n >= 0xdc00 && n <= 0xdfff) out[++i] = count
    }
    count++
  }
  out[text.length] = count
  return out
}
