import { matchingStrategyDefault, type FacetHit, type MatchingStrategy } from '@chatsearch/contracts'
import type { FilterNode } from '@chatsearch/filter'
import { documentHash } from '../../engine/hash.js'
import type {
  Document, EngineIndex, FacetSearchQuery, HybridQuery, IndexSettings, PopularSearches, PreparedDocument, RecordedSearch, SearchQuery, SearchResult, SortCriterion
} from '../../engine/port.js'
import { appliedSettings, completeSettings, fieldAttributes, inferSettings, sameIndexing, suggestionRules } from '../../engine/settings.js'
import { NO_RULES, queryRules, type QueryRules } from '../../engine/query-terms.js'
import { createFts, openDatabase, prepareVectors, readMeta, statementCache, writeMeta, type Db, type Statement } from './database.js'
import { searchableText } from '../../engine/document-values.js'
import { planLevels, type KeywordPlan } from './keyword.js'
import { bm25, bySortRanks, keywordOrder, keywordScore, keywordTier, levelWeight, mergeByRank, rankingScore, sortKeys, sortRanks, UNSORTED } from './ranking.js'
import { PhraseTally, suggest } from './suggestions.js'
import { popularSearches, recordSearch, searcherKey } from './searches.js'
import { suggestionPhrases } from '../../engine/phrases.js'
import { allowedTypos, foldQuery, tokenize } from '../../text.js'
import { Vocabulary } from './typo.js'
import type { ReaderPool } from './readers.js'
import { FacetPostings } from './facets.js'
import { FilterIndex, type DocSet } from './filter-index.js'
import { flattenDocument } from './flatten.js'
import { VectorCodes, deleteVector, storeVector } from './vector-codes.js'
import { changesBetween, ftsTerms, recordChange, type Change } from './changes.js'

interface Window { limit: number, offset: number }
/** FTS5 expressions whose number of documents is remembered at most (see #documentsWith). */
const COUNTED_EXPRESSIONS = 2000
/** Sort criteria whose ranks are remembered at most (see #ranksOf): an array of 4 bytes per document each. */
const RANKED_CRITERIA = 16
/**
 * Write transactions between two merges of the keyword index into one segment (at least; a catalog
 * of more than 100 times as many documents waits one write per 100 documents). FTS5 writes a segment
 * per transaction and keeps removed rows as tombstones until a merge: in a measured churn of small
 * writes on 1,200 items, queries ran 47% slower after 1,000 transactions, its automerge and a
 * 'merge' of 500 pages did not bring them back, an 'optimize' did. One costs about 0.5 s at 50k
 * items, inside the write that reaches the count; readers keep their snapshot meanwhile.
 */
export const FTS_TIDY_WRITES = 200
/**
 * The meta key of autocomplete's rules (suggestionsMinSearchers, suggestionsExcluded), kept apart from
 * the other settings: they change without a re-index, and are read by every autocomplete and every
 * recorded search, on whichever thread, without waiting for a new generation of the catalog.
 */
const SUGGESTION_SETTINGS = 'suggestion_settings'
type SuggestionSettings = Pick<IndexSettings, 'suggestionsMinSearchers' | 'suggestionsExcluded'>

/** What one write accumulates and stores once, at its end. */
interface WriteBatch {
  phrases: PhraseTally
  /** Facet labels already stored in this write, as `attr\u0000str`. */
  labels: Set<string>
  /** For the change log (left out by a re-index, after which everything derived is rebuilt). */
  changed?: { rowids: Set<number>, added: string[], dropped: string[] }
}
const newBatch = (logged = false): WriteBatch => ({
  phrases: new PhraseTally(),
  labels: new Set(),
  ...(logged ? { changed: { rowids: new Set<number>(), added: [], dropped: [] } } : {})
})

/**
 * A page of results, the total, and (when facets need them) every match: as a list of rowids, or as
 * a set; null: all documents.
 */
interface Page { rowids: number[], total: number, matches?: number[] | DocSet | null, bodies?: string[], levels?: number[], keywordTotal?: number }
const NOTHING: Page = { rowids: [], total: 0 }

/** The writer thread's side of one index file (see writer.ts). */
export interface IndexWriter {
  upsert: (documents: PreparedDocument[]) => Promise<void>
  record: (query: string, search: RecordedSearch) => Promise<void>
  ingest: NonNullable<EngineIndex['ingestBatch']>
}

/**
 * One project's index in its own SQLite file; calls are synchronous under the promise surface,
 * except a change of settings, which may re-index on another thread: writes are therefore run one
 * after the other (see #exclusively).
 */
