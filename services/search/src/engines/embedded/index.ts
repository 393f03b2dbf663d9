import { documentHash } from '../../engine/hash.js'
import type { Document, EngineIndex, HybridQuery, IndexSettings, PreparedDocument, SearchQuery, SearchResult } from '../../engine/port.js'
import { fieldAttributes, inferSettings } from '../../engine/settings.js'
import { filterToSql, flattenDocument } from '../../filter/index.js'
import { createFts, openDatabase, prepareVectors, readMeta, writeMeta, type Db } from './database.js'
import { searchableText } from '../../engine/document-values.js'
import { columnWeights, planKeyword } from './keyword.js'
import { countPhrases, suggest, suggestionPhrases } from './suggestions.js'
import { allowedTypos, foldText, tokenize } from './tokenize.js'
import { Vocabulary } from './typo.js'
import type { ReaderPool } from './readers.js'
import { FacetPostings } from './facets.js'

interface Where { sql: string, params: unknown[] }
const ALL: Where = { sql: '1', params: [] }
interface Window { limit: number, offset: number }
/** Reciprocal-rank constant: damps the difference between neighbouring ranks. */
const RRF_K = 60
/** A page of results, the total, and the query of every match (for facet counts). */
interface Page { rowids: number[], total: number, matches: Where }
const NOTHING: Page = { rowids: [], total: 0, matches: { sql: 'SELECT NULL AS doc WHERE 0', params: [] } }

/** One project's index in its own SQLite file; calls are synchronous under the promise surface. */
export class EmbeddedIndex implements EngineIndex {
  readonly #db: Db
  #settings: IndexSettings | undefined
  #vocabulary: Vocabulary | undefined
  #facetPostings: FacetPostings | undefined
  #dataVersion = -1
  readonly #file: string
  readonly #readers: ReaderPool | undefined

