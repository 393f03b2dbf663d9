import type { FacetHit, MatchingStrategy } from '@chatsearch/contracts'
import type { FilterNode } from '@chatsearch/filter'
import type { Chunk, KnowledgeKind } from '../knowledge/types.js'

/** A catalog item as stored: any JSON object with an `id` (kept as a string). */
export type Document = Record<string, unknown> & { id: string }

/** Index settings, named as in Meilisearch. */
export interface IndexSettings {
  /** Attributes searched by keyword, highest priority first. */
  searchableAttributes: string[]
  /** Attributes a filter may use. */
  filterableAttributes: string[]
  /** Attributes facet counts may be asked for. */
  facetableAttributes: string[]
  /**
   * Attributes a search may sort by. Absent in settings saved before sorting existed and in a PUT
   * without them: none (see completeSettings).
   */
  sortableAttributes?: string[]
  /**
   * Meilisearch's synonyms and stop words (engine/query-terms.ts reads a query with them). Absent,
   * as sortableAttributes, in settings saved before them: none.
   */
  synonyms?: Record<string, string[]>
  stopWords?: string[]
  /**
   * Autocomplete's rules for popular searches (see suggestionRules in engine/settings.ts); changing
   * only these re-indexes nothing. Absent in settings saved before them: the defaults.
   */
  suggestionsMinSearchers?: number
  suggestionsExcluded?: string[]
}

/** One criterion of a search's sort (Meilisearch's `attribute:asc`), checked against the sortable attributes. */
export interface SortCriterion {
  attribute: string
  order: 'asc' | 'desc'
}

export interface HybridQuery {
  /** 0 = the keyword result exactly, 1 = semantic only. */
  semanticRatio: number
  /** The query's embedding, unit length. */
  vector: Float32Array
}

export interface SearchQuery {
  /** The processed query text; empty to browse. */
  q: string
  filter: FilterNode | null
  facets: string[]
  limit: number
  offset: number
  hybrid?: HybridQuery
  /** Which query words a hit must contain (Meilisearch's matchingStrategy); absent: matchingStrategyDefault. */
  matchingStrategy?: MatchingStrategy
  /** Meilisearch's sort ranking rule, most important criterion first; absent or empty: relevance alone. */
  sort?: SortCriterion[]
  /** Also return each hit's ranking score (Meilisearch's showRankingScore). */
  rankingScore?: boolean
}

export interface SearchResult {
  hits: Document[]
  /** Each hit's ranking score in [0, 1], in hit order, when the query asked for them. */
  scores?: number[]
  estimatedTotalHits: number
  facetDistribution?: Record<string, Record<string, number>>
  /**
   * For a hybrid query: the items its keyword side matched (filter included), when the engine can
   * tell without more work; autocomplete suggests only searches whose keyword results exist.
   */
  keywordHits?: number
}

/** One search, as autocomplete's popular searches count it (see recordQuery). */
export interface RecordedSearch {
  /** The items its keyword search matched (a hybrid search's keyword side); null: not known, the count kept is left as it is. */
  keywordHits: number | null
  /** Who made it (see searcherOf in engine/searchers.ts); stored only as a keyed hash. */
  searcher: string
}

/** A popular search as both engines keep it: folded, how often made, by how many searchers, with how many keyword hits (null: not known yet). */
export interface PopularSearch {
  query: string
  count: number
  /** Distinct searchers counted: each is counted while it has fewer than the catalog's suggestionsMinSearchers. */
  searchers: number
  hits: number | null
}

/** A page of a catalog's popular searches, the most searched first. */
export interface PopularSearches {
  searches: PopularSearch[]
  /** How many the catalog keeps. */
  total: number
}

/**
 * A facet search (Meilisearch's facet-search): the values of one facet that begin with `facetQuery`,
 * counted over the documents the keyword search `q` and `filter` match, as its facetDistribution
 * counts them.
 */
export interface FacetSearchQuery {
  /** A facetable attribute. */
  facet: string
  /** The processed facet query; without a letter or digit (see foldWords), every value. */
  facetQuery: string
  /** The processed search query whose matches are counted; without a word, every document the filter allows. */
  q: string
  filter: FilterNode | null
  /** As a search's; absent: matchingStrategyDefault. */
  matchingStrategy?: MatchingStrategy
  /** The values counted over a hybrid search's matches instead, as its facetDistribution counts them; absent: a keyword search's. */
  hybrid?: HybridQuery
}

/**
 * A batch of items as the request's bytes. POST /documents hands these on unparsed: with a writer
 * thread, parsing, checking and hashing 1,000 items (about 30 ms of CPU) happen there, not on the
 * event loop that answers every other request.
 */
export interface RawBatch {
  format: 'json' | 'ndjson'
  bytes: Uint8Array
}

/** One vector per text, in order; null for a text that means nothing (stored without a vector). */
export type EmbedTexts = (texts: string[]) => Promise<Array<Float32Array | null>>

/** The counts of a catalog import (the answer of POST /documents). */
export interface IngestResult {
  received: number
  indexed: number
  unchanged: number
  total: number
}

/** A document ready to store, with the embedding of its text when hybrid search is on. */
export interface PreparedDocument {
  document: Document
  /**
   * documentHash of the document and its embedded text, computed once by the ingestion that compared
   * it with the stored one. Without it (a direct write) the next import writes the document again.
   */
  hash?: string
  /**
   * The embedding of the document's text (unit length); null when it was embedded but has no text
   * that means anything (a title such as "🎧"): stored without a vector, found by keyword only.
   * Absent when embeddings are off.
   */
  vector?: Float32Array | null
}

