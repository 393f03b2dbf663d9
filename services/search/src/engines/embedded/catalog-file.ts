import type { IndexSettings } from '../../engine/port.js'
import { NO_RULES, queryRules, type QueryRules } from '../../engine/query-terms.js'
import { changesBetween, type Change } from './changes.js'
import { createFts, openDatabase, prepareVectors, readMeta, statementCache, writeMeta, type Db, type Statement } from './database.js'
import { FacetPostings } from './facets.js'
import { FilterIndex } from './filter-index.js'
import { VOCABULARY_MAX_NODES, Vocabulary } from './typo.js'
import { VectorCodes } from './vector-codes.js'

/**
 * One catalog index file, open on one connection, with what is derived from it in memory (the typo
 * vocabulary, facet postings, filter index and vector codes, each built when first needed) kept at
 * the catalog's generation: a write on any connection bumps the generation (see bumpGeneration), and
 * refresh() catches up with it, from the change log (changes.ts) or by forgetting the derived data.
 */
export class CatalogFile {
  readonly db: Db
  /** Statements are compiled once per SQL text. */
  readonly sql: (text: string) => Statement
  readonly #dimensions: number
  #settings: IndexSettings | undefined
  #generation: string | undefined
  #dataVersion = -1
  #vocabulary: Vocabulary | undefined
  #facetPostings: FacetPostings | undefined
  #filterIndex: FilterIndex | undefined
  #vectorCodes: VectorCodes | undefined

  /** `embedder` names the model whose vectors this file holds, `dimensions` their size. */
  constructor (file: string, embedder: { id: string, dimensions: number }) {
    this.#dimensions = embedder.dimensions
    this.db = openDatabase(file)
    this.sql = statementCache(this.db)
    prepareVectors(this.db, embedder.id, embedder.dimensions)
    // Checked before taking the write lock, which a rebuild may hold for a while.
    const fresh = () => readMeta(this.db, 'settings') === undefined && readMeta(this.db, 'fts') === undefined
    if (fresh()) {
      this.db.transaction(() => {
        if (!fresh()) return
        createFts(this.db, 1)
        writeMeta(this.db, 'fts', 'created')
      }).immediate()
    }
    this.refresh()
  }

  /** The indexing settings as of the generation caught up with (autocomplete's rules apart, see settings.ts); none before the first write. */
  get settings (): IndexSettings | undefined {
    return this.#settings
  }

  get generation (): string | undefined {
    return this.#generation
  }

  /**
   * Another connection (a writer on the main thread seen from a reader thread, the admin CLI
   * importing a catalog) may have written to this file: SQLite's data_version changes when it has.
   */
  refresh () {
    // A compiled statement: db.pragma() compiles one on every call, and this runs on every search.
    const version = this.sql('PRAGMA data_version').pluck().get() as number
    if (version === this.#dataVersion) return
    this.#dataVersion = version
    this.sync()
  }

  /**
   * Catches up with the catalog's generation. Recording popular searches also writes to this file
   * (every second): only a change of the catalog or its settings bumps the generation. The derived
   * data are patched with the documents changed since (see changes.ts), or rebuilt by the next
   * reader when the change log does not cover the gap (a change of settings, an index far behind).
   * One read transaction: the log and the rows it points to are read as of the same commit.
   */
  sync () {
    this.db.transaction(() => {
      const generation = readMeta(this.db, 'generation') ?? '0'
      if (generation === this.#generation) return
      // Nothing derived to patch (the service's own index when reader threads search): the change
      // log is not read at all, only the settings, which the gap may have changed.
      const derived = this.#vocabulary ?? this.#facetPostings ?? this.#filterIndex ?? this.#vectorCodes
      const change = this.#generation === undefined || derived === undefined ? undefined : changesBetween(this.db, Number(this.#generation), Number(generation))
      this.#generation = generation
      if (change !== undefined) return this.#applyChange(change)
      const saved = readMeta(this.db, 'settings')
      this.#settings = saved === undefined ? undefined : JSON.parse(saved) as IndexSettings
      this.forgetDerived()
    })()
  }

  /**
   * One read transaction around a whole query: the in-memory postings, filter index and vector
   * codes are caught up to the same commit as the rows they point to are then read from. Without
   * it, a write committed by another thread between the two left a removed row to load.
   * data_version, read first, starts the snapshot.
   */
  snapshot<T> (read: () => T): T {
    return this.db.transaction(() => {
      this.refresh()
      return read()
    })()
  }

  /** Marks a change of documents or settings, inside the writing transaction; the new generation. */
  bumpGeneration (): number {
    const next = Number(readMeta(this.db, 'generation') ?? '0') + 1
    writeMeta(this.db, 'generation', String(next))
    return next
  }

  /**
   * Stores new indexing settings, inside the transaction that re-indexes with them, under a new
   * generation that the change log does not cover: every other connection rebuilds its derived data.
   */
  changeSettings (settings: IndexSettings) {
    writeMeta(this.db, 'settings', JSON.stringify(settings))
    this.#generation = String(this.bumpGeneration())
    this.#settings = settings
  }

  /**
   * Patches what is derived and in memory with `change`. A term is in the vocabulary when the keyword
   * index has it: the terms of the new texts are looked up when missing, those of replaced or removed
   * texts always (another document may still hold them).
   */
  #applyChange ({ rowids, added, dropped }: Change) {
    const vocabulary = this.#vocabulary
    if (vocabulary !== undefined) {
      const indexed = this.sql('SELECT 1 FROM fts_vocab WHERE term = ?').pluck()
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

  /** Drops what is derived from the stored data, for the next reader to rebuild it. */
  forgetDerived () {
    this.#vocabulary = undefined
    this.#facetPostings = undefined
    this.#filterIndex = undefined
    this.#vectorCodes = undefined
  }

  vocabulary (): Vocabulary {
    // The most frequent terms first, read until the trie's budget is reached: past it, a term is
    // known through the index's own table (matched as typed, not through typos or prefixes).
    this.#vocabulary ??= new Vocabulary(this.sql('SELECT term FROM fts_vocab ORDER BY doc DESC, term').pluck().iterate() as IterableIterator<string>,
      VOCABULARY_MAX_NODES, (term) => this.sql('SELECT 1 FROM fts_vocab WHERE term = ?').pluck().get(term) !== undefined)
    return this.#vocabulary
  }

  facets (): FacetPostings {
    this.#facetPostings ??= new FacetPostings(this.db)
    return this.#facetPostings
  }

  filters (): FilterIndex {
    this.#filterIndex ??= new FilterIndex(this.db)
    return this.#filterIndex
  }

  vectors (): VectorCodes {
    this.#vectorCodes ??= new VectorCodes(this.db, this.#dimensions)
    return this.#vectorCodes
  }

  /** The catalog's stop words and synonyms as queries are read with them (compiled once per settings). */
  queryRules (): QueryRules {
    return this.#settings === undefined ? NO_RULES : queryRules(this.#settings)
  }

  countRows (): number {
    return (this.sql('SELECT count(*) AS n FROM documents').get() as { n: number }).n
  }

  close () {
    this.db.close()
  }

  /**
   * Copies what the write-ahead log holds into the file, without waiting for readers. Otherwise the
   * next commit past SQLite's threshold does it, whichever thread that is: the writer thread calls
   * this after each batch so that it is not the service's thread (recording a popular search there
   * took up to 80 ms behind a 1,000-item batch).
   */
  checkpoint () {
    this.db.pragma('wal_checkpoint(PASSIVE)')
  }
}
