import type { FacetHit } from '@chatsearch/contracts'
import type {
  Document, EngineIndex, FacetSearchQuery, IndexSettings, PopularSearches, PreparedDocument, RecordedSearch, SearchQuery, SearchResult
} from '../../engine/port.js'
import { appliedSettings, completeSettings, inferSettings, sameIndexing, suggestionRules } from '../../engine/settings.js'
import type { FilterNode } from '@chatsearch/filter'
import { foldQuery } from '../../text.js'
import { CatalogFile } from './catalog-file.js'
import { CatalogQueries } from './query.js'
import type { ReaderPool } from './readers.js'
import { popularSearches, recordSearch, searcherKey } from './searches.js'
import { applySettings, suggestionSettings, writeSuggestionSettings } from './settings.js'
import { suggest } from './suggestions.js'
import { removeDocument, writeDocuments } from './writes.js'

/** The writer thread's side of one index file (see writer.ts). */
export interface IndexWriter {
  upsert: (documents: PreparedDocument[]) => Promise<void>
  record: (query: string, search: RecordedSearch) => Promise<void>
  ingest: NonNullable<EngineIndex['ingestBatch']>
}

/**
 * One project's index in its own SQLite file (catalog-file.ts), written by writes.ts, re-indexed for
 * new settings by settings.ts and searched by query.ts; calls are synchronous under the promise
 * surface, except a change of settings, which may re-index on another thread: writes are therefore
 * run one after the other (see #exclusively).
 */
export class EmbeddedIndex implements EngineIndex {
  readonly #catalog: CatalogFile
  readonly #queries: CatalogQueries
  readonly #file: string
  readonly #readers: ReaderPool | undefined
  readonly #rebuildElsewhere: ((settings: IndexSettings) => Promise<void>) | undefined
  readonly #writeElsewhere: ((documents: PreparedDocument[]) => Promise<void>) | undefined
  readonly #recordElsewhere: IndexWriter['record'] | undefined
  /** With a writer thread: batches sent as bytes are parsed, validated and written there (see ingestBatch in the port). */
  readonly ingestBatch?: EngineIndex['ingestBatch']
  /** The writes of this index, each started after the one before has finished. */
  #writes: Promise<unknown> = Promise.resolve()

