/**
 * The port's requests and settings as Meilisearch's, and Meilisearch's answers as the port's. Pure
 * functions: the tests check every translation without a server.
 */
import type { DocumentsQuery, Embedders, SearchForFacetValuesParams, SearchForFacetValuesResponse, SearchParams, SearchResponse, Settings } from 'meilisearch'
import { limits, matchingStrategyDefault, type FacetHit } from '@chatsearch/contracts'
import { byCount } from '../../engine/facet-order.js'
import type { Document, FacetSearchQuery, IndexSettings, SearchQuery, SearchResult, SortCriterion } from '../../engine/port.js'
import { filterToMeilisearch, type FilterNode } from '@chatsearch/filter'
import { foldWords, tokenize } from '../../text.js'
import { EMBEDDER, hybridParams, portScore, SUGGESTION_RANKING_RULES } from './ranking.js'

export { EMBEDDER }

/**
 * Our bookkeeping on each stored document: `{ hash, embedder }` (see storedHashes). Never shown:
 * cleanDocument drops it, with the fields Meilisearch itself adds to hits.
 */
export const BOOKKEEPING = '_chatsearch'

/** Fields that are never part of a catalog item as the API shows it. */
const ENGINE_FIELDS = [BOOKKEEPING, '_vectors', '_rankingScore', '_rankingScoreDetails', '_semanticScore', '_formatted', '_matchesPosition', '_geoDistance', '_federation']

/**
 * An attribute no document has. Meilisearch reads an empty `searchableAttributes` as "every
 * attribute"; the port's empty list means "none", as in the embedded engine.
 */
const NO_ATTRIBUTE = '_chatsearch_none'

/**
 * The catalog index's settings. Facet counts and facet search need an attribute to be filterable in
 * Meilisearch, so facetable attributes are filterable there too; which of them the API lets a filter
 * use is checked against our own settings before Meilisearch is asked. Facet values come the most
 * frequent first, at most limits.facetValuesMax, as on the embedded engine (the facet search keeps
 * that many too, by count). Sortable attributes, synonyms and stop words are Meilisearch's own, always
 * sent, so that settings without them leave none there either (Meilisearch applies them itself: what
 * engine/query-terms.ts imitates). Ranking rules and typo tolerance keep Meilisearch's defaults (the
 * embedded engine imitates those), whose `sort` rule applies a search's sort after words, typo,
 * proximity and attribute. Facet search is left on as Meilisearch's default (`facetSearch: true`).
 */
export function catalogSettings (settings: IndexSettings): Settings {
  return {
    searchableAttributes: settings.searchableAttributes.length > 0 ? [...settings.searchableAttributes] : [NO_ATTRIBUTE],
    filterableAttributes: [...new Set([...settings.filterableAttributes, ...settings.facetableAttributes])],
    sortableAttributes: [...settings.sortableAttributes ?? []],
    ...wordSettings(settings),
    faceting: { maxValuesPerFacet: limits.facetValuesMax, sortFacetValuesBy: { '*': 'count' } },
    // estimatedTotalHits and the deepest page are capped by maxTotalHits (1000 by default).
    pagination: { maxTotalHits: limits.searchWindowMax }
  }
}

/**
 * The catalog's synonyms and stop words as Meilisearch's settings, copied. The suggestions index is
 * given them too (see SUGGESTIONS_SETTINGS): autocomplete then reads a term as the catalog's search
 * does, stop words left out but for the word being typed, a complete word found by its synonyms.
 */
export function wordSettings (settings: IndexSettings): Pick<Settings, 'synonyms' | 'stopWords'> {
  return {
    synonyms: Object.fromEntries(Object.entries(settings.synonyms ?? {}).map(([key, alternatives]): [string, string[]] => [key, [...alternatives]])),
    stopWords: [...settings.stopWords ?? []]
  }
}

/** Vectors of `dimensions` numbers, computed by us, for the hybrid search's semantic side. */
export const embedderSettings = (dimensions: number): Embedders => ({ [EMBEDDER]: { source: 'userProvided', dimensions } })

/**
 * The suggestions index: one document per completion (see suggestions.ts). Every query word must
 * match, the last as a prefix, with Meilisearch's typo tolerance; exact matches come before typo
 * matches, then the most popular first. The completions searched for are read by `searches` (the
 * console's list of popular searches, and weighing them again when autocomplete's rules change).
 * Set when the index is made, and on an index made before `searches` was filterable the first time
 * it is read so (see MeilisearchIndex); the catalog's synonyms and stop words (wordSettings) are
 * sent with each change of the catalog's settings.
 */
export const SUGGESTIONS_SETTINGS: Settings = {
  searchableAttributes: ['text'],
  filterableAttributes: ['weight', 'searches'],
  sortableAttributes: ['weight', 'searches'],
  rankingRules: SUGGESTION_RANKING_RULES
}

/** A sort criterion as Meilisearch writes it: `price:asc` (Meilisearch reads the attribute up to the last colon). */
const sortParam = ({ attribute, order }: SortCriterion) => `${attribute}:${order}`

/**
 * A search as Meilisearch's search parameters (the ranking choices are ranking.ts's), with the
 * query's matching strategy and sort, Meilisearch's own. A query without a word (emoji,
 * punctuation) is sent as the empty placeholder search, without `hybrid`: a browse, as the embedded
 * engine answers it (Meilisearch would take an emoji for a word), which a sort orders whole.
 *
 * Highlight and crop are never sent (no attributesToHighlight, attributesToCrop, cropLength,
 * cropMarker or tags): the route computes `_formatted` for both engines (engine/format.ts), and
 * cleanDocument drops any Meilisearch adds. Meilisearch's `_formatted` is not HTML-escaped, and
 * escaping it afterwards cannot tell the tags it inserted from the same text in an item (a title
 * holding "<em>"); computing it ourselves also gives the same words marked and the same crop on both
 * engines.
 */
