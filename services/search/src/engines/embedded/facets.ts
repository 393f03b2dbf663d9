import type { Db } from './database.js'
import { patchList, rowidMarks } from './changes.js'

/** As Meilisearch's default maxValuesPerFacet: the most frequent values of each facet. */
export const MAX_VALUES_PER_FACET = 100

interface Posting { value: string, label: string, docs: Int32Array }

/** SQLite's order of TEXT values (BINARY: their UTF-8 bytes), the order postings are kept in. */
const byBytes = (a: Posting, b: Posting) => Buffer.compare(Buffer.from(a.value), Buffer.from(b.value))

/**
 * Facet counting from posting lists held in memory: for each facetable attribute, each value's sorted
 * document rowids (loaded from the fields table on first use, patched after each write: see apply()).
 * Counting a facet over a set of matches is then one pass over its postings against a bitmap of the
 * matches, instead of a GROUP BY over a join — the cost grows with the facet's postings, not with a
 * sort of all matched rows.
 */
export class FacetPostings {
  readonly #db: Db
  readonly #byAttribute = new Map<string, Posting[]>()

  constructor (db: Db) {
    this.#db = db
  }

  #postings (attribute: string): Posting[] {
    let postings = this.#byAttribute.get(attribute)
    if (postings !== undefined) return postings
    // Labels (the value as first written) are few: looked up in memory rather than joined per row.
    // The values come grouped with their counts, the documents as bare numbers in the same order:
    // turning every (value, document) row into a JS string cost 4× more at 280k rows.
    const { labels, values, docs } = this.#db.transaction(() => ({
      labels: new Map(this.#db.prepare('SELECT str, label FROM facet_labels WHERE attr = ?').raw().all(attribute) as Array<[string, string]>),
      values: this.#db.prepare('SELECT str, count(*) FROM fields WHERE attr = ? AND str IS NOT NULL GROUP BY str ORDER BY str')
        .raw().all(attribute) as Array<[string, number]>,
      docs: Int32Array.from(this.#db.prepare('SELECT doc FROM fields WHERE attr = ? AND str IS NOT NULL ORDER BY str, kind, doc').pluck().all(attribute) as number[])
    }))()
    postings = []
    let start = 0
    for (const [value, count] of values) {
      postings.push({ value, label: labels.get(value) ?? value, docs: docs.subarray(start, start + count) })
      start += count
    }
    this.#byAttribute.set(attribute, postings)
    return postings
  }

  /**
   * Brings the postings loaded so far up to date with the stored rows of `rowids` (ascending): those
   * documents leave every posting and join the ones of their current values. Applying it twice, or
   * to postings that already hold the change, changes nothing.
   */
  apply (rowids: number[]) {
    if (rowids.length === 0 || this.#byAttribute.size === 0) return
    const marks = rowidMarks(rowids)
    const json = JSON.stringify(rowids)
    // Looked up by document (fields_doc), all attributes at once: by attribute, SQLite scans its whole posting list.
    const byAttribute = new Map<string, Map<string, number[]>>()
    for (const [attribute, value, doc] of this.#db.prepare('SELECT attr, str, doc FROM fields WHERE doc IN (SELECT value FROM json_each(?)) AND str IS NOT NULL')
      .raw().all(json) as Array<[string, string, number]>) {
      if (!this.#byAttribute.has(attribute)) continue
      let joining = byAttribute.get(attribute)
      if (joining === undefined) byAttribute.set(attribute, joining = new Map())
      const docs = joining.get(value)
      if (docs === undefined) joining.set(value, [doc])
      else docs.push(doc)
    }
    for (const [attribute, postings] of this.#byAttribute) {
      const joining = byAttribute.get(attribute) ?? new Map<string, number[]>()
      const next: Posting[] = []
      for (const posting of postings) {
        const docs = patchList(posting.docs, marks, joining.get(posting.value))
        joining.delete(posting.value)
        if (docs.length > 0) next.push(docs === posting.docs ? posting : { ...posting, docs })
      }
      if (joining.size > 0) {
        const label = this.#db.prepare('SELECT label FROM facet_labels WHERE attr = ? AND str = ?').pluck()
        for (const [value, docs] of joining) next.push({ value, label: (label.get(attribute, value) as string | undefined) ?? value, docs: Int32Array.from(docs) })
        next.sort(byBytes)
      }
      this.#byAttribute.set(attribute, next)
    }
  }

  /** Counts per value of each attribute over `matches` (one byte per rowid), or every document when null. */
  count (attributes: string[], matches: Uint8Array | null): Record<string, Record<string, number>> {
    const bitmap = matches ?? undefined
    const distribution: Record<string, Record<string, number>> = {}
    for (const attribute of attributes) {
      const counts: Array<[string, number]> = []
      for (const { label, docs } of this.#postings(attribute)) {
        let n = 0
        if (bitmap === undefined) n = docs.length
        else for (let i = 0; i < docs.length; i++) n += bitmap[docs[i]!] ?? 0
        if (n > 0) counts.push([label, n])
      }
      counts.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      distribution[attribute] = Object.fromEntries(counts.slice(0, MAX_VALUES_PER_FACET))
    }
    return distribution
  }
}