  /**
   * `embedder` names the model whose vectors this index holds, `dimensions` their size; `readers`,
   * when given, answers searches and suggestions off this thread.
   */
  constructor (file: string, embedder: { id: string, dimensions: number }, readers?: ReaderPool) {
    this.#file = file
    this.#readers = readers
    this.#db = openDatabase(file)
    prepareVectors(this.#db, embedder.id, embedder.dimensions)
    this.#db.transaction(() => {
      if (readMeta(this.#db, 'settings') === undefined && readMeta(this.#db, 'fts') === undefined) {
        createFts(this.#db, 1)
        writeMeta(this.#db, 'fts', 'created')
      }
    }).immediate()
    this.#refresh()
  }

  /**
   * Another process (the admin CLI importing a catalog) may have written to this file: SQLite's
   * data_version changes when it has, and the cached settings and vocabulary are then re-read.
   */
  #refresh () {
    const version = this.#db.pragma('data_version', { simple: true }) as number
    if (version === this.#dataVersion) return
    this.#dataVersion = version
    const saved = readMeta(this.#db, 'settings')
    this.#settings = saved === undefined ? undefined : JSON.parse(saved) as IndexSettings
    this.#forgetDerived()
  }

  close () {
    this.#db.close()
  }

  async settings (): Promise<IndexSettings> {
    this.#refresh()
    return this.#settings ?? { searchableAttributes: [], filterableAttributes: [], facetableAttributes: [] }
  }

  async updateSettings (settings: IndexSettings): Promise<IndexSettings> {
    this.#refresh()
    this.#db.transaction(() => { this.#applySettings(settings) })()
    return settings
  }

  async count (): Promise<number> {
    this.#refresh()
    return (this.#db.prepare('SELECT count(*) AS n FROM documents').get() as { n: number }).n
  }

  async get (id: string): Promise<Document | undefined> {
    this.#refresh()
    const row = this.#db.prepare('SELECT body FROM documents WHERE id = ?').get(id) as { body: string } | undefined
    return row === undefined ? undefined : JSON.parse(row.body) as Document
  }

  async storedHashes (ids: string[]): Promise<Map<string, string>> {
    this.#refresh()
    const out = new Map<string, string>()
    const stmt = this.#db.prepare('SELECT hash FROM documents WHERE id = ?')
    for (const id of ids) {
      const row = stmt.get(id) as { hash: string } | undefined
      if (row !== undefined) out.set(id, row.hash)
    }
    return out
  }

  async upsert (prepared: PreparedDocument[]): Promise<{ indexed: number }> {
    this.#refresh()
    this.#db.transaction(() => {
      this.#refresh()
      if (this.#settings === undefined) this.#applySettings(inferSettings(prepared.map((p) => p.document)))
      for (const item of prepared) this.#write(item)
    }).immediate()
    this.#forgetDerived()
    return { indexed: prepared.length }
  }

  async remove (id: string): Promise<boolean> {
    this.#refresh()
    const removed = this.#db.transaction(() => {
      const row = this.#db.prepare('SELECT rowid, body FROM documents WHERE id = ?').get(id) as { rowid: number, body: string } | undefined
      if (row === undefined) return false
      this.#unindex(row.rowid, JSON.parse(row.body) as Document)
      this.#db.prepare('DELETE FROM documents WHERE rowid = ?').run(row.rowid)
      return true
    })()
    if (removed) this.#forgetDerived()
    return removed
  }

  async search (query: SearchQuery): Promise<SearchResult> {
    if (this.#readers !== undefined) return await this.#readers.search(this.#file, query)
    this.#refresh()
    const filter = query.filter === null ? ALL : filterToSql(query.filter, 'rowid')
    const plan = planKeyword(query.q, this.#vocab())
    const window = { limit: query.limit, offset: query.offset }
    let page: Page
    if (plan === undefined) page = this.#browse(filter, window)
    else if (query.hybrid === undefined || query.hybrid.semanticRatio === 0) page = this.#keyword(plan.tiers, filter, window)
    else page = this.#hybrid(plan.tiers, filter, window, query.hybrid)
    const result: SearchResult = { hits: this.#load(page.rowids), estimatedTotalHits: page.total }
    if (query.facets.length > 0) {
      // Browsing with no filter matches everything: facet counts are the posting lengths.
      const everything = plan === undefined && filter === ALL
      result.facetDistribution = this.#facets(everything ? null : page.matches, query.facets)
    }
    return result
  }

  async suggest (term: string, limit: number, offset: number): Promise<string[]> {
    if (this.#readers !== undefined) return await this.#readers.suggest(this.#file, term, limit, offset)
    this.#refresh()
    return suggest(this.#db, this.#vocab(), term, limit, offset)
  }

  async correct (query: string): Promise<string> {
    this.#refresh()
    const vocabulary = this.#vocab()
    return tokenize(query).map((word) => {
      if (vocabulary.has(word)) return word
      const [best] = vocabulary.fuzzy(word, allowedTypos(word)).sort((a, b) => a.distance - b.distance)
      return best?.term ?? word
    }).join(' ')
  }

  async recordQuery (query: string, hits: number): Promise<void> {
    const folded = foldText(query).replace(/\s+/g, ' ').trim()
    if (folded === '') return
    this.#db.prepare(`INSERT INTO queries (query, count, hits) VALUES (?, 1, ?)
      ON CONFLICT (query) DO UPDATE SET count = count + 1, hits = excluded.hits`).run(folded, hits)
  }

  /** Drops what is derived from the stored data (vocabulary, facet postings) after it changed. */
  #forgetDerived () {
    this.#vocabulary = undefined
    this.#facetPostings = undefined
  }

  #vocab (): Vocabulary {
    this.#vocabulary ??= new Vocabulary((this.#db.prepare('SELECT term FROM fts_vocab').pluck().all() as string[]))
    return this.#vocabulary
  }

  #browse (filter: Where, { limit, offset }: Window): Page {
    const rowids = this.#db.prepare(`SELECT rowid FROM documents WHERE ${filter.sql} ORDER BY rowid LIMIT ? OFFSET ?`)
      .pluck().all(...filter.params, limit, offset) as number[]
    const total = this.#db.prepare(`SELECT count(*) FROM documents WHERE ${filter.sql}`).pluck().get(...filter.params) as number
    return { rowids, total, matches: { sql: `SELECT rowid AS doc FROM documents WHERE ${filter.sql}`, params: filter.params } }
  }

  #keyword (tiers: string[], filter: Where, { limit, offset }: Window): Page {
    const weights = columnWeights(this.#settings?.searchableAttributes.length ?? 1).join(', ')
    const tierOrder = tiers.length === 1
      ? ''
      : `CASE ${tiers.slice(0, -1).map((_, i) => `WHEN rowid IN (SELECT rowid FROM fts WHERE fts MATCH ?) THEN ${i}`).join(' ')} ELSE ${tiers.length - 1} END, `
    const rowids = this.#db.prepare(`
      SELECT rowid FROM fts WHERE fts MATCH ? AND ${filter.sql}
      ORDER BY ${tierOrder}bm25(fts, ${weights}), rowid LIMIT ? OFFSET ?`)
      .pluck().all(tiers.at(-1), ...filter.params, ...tiers.slice(0, -1), limit, offset) as number[]
    const matches = { sql: `SELECT rowid AS doc FROM fts WHERE fts MATCH ? AND ${filter.sql}`, params: [tiers.at(-1), ...filter.params] }
    const total = this.#db.prepare(`SELECT count(*) FROM (${matches.sql})`).pluck().get(...matches.params) as number
    return { rowids, total, matches }
  }

  /** The nearest documents to the query vector among those the filter allows, closest first. */
  #nearest (vector: Float32Array, filter: Where, k: number): number[] {
    if (filter === ALL) {
      return (this.#db.prepare('SELECT rowid FROM vectors WHERE embedding MATCH ? AND k = ? ORDER BY distance')
        .pluck().all(vector, k) as Array<number | bigint>).map(Number)
    }
    // vec0 applies other constraints after its top-k; with a filter, rank the allowed rows exactly.
    return (this.#db.prepare(`SELECT rowid FROM vectors WHERE rowid IN (SELECT rowid FROM documents WHERE ${filter.sql})
      ORDER BY vec_distance_cosine(embedding, ?) LIMIT ?`).pluck().all(...filter.params, vector, k) as Array<number | bigint>).map(Number)
  }

  /**
   * Keyword and semantic rankings merged by reciprocal rank, each side weighted by the semantic
   * ratio: 1 gives the semantic order alone (0 never gets here: it is the keyword result as is).
   */
  #hybrid (tiers: string[], filter: Where, window: Window, hybrid: HybridQuery): Page {
    const depth = Math.min(window.offset + window.limit, 1000) + 20
    const ratio = hybrid.semanticRatio
    const keyword = ratio === 1 ? NOTHING : this.#keyword(tiers, filter, { limit: depth, offset: 0 })
    const semantic = this.#nearest(hybrid.vector, filter, depth)
    const scores = new Map<number, number>()
    const add = (rowids: number[], weight: number) => rowids.forEach((rowid, rank) => {
      scores.set(rowid, (scores.get(rowid) ?? 0) + weight / (RRF_K + rank))
    })
    add(keyword.rowids, 1 - ratio)
    add(semantic, ratio)
    const ranked = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([rowid]) => rowid)
    const inKeyword = new Set(keyword.rowids)
    const extra = semantic.filter((rowid) => !inKeyword.has(rowid)).length
    const matches = {
      sql: `${keyword.matches.sql} UNION SELECT value AS doc FROM json_each(?)`,
      params: [...keyword.matches.params, JSON.stringify(semantic)]
    }
    return { rowids: ranked.slice(window.offset, window.offset + window.limit), total: keyword.total + extra, matches }
  }

  #load (rowids: number[]): Document[] {
    if (rowids.length === 0) return []
    const rows = this.#db.prepare('SELECT rowid, body FROM documents WHERE rowid IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(rowids)) as Array<{ rowid: number, body: string }>
    const byRowid = new Map(rows.map((r) => [r.rowid, r.body]))
    return rowids.map((r) => JSON.parse(byRowid.get(r)!) as Document)
  }

  #facets (matches: Where | null, facets: string[]): Record<string, Record<string, number>> {
    this.#facetPostings ??= new FacetPostings(this.#db)
    const rowids = matches === null ? null : this.#db.prepare(matches.sql).pluck().all(...matches.params) as number[]
    return this.#facetPostings.count(facets, rowids)
  }

  #applySettings (settings: IndexSettings) {
    writeMeta(this.#db, 'settings', JSON.stringify(settings))
    this.#settings = settings
    createFts(this.#db, settings.searchableAttributes.length)
    this.#db.exec('DELETE FROM fields; DELETE FROM facet_labels; DELETE FROM suggestions')
    // In pages: a connection cannot write while it is still iterating a read.
    const page = this.#db.prepare('SELECT rowid, body FROM documents WHERE rowid > ? ORDER BY rowid LIMIT 1000')
    for (let last = 0, rows = page.all(last) as Array<{ rowid: number, body: string }>; rows.length > 0; rows = page.all(last) as typeof rows) {
      for (const row of rows) this.#index(row.rowid, JSON.parse(row.body) as Document)
      last = rows.at(-1)!.rowid
    }
    this.#forgetDerived()
  }

  #write ({ document, vector }: PreparedDocument) {
    const hash = documentHash(document)
    const existing = this.#db.prepare('SELECT rowid, body FROM documents WHERE id = ?').get(document.id) as { rowid: number, body: string } | undefined
    let rowid: number
    if (existing === undefined) {
      rowid = Number(this.#db.prepare('INSERT INTO documents (id, body, hash) VALUES (?, ?, ?)').run(document.id, JSON.stringify(document), hash).lastInsertRowid)
    } else {
      rowid = existing.rowid
      this.#unindex(rowid, JSON.parse(existing.body) as Document)
      this.#db.prepare('UPDATE documents SET body = ?, hash = ? WHERE rowid = ?').run(JSON.stringify(document), hash, rowid)
    }
    this.#index(rowid, document)
    if (vector !== undefined) {
      this.#db.prepare('INSERT INTO vectors (rowid, embedding) VALUES (?, ?)').run(BigInt(rowid), vector)
    }
  }

  #index (rowid: number, document: Document) {
    const settings = this.#settings!
    const columns = settings.searchableAttributes.map((attr) => searchableText(document, attr))
    const placeholders = columns.map(() => '?').join(', ')
    if (columns.length > 0) this.#db.prepare(`INSERT INTO fts (rowid, ${columns.map((_, i) => `c${i}`).join(', ')}) VALUES (?, ${placeholders})`).run(rowid, ...columns)
    countPhrases(this.#db, suggestionPhrases(document), 1)
    const insertField = this.#db.prepare('INSERT INTO fields (doc, attr, kind, str, num) VALUES (?, ?, ?, ?, ?)')
    const insertLabel = this.#db.prepare('INSERT OR IGNORE INTO facet_labels (attr, str, label) VALUES (?, ?, ?)')
    for (const f of flattenDocument(document, fieldAttributes(settings))) {
      insertField.run(rowid, f.attr, f.kind, f.str, f.num)
      if (f.str !== null && f.label !== undefined) insertLabel.run(f.attr, f.str, f.label)
    }
  }

  #unindex (rowid: number, document: Document) {
    countPhrases(this.#db, suggestionPhrases(document), -1)
    this.#db.prepare('DELETE FROM fts WHERE rowid = ?').run(rowid)
    this.#db.prepare('DELETE FROM fields WHERE doc = ?').run(rowid)
    this.#db.prepare('DELETE FROM vectors WHERE rowid = ?').run(BigInt(rowid))
  }
}
