/**
 * A filter as a boolean SQL expression (SQLite) over the `fields` table described in flatten.ts: true
 * for the document whose rowid is in `docColumn`. Every condition becomes
 * `docColumn IN (SELECT doc FROM fields WHERE attr = ? AND ...)`, a non-correlated subquery that SQLite
 * runs once through the `(attr, str, doc)` or `(attr, num, doc)` index; `NOT`, `AND` and `OR` combine
 * them. Values only ever travel as parameters.
 *
 * Semantics, after Meilisearch's filter expression reference and engine:
 * - `=` matches a string or boolean equal once normalised (case-insensitive), and, when the value reads
 *   as a number, a number equal to it: `price = 10` matches 10, 10.0 and "10".
 * - `>`, `>=`, `<`, `<=`, `TO` compare numbers only; a value that is not a number matches nothing.
 * - `!=`, `NOT IN`, `NOT EXISTS`, `IS NOT NULL`, `IS NOT EMPTY`, `NOT CONTAINS`, `NOT STARTS WITH`
 *   and `NOT` are the complement: they also match documents without the attribute.
 * - On an array, a condition matches when any element does.
 * - `CONTAINS` and `STARTS WITH` look at strings and booleans (not numbers), normalised like `=`.
 */
import type { ConditionNode, FilterNode } from './ast.js'
import { FilterError } from './errors.js'
import { FieldKind } from './flatten.js'
import { FILTER_LIMITS } from './limits.js'
import { normalizeString, parseNumber } from './normalize.js'

export interface SqlFragment {
  sql: string
  params: unknown[]
}

