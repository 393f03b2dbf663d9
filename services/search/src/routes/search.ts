import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import {
  AutocompleteBody, AutocompleteResponse, FacetSearchBody, FacetSearchResponse, SearchBody, SearchResponse, bodyErrors, errorResponses, hitFieldTypes, isOfHitType, limits, matchingStrategyDefault, searchErrors, type SearchHit
} from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { isUsableVector } from '@chatsearch/embeddings'
import { checkFilterable, FilterError, matchPatterns, parseFilter, type FilterNode } from '@chatsearch/filter'
import type { EngineIndex, HybridQuery, IndexSettings, SearchQuery, SortCriterion } from '../engine/port.js'
import { processQuery, tokenize } from '../text.js'
import { queryRules, queryTerms } from '../engine/query-terms.js'
import { autocompleteKey, facetSearchKey, searchKey } from '../response-cache.js'
import { formatHit, formatOptions } from '../engine/format.js'
import { applicableRules } from '../rules/match.js'
import { ruleEffect, searchWithRules } from '../rules/apply.js'
import { searcherOf } from '../engine/searchers.js'
import type { QueryVectors } from '../query-vectors.js'

const elapsedMs = (started: number) => Math.round(performance.now() - started)

function pageOf (limit: number | null | undefined, offset: number | null | undefined, defaultLimit: number) {
  const page = { limit: limit ?? defaultLimit, offset: offset ?? 0 }
  if (page.offset + page.limit > limits.searchWindowMax) {
    throw new ApiError('invalid_request', `offset + limit must not exceed ${limits.searchWindowMax} (got ${page.offset + page.limit})`)
  }
  return page
}

function filterOf (text: string | null | undefined, settings: IndexSettings): FilterNode | null {
  if (text === undefined || text === null) return null
  try {
    const node = parseFilter(text)
    if (node !== null) checkFilterable(node, settings.filterableAttributes)
    return node
  } catch (err) {
    if (err instanceof FilterError) throw new ApiError('invalid_filter', err.message)
    throw err
  }
}

function facetsOf (facets: string[] | null | undefined, settings: IndexSettings): string[] {
  const wanted = [...new Set(facets ?? [])]
  const unknown = wanted.filter((f) => !settings.facetableAttributes.includes(f))
  if (unknown.length > 0) {
    throw new ApiError('invalid_facet', `not facetable: ${unknown.join(', ')}; facetable attributes are: ${settings.facetableAttributes.join(', ') || '(none)'}`)
  }
  return wanted
}

/** One criterion of `sort` as Meilisearch reads it: the attribute is what comes before the last colon. */
function sortCriterion (text: string): SortCriterion {
  const colon = text.lastIndexOf(':')
  const order = text.slice(colon + 1)
  if (colon <= 0 || (order !== 'asc' && order !== 'desc')) {
    throw new ApiError('invalid_sort', `${JSON.stringify(text)} is not a sort criterion: write attribute:asc or attribute:desc`)
  }
  return { attribute: text.slice(0, colon), order }
}

/**
 * The sort of a search, each attribute sortable. As in Meilisearch, a sortable attribute also makes
 * the paths under it sortable (`rating` allows `rating.users`), and the message lists what is.
 */
function sortOf (sort: string[] | null | undefined, settings: IndexSettings): SortCriterion[] {
  const criteria = (sort ?? []).map(sortCriterion)
  const sortable = settings.sortableAttributes ?? []
  const refused = criteria.find(({ attribute }) => matchPatterns(sortable, attribute) !== 'match')
  if (refused !== undefined) {
    const available = sortable.length === 0
      ? 'This index does not have configured sortable attributes.'
      : `Available sortable attributes are: ${[...sortable].sort().map((a) => `\`${a}\``).join(', ')}.`
    throw new ApiError('invalid_sort', `Attribute \`${refused.attribute}\` is not sortable. ${available}`)
  }
  return criteria
}

