/**
 * The rows that represent one document in the embedded engine's `fields` table (created in
 * engines/embedded/database.ts), which filters, facet counts and sorts are answered from:
 * `fields (doc, attr, kind, str, num)`.
 *
 * Encoding, one row per (attribute path, value), duplicates removed:
 *
 * - `attr` is the dot path of the value: `brand.name` for `{ brand: { name } }` (a key that itself
 *   contains dots, `{ "brand.name": x }`, gives the same path, as in Meilisearch). Arrays do not add to
 *   the path: every element of `tags: ['a', 'b']` is a row of `tags`, and the keys of objects in an
 *   array are rows of the array's path plus the key (`variants: [{ color: 'red' }]` → `variants.color`).
 *   Nested arrays are flattened the same way.
 * - `kind` (FieldKind) says what the row stands for:
 *   - 1 String: a non-empty string. `str` = trimmed, NFKC-normalised, lower-cased (normalizeString);
 *     the row also carries the original string as `label` (for facet counts; not a column).
 *   - 2 Number: a finite number. `num` = the number; `str` = its canonical string (`String(n)`: "10",
 *     "2.5"), which facet counts can show; filters match numbers through `num` only.
 *   - 3 Boolean: `str` = 'true' or 'false', matched like a string (as in Meilisearch).
 *   - 4 Null: the attribute's value is `null`.
 *   - 5 Empty: the attribute's value is "", [] or {}.
 *   - 0 Present: the attribute is there but gives no value to compare: a non-empty object or array
 *     (their contents have rows of their own), or null, "", [], {} *inside* an array, or a non-finite
 *     number.
 *   `str` and `num` are NULL whenever not said above.
 * - Every attribute present in the document has at least one row, so `EXISTS` is "any row". As in
 *   Meilisearch's indexer, null and empty are properties of the attribute's own value, not of array
 *   elements: `tags: [null]` exists but is not null, `tags: []` is empty, `variants: [{ color: null }]`
 *   makes `variants.color` null.
 * - Nesting deeper than 64 levels is not descended into (the container counts as present).
 *
 * Strings that look like numbers stay strings (`price: "15"` is matched by `price = 15` and
 * `price = "15"`, not by `price > 10`), as Meilisearch does and documents ("comparison operators only
 * apply to numerical values").
 */
import { matchPatterns, type PatternMatch } from '@chatsearch/filter'
import { normalizeString } from './normalize.js'

export const FieldKind = {
  Present: 0,
  String: 1,
  Number: 2,
  Boolean: 3,
  Null: 4,
  Empty: 5
} as const
export type FieldKind = typeof FieldKind[keyof typeof FieldKind]

export interface FieldRow {
  attr: string
  kind: FieldKind
  str: string | null
  num: number | null
  /** For a string: the string as the document wrote it, for display in facet counts. */
  label?: string
}

const MAX_DEPTH = 64

/** A JavaScript value as JSON would store it; undefined for what JSON leaves out. */
function toJson (value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: () => unknown }).toJSON()
  }
  if (typeof value === 'bigint') return Number(value)
  if (typeof value === 'function' || typeof value === 'symbol') return undefined
  return value
}

function isObject (value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * The rows of one document (see the encoding above). With `attributes`, only the paths they select
 * (Meilisearch attribute patterns: `brand` selects `brand` and `brand.name`), typically the filterable,
 * facetable and sortable attributes.
 */
export function flattenDocument (doc: Record<string, unknown>, attributes?: readonly string[]): FieldRow[] {
  const rows: FieldRow[] = []
  const seen = new Set<string>()
  const select = (path: string): PatternMatch => attributes === undefined ? 'match' : matchPatterns(attributes, path)

  const add = (attr: string, kind: FieldKind, str: string | null = null, num: number | null = null, label?: string) => {
    const key = `${kind}\u0000${attr}\u0000${str ?? ''}`
    if (seen.has(key)) return
    seen.add(key)
    const row: FieldRow = { attr, kind, str, num }
    if (label !== undefined) row.label = label
    rows.push(row)
  }

  /** The row(s) for a value of `path`; `own` when it is the attribute's own value, not an array element. */
  const leaf = (value: unknown, path: string, own: boolean) => {
    if (typeof value === 'string') {
      if (value !== '') add(path, FieldKind.String, normalizeString(value), null, value)
      else add(path, own ? FieldKind.Empty : FieldKind.Present)
    } else if (typeof value === 'number') {
      if (Number.isFinite(value)) add(path, FieldKind.Number, String(value), value)
      else add(path, FieldKind.Present)
    } else if (typeof value === 'boolean') {
      add(path, FieldKind.Boolean, String(value))
    } else if (value === null) {
      add(path, own ? FieldKind.Null : FieldKind.Present)
    } else if (Array.isArray(value)) {
      add(path, own && value.length === 0 ? FieldKind.Empty : FieldKind.Present)
    } else if (isObject(value)) {
      add(path, own && Object.keys(value).length === 0 ? FieldKind.Empty : FieldKind.Present)
    } else {
      add(path, FieldKind.Present)
    }
  }

  const object = (obj: Record<string, unknown>, base: string | null, depth: number) => {
    for (const key of Object.keys(obj)) {
      const value = toJson(obj[key])
      if (value === undefined) continue
      const path = base === null ? key : `${base}.${key}`
      const selected = select(path)
      if (selected === 'none') continue
      if (selected === 'match') leaf(value, path, true)
      if (depth >= MAX_DEPTH) continue
      if (Array.isArray(value)) array(value, path, selected === 'match', depth + 1)
      else if (isObject(value)) object(value, path, depth + 1)
    }
  }

  const array = (values: unknown[], path: string, record: boolean, depth: number) => {
    for (const element of values) {
      const value = toJson(element) ?? null
      if (Array.isArray(value)) {
        if (depth < MAX_DEPTH) array(value, path, record, depth + 1)
      } else if (isObject(value)) {
        if (depth < MAX_DEPTH) object(value, path, depth + 1)
      } else if (record) {
        leaf(value, path, false)
      }
    }
  }

  object(doc, null, 0)
  return rows
}
