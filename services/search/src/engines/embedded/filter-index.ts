import type { ConditionNode, FilterNode } from '@chatsearch/filter'
import { FieldKind } from './flatten.js'
import { normalizeString, parseNumber } from './normalize.js'
import type { Db } from './database.js'
import { patchList, rowidMarks } from './changes.js'
import type { SortValues } from './ranking.js'

/** A set of documents: one byte per rowid (1 = in the set). */
export type DocSet = Uint8Array

interface AttributeIndex {
  /** Strings and booleans (what CONTAINS and STARTS WITH look at), by their folded form. */
  text: Map<string, Int32Array>
  /** Numbers by their canonical string, which `=` also compares. */
  numberText: Map<string, Int32Array>
  /** Numbers in ascending order, with the document of each. */
  numbers: Float64Array
  numberDocs: Int32Array
  kinds: Map<number, Int32Array>
  /** Every document where the attribute is present. */
  present: Int32Array
}

/** Appends a list of documents under a key. */
function append<K> (lists: Map<K, Int32Array[]>, key: K, docs: Int32Array) {
  const existing = lists.get(key)
  if (existing === undefined) lists.set(key, [docs])
  else existing.push(docs)
}

function joined<K> (lists: Map<K, Int32Array[]>): Map<K, Int32Array> {
  return new Map([...lists].map(([key, parts]) => {
    if (parts.length === 1) return [key, parts[0]!]
    const all = new Int32Array(parts.reduce((n, p) => n + p.length, 0))
    let at = 0
    for (const p of parts) { all.set(p, at); at += p.length }
    return [key, all]
  }))
}

const NONE = new Int32Array(0)

/** Each list of `lists` patched, with the documents of `joining` added under their keys; empty lists dropped. */
function patchedMap<K> (lists: Map<K, Int32Array>, marks: Uint8Array, joining: Map<K, number[]>): Map<K, Int32Array> {
  const out = new Map<K, Int32Array>()
  for (const key of new Set([...lists.keys(), ...joining.keys()])) {
    const list = patchList(lists.get(key) ?? NONE, marks, joining.get(key))
    if (list.length > 0) out.set(key, list)
  }
  return out
}

/** The numbers of the unmarked documents merged with `extra`, in (number, document) order. */
function mergedNumbers (numbers: Float64Array, docs: Int32Array, marks: Uint8Array, extra: Array<[number, number]>): { numbers: Float64Array, numberDocs: Int32Array } {
  const kept = patchList(docs, marks)
  if (kept === docs && extra.length === 0) return { numbers, numberDocs: docs }
  extra.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const outNumbers = new Float64Array(kept.length + extra.length)
  const outDocs = new Int32Array(kept.length + extra.length)
  let at = 0
  let e = 0
  const take = (n: number, d: number) => { outNumbers[at] = n; outDocs[at++] = d }
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!
    if (d < marks.length && marks[d] === 1) continue
    const n = numbers[i]!
    while (e < extra.length && (extra[e]![0] < n || (extra[e]![0] === n && extra[e]![1] < d))) { take(extra[e]![0], extra[e]![1]); e++ }
    take(n, d)
  }
  for (; e < extra.length; e++) take(extra[e]![0], extra[e]![1])
  return { numbers: outNumbers, numberDocs: outDocs }
}

function push<K> (lists: Map<K, number[]>, key: K, doc: number) {
  const list = lists.get(key)
  if (list === undefined) lists.set(key, [doc])
  else list.push(doc)
}