/**
 * What a search tells autocomplete of its keyword results: a keyword search's total, a hybrid
 * search's keyword side when the engine counted it (undefined: not). A filtered search that found
 * nothing tells nothing: without the filter the query may well find items.
 */
/**
 * A hit as the response promises it: a typed field (hitFieldTypes) holding another type, stored
 * before POST /documents refused one, is shown as null (the serializer would otherwise fail the
 * whole search, or turn "yes" into true). The item itself is unchanged (GET /documents/{id}).
 * Returns the hit itself when nothing is amiss, and the fields shown as null.
 */
function conformHit (hit: SearchHit): { hit: SearchHit, nulled: string[] } {
  let nulled: string[] | undefined
  for (const [field, type] of Object.entries(hitFieldTypes)) {
    const value = (hit as Record<string, unknown>)[field]
    if (value !== undefined && value !== null && !isOfHitType(type, value)) (nulled ??= []).push(field)
  }
  if (nulled === undefined) return { hit, nulled: [] }
  return { hit: { ...hit, ...Object.fromEntries(nulled.map((f) => [f, null])) }, nulled }
}

function keywordHitsOf (hits: number | undefined, filters: string | null | undefined): number | null {
  if (hits === undefined) return null
  return hits === 0 && (filters ?? '').trim() !== '' ? null : hits
}

/**
 * The semantic side of a search or facet search whose search_type is hybrid (400
 * hybrid_search_disabled on a server without embeddings). None for a keyword search, or for a query
 * without a word (empty, emoji, punctuation): there is nothing to embed, so the search is a keyword
 * browse, as Meilisearch's empty query is.
 */
async function semanticSide (queryVectors: QueryVectors | undefined, index: EngineIndex, query: string,
  body: { search_type?: 'keyword' | 'hybrid' | undefined, semantic_ratio?: number | undefined }): Promise<HybridQuery | undefined> {
  if (body.search_type !== 'hybrid') return undefined
  if (queryVectors === undefined) throw new ApiError('hybrid_search_disabled', 'hybrid search is switched off on this server (EMBEDDINGS=false); search with search_type keyword')
  if (tokenize(query).length === 0) return undefined
  const vector = await queryVectors.vector(await index.correct(query))
  return isUsableVector(vector) ? { semanticRatio: body.semantic_ratio ?? limits.semanticRatioDefault, vector } : undefined
}