export interface FilterToSqlOptions {
  /** The fields table, `fields` by default. */
  table?: string
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?$/
// A column may carry SQLite's unary `+`, which keeps the planner from using it as an index (or
// virtual-table) constraint: `+rowid IN (…)` on an FTS5 table filters its matches instead of
// running the full-text query once per allowed rowid.
const COLUMN = /^\+?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?$/
const NOTHING = '0'
const TEXT_KINDS = `kind IN (${FieldKind.String}, ${FieldKind.Boolean})`

/** Escapes `%`, `_` and the escape character itself for `LIKE ... ESCAPE '\'`. */
export function escapeLike (value: string): string {
  return value.replace(/[\\%_]/g, '\\$&')
}

/**
 * The smallest string greater than every string that starts with `prefix`, in SQLite's BINARY order
 * (UTF-8 bytes, which is code point order): `prefix` with its last code point incremented. Undefined
 * when there is none (an empty prefix, or one made only of U+10FFFF).
 */
export function prefixUpperBound (prefix: string): string | undefined {
  const points = Array.from(prefix, (c) => c.codePointAt(0)!)
  while (points.length > 0 && points[points.length - 1] === 0x10ffff) points.pop()
  if (points.length === 0) return undefined
  let last = points.pop()! + 1
  if (last === 0xd800) last = 0xe000 // skip the surrogates, which are not characters
  points.push(last)
  return String.fromCodePoint(...points)
}

/**
 * A boolean SQL expression that is true for the document whose rowid is `docColumn` (a column
 * reference such as `rowid` or `d.rowid`) when it matches the filter.
 */
export function filterToSql (node: FilterNode, docColumn: string, options: FilterToSqlOptions = {}): SqlFragment {
  const table = options.table ?? 'fields'
  if (!COLUMN.test(docColumn)) throw new TypeError(`filterToSql: not a column reference: ${JSON.stringify(docColumn)}`)
  if (!IDENTIFIER.test(table)) throw new TypeError(`filterToSql: not a table name: ${JSON.stringify(table)}`)
  const params: unknown[] = []

  const docs = (attribute: string, where: string, ...values: unknown[]) => {
    params.push(attribute, ...values)
    return `SELECT doc FROM ${table} WHERE attr = ?${where === '' ? '' : ' AND ' + where}`
  }
  const inDocs = (...selects: string[]) => `${docColumn} IN (${selects.join(' UNION ALL ')})`
  const placeholders = (n: number) => new Array<string>(n).fill('?').join(', ')

  const equal = (attribute: string, values: string[]): string => {
    if (values.length === 0) return NOTHING
    const strings = [...new Set(values.map(normalizeString))]
    const numbers = [...new Set(values.map(parseNumber).filter((n) => n !== undefined))]
    const selects = [strings.length === 1
      ? docs(attribute, 'str = ?', strings[0])
      : docs(attribute, `str IN (${placeholders(strings.length)})`, ...strings)]
    if (numbers.length === 1) selects.push(docs(attribute, 'num = ?', numbers[0]))
    else if (numbers.length > 1) selects.push(docs(attribute, `num IN (${placeholders(numbers.length)})`, ...numbers))
    return inDocs(...selects)
  }

  const compare = (attribute: string, where: string, ...values: Array<number | undefined>): string => {
    if (values.some((v) => v === undefined)) return NOTHING
    return inDocs(docs(attribute, where, ...values))
  }

  const condition = (c: ConditionNode): string => {
    switch (c.type) {
      case 'compare':
        switch (c.operator) {
          case '=': return equal(c.attribute, [c.value])
          case '!=': return `NOT (${equal(c.attribute, [c.value])})`
          case '>': return compare(c.attribute, 'num > ?', parseNumber(c.value))
          case '>=': return compare(c.attribute, 'num >= ?', parseNumber(c.value))
          case '<': return compare(c.attribute, 'num < ?', parseNumber(c.value))
          case '<=': return compare(c.attribute, 'num <= ?', parseNumber(c.value))
        }
        break
      case 'range': return compare(c.attribute, 'num >= ? AND num <= ?', parseNumber(c.from), parseNumber(c.to))
      case 'in': return equal(c.attribute, c.values)
      case 'exists': return inDocs(docs(c.attribute, ''))
      case 'isNull': return inDocs(docs(c.attribute, `kind = ${FieldKind.Null}`))
      case 'isEmpty': return inDocs(docs(c.attribute, `kind = ${FieldKind.Empty}`))
      case 'contains':
        return inDocs(docs(c.attribute, `${TEXT_KINDS} AND str LIKE ? ESCAPE '\\'`, `%${escapeLike(normalizeString(c.value))}%`))
      case 'startsWith': {
        const prefix = normalizeString(c.value)
        const upper = prefixUpperBound(prefix)
        return upper === undefined
          ? inDocs(docs(c.attribute, `${TEXT_KINDS} AND str >= ?`, prefix))
          : inDocs(docs(c.attribute, `${TEXT_KINDS} AND str >= ? AND str < ?`, prefix, upper))
      }
    }
    throw new TypeError(`filterToSql: unknown condition ${JSON.stringify((c as { type: unknown }).type)}`)
  }

  /** `children[from..to)` joined by `op` as a balanced tree, to keep SQLite's expression depth low. */
  const join = (children: FilterNode[], from: number, to: number, op: 'AND' | 'OR', depth: number): string => {
    if (to - from === 1) return expression(children[from]!, depth)
    const middle = (from + to) >>> 1
    return `(${join(children, from, middle, op, depth)} ${op} ${join(children, middle, to, op, depth)})`
  }

  const expression = (n: FilterNode, depth: number): string => {
    if (depth > FILTER_LIMITS.maxDepth * 4) throw new FilterError('The filter is nested too deeply', n.position ?? -1)
    switch (n.type) {
      case 'not': return `NOT (${expression(n.child, depth + 1)})`
      case 'and':
      case 'or':
        if (n.children.length === 0) return n.type === 'and' ? '1' : NOTHING
        return join(n.children, 0, n.children.length, n.type === 'and' ? 'AND' : 'OR', depth + 1)
      default: return condition(n)
    }
  }

  const sql = expression(node, 0)
  return { sql, params }
}