export function searchParams (query: SearchQuery): SearchParams {
  const browse = tokenize(query.q).length === 0
  const matchingStrategy = query.matchingStrategy ?? matchingStrategyDefault
  const params: SearchParams = { q: browse ? '' : query.q, limit: query.limit, offset: query.offset, matchingStrategy }
  if (query.filter !== null) params.filter = filterToMeilisearch(query.filter)
  if (query.facets.length > 0) params.facets = [...query.facets]
  if (query.sort !== undefined && query.sort.length > 0) params.sort = query.sort.map(sortParam)
  if (query.rankingScore === true) params.showRankingScore = true
  return browse ? params : { ...params, ...hybridParams(query.hybrid) }
}

/**
 * A facet search as Meilisearch's facet-search parameters. As in searchParams, a search query
 * without a word is the placeholder search; a facet query without a letter or digit is left out
 * (every value), as the embedded engine reads it (Meilisearch would look for values beginning with
 * the emoji). Counts are asked exhaustive: Meilisearch otherwise estimates them, and they are to
 * equal the search's facetDistribution. A hybrid query's semantic side is sent as searchParams sends
 * it (Meilisearch's facet search takes `hybrid` and `vector` too), not with the placeholder search.
 */
export function facetSearchParams (query: FacetSearchQuery): SearchForFacetValuesParams {
  const params: SearchForFacetValuesParams = {
    facetName: query.facet,
    q: tokenize(query.q).length === 0 ? '' : query.q,
    matchingStrategy: query.matchingStrategy ?? matchingStrategyDefault,
    exhaustiveFacetCount: true
  }
  if (foldWords(query.facetQuery) !== '') params.facetQuery = query.facetQuery
  if (query.filter !== null) params.filter = filterToMeilisearch(query.filter)
  return params.q === '' ? params : { ...params, ...hybridParams(query.hybrid) }
}

/**
 * Documents by id that a filter allows (a search rule's pinned items), as Meilisearch's documents
 * read: with a filter, the client sends it as POST …/documents/fetch, where Meilisearch applies both
 * (the filter's attributes are filterable: the route checked them). At most one page of them.
 */
export function documentsFetch (ids: string[], filter: FilterNode | null): DocumentsQuery {
  return { ids: [...ids], limit: ids.length, ...(filter === null ? {} : { filter: filterToMeilisearch(filter) }) }
}

/** Meilisearch's facet hits in the embedded engine's order (engine/facet-order.ts): its ties come by value descending. */
export function facetHits (response: SearchForFacetValuesResponse): FacetHit[] {
  return response.facetHits
    .map(({ value, count }) => [value, count] as [string, number])
    .sort(byCount)
    .slice(0, limits.facetValuesMax)
    .map(([value, count]) => ({ value, count }))
}

/** A stored document or a hit as the API shows it: without our bookkeeping or Meilisearch's additions. */
export function cleanDocument (stored: Record<string, unknown>): Document {
  const document = { ...stored }
  for (const field of ENGINE_FIELDS) delete document[field]
  return document as Document
}

/** Meilisearch's answer as the port's result. */
export function searchResult (response: SearchResponse, query: SearchQuery): SearchResult {
  const result: SearchResult = {
    hits: response.hits.map(cleanDocument),
    estimatedTotalHits: response.estimatedTotalHits ?? response.totalHits ?? response.hits.length
  }
  if (query.rankingScore === true) result.scores = response.hits.map((hit) => portScore(hit._rankingScore))
  if (query.facets.length > 0) {
    const distribution = response.facetDistribution ?? {}
    result.facetDistribution = Object.fromEntries(query.facets.map((facet) => [facet, distribution[facet] ?? {}]))
  }
  return result
}

/** The result of a search of a catalog that has no index yet. */
export function emptyResult (query: SearchQuery): SearchResult {
  const result: SearchResult = { hits: [], estimatedTotalHits: 0 }
  if (query.rankingScore === true) result.scores = []
  if (query.facets.length > 0) result.facetDistribution = Object.fromEntries(query.facets.map((facet) => [facet, {}]))
  return result
}

/**
 * A catalog item as stored in Meilisearch: with its vector and our bookkeeping. An item embedded to
 * no vector (its text means nothing, see PreparedDocument) says so with `null`, which Meilisearch
 * takes as "no embedding" for a userProvided embedder, and counts as embedded by `embedder`: it is
 * not embedded again on the next import.
 */
export function storedDocument (document: Document, hash: string, embedder: string, vector: Float32Array | null | undefined): Record<string, unknown> {
  return {
    ...document,
    [BOOKKEEPING]: { hash, embedder: vector === undefined ? 'none' : embedder },
    ...(vector === undefined ? {} : { _vectors: { [EMBEDDER]: vector === null ? null : Array.from(vector) } })
  }
}

/**
 * The content hash of a stored document for ingestion's change detection, when it still counts:
 * with embeddings on, a document embedded by another model (or not at all) must be written again.
 */
export function storedHash (stored: Record<string, unknown>, embedder: string): string | undefined {
  const bookkeeping = stored[BOOKKEEPING] as { hash?: unknown, embedder?: unknown } | undefined
  if (typeof bookkeeping?.hash !== 'string') return undefined
  if (embedder !== 'none' && bookkeeping.embedder !== embedder) return undefined
  return bookkeeping.hash
}
