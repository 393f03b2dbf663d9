import { limits } from '@chatsearch/contracts'
import { byCount } from '../../engine/facet-order.js'
import { allowedTypos, foldWords } from '../../text.js'
import type { Db, Statement } from './database.js'
import { patchList, rowidMarks } from './changes.js'
import { Vocabulary } from './typo.js'

interface Posting { value: string, label: string, docs: Int32Array }
/**
 * What a facet search looks values up in, per attribute: its string and boolean values folded to
 * their words (foldWords) in a trie, and the postings behind each folded form ("Café" and "cafe"
 * are two values, one form).
 */
interface ValueWords { forms: Vocabulary, postings: Map<string, number[]> }
/** The values of each document (as indexes into its attribute's postings), rows of a compressed sparse matrix. */
interface ByDocument { start: Int32Array, values: Int32Array }
/**
 * Below this many matches, an attribute whose postings are not in memory yet is counted in SQL over
 * the matches' own rows, until it has been asked for HOLD_AFTER times: a first search (cold start)
 * then reads a few hundred rows instead of the attribute's whole postings.
 */
const FEW_MATCHES = 2000
const HOLD_AFTER = 3

/** SQLite's order of TEXT values (BINARY: their UTF-8 bytes), the order postings are kept in. */
const byBytes = (a: Posting, b: Posting) => Buffer.compare(Buffer.from(a.value), Buffer.from(b.value))

/**
 * Facet counting from posting lists held in memory: for each facetable attribute, each value's sorted
 * document rowids (loaded from the fields table on first use, patched after each write: see apply()).
 * Counting a facet over a set of matches is then one pass over its postings against a bitmap of the
 * matches, instead of a GROUP BY over a join — the cost grows with the facet's postings, not with a
 * sort of all matched rows. When the matches are few, the values of each match are counted instead,
 * from the same postings turned around (document → values), or, before the postings are worth
 * loading (see FEW_MATCHES), straight from their rows in SQL.
 */
export class FacetPostings {
  readonly #db: Db
  readonly #byAttribute = new Map<string, Posting[]>()
  readonly #byDocument = new Map<string, ByDocument>()
  readonly #valueWords = new Map<string, ValueWords>()
  /** How many times each attribute not held in memory was counted in SQL. */
  readonly #askedInSql = new Map<string, number>()
  #inSql: Statement | undefined

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
    // The document → values tables and the facet search's tries are rebuilt from the patched postings when next needed.
    this.#byDocument.clear()
    this.#valueWords.clear()
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