/**
 * One project's index. The port keeps Meilisearch's concepts (an index per project, settings,
 * documents, search request and response) so that its Meilisearch adapter is a translation.
 */
export interface EngineIndex {
  settings (): Promise<IndexSettings>
  updateSettings (settings: IndexSettings): Promise<IndexSettings>
  /** Adds or replaces documents by id, all or nothing. */
  upsert (documents: PreparedDocument[]): Promise<{ indexed: number }>
  /**
   * Parses, validates and writes a batch sent as bytes (see ingest/documents.ts's ingestBatch) away
   * from the event loop, when the engine can; undefined, nothing written, above `maxItems` items.
   */
  ingestBatch?: (raw: RawBatch, embed: EmbedTexts | undefined, maxItems: number) => Promise<IngestResult | undefined>
  remove (id: string): Promise<boolean>
  get (id: string): Promise<Document | undefined>
  /**
   * The stored documents with these ids that the filter allows (every one of them without a filter),
   * in no particular order; an id naming no document is left out. Search rules read their pinned
   * items with it: a pin shows only what the search's filter would let through.
   */
  getMany (ids: string[], filter: FilterNode | null): Promise<Document[]>
  count (): Promise<number>
  /** Content hashes of the stored documents with these ids (see engine/hash.ts). */
  storedHashes (ids: string[]): Promise<Map<string, string>>
  search (query: SearchQuery): Promise<SearchResult>
  /**
   * The facet's string and boolean values matching the facet query, at most limits.facetValuesMax,
   * in facet order (engine/facet-order.ts); numbers are never hits, as in Meilisearch.
   */
  facetSearch (query: FacetSearchQuery): Promise<FacetHit[]>
  /** Suggestions for a partial term, most popular first. */
  suggest (term: string, limit: number, offset: number): Promise<string[]>
  /**
   * The query with each misspelled word replaced by its closest indexed term, for embedding: a
   * sentence encoder does not forgive typos the way keyword search does.
   */
  correct (query: string): Promise<string>
  /**
   * Records a search so that popular searches feed the suggestions: one more time made, its keyword
   * hits when known, and its searcher while it has fewer than the catalog's suggestionsMinSearchers.
   * A search is suggested once it has that many searchers, keyword hits, and is not excluded.
   */
  recordQuery (query: string, search: RecordedSearch): Promise<void>
  /** The catalog's popular searches, suggested or not, the most searched first (the console lists them). */
  popularSearches (limit: number, offset: number): Promise<PopularSearches>
}

/** A knowledge document on its way in, as it will be stored: what was sent (a pair's question as title, its answer as content). */
export interface IncomingKnowledge {
  id: string
  kind: KnowledgeKind
  title: string
  content: string
  /** How a page's content is written; absent for a pair. */
  format?: 'markdown' | 'html' | 'text'
  url?: string
  /**
   * The page already parsed and chunked on a thread (an uploaded file, on a thread of its own; a crawled
   * page, from the parse its links came from): stored as these rather than chunked from `content`.
   */
  chunks?: Chunk[]
}

/** A knowledge document split into chunks, ready to store. */
export interface PreparedKnowledge {
  document: IncomingKnowledge
  /** knowledgeHash(document): an unchanged document is neither embedded nor written again. */
  hash: string
  /** At least one. */
  chunks: Chunk[]
  /**
   * One embedding per chunk (unit length; null for a chunk whose text means nothing); absent when
   * embeddings are off.
   */
  vectors?: Array<Float32Array | null>
}

export interface StoredKnowledge extends IncomingKnowledge {
  chunks: Chunk[]
  /** ISO 8601 UTC. */
  updatedAt: string
}

/** A stored document as `list` gives it, without its text (knowledge/listing.ts answers it as the contracts' KnowledgeSummary). */
export interface ListedKnowledge {
  id: string
  kind: KnowledgeKind
  title: string
  url?: string
  chunks: number
  updatedAt: string
}

export interface KnowledgeQuery {
  /** The processed query text (see processQuery); without a word it finds nothing. */
  q: string
  limit: number
  hybrid?: HybridQuery
}

/** A chunk a knowledge search found (routes/knowledge.ts answers it as the contracts' KnowledgeHit). */
export interface ChunkHit {
  documentId: string
  chunkId: string
  kind: KnowledgeKind
  title: string
  section: string
  url?: string
  text: string
  /** In [0, 1]; hits come in decreasing score. */
  score: number
}

/** One project's knowledge: documents searched by their chunks (spec/knowledge.md). */
export interface KnowledgeIndex {
  /** Adds or replaces documents by id with their chunks, all or nothing. */
  upsert (documents: PreparedKnowledge[]): Promise<void>
  remove (id: string): Promise<boolean>
  get (id: string): Promise<StoredKnowledge | undefined>
  /** Documents ordered by id, with the number of documents (of `kind`, when given). */
  list (page: { limit: number, offset: number, kind?: KnowledgeKind }): Promise<{ results: ListedKnowledge[], total: number }>
  count (): Promise<number>
  /**
   * Content hashes of the stored documents with these ids, leaving out those that must be written
   * again: with embeddings on, a document embedded by another model (or not at all).
   */
  storedHashes (ids: string[]): Promise<Map<string, string>>
  search (query: KnowledgeQuery): Promise<ChunkHit[]>
}

export interface SearchEngine {
  index (projectId: string): Promise<EngineIndex>
  /** The project's knowledge index, beside its catalog. */
  knowledge (projectId: string): Promise<KnowledgeIndex>
  /** Readiness: resolves when the engine can serve (cheap, called by every `/readyz`), throws otherwise. */
  ping (): Promise<void>
  close (): Promise<void>
}