export class EmbeddedIndex implements EngineIndex {
  readonly #db: Db
  #settings: IndexSettings | undefined
  #vocabulary: Vocabulary | undefined
  #facetPostings: FacetPostings | undefined
  #filterIndex: FilterIndex | undefined
  #vectorCodes: VectorCodes | undefined
  readonly #dimensions: number
  readonly #statements: (text: string) => Statement
  /** What keep(rowid) answers from during one statement (see #keeping): the allowed set (null: all), and the kept rowids. */
  #allowed: DocSet | null = null
  #kept: number[] = []
  /** What sort_rank(rowid, i) answers from during one search: the ranks of its sort criteria (see #ranksOf). */
  #sorting: Int32Array[] = []
  #dataVersion = -1
  #generation: string | undefined
  /** Documents per FTS5 expression, as of the catalog's generation `generation`. */
  #counts = { generation: undefined as string | undefined, byMatch: new Map<string, number>() }
  /** Ranks per sort criterion (`order:attribute`), as of the catalog's generation `generation`. */
  #ranks = { generation: undefined as string | undefined, byCriterion: new Map<string, Int32Array>() }
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
   * applies new settings to this file on another thread (see rebuild()); `writeElsewhere`, when
   * given, writes batches of documents to this file on another thread (see upsert()), and ingests
   * batches sent as bytes there too.
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
        this.#refresh()
        return result
      })
    }
    this.#dimensions = embedder.dimensions
    this.#db = openDatabase(file)
    this.#statements = statementCache(this.#db)
    this.#db.function('keep', { deterministic: false }, (rowid) => {
      const r = Number(rowid)
      if (this.#allowed !== null && this.#allowed[r] !== 1) return 0
      this.#kept.push(r)
      return 1
    })
    this.#db.function('sort_rank', { deterministic: false }, (rowid, criterion) => this.#sorting[Number(criterion)]?.[Number(rowid)] ?? UNSORTED)
    prepareVectors(this.#db, embedder.id, embedder.dimensions)
    // Checked before taking the write lock, which a rebuild may hold for a while.
    const fresh = () => readMeta(this.#db, 'settings') === undefined && readMeta(this.#db, 'fts') === undefined
    if (fresh()) {
      this.#db.transaction(() => {
        if (!fresh()) return
        createFts(this.#db, 1)
        writeMeta(this.#db, 'fts', 'created')
      }).immediate()
    }
    this.#refresh()
  }

  /**
   * Another connection (a writer on the main thread seen from a reader thread, the admin CLI
   * importing a catalog) may have written to this file: SQLite's data_version changes when it has.
   */
  #refresh () {
    // A compiled statement: db.pragma() compiles one on every call, and this runs on every search.
    const version = this.#sql('PRAGMA data_version').pluck().get() as number
    if (version === this.#dataVersion) return
    this.#dataVersion = version
    this.#sync()
  }

  /**
   * Catches up with the catalog's generation. Recording popular searches also writes to this file
   * (every second): only a change of the catalog or its settings bumps the generation. The derived
   * data are patched with the documents changed since (see changes.ts), or rebuilt by the next
   * reader when the change log does not cover the gap (a change of settings, an index far behind).
   * One read transaction: the log and the rows it points to are read as of the same commit.
   */
  #sync () {
    this.#db.transaction(() => {
      const generation = readMeta(this.#db, 'generation') ?? '0'
      if (generation === this.#generation) return
      // Nothing derived to patch (the service's own index when reader threads search): the change
      // log is not read at all, only the settings, which the gap may have changed.
      const derived = this.#vocabulary ?? this.#facetPostings ?? this.#filterIndex ?? this.#vectorCodes
      const change = this.#generation === undefined || derived === undefined ? undefined : changesBetween(this.#db, Number(this.#generation), Number(generation))
      this.#generation = generation
      if (change !== undefined) return this.#applyChange(change)
      const saved = readMeta(this.#db, 'settings')
      this.#settings = saved === undefined ? undefined : JSON.parse(saved) as IndexSettings
      this.#forgetDerived()
    })()
  }

  /** Marks a change of documents or settings, inside the writing transaction; the new generation. */
  #bumpGeneration (): number {
    const next = Number(readMeta(this.#db, 'generation') ?? '0') + 1
    writeMeta(this.#db, 'generation', String(next))
    return next
  }

  /** Merges the keyword index into one segment when FTS_TIDY_WRITES writes have passed since the last time (inside a write). */
  #tidyKeywordIndex (generation: number) {
    const last = Number(readMeta(this.#db, 'fts_tidied') ?? '0')
    const every = Math.max(FTS_TIDY_WRITES, Math.ceil(Number(readMeta(this.#db, 'count') ?? '0') / 100))
    if (generation - last < every) return
    this.#sql("INSERT INTO fts(fts) VALUES('optimize')").run()
    writeMeta(this.#db, 'fts_tidied', String(generation))
  }

  /** Ends a logged write: its change recorded under a new generation, the count of documents kept (inside its transaction). */
  #logChange (batch: WriteBatch, newDocuments: number) {
    const kept = readMeta(this.#db, 'count')
    writeMeta(this.#db, 'count', String(kept === undefined ? this.#countRows() : Number(kept) + newDocuments))
    const generation = this.#bumpGeneration()
    this.#tidyKeywordIndex(generation)
    const { rowids, added, dropped } = batch.changed!
    recordChange(this.#db, generation, {
      rowids: [...rowids].sort((a, b) => a - b),
      added: ftsTerms(this.#db, added),
      dropped: ftsTerms(this.#db, dropped)
    })
  }

  /**
   * Patches what is derived and in memory with `change`. A term is in the vocabulary when the keyword
   * index has it: the terms of the new texts are looked up when missing, those of replaced or removed
   * texts always (another document may still hold them).
   */
  #applyChange ({ rowids, added, dropped }: Change) {
    const vocabulary = this.#vocabulary
    if (vocabulary !== undefined) {
      const indexed = this.#sql('SELECT 1 FROM fts_vocab WHERE term = ?').pluck()
      for (const term of added) if (!vocabulary.has(term) && indexed.get(term) !== undefined) vocabulary.add(term)
      for (const term of dropped) {
        if (indexed.get(term) === undefined) vocabulary.remove(term)
        else vocabulary.add(term)
      }
    }
    this.#facetPostings?.apply(rowids)
    this.#filterIndex?.apply(rowids)
    this.#vectorCodes?.apply(rowids)
  }

  close () {
    this.#db.close()
  }

  /**
   * Copies what the write-ahead log holds into the file, without waiting for readers. Otherwise the
   * next commit past SQLite's threshold does it, whichever thread that is: the writer thread calls
   * this after each batch so that it is not the service's thread (recording a popular search there
   * took up to 80 ms behind a 1,000-item batch).
   */
  checkpoint () {
    this.#db.pragma('wal_checkpoint(PASSIVE)')
  }

  async settings (): Promise<IndexSettings> {
    this.#refresh()
    return completeSettings({ ...this.#settings ?? { searchableAttributes: [], filterableAttributes: [], facetableAttributes: [] }, ...this.#suggestionSettings() })
  }

  /**
   * Re-indexes the catalog with `settings`, on another thread when this index was given one: this
   * thread stays free, searches are answered from the old index (SQLite's WAL keeps it for readers)
   * until the new one commits, and the writes that come meanwhile wait for it. Settings that differ
   * only in autocomplete's rules are written as they are, without a re-index.
   */
  async updateSettings (settings: IndexSettings): Promise<IndexSettings> {
    const applied = appliedSettings(settings)
    return await this.#exclusively(async () => {
      this.#refresh()
      if (this.#settings !== undefined && sameIndexing(this.#settings, applied)) {
        this.#db.transaction(() => { this.#writeSuggestionSettings(applied) }).immediate()
      } else if (this.#rebuildElsewhere === undefined) this.rebuild(applied)
      else await this.#rebuildElsewhere(applied)
      this.#refresh()
      return applied
    })
  }

  /** Autocomplete's rules as stored (each absent from a file written before them). */
  #suggestionSettings (): SuggestionSettings {
    const stored = this.#sql('SELECT value FROM meta WHERE key = ?').pluck().get(SUGGESTION_SETTINGS) as string | undefined
    return stored === undefined ? {} : JSON.parse(stored) as SuggestionSettings
  }

  #writeSuggestionSettings ({ suggestionsMinSearchers, suggestionsExcluded }: IndexSettings) {
    writeMeta(this.#db, SUGGESTION_SETTINGS, JSON.stringify({ suggestionsMinSearchers, suggestionsExcluded } satisfies SuggestionSettings))
  }

  /** Re-indexes every document with `settings`, in one transaction, on this thread. */
  rebuild (settings: IndexSettings) {
    this.#refresh()
    this.#db.transaction(() => { this.#applySettings(settings) }).immediate()
  }

  /** Kept in the meta table by every write (a count(*) of 100k rows took up to 50 ms under load). */
  async count (): Promise<number> {
    this.#refresh()
    const kept = readMeta(this.#db, 'count')
    return kept === undefined ? this.#countRows() : Number(kept)
  }

  #countRows (): number {
    return (this.#sql('SELECT count(*) AS n FROM documents').get() as { n: number }).n
  }

  async get (id: string): Promise<Document | undefined> {
    this.#refresh()
    const row = this.#sql('SELECT body FROM documents WHERE id = ?').get(id) as { body: string } | undefined
    return row === undefined ? undefined : JSON.parse(row.body) as Document
  }

  async getMany (ids: string[], filter: FilterNode | null): Promise<Document[]> {
    if (ids.length === 0) return []
    // With a filter, on a reader thread when there are some: the filter index built there serves
    // the searches too, and one built here would be a second copy of it.
    if (filter !== null && this.#readers !== undefined) return await this.#readers.getMany(this.#file, ids, filter)
    return this.#snapshot(() => this.#getManyNow(ids, filter))
  }

  /** In one read transaction (see #snapshot): the filter index and the rows are of the same commit. */
  #getManyNow (ids: string[], filter: FilterNode | null): Document[] {
    const allowed = filter === null ? null : this.#filters().evaluate(filter)
    const rows = this.#sql('SELECT rowid, body FROM documents WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(ids)) as Array<{ rowid: number, body: string }>
    return rows.filter((r) => allowed === null || allowed[r.rowid] === 1).map((r) => JSON.parse(r.body) as Document)
  }

  async storedHashes (ids: string[]): Promise<Map<string, string>> {
    this.#refresh()
    // One statement for the batch: a statement per id cost 3× more.
    const rows = this.#sql('SELECT id, hash FROM documents WHERE id IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(ids)) as Array<[string, string]>
    return new Map(rows)
  }

  /**
   * Adds or replaces documents in one transaction, on another thread when this index was given one
   * (this one then catches up with the commit like any reader).
   */
  async upsert (prepared: PreparedDocument[]): Promise<{ indexed: number }> {
    return await this.#exclusively(async () => {
      if (this.#writeElsewhere !== undefined) {
        await this.#writeElsewhere(prepared)
        this.#refresh()
        return { indexed: prepared.length }
      }
      this.#refresh()
      this.#db.transaction(() => {
        this.#refresh()
        if (this.#settings === undefined) this.#applySettings(inferSettings(prepared.map((p) => p.document)))
        const batch = newBatch(true)
        let newDocuments = 0
        for (const item of prepared) if (this.#write(item, batch)) newDocuments++
        batch.phrases.write((sql) => this.#sql(sql))
        this.#logChange(batch, newDocuments)
      }).immediate()
      this.#sync()
      return { indexed: prepared.length }
    })
  }

  async remove (id: string): Promise<boolean> {
    return await this.#exclusively(async () => {
      this.#refresh()
      const removed = this.#db.transaction(() => {
        const row = this.#sql('SELECT rowid, body FROM documents WHERE id = ?').get(id) as { rowid: number, body: string } | undefined
        if (row === undefined) return false
        const batch = newBatch(true)
        this.#unindex(row.rowid, JSON.parse(row.body) as Document, batch)
        batch.phrases.write((sql) => this.#sql(sql))
        this.#sql('DELETE FROM documents WHERE rowid = ?').run(row.rowid)
        this.#logChange(batch, -1)
        return true
      })()
      if (removed) this.#sync()
      return removed
    })
  }

  async search (query: SearchQuery): Promise<SearchResult> {
    if (this.#readers !== undefined) return await this.#readers.search(this.#file, query)
    return this.#snapshot(() => this.#searchNow(query))
  }

  /**
   * One read transaction around a whole query: the in-memory postings, filter index and vector
   * codes are caught up to the same commit as the rows they point to are then read from. Without
   * it, a write committed by another thread between the two left a removed row to load.
   * data_version, read first, starts the snapshot.
   */
  #snapshot<T> (read: () => T): T {
    return this.#db.transaction(() => {
      this.#refresh()
      return read()
    })()
  }

  #searchNow (query: SearchQuery): SearchResult {
    const allowed = query.filter === null ? null : this.#filters().evaluate(query.filter)
    const strategy = query.matchingStrategy ?? matchingStrategyDefault
    const levels = planLevels(query.q, this.#vocab(), strategy, (match) => this.#documentsWith(match), this.#queryRules())
    const window = { limit: query.limit, offset: query.offset }
    const wantMatches = query.facets.length > 0
    const page = this.#sortingBy(query.sort ?? [], (): Page => {
      if (levels === undefined) return this.#browse(allowed, window)
      if (query.hybrid === undefined || query.hybrid.semanticRatio === 0) return this.#keyword(levels, allowed, window, wantMatches, true)
      return this.#hybrid(levels, allowed, window, query.hybrid, wantMatches)
    })
    const hits = page.bodies?.map((body) => JSON.parse(body) as Document) ?? this.#load(page.rowids)
    const result: SearchResult = { hits, estimatedTotalHits: page.total }
    // A hybrid query answered by keyword alone (ratio 0, or no word to plan) has only keyword hits.
    if (query.hybrid !== undefined) {
      const keywordHits = page.keywordTotal ?? (levels === undefined || query.hybrid.semanticRatio === 0 ? page.total : undefined)
      if (keywordHits !== undefined) result.keywordHits = keywordHits
    }
    if (query.rankingScore === true) result.scores = this.#scores(page.rowids, levels, query.hybrid)
    if (wantMatches) {
      this.#facetPostings ??= new FacetPostings(this.#db)
      const matches = page.matches ?? null
      result.facetDistribution = Array.isArray(matches)
        ? this.#facetPostings.count(query.facets, null, matches)
        : this.#facetPostings.count(query.facets, matches)
    }
    return result
  }

  async facetSearch (query: FacetSearchQuery): Promise<FacetHit[]> {
    if (this.#readers !== undefined) return await this.#readers.facetSearch(this.#file, query)
    return this.#snapshot(() => this.#facetSearchNow(query))
  }

  /** The facet's values over the matches a search's facetDistribution counts (see #matches), counted the same way. */
  #facetSearchNow (query: FacetSearchQuery): FacetHit[] {
    const matches = this.#matches(query.q, query.filter, query.matchingStrategy ?? matchingStrategyDefault)
    this.#facetPostings ??= new FacetPostings(this.#db)
    const hits = Array.isArray(matches)
      ? this.#facetPostings.search(query.facet, query.facetQuery, null, matches)
      : this.#facetPostings.search(query.facet, query.facetQuery, matches)
    return hits.map(([value, count]) => ({ value, count }))
  }

  /**
   * Every document a keyword search matches, as its facets count them (see #searchNow): what the
   * filter allows (null: every document) for a query without a word; otherwise the matches of the
   * words rule's last level, which hold every level's, kept by the filter. No page is read.
   */
  #matches (q: string, filter: FilterNode | null, strategy: MatchingStrategy): number[] | DocSet | null {
    const allowed = filter === null ? null : this.#filters().evaluate(filter)
    const levels = planLevels(q, this.#vocab(), strategy, (match) => this.#documentsWith(match), this.#queryRules())
    if (levels === undefined) return allowed
    const widest = levels.at(-1)!.tiers.at(-1)
    return this.#keeping(allowed, () => this.#sql('SELECT count(*) FROM fts WHERE fts MATCH ? AND keep(rowid)').pluck().get(widest)).kept
  }

  async suggest (term: string, limit: number, offset: number): Promise<string[]> {
    if (this.#readers !== undefined) return await this.#readers.suggest(this.#file, term, limit, offset)
    return this.#snapshot(() => suggest((sql) => this.#sql(sql), this.#vocab(), term, limit, offset, suggestionRules(this.#suggestionSettings()), this.#queryRules()))
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

  async recordQuery (query: string, search: RecordedSearch): Promise<void> {
    const folded = foldQuery(query)
    if (folded === '') return
    await this.#exclusively(async () => {
      if (this.#recordElsewhere !== undefined) return await this.#recordElsewhere(folded, search)
      this.#db.transaction(() => {
        const { minSearchers } = suggestionRules(this.#suggestionSettings())
        recordSearch((sql) => this.#sql(sql), searcherKey(this.#db), folded, search, minSearchers)
      }).immediate()
    })
  }

  async popularSearches (limit: number, offset: number): Promise<PopularSearches> {
    return this.#snapshot(() => popularSearches((sql) => this.#sql(sql), limit, offset))
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

  /** Drops what is derived from the stored data, for the next reader to rebuild it. */
  #forgetDerived () {
    this.#vocabulary = undefined
    this.#facetPostings = undefined
    this.#filterIndex = undefined
    this.#vectorCodes = undefined
  }

  /** The catalog's stop words and synonyms as queries are read with them (compiled once per settings). */
  #queryRules (): QueryRules {
    return this.#settings === undefined ? NO_RULES : queryRules(this.#settings)
  }

  #vocab (): Vocabulary {
    this.#vocabulary ??= new Vocabulary((this.#sql('SELECT term FROM fts_vocab').pluck().all() as string[]))
    return this.#vocabulary
  }

  /** Statements are compiled once per SQL text. */
  #sql (text: string): Statement {
    return this.#statements(text)
  }

  #filters (): FilterIndex {
    this.#filterIndex ??= new FilterIndex(this.#db)
    return this.#filterIndex
  }

  /**
   * Runs `work` with the SQL function keep(rowid) answering from `set` (every row when null) and
   * returns what it returned with the rowids kept, in the order SQLite asked about them.
   */
  #keeping<T> (set: DocSet | null, work: () => T): { result: T, kept: number[] } {
    this.#allowed = set
    this.#kept = []
    try {
      return { result: work(), kept: this.#kept }
    } finally {
      this.#allowed = null
      this.#kept = []
    }
  }

  /**
   * Runs `work` with sort_rank(rowid, i), in the keyword statements, and a browse answering from the
   * ranks of `sort`'s criteria (ranking.ts says where the sort rule applies).
   */
  #sortingBy<T> (sort: SortCriterion[], work: () => T): T {
    this.#sorting = this.#ranksOf(sort)
    try {
      return work()
    } finally {
      this.#sorting = []
    }
  }

  /**
   * Ranks of each sort criterion (see sortRanks), remembered until the catalog changes (or that many
   * criteria are): a shop sorts by the same few attributes again and again.
   */
  #ranksOf (sort: SortCriterion[]): Int32Array[] {
    const cache = this.#ranks
    if (cache.generation !== this.#generation || cache.byCriterion.size >= RANKED_CRITERIA) {
      cache.generation = this.#generation
      cache.byCriterion.clear()
    }
    return sort.map(({ attribute, order }) => {
      const key = `${order}:${attribute}`
      let ranks = cache.byCriterion.get(key)
      if (ranks === undefined) {
        const filters = this.#filters()
        ranks = sortRanks(filters.sortValues(attribute), filters.universe().length, order === 'desc')
        cache.byCriterion.set(key, ranks)
      }
      return ranks
    })
  }

  /**
   * Browsing: documents in the order they were added, or, with a sort, in its order (ties in the
   * order they were added). `matches` null stands for every document.
   */
  #browse (allowed: DocSet | null, window: Window): Page {
    if (this.#sorting.length > 0) return this.#sortedBrowse(allowed, window)
    const { limit, offset } = window
    if (allowed === null) {
      const rowids = this.#sql('SELECT rowid FROM documents ORDER BY rowid LIMIT ? OFFSET ?').pluck().all(limit, offset) as number[]
      return { rowids, total: this.#sql('SELECT count(*) FROM documents').pluck().get() as number, matches: null }
    }
    const rowids: number[] = []
    let total = 0
    for (let r = 0; r < allowed.length; r++) {
      if (allowed[r] !== 1) continue
      if (total >= offset && rowids.length < limit) rowids.push(r)
      total++
    }
    return { rowids, total, matches: allowed }
  }

  /** A browse with a sort: every document the filter allows, ordered by the sort's ranks. */
  #sortedBrowse (allowed: DocSet | null, { limit, offset }: Window): Page {
    const candidates = allowed ?? this.#filters().universe()
    const rowids: number[] = []
    for (let r = 0; r < candidates.length; r++) if (candidates[r] === 1) rowids.push(r)
    rowids.sort(bySortRanks(this.#sorting))
    return { rowids: rowids.slice(offset, offset + limit), total: rowids.length, matches: allowed }
  }

  /**
   * Keyword matches in ranking order (see ranking.ts): the words rule's levels one after the other,
   * each read only when the page reaches into it, so that a search whose every word matches enough
   * documents reads its page as with one level. The last level's matches hold every level's: they
   * give the total, when some level was left unread, and the matches facets count.
   */
  #keyword (levels: KeywordPlan[], allowed: DocSet | null, window: Window, wantMatches: boolean, withBodies = false): Page {
    if (levels.length === 1) return this.#allWords(levels[0]!, allowed, window, wantMatches, withBodies)
    const end = window.offset + window.limit
    const rowids: number[] = []
    const bodies: string[] = []
    const levelOf: number[] = []
    let seen = 0
    let read = 0
    for (; read < levels.length && seen < end; read++) {
      const within = { offset: Math.max(0, window.offset - seen), limit: window.limit - rowids.length }
      const page = this.#page(levels[read]!, allowed, within, withBodies, levels[read - 1]?.tiers.at(-1))
      rowids.push(...page.rowids)
      levelOf.push(...page.rowids.map(() => read))
      bodies.push(...page.bodies ?? [])
      seen += page.total
    }
    const union = levels.at(-1)!.tiers.at(-1)!
    let total = seen
    let matches: number[] | undefined
    if (wantMatches || (read < levels.length && allowed !== null)) {
      matches = this.#keeping(allowed, () => this.#sql('SELECT count(*) FROM fts WHERE fts MATCH ? AND keep(rowid)').pluck().get(union)).kept
      total = matches.length
    } else if (read < levels.length) total = this.#documentsWith(union)
    return { rowids, total, levels: levelOf, ...(withBodies ? { bodies } : {}), ...(wantMatches ? { matches } : {}) }
  }

  /**
   * The matches of every word in ranking order, with the full-text query run once: its matches are
   * materialised, counted and sorted in one statement when nothing else needs them (see #page). The
   * filter narrows them through keep(rowid), which SQLite cannot hand to FTS5 as a rowid lookup, and
   * which also collects the matches when facets need them.
   */
  #allWords (plan: KeywordPlan, allowed: DocSet | null, window: Window, wantMatches: boolean, withBodies: boolean): Page {
    if (allowed === null && !wantMatches) return this.#page(plan, null, window, withBodies)
    const tiers = plan.tiers.slice(plan.first)
    const columns = this.#settings?.searchableAttributes.length ?? 1
    const statement = this.#sql(`WITH matches AS MATERIALIZED (
        SELECT rowid, ${bm25(columns)} AS score FROM fts WHERE fts MATCH ? AND keep(rowid))
      SELECT rowid FROM matches ORDER BY ${keywordOrder(tiers.length, this.#sorting.length)} LIMIT ? OFFSET ?`)
    const params = [tiers.at(-1), ...plan.beyond.slice(plan.first), window.limit, window.offset]
    // SQLite skips a query whose LIMIT is 0, keep() included: a page of none (facets only) counts its matches alone.
    const { result: rowids, kept } = this.#keeping(allowed, () => window.limit === 0
      ? (this.#sql('SELECT count(*) FROM fts WHERE fts MATCH ? AND keep(rowid)').pluck().get(tiers.at(-1)), [])
      : statement.pluck().all(...params) as number[])
    return { rowids, total: kept.length, ...(wantMatches ? { matches: kept } : {}) }
  }

  /**
   * A page of the matches of `plan` in ranking order and their number, in one statement, which also
   * reads the page's documents when they are the answer (`withBodies`, not for hybrid); narrowed by
   * the filter (null: none) and, for a level of the words rule after the first, to the documents the
   * level before did not match (`exclude`, its widest tier). The tiers that can match (see
   * KeywordPlan) are told apart by what lies beyond them; the last, the widest, is the one matched.
   */
  #page (plan: KeywordPlan, allowed: DocSet | null, { limit, offset }: Window, withBodies: boolean, exclude?: string): Page {
    const tiers = plan.tiers.slice(plan.first)
    const columns = this.#settings?.searchableAttributes.length ?? 1
    const where = `fts MATCH ?${allowed === null ? '' : ' AND keep(rowid)'}${exclude === undefined ? '' : ' AND rowid NOT IN (SELECT rowid FROM fts WHERE fts MATCH ?)'}`
    const match = exclude === undefined ? [tiers.at(-1)] : [tiers.at(-1), exclude]
    // The page's tier and sort keys are computed once, inside the LIMIT; sorting its few rows again
    // after the join is cheap. The order is keywordOrder's, by those columns.
    const keys = sortKeys(this.#sorting.length)
    const order = (table: string) => [`${table}tier`, ...keys.map((_, i) => `${table}s${i}`), `${table}score`, `${table}rowid`].join(', ')
    const page = `WITH matches AS MATERIALIZED (SELECT rowid, ${bm25(columns)} AS score FROM fts WHERE ${where}),
        page AS (SELECT rowid, score, ${keywordTier(tiers.length)} AS tier${keys.map((key, i) => `, ${key} AS s${i}`).join('')}
          FROM matches ORDER BY ${order('')} LIMIT ? OFFSET ?)`
    const statement = this.#sql(withBodies
      ? `${page} SELECT page.rowid, (SELECT count(*) FROM matches) AS total, documents.body FROM page
          JOIN documents ON documents.rowid = page.rowid ORDER BY ${order('page.')}`
      : `${page} SELECT rowid, (SELECT count(*) FROM matches) AS total FROM page ORDER BY ${order('')}`)
    const run = () => {
      const rows = statement.raw().all(...match, ...plan.beyond.slice(plan.first), limit, offset) as Array<[number, number, string?]>
      // No row: no match, unless the page starts past them or holds none.
      const total = rows[0]?.[1] ?? (offset === 0 && limit > 0 ? 0 : this.#sql(`SELECT count(*) FROM fts WHERE ${where}`).pluck().get(...match) as number)
      return { rowids: rows.map((r) => r[0]), total, ...(withBodies ? { bodies: rows.map((r) => r[2]!) } : {}) }
    }
    return allowed === null ? run() : this.#keeping(allowed, run).result
  }

  /**
   * How many documents an FTS5 expression matches, remembered until the catalog changes (or that
   * many expressions are): a search
   * whose every word fills its page still counts the matches of the words rule's last level (most
   * often the query's first word, shared by many queries) for its total, and the frequency strategy
   * counts each word's.
   */
  #documentsWith (match: string): number {
    const counts = this.#counts
    if (counts.generation !== this.#generation || counts.byMatch.size >= COUNTED_EXPRESSIONS) {
      counts.generation = this.#generation
      counts.byMatch.clear()
    }
    let n = counts.byMatch.get(match)
    if (n === undefined) {
      n = this.#sql('SELECT count(*) FROM fts WHERE fts MATCH ?').pluck().get(match) as number
      counts.byMatch.set(match, n)
    }
    return n
  }

  /** The nearest documents to the query vector among those the filter allows, closest first. */
  #nearest (vector: Float32Array, allowed: DocSet | null, k: number): number[] {
    this.#vectorCodes ??= new VectorCodes(this.#db, this.#dimensions)
    return this.#vectorCodes.nearest(vector, allowed, k)
  }

  /** Keyword and semantic rankings merged (see mergeByRank); 0 never gets here: it is the keyword result as is. */
  #hybrid (levels: KeywordPlan[], allowed: DocSet | null, window: Window, hybrid: HybridQuery, wantMatches: boolean): Page {
    const depth = Math.min(window.offset + window.limit, 1000) + 20
    const ratio = hybrid.semanticRatio
    const keyword = ratio === 1 ? NOTHING : this.#keyword(levels, allowed, { limit: depth, offset: 0 }, wantMatches)
    const semantic = this.#nearest(hybrid.vector, allowed, depth)
    const ranked = mergeByRank(keyword.rowids, semantic, ratio, (rank) => levelWeight(keyword.levels?.[rank] ?? 0, levels.length))
    const rowids = ranked.slice(window.offset, window.offset + window.limit)
    // The keyword side's own count, for autocomplete (see SearchResult.keywordHits): not run at all
    // when semantic alone ranks, counted then only when remembered or cheap (no filter).
    const keywordTotal = ratio < 1 ? keyword.total : allowed === null ? this.#documentsWith(levels.at(-1)!.tiers.at(-1)!) : undefined
    const counts = keywordTotal === undefined ? {} : { keywordTotal }
    if (wantMatches) {
      const all = new Set(Array.isArray(keyword.matches) ? keyword.matches : [])
      for (const r of semantic) all.add(r)
      return { rowids, total: all.size, matches: [...all], ...counts }
    }
    const inKeyword = new Set(keyword.rowids)
    const extra = semantic.filter((rowid) => !inKeyword.has(rowid))
    // A semantic hit may be a keyword match past the keyword side's depth, which its total counts already.
    const counted = keyword.total > keyword.rowids.length && extra.length > 0
      ? this.#sql('SELECT count(*) FROM fts WHERE fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))').pluck().get(levels.at(-1)!.tiers.at(-1), JSON.stringify(extra)) as number
      : 0
    return { rowids, total: keyword.total + extra.length - counted, ...counts }
  }

  /** Ranking scores in [0, 1] (see rankingScore); browsing scores every document 1. */
  #scores (rowids: number[], levels: KeywordPlan[] | undefined, hybrid: HybridQuery | undefined): number[] {
    if (levels === undefined) return rowids.map(() => 1)
    const keyword = new Map<number, number>()
    const page = JSON.stringify(rowids)
    levels.forEach((plan, level) => plan.tiers.forEach((tier, i) => {
      if (i < plan.first || keyword.size === rowids.length) return
      const matched = this.#sql('SELECT rowid FROM fts WHERE fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))').pluck().all(tier, page) as number[]
      for (const rowid of matched) if (!keyword.has(rowid)) keyword.set(rowid, keywordScore(i, level, levels.length))
    }))
    if (hybrid === undefined) return rowids.map((r) => rankingScore(keyword.get(r), undefined, undefined))
    this.#vectorCodes ??= new VectorCodes(this.#db, this.#dimensions)
    const semantic = this.#vectorCodes.similarities(hybrid.vector, rowids)
    return rowids.map((r) => rankingScore(keyword.get(r), semantic.get(r), hybrid.semanticRatio))
  }

  #load (rowids: number[]): Document[] {
    if (rowids.length === 0) return []
    const rows = this.#sql('SELECT rowid, body FROM documents WHERE rowid IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(rowids)) as Array<{ rowid: number, body: string }>
    const byRowid = new Map(rows.map((r) => [r.rowid, r.body]))
    return rowids.map((r) => JSON.parse(byRowid.get(r)!) as Document)
  }

  #applySettings (settings: IndexSettings) {
    // Autocomplete's rules are kept apart (see SUGGESTION_SETTINGS).
    const { suggestionsMinSearchers, suggestionsExcluded, ...indexing } = settings
    writeMeta(this.#db, 'settings', JSON.stringify(indexing))
    this.#writeSuggestionSettings(settings)
    this.#generation = String(this.#bumpGeneration())
    this.#settings = indexing
    createFts(this.#db, settings.searchableAttributes.length)
    this.#db.exec('DELETE FROM fields; DELETE FROM facet_labels; DELETE FROM suggestions')
    // In pages: a connection cannot write while it is still iterating a read.
    const page = this.#sql('SELECT rowid, body FROM documents WHERE rowid > ? ORDER BY rowid LIMIT 1000')
    const batch = newBatch()
    for (let last = 0, rows = page.all(last) as Array<{ rowid: number, body: string }>; rows.length > 0; rows = page.all(last) as typeof rows) {
      for (const row of rows) this.#index(row.rowid, JSON.parse(row.body) as Document, batch)
      last = rows.at(-1)!.rowid
    }
    batch.phrases.write((sql) => this.#sql(sql))
    this.#forgetDerived()
  }

  /** Writes one document; true when it is new. */
  #write ({ document, hash = documentHash(document), vector }: PreparedDocument, batch: WriteBatch): boolean {
    const existing = this.#sql('SELECT rowid, body FROM documents WHERE id = ?').get(document.id) as { rowid: number, body: string } | undefined
    let rowid: number
    if (existing === undefined) {
      rowid = Number(this.#sql('INSERT INTO documents (id, body, hash) VALUES (?, ?, ?)').run(document.id, JSON.stringify(document), hash).lastInsertRowid)
    } else {
      rowid = existing.rowid
      this.#unindex(rowid, JSON.parse(existing.body) as Document, batch)
      this.#sql('UPDATE documents SET body = ?, hash = ? WHERE rowid = ?').run(JSON.stringify(document), hash, rowid)
    }
    this.#index(rowid, document, batch)
    if (vector !== undefined && vector !== null) storeVector((sql) => this.#sql(sql), rowid, vector)
    return existing === undefined
  }

  #index (rowid: number, document: Document, batch: WriteBatch) {
    const settings = this.#settings!
    const columns = settings.searchableAttributes.map((attr) => searchableText(document, attr))
    const placeholders = columns.map(() => '?').join(', ')
    if (columns.length > 0) this.#sql(`INSERT INTO fts (rowid, ${columns.map((_, i) => `c${i}`).join(', ')}) VALUES (?, ${placeholders})`).run(rowid, ...columns)
    batch.changed?.rowids.add(rowid)
    batch.changed?.added.push(...columns)
    batch.phrases.add(suggestionPhrases(document), 1)
    const insertField = this.#sql('INSERT INTO fields (doc, attr, kind, str, num) VALUES (?, ?, ?, ?, ?)')
    const insertLabel = this.#sql('INSERT OR IGNORE INTO facet_labels (attr, str, label) VALUES (?, ?, ?)')
    for (const f of flattenDocument(document, fieldAttributes(settings))) {
      insertField.run(rowid, f.attr, f.kind, f.str, f.num)
      if (f.str === null || f.label === undefined) continue
      const key = `${f.attr}\u0000${f.str}`
      if (batch.labels.has(key)) continue
      batch.labels.add(key)
      insertLabel.run(f.attr, f.str, f.label)
    }
  }

  #unindex (rowid: number, document: Document, batch: WriteBatch) {
    batch.phrases.add(suggestionPhrases(document), -1)
    if (batch.changed !== undefined) {
      batch.changed.rowids.add(rowid)
      batch.changed.dropped.push(...this.#settings!.searchableAttributes.map((attr) => searchableText(document, attr)))
    }
    this.#sql('DELETE FROM fts WHERE rowid = ?').run(rowid)
    this.#sql('DELETE FROM fields WHERE doc = ?').run(rowid)
    deleteVector((sql) => this.#sql(sql), rowid)
  }
}