export async function searchRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  // Searches of the project's own clients only: those of our services (the chat's retrieval, the
  // console's playground and catalog browsing, on the service token) would count as shoppers' and
  // feed their queries to autocomplete. The searcher autocomplete counts is the consumer, or else
  // the client address (request.ip: the proxy's own unless trustProxy names it). Their answers
  // still carry a query_id, the same field for every caller; POST /events refuses it, as it names
  // no recorded search.
  const record = (request: FastifyRequest, kind: 'search' | 'autocomplete', consumerId: string | null | undefined, query: string, hits: number, latencyMs: number,
    keywordHits: number | null = null, queryId: string | null = null) => {
    if (request.principal.keyId === 'service') return
    app.analytics.record({
      projectId: request.principal.projectId,
      kind,
      queryId,
      consumerId: consumerId ?? null,
      searcher: searcherOf(consumerId, request.ip),
      query,
      hits,
      keywordHits,
      latencyMs,
      at: new Date()
    })
  }

  api.post('/search', {
    config: { rateLimit: 'search' },
    schema: {
      operationId: 'search',
      tags: ['search'],
      summary: 'Keyword or hybrid search of the project catalog',
      description: 'The project\'s search rules (GET /rules) that apply to the search_term are applied to the answer: ' +
        'hidden items are left out, pinned items shown at their positions when they exist and the filters allow them. ' +
        'Each answer carries a query_id of its own, which POST /events names when the shopper clicks a hit or converts.',
      body: SearchBody,
      response: { 200: SearchResponse, ...errorResponses(...bodyErrors, ...searchErrors.search) }
    }
  }, async (request): Promise<SearchResponse> => {
    const started = performance.now()
    // Each answer is one search for POST /events, a cached one too: what the shopper then clicks is theirs.
    const queryId = randomUUID()
    const body = request.body
    const page = pageOf(body.limit, body.offset, limits.searchLimitDefault)
    const query = processQuery(body.search_term)
    const { projectId } = request.principal
    const rules = applicableRules(await app.searchRules.read(projectId), query, Date.now())
    // The version is read before searching: a catalog write finishing meanwhile bumps it, so what
    // is computed here is stored under the old version and never served after the write.
    const cached = await app.searchCache.lookup(projectId, searchKey({ ...body, ...page, query, rules }))
    if (cached.value !== undefined) {
      const hit = JSON.parse(cached.value) as SearchResponse
      hit.query_id = queryId
      hit.processingTimeMs = elapsedMs(started)
      // A cached hybrid answer holds no keyword count; the search that computed it recorded one.
      const keywordHits = keywordHitsOf(body.search_type === 'hybrid' ? undefined : hit.estimatedTotalHits, body.filters)
      record(request, 'search', body.consumer_id, query, hit.estimatedTotalHits, hit.processingTimeMs, keywordHits, queryId)
      return hit
    }
    const index = await app.engine.index(projectId)
    const settings = await index.settings()
    const filter = filterOf(body.filters, settings)
    const facets = facetsOf(body.facets, settings)
    const sort = sortOf(body.sort, settings)
    const hybrid = await semanticSide(app.catalogQueryVectors, index, query, body)
    const searchQuery: SearchQuery = {
      q: query,
      filter,
      facets,
      ...page,
      ...(hybrid === undefined ? {} : { hybrid }),
      matchingStrategy: body.matching_strategy ?? matchingStrategyDefault,
      ...(sort.length === 0 ? {} : { sort }),
      rankingScore: body.show_ranking_score === true
    }
    // Pins and hides are the service's, after the engine, whichever engine it is (rules/apply.ts).
    const effect = ruleEffect(rules)
    const result = effect === undefined ? await index.search(searchQuery) : await searchWithRules(index, searchQuery, effect)
    const scores = result.scores
    // Highlight and crop are ours on both engines (engine/format.ts): Meilisearch's own _formatted
    // is not HTML-escaped, and escaping it afterwards cannot tell its tags from a catalog's text.
    const format = formatOptions(body)
    // The words the search matched, with the catalog's stop words and synonyms, on both engines.
    const terms = format === undefined ? undefined : queryTerms(query, queryRules(settings))
    const conformed = result.hits.map(conformHit)
    const amiss = conformed.filter((c) => c.nulled.length > 0)
    if (amiss.length > 0) {
      request.log.warn({ items: amiss.map((c) => ({ id: c.hit.id, fields: c.nulled })) }, 'items hold a field of another type than hits show; shown as null (import them again)')
    }
    const found = amiss.length === 0 ? result.hits : conformed.map((c) => c.hit)
    const hits: SearchHit[] = scores === undefined && terms === undefined
      ? found
      : found.map((hit, i) => ({
        ...hit,
        ...(scores === undefined ? {} : { _rankingScore: scores[i] }),
        ...(format === undefined || terms === undefined ? {} : { _formatted: formatHit(hit, terms.words, format, terms.synonyms) })
      }))
    const processingTimeMs = elapsedMs(started)
    const keywordHits = keywordHitsOf(result.keywordHits ?? (hybrid === undefined ? result.estimatedTotalHits : undefined), body.filters)
    record(request, 'search', body.consumer_id, query, result.estimatedTotalHits, processingTimeMs, keywordHits, queryId)
    const response: SearchResponse = {
      hits,
      query,
      query_id: queryId,
      processingTimeMs,
      ...page,
      estimatedTotalHits: result.estimatedTotalHits,
      ...(body.facets === undefined || body.facets === null ? {} : { facetDistribution: result.facetDistribution ?? {} })
    }
    cached.store(JSON.stringify(response))
    return response
  })

  // Not recorded for analytics: a facet search is a shopper narrowing a filter list, not a search
  // of the catalog, and its search_term is the one of a search already recorded.
  api.post('/facet-search', {
    config: { rateLimit: 'search' },
    schema: {
      operationId: 'facetSearch',
      tags: ['search'],
      summary: 'Values of one facet that begin with a query, counted over the items a search matches',
      description: 'As Meilisearch\'s facet search. `facet_hits` are the facet\'s string and boolean values beginning with ' +
        `\`facet_query\` (case and accents ignored, punctuation too on the embedded engine, typos allowed by its length), at most ${limits.facetValuesMax}, ` +
        'the most frequent first; each count is the one POST /search\'s facetDistribution gives for the same search_term, ' +
        'filters and matching_strategy, a keyword search unless search_type is hybrid (then as a hybrid search\'s first page of the default limit).',
      body: FacetSearchBody,
      response: { 200: FacetSearchResponse, ...errorResponses(...bodyErrors, ...searchErrors.facetSearch) }
    }
  }, async (request): Promise<FacetSearchResponse> => {
    const started = performance.now()
    const body = request.body
    const facetQuery = processQuery(body.facet_query ?? '')
    const query = processQuery(body.search_term ?? '')
    const { projectId } = request.principal
    // As for a search: the version is read first, so an answer computed across a write is never served after it.
    const cached = await app.searchCache.lookup(projectId, facetSearchKey({ ...body, facet_query: facetQuery, query }))
    if (cached.value !== undefined) {
      const hit = JSON.parse(cached.value) as FacetSearchResponse
      hit.processingTimeMs = elapsedMs(started)
      return hit
    }
    const index = await app.engine.index(projectId)
    const settings = await index.settings()
    // 400 invalid_facet unless facetable, as a search's facets.
    facetsOf([body.facet_name], settings)
    const filter = filterOf(body.filters, settings)
    const hybrid = await semanticSide(app.catalogQueryVectors, index, query, body)
    const facetHits = await index.facetSearch({
      facet: body.facet_name,
      facetQuery,
      q: query,
      filter,
      matchingStrategy: body.matching_strategy ?? matchingStrategyDefault,
      ...(hybrid === undefined ? {} : { hybrid })
    })
    const response: FacetSearchResponse = { facet_hits: facetHits, facet_query: facetQuery, processingTimeMs: elapsedMs(started) }
    cached.store(JSON.stringify(response))
    return response
  })

  api.post('/autocomplete', {
    config: { rateLimit: 'search' },
    schema: {
      operationId: 'autocomplete',
      tags: ['search'],
      summary: 'Suggestions for a partial search term',
      body: AutocompleteBody,
      response: { 200: AutocompleteResponse, ...errorResponses(...bodyErrors, ...searchErrors.autocomplete) }
    }
  }, async (request): Promise<AutocompleteResponse> => {
    const started = performance.now()
    const body = request.body
    const page = pageOf(body.limit, body.offset, limits.autocompleteLimitDefault)
    const query = processQuery(body.autocomplete_term)
    const { projectId } = request.principal
    const cached = await app.searchCache.lookup(projectId, autocompleteKey(query, page.limit, page.offset))
    if (cached.value !== undefined) {
      const hit = JSON.parse(cached.value) as AutocompleteResponse
      hit.processingTimeMs = elapsedMs(started)
      record(request, 'autocomplete', body.consumer_id, query, hit.suggestions.length, hit.processingTimeMs)
      return hit
    }
    const index = await app.engine.index(projectId)
    const suggestions = await index.suggest(query, page.limit, page.offset)
    const processingTimeMs = elapsedMs(started)
    record(request, 'autocomplete', body.consumer_id, query, suggestions.length, processingTimeMs)
    const response = { suggestions, query, processingTimeMs, ...page }
    cached.store(JSON.stringify(response))
    return response
  })
}