  /**
   * `embedder` names the model whose vectors this index holds, `dimensions` their size; `readers`,
   * when given, answers searches and suggestions off this thread; `rebuildElsewhere`, when given,
   * applies new settings to this file on another thread (see rebuild()); `writer`, when given,
   * writes batches of documents to this file on another thread (see upsert()), and ingests batches
   * sent as bytes there too.
   */
  constructor (file: string, embedder: { id: string, dimensions: number }, readers?: ReaderPool, rebuildElsewhere?: (settings: IndexSettings) => Promise<void>, writer?: IndexWriter) {
    this.#file = file
    this.#readers = readers
    this.#rebuildElsewhere = rebuildElsewhere
    this.#writeElsewhere = writer?.upsert
    this.#recordElsewhere = writer?.record
    if (writer !== undefined) {
      // The whole batch is one write of this index: embedding included, since the writer thread
      // compares, embeds and writes in one go.
      this.ingestBatch = async (raw, embed, maxItems) => await this.#exclusively(async () => {
        const result = await writer.ingest(raw, embed, maxItems)
        this.#catalog.refresh()
        return result
      })
    }
    this.#catalog = new CatalogFile(file, embedder)
    this.#queries = new CatalogQueries(this.#catalog)
  }

  close () {
    this.#catalog.close()
  }

  /** See CatalogFile.checkpoint. */
  checkpoint () {
    this.#catalog.checkpoint()
  }

  async settings (): Promise<IndexSettings> {
    this.#catalog.refresh()
    return completeSettings({ ...this.#catalog.settings ?? { searchableAttributes: [], filterableAttributes: [], facetableAttributes: [] }, ...suggestionSettings(this.#catalog) })
  }

  /**
   * Re-indexes the catalog with `settings`, on another thread when this index was given one: this
   * thread stays free, searches are answered from the old index (SQLite's WAL keeps it for readers)
   * until the new one commits, and the writes that come meanwhile wait for it. Settings that differ
   * only in autocomplete's rules are written as they are, without a re-index.
   */
  async updateSettings (settings: IndexSettings): Promise<IndexSettings> {
    const applied = appliedSettings(settings)
    const catalog = this.#catalog
    return await this.#exclusively(async () => {
      catalog.refresh()
      if (catalog.settings !== undefined && sameIndexing(catalog.settings, applied)) {
        catalog.db.transaction(() => { writeSuggestionSettings(catalog, applied) }).immediate()
      } else if (this.#rebuildElsewhere === undefined) this.rebuild(applied)
      else await this.#rebuildElsewhere(applied)
      catalog.refresh()
      return applied
    })
  }

  /** Re-indexes every document with `settings`, in one transaction, on this thread. */
  rebuild (settings: IndexSettings) {
    this.#catalog.refresh()
    this.#catalog.db.transaction(() => { applySettings(this.#catalog, settings) }).immediate()
  }

  async count (): Promise<number> {
    this.#catalog.refresh()
    return this.#queries.count()
  }

  async get (id: string): Promise<Document | undefined> {
    this.#catalog.refresh()
    return this.#queries.get(id)
  }

  async getMany (ids: string[], filter: FilterNode | null): Promise<Document[]> {
    if (ids.length === 0) return []
    // With a filter, on a reader thread when there are some: the filter index built there serves
    // the searches too, and one built here would be a second copy of it.
    if (filter !== null && this.#readers !== undefined) return await this.#readers.getMany(this.#file, ids, filter)
    // In one read transaction: the filter index and the rows are of the same commit.
    return this.#catalog.snapshot(() => this.#queries.getMany(ids, filter))
  }

  async storedHashes (ids: string[]): Promise<Map<string, string>> {
    this.#catalog.refresh()
    return this.#queries.storedHashes(ids)
  }

  /**
   * Adds or replaces documents in one transaction, on another thread when this index was given one
   * (this one then catches up with the commit like any reader). The first write of a catalog without
   * settings infers them from its documents.
   */
  async upsert (prepared: PreparedDocument[]): Promise<{ indexed: number }> {
    const catalog = this.#catalog
    return await this.#exclusively(async () => {
      if (this.#writeElsewhere !== undefined) {
        await this.#writeElsewhere(prepared)
        catalog.refresh()
        return { indexed: prepared.length }
      }
      catalog.refresh()
      catalog.db.transaction(() => {
        catalog.refresh()
        if (catalog.settings === undefined) applySettings(catalog, inferSettings(prepared.map((p) => p.document)))
        writeDocuments(catalog, prepared)
      }).immediate()
      catalog.sync()
      return { indexed: prepared.length }
    })
  }

  async remove (id: string): Promise<boolean> {
    const catalog = this.#catalog
    return await this.#exclusively(async () => {
      catalog.refresh()
      const removed = catalog.db.transaction(() => removeDocument(catalog, id))()
      if (removed) catalog.sync()
      return removed
    })
  }

  async search (query: SearchQuery): Promise<SearchResult> {
    if (this.#readers !== undefined) return await this.#readers.search(this.#file, query)
    return this.#catalog.snapshot(() => this.#queries.search(query))
  }

  async facetSearch (query: FacetSearchQuery): Promise<FacetHit[]> {
    if (this.#readers !== undefined) return await this.#readers.facetSearch(this.#file, query)
    return this.#catalog.snapshot(() => this.#queries.facetSearch(query))
  }

  async suggest (term: string, limit: number, offset: number): Promise<string[]> {
    if (this.#readers !== undefined) return await this.#readers.suggest(this.#file, term, limit, offset)
    const catalog = this.#catalog
    return catalog.snapshot(() => suggest(catalog.sql, catalog.vocabulary(), term, limit, offset, suggestionRules(suggestionSettings(catalog)), catalog.queryRules()))
  }

  async correct (query: string): Promise<string> {
    this.#catalog.refresh()
    return this.#queries.correct(query)
  }

  async recordQuery (query: string, search: RecordedSearch): Promise<void> {
    const folded = foldQuery(query)
    if (folded === '') return
    const catalog = this.#catalog
    await this.#exclusively(async () => {
      if (this.#recordElsewhere !== undefined) return await this.#recordElsewhere(folded, search)
      catalog.db.transaction(() => {
        const { minSearchers } = suggestionRules(suggestionSettings(catalog))
        recordSearch(catalog.sql, searcherKey(catalog.db), folded, search, minSearchers)
      }).immediate()
    })
  }

  async popularSearches (limit: number, offset: number): Promise<PopularSearches> {
    return this.#catalog.snapshot(() => popularSearches(this.#catalog.sql, limit, offset))
  }

  /**
   * Runs a write after the ones before it have finished: while another thread holds the file's write
   * lock for a rebuild, a write here would wait for it inside SQLite's busy handler, which blocks
   * this thread, every search included.
   */
  async #exclusively<T> (work: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(work)
    this.#writes = run.catch(() => {})
    return await run
  }
}
