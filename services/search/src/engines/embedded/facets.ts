import type { Db } from './database.js'

/** As Meilisearch's default maxValuesPerFacet: the most frequent values of each facet. */
export const MAX_VALUES_PER_FACET = 100

interface Posting { label: string, docs: Int32Array }

/**
 * Facet counting from posting lists held in memory: for each facetable attribute, each value's sorted
 * document rowids (loaded from the fields table on first use, dropped when the index changes).
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
    const rows = this.#db.prepare(`
      SELECT f.str, coalesce(l.label, f.str) AS label, f.doc FROM fields f
      LEFT JOIN facet_labels l ON l.attr = f.attr AND l.str = f.str
      WHERE f.attr = ? AND f.str IS NOT NULL ORDER BY f.str, f.doc`).raw().all(attribute) as Array<[string, string, number]>
    postings = []
    let start = 0
    for (let i = 1; i <= rows.length; i++) {
      if (i === rows.length || rows[i]![0] !== rows[start]![0]) {
        postings.push({ label: rows[start]![1], docs: Int32Array.from(rows.slice(start, i), (r) => r[2]) })
        start = i
      }
    }
    this.#byAttribute.set(attribute, postings)
    return postings
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