/** First index whose value is not below `x` (`strict`: above `x`). */
function lowerBound (values: Float64Array, x: number, strict: boolean): number {
  let lo = 0
  let hi = values.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (strict ? values[mid]! <= x : values[mid]! < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Filters evaluated in memory, from posting lists built out of the fields table (per attribute, on
 * first use; patched after each write, see apply()). A filter becomes a document set in one pass over the
 * postings it names, so it is computed once per search instead of inside every SQL statement of it.
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
export class FilterIndex {
  readonly #db: Db
  readonly #attributes = new Map<string, AttributeIndex>()
  #universe: DocSet | undefined

  constructor (db: Db) {
    this.#db = db
  }

  /** Every stored document. */
  universe (): DocSet {
    if (this.#universe === undefined) {
      const rowids = this.#db.prepare('SELECT rowid FROM documents').pluck().all() as number[]
      this.#universe = new Uint8Array(rowids.reduce((m, r) => (r > m ? r : m), 0) + 1)
      for (const r of rowids) this.#universe[r] = 1
    }
    return this.#universe
  }

  /**
   * Brings the universe and the attributes loaded so far up to date with the stored rows of `rowids`
   * (ascending): those documents leave every posting list and join the ones of their current values.
   * Idempotent.
   */
  apply (rowids: number[]) {
    if (rowids.length === 0) return
    const json = JSON.stringify(rowids)
    if (this.#universe !== undefined) {
      const stored = this.#db.prepare('SELECT rowid FROM documents WHERE rowid IN (SELECT value FROM json_each(?))').pluck().all(json) as number[]
      const needed = stored.reduce((m, r) => (r > m ? r : m), -1) + 1
      if (needed > this.#universe.length) {
        const grown = new Uint8Array(needed)
        grown.set(this.#universe)
        this.#universe = grown
      }
      for (const r of rowids) if (r < this.#universe.length) this.#universe[r] = 0
      for (const r of stored) this.#universe[r] = 1
    }
    const marks = rowidMarks(rowids)
    // Looked up by document (fields_doc), all attributes at once: by attribute, SQLite scans its whole posting list.
    const byAttribute = new Map<string, Array<[string | null, number, number | null, number]>>()
    for (const [attribute, ...row] of this.#db.prepare('SELECT attr, str, kind, num, doc FROM fields WHERE doc IN (SELECT value FROM json_each(?))')
      .raw().all(json) as Array<[string, string | null, number, number | null, number]>) {
      if (!this.#attributes.has(attribute)) continue
      const rows = byAttribute.get(attribute)
      if (rows === undefined) byAttribute.set(attribute, [row])
      else rows.push(row)
    }
    for (const [attribute, index] of this.#attributes) {
      const rows = byAttribute.get(attribute) ?? []
      const text = new Map<string, number[]>()
      const numberText = new Map<string, number[]>()
      const kinds = new Map<number, number[]>()
      const numeric: Array<[number, number]> = []
      for (const [str, kind, num, doc] of rows) {
        push(kinds, kind, doc)
        if (num !== null) numeric.push([num, doc])
        if (str === null) continue
        if (kind === FieldKind.String || kind === FieldKind.Boolean) push(text, str, doc)
        else if (kind === FieldKind.Number) push(numberText, str, doc)
      }
      this.#attributes.set(attribute, {
        text: patchedMap(index.text, marks, text),
        numberText: patchedMap(index.numberText, marks, numberText),
        ...mergedNumbers(index.numbers, index.numberDocs, marks, numeric),
        kinds: patchedMap(index.kinds, marks, kinds),
        present: patchList(index.present, marks, [...new Set(rows.map((r) => r[3]))])
      })
    }
  }

  evaluate (node: FilterNode): DocSet {
    switch (node.type) {
      case 'not': return this.#andNot(this.universe(), this.evaluate(node.child))
      case 'and': return node.children.reduce<DocSet>((acc, c) => this.#and(acc, this.evaluate(c)), this.universe().slice())
      case 'or': return node.children.reduce<DocSet>((acc, c) => this.#or(acc, this.evaluate(c)), this.#empty())
      default: return this.#condition(node)
    }
  }

  /**
   * The values of an attribute for the sort rule (see sortRanks in ranking.ts): the same posting
   * lists filters read, so a sortable attribute is loaded and patched once for both.
   */
  sortValues (attribute: string): SortValues {
    const { numbers, numberDocs, text } = this.#attribute(attribute)
    return { numbers, numberDocs, text }
  }

  #condition (c: ConditionNode): DocSet {
    const a = this.#attribute(c.attribute)
    switch (c.type) {
      case 'compare':
        switch (c.operator) {
          case '=': return this.#equal(a, [c.value])
          case '!=': return this.#andNot(this.universe(), this.#equal(a, [c.value]))
          case '>': return this.#range(a, parseNumber(c.value), Infinity, true, false)
          case '>=': return this.#range(a, parseNumber(c.value), Infinity, false, false)
          case '<': return this.#range(a, -Infinity, parseNumber(c.value), false, true)
          case '<=': return this.#range(a, -Infinity, parseNumber(c.value), false, false)
        }
        break
      case 'range': return this.#range(a, parseNumber(c.from), parseNumber(c.to), false, false)
      case 'in': return this.#equal(a, c.values)
      case 'exists': return this.#mark([a.present])
      case 'isNull': return this.#mark([a.kinds.get(FieldKind.Null)])
      case 'isEmpty': return this.#mark([a.kinds.get(FieldKind.Empty)])
      case 'contains': {
        const needle = normalizeString(c.value)
        return this.#mark([...a.text].filter(([s]) => s.includes(needle)).map(([, docs]) => docs))
      }
      case 'startsWith': {
        const prefix = normalizeString(c.value)
        return this.#mark([...a.text].filter(([s]) => s.startsWith(prefix)).map(([, docs]) => docs))
      }
    }
    throw new TypeError(`FilterIndex: unknown condition ${JSON.stringify((c as { type: unknown }).type)}`)
  }

  #equal (a: AttributeIndex, values: string[]): DocSet {
    const lists: Array<Int32Array | undefined> = []
    for (const value of new Set(values)) {
      const folded = normalizeString(value)
      lists.push(a.text.get(folded), a.numberText.get(folded))
      const n = parseNumber(value)
      if (n !== undefined) {
        const from = lowerBound(a.numbers, n, false)
        lists.push(a.numberDocs.subarray(from, lowerBound(a.numbers, n, true)))
      }
    }
    return this.#mark(lists)
  }

  #range (a: AttributeIndex, low: number | undefined, high: number | undefined, lowStrict: boolean, highStrict: boolean): DocSet {
    if (low === undefined || high === undefined) return this.#empty()
    const from = lowerBound(a.numbers, low, lowStrict)
    const to = lowerBound(a.numbers, high, !highStrict)
    return this.#mark(from < to ? [a.numberDocs.subarray(from, to)] : [])
  }

  #attribute (attribute: string): AttributeIndex {
    let index = this.#attributes.get(attribute)
    if (index !== undefined) return index
    // Values come grouped with their counts and the documents as bare numbers in the same order
    // (the covering index's): making a JS string of every (value, document) row cost 3–4× more.
    const { groups, docs, numeric } = this.#db.transaction(() => ({
      groups: this.#db.prepare('SELECT str, kind, count(*) FROM fields WHERE attr = ? GROUP BY str, kind ORDER BY str, kind')
        .raw().all(attribute) as Array<[string | null, number, number]>,
      docs: Int32Array.from(this.#db.prepare('SELECT doc FROM fields WHERE attr = ? ORDER BY str, kind, doc').pluck().all(attribute) as number[]),
      numeric: this.#db.prepare('SELECT num, doc FROM fields WHERE attr = ? AND num IS NOT NULL ORDER BY num, doc')
        .raw().all(attribute) as Array<[number, number]>
    }))()
    const text = new Map<string, Int32Array[]>()
    const numberText = new Map<string, Int32Array[]>()
    const kinds = new Map<number, Int32Array[]>()
    let start = 0
    for (const [str, kind, count] of groups) {
      const list = docs.subarray(start, start + count)
      start += count
      append(kinds, kind, list)
      if (str === null) continue
      if (kind === FieldKind.String || kind === FieldKind.Boolean) append(text, str, list)
      else if (kind === FieldKind.Number) append(numberText, str, list)
    }
    index = {
      text: joined(text),
      numberText: joined(numberText),
      numbers: Float64Array.from(numeric, (r) => r[0]),
      numberDocs: Int32Array.from(numeric, (r) => r[1]),
      kinds: joined(kinds),
      present: Int32Array.from(new Set(docs))
    }
    this.#attributes.set(attribute, index)
    return index
  }

  #empty (): DocSet {
    return new Uint8Array(this.universe().length)
  }

  #mark (lists: Array<Int32Array | undefined>): DocSet {
    const set = this.#empty()
    const universe = this.universe()
    for (const list of lists) if (list !== undefined) for (let i = 0; i < list.length; i++) set[list[i]!] = universe[list[i]!]!
    return set
  }

  #and (a: DocSet, b: DocSet): DocSet {
    for (let i = 0; i < a.length; i++) a[i]! &= b[i]!
    return a
  }

  #or (a: DocSet, b: DocSet): DocSet {
    for (let i = 0; i < a.length; i++) a[i]! |= b[i]!
    return a
  }

  #andNot (a: DocSet, b: DocSet): DocSet {
    const out = new Uint8Array(a.length)
    for (let i = 0; i < a.length; i++) out[i] = a[i]! & (b[i]! ^ 1)
    return out
  }
}