  #valuesByDocument (attribute: string, postings: Posting[]): ByDocument {
    let byDocument = this.#byDocument.get(attribute)
    if (byDocument !== undefined) return byDocument
    let maxDoc = 0
    let total = 0
    for (const { docs } of postings) {
      total += docs.length
      for (let i = 0; i < docs.length; i++) if (docs[i]! > maxDoc) maxDoc = docs[i]!
    }
    const start = new Int32Array(maxDoc + 2)
    for (const { docs } of postings) for (let i = 0; i < docs.length; i++) start[docs[i]! + 1]!++
    for (let d = 1; d < start.length; d++) start[d]! += start[d - 1]!
    const next = start.slice(0, -1)
    const values = new Int32Array(total)
    postings.forEach(({ docs }, v) => { for (let i = 0; i < docs.length; i++) values[next[docs[i]!]!++] = v })
    byDocument = { start, values }
    this.#byDocument.set(attribute, byDocument)
    return byDocument
  }

  /** Per posting, how many of `rowids` it holds: through the postings (one pass over them all) or the matches' own values, whichever reads less. */
  #tally (attribute: string, matches: Uint8Array | null, rowids: number[] | undefined): Int32Array {
    const postings = this.#postings(attribute)
    const counts = new Int32Array(postings.length)
    let bitmap = matches
    if (rowids !== undefined) {
      const { start, values } = this.#valuesByDocument(attribute, postings)
      const documents = start.length - 1
      // A few matches: read their own values. Many: one pass over the postings against a bitmap.
      if (rowids.length * 4 < documents) {
        for (const r of rowids) {
          if (r >= documents) continue
          for (let j = start[r]!; j < start[r + 1]!; j++) counts[values[j]!]!++
        }
        return counts
      }
      bitmap = new Uint8Array(documents)
      for (const r of rowids) if (r < documents) bitmap[r] = 1
    }
    postings.forEach(({ docs }, v) => {
      let n = 0
      if (bitmap === null) n = docs.length
      else for (let i = 0; i < docs.length; i++) n += bitmap[docs[i]!] ?? 0
      counts[v] = n
    })
    return counts
  }

  /** Counts per value of `attribute` among `rowids`, from their rows in the fields table. */
  #countInSql (attribute: string, rowids: number[]): Array<[string, number]> {
    this.#askedInSql.set(attribute, (this.#askedInSql.get(attribute) ?? 0) + 1)
    // `+f.attr`: reach the rows through the matches (fields_doc), not through the attribute's whole range.
    this.#inSql ??= this.#db.prepare(`SELECT coalesce(l.label, f.str), count(*) FROM fields f
      LEFT JOIN facet_labels l ON l.attr = f.attr AND l.str = f.str
      WHERE f.doc IN (SELECT value FROM json_each(?)) AND +f.attr = ? AND f.str IS NOT NULL
      GROUP BY f.str`).raw()
    return this.#inSql.all(JSON.stringify(rowids), attribute) as Array<[string, number]>
  }

  #inMemory (attribute: string, matches: Uint8Array | null, rowids: number[] | undefined): Array<[string, number]> {
    const tally = this.#tally(attribute, matches, rowids)
    const counts: Array<[string, number]> = []
    this.#postings(attribute).forEach(({ label }, v) => { if (tally[v]! > 0) counts.push([label, tally[v]!]) })
    return counts
  }

  /**
   * Counts per value of each attribute over the matches: `rowids` (each once) when given, else
   * `matches` (one byte per rowid), or every document when both are null/undefined.
   */
  count (attributes: string[], matches: Uint8Array | null, rowids?: number[]): Record<string, Record<string, number>> {
    const distribution: Record<string, Record<string, number>> = {}
    for (const attribute of attributes) {
      const inSql = rowids !== undefined && rowids.length < FEW_MATCHES && !this.#byAttribute.has(attribute) &&
        (this.#askedInSql.get(attribute) ?? 0) < HOLD_AFTER
      const counts = inSql ? this.#countInSql(attribute, rowids) : this.#inMemory(attribute, matches, rowids)
      counts.sort(byCount)
      distribution[attribute] = Object.fromEntries(counts.slice(0, limits.facetValuesMax))
    }
    return distribution
  }

  /**
   * A facet search (see FacetSearchQuery in the port): the values of `attribute` that begin with
   * `query` as Meilisearch's facet search matches them, the whole value folded to its words
   * ("navy bl" finds "Navy-Blue", "blue" does not) with as many typos as the query's length allows
   * (Vocabulary.fuzzyPrefix, autocomplete's rule), each with its count over the matches given as
   * count() takes them: the counts a facetDistribution gives. Numbers are left out, as Meilisearch's
   * facet search leaves them out.
   */
  search (attribute: string, query: string, matches: Uint8Array | null, rowids?: number[]): Array<[string, number]> {
    const postings = this.#postings(attribute)
    const tally = this.#tally(attribute, matches, rowids)
    const hits: Array<[string, number]> = []
    for (const v of this.#valuesBeginning(attribute, postings, query)) if (tally[v]! > 0) hits.push([postings[v]!.label, tally[v]!])
    return hits.sort(byCount).slice(0, limits.facetValuesMax)
  }

  /** The postings of `attribute` whose values begin with `query` (see search()); all its string and boolean ones for a query without a word. */
  #valuesBeginning (attribute: string, postings: Posting[], query: string): number[] {
    const { forms, postings: byForm } = this.#wordsOf(attribute, postings)
    const prefix = foldWords(query)
    if (prefix === '') return [...byForm.values()].flat()
    return forms.fuzzyPrefix(prefix, allowedTypos(prefix), Infinity).flatMap(({ term }) => byForm.get(term) ?? [])
  }

  #wordsOf (attribute: string, postings: Posting[]): ValueWords {
    let words = this.#valueWords.get(attribute)
    if (words !== undefined) return words
    // A string value has a label; a boolean is the string 'true' or 'false' (as in Meilisearch's facet
    // search); anything else is a number. A label outlives the last string it was written for until
    // the next re-index: a value once a string, now only a number, still counts as a string.
    const strings = new Set(this.#db.prepare('SELECT str FROM facet_labels WHERE attr = ?').pluck().all(attribute) as string[])
    const byForm = new Map<string, number[]>()
    postings.forEach(({ value }, v) => {
      if (!strings.has(value) && value !== 'true' && value !== 'false') return
      const form = foldWords(value)
      const list = byForm.get(form)
      if (list === undefined) byForm.set(form, [v])
      else list.push(v)
    })
    words = { forms: new Vocabulary(byForm.keys()), postings: byForm }
    this.#valueWords.set(attribute, words)
    return words
  }
}
