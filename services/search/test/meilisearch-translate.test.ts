import t from 'tap'
import { MatchingStrategies, type SearchForFacetValuesParams, type SearchForFacetValuesResponse, type SearchParams, type SearchResponse, type Settings } from 'meilisearch'
import { Value } from 'typebox/value'
import { CatalogSettings, matchingStrategyDefault } from '@chatsearch/contracts'
import { parseFilter } from '@chatsearch/filter'
import type { FacetSearchQuery, SearchQuery } from '../src/engine/port.js'
import {
  catalogSettings, cleanDocument, documentsFetch, embedderSettings, emptyResult, facetHits, facetSearchParams, searchParams, searchResult, storedDocument, storedHash, SUGGESTIONS_SETTINGS, wordSettings
} from '../src/engines/meilisearch/translate.js'
import { meilisearchContract } from './meilisearch-contract/contract.js'

const query = (extra: Partial<SearchQuery> = {}): SearchQuery => ({ q: 'hiking boot', filter: null, facets: [], limit: 20, offset: 0, ...extra })

/** What Meilisearch would refuse in a request with this body, by its OpenAPI document (none: it takes it). */
const refused = (method: string, path: string, body: unknown) => meilisearchContract().checkRequest(method, new URL(path, 'http://meilisearch'), body).violations
const settingsRefused = (settings: Settings) => refused('PATCH', '/indexes/cs-catalog-shop/settings', settings)
const searchRefused = (params: SearchParams) => refused('POST', '/indexes/cs-catalog-shop/search', params)
const facetSearchRefused = (params: SearchForFacetValuesParams) => refused('POST', '/indexes/cs-catalog-shop/facet-search', params)

t.test('settings → the catalog index settings payload', async (t) => {
  t.same(catalogSettings({ searchableAttributes: ['title', 'brand', 'description'], filterableAttributes: ['price', 'brand'], facetableAttributes: ['brand', 'color'] }), {
    searchableAttributes: ['title', 'brand', 'description'],
    filterableAttributes: ['price', 'brand', 'color'],
    sortableAttributes: [],
    synonyms: {},
    stopWords: [],
    faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'count' } },
    pagination: { maxTotalHits: 10_000 }
  }, 'facetable attributes are filterable in Meilisearch; ranking rules and typo tolerance are not sent (defaults kept, sort among them); no synonyms nor stop words sent as none')
  t.same(catalogSettings({ searchableAttributes: ['title'], filterableAttributes: ['brand'], facetableAttributes: [], sortableAttributes: ['price', 'rating.users'] }).sortableAttributes,
    ['price', 'rating.users'], 'sortable attributes are Meilisearch\'s own')
  const unsortable = catalogSettings({ searchableAttributes: ['title'], filterableAttributes: [], facetableAttributes: [], sortableAttributes: [] })
  t.same(unsortable.sortableAttributes, [], 'none is sent as none: settings that drop a sortable attribute drop it in Meilisearch too')
  t.same(settingsRefused(unsortable), [], 'and Meilisearch takes none')
  t.same(settingsRefused(catalogSettings({ searchableAttributes: ['title', 'brand'], filterableAttributes: ['brand'], facetableAttributes: ['color'], sortableAttributes: ['price', 'rating.users'] })), [],
    'settings Meilisearch takes')
  t.same(catalogSettings({ searchableAttributes: [], filterableAttributes: [], facetableAttributes: [] }).searchableAttributes, ['_chatsearch_none'],
    'no searchable attribute is not Meilisearch\'s [] (which means all of them)')
  t.same(embedderSettings(512), { default: { source: 'userProvided', dimensions: 512 } })
  t.same(SUGGESTIONS_SETTINGS, {
    searchableAttributes: ['text'],
    filterableAttributes: ['weight', 'searches'],
    sortableAttributes: ['weight', 'searches'],
    rankingRules: ['words', 'typo', 'weight:desc', 'proximity', 'attribute', 'exactness']
  })
  t.same(settingsRefused(SUGGESTIONS_SETTINGS), [])
})

t.test('synonyms and stop words are Meilisearch\'s own, sent as the API took them', async (t) => {
  const three = { searchableAttributes: ['title'], filterableAttributes: [], facetableAttributes: [] }
  const settings = {
    ...three,
    synonyms: { phone: ['smartphone', 'mobile phone'], 'San Francisco': ['SF'], sf: ['san francisco'], Résumé: ['CV'], 'hiking boot': ['trail shoe', 'trekking boot'] },
    stopWords: ['the', 'of', 'À']
  }
  t.ok(Value.Check(CatalogSettings, settings), 'settings the API accepts')
  // Typed as the client's Settings: what Meilisearch's PATCH /settings takes.
  const sent: Settings = catalogSettings(settings)
  t.same(sent.synonyms, settings.synonyms, 'keys and alternatives as written: Meilisearch folds case and accents itself, and multi-word ones are its own')
  t.same(sent.stopWords, settings.stopWords)
  t.same(settingsRefused(sent), [], 'multi-word keys and alternatives are Meilisearch\'s synonyms')
  t.same(wordSettings(settings), { synonyms: settings.synonyms, stopWords: settings.stopWords }, 'the suggestions index gets the same (autocomplete reads a term with them)')
  t.same(settingsRefused(wordSettings(settings)), [])
  t.not(sent.synonyms, settings.synonyms, 'a copy: the settings kept by the adapter are not Meilisearch\'s payload')
  t.not(sent.synonyms?.phone, settings.synonyms.phone)
  t.same(wordSettings(three), { synonyms: {}, stopWords: [] }, 'absent is none, sent as none: settings that drop them drop them in Meilisearch too')
  t.same(settingsRefused(wordSettings(three)), [])
  t.same(wordSettings({ ...three, synonyms: {}, stopWords: [] }), { synonyms: {}, stopWords: [] })
  const suggestionKeys = Object.keys(SUGGESTIONS_SETTINGS)
  t.notOk(suggestionKeys.includes('synonyms') || suggestionKeys.includes('stopWords'), 'the suggestions index\'s own settings do not reset them')
})

t.test('search query → Meilisearch search parameters', async (t) => {
  t.same(searchParams(query()), { q: 'hiking boot', limit: 20, offset: 0, matchingStrategy: 'last' }, 'keyword: the default matching strategy, nothing else sent')
  t.same(searchParams(query({ q: '', limit: 5, offset: 15 })), { q: '', limit: 5, offset: 15, matchingStrategy: 'last' }, 'browsing is a placeholder search')

  const filter = parseFilter('brand = Trailmark AND (price 60 TO 80 OR price >= 200) AND NOT tags IN [sale, "last chance"] AND color EXISTS AND size IS NOT NULL AND title CONTAINS boot AND sku STARTS WITH "tr-"')
  t.equal(searchParams(query({ filter })).filter,
    'brand = "Trailmark" AND (price "60" TO "80" OR price >= "200") AND tags NOT IN ["sale", "last chance"] AND color EXISTS AND size IS NOT NULL AND title CONTAINS "boot" AND sku STARTS WITH "tr-"',
    'the filter tree as Meilisearch\'s normalised filter string (every operator: filter-meilisearch.test.ts)')

  t.same(searchParams(query({ facets: ['brand', 'in_stock'] })).facets, ['brand', 'in_stock'])
  t.notOk('facets' in searchParams(query()), 'no facets asked, none sent')
  t.equal(searchParams(query({ rankingScore: true })).showRankingScore, true)
  t.notOk('showRankingScore' in searchParams(query({ rankingScore: false })))

  const vector = Float32Array.from([0.5, -0.25, 0.125])
  t.same(searchParams(query({ hybrid: { semanticRatio: 0.7, vector } })), {
    q: 'hiking boot',
    limit: 20,
    offset: 0,
    matchingStrategy: 'last',
    hybrid: { embedder: 'default', semanticRatio: 0.7 },
    vector: [0.5, -0.25, 0.125]
  }, 'hybrid: our embedder\'s query vector with the semantic ratio')
  t.same(searchParams(query({ hybrid: { semanticRatio: 1, vector } })).hybrid, { embedder: 'default', semanticRatio: 1 })
  const keywordOnly = searchParams(query({ hybrid: { semanticRatio: 0, vector } }))
  t.notOk('hybrid' in keywordOnly || 'vector' in keywordOnly, 'ratio 0 is the keyword search as is')

  const filter2 = parseFilter('in_stock = true')
  for (const q of ['', '🎧', '?!', '   ', '🎧 ?! …']) {
    t.same(searchParams(query({ q, filter: filter2, facets: ['brand'], limit: 3, offset: 2, hybrid: { semanticRatio: 0.7, vector } })),
      { q: '', limit: 3, offset: 2, matchingStrategy: 'last', filter: 'in_stock = "true"', facets: ['brand'] },
      `${JSON.stringify(q)}: no word, so a placeholder search (a browse) with its filter, facets and page, as on the embedded engine`)
  }
  t.equal(searchParams(query({ q: 'c++ 🎧' })).q, 'c++ 🎧', 'a query with a word goes as typed')
})

t.test('the matching strategy is Meilisearch\'s own, sent as asked', async (t) => {
  const strategies: Array<NonNullable<SearchQuery['matchingStrategy']>> = ['last', 'all', 'frequency']
  for (const matchingStrategy of strategies) {
    // Typed as the client's SearchParams: a value Meilisearch does not know would not compile.
    const params: SearchParams = searchParams(query({ matchingStrategy }))
    t.same(params, { q: 'hiking boot', limit: 20, offset: 0, matchingStrategy }, matchingStrategy)
    t.same(searchRefused(params), [], `${matchingStrategy}: Meilisearch takes it`)
    const vector = Float32Array.from([1, 0])
    const hybrid = searchParams(query({ matchingStrategy, hybrid: { semanticRatio: 0.5, vector } }))
    t.equal(hybrid.matchingStrategy, matchingStrategy, `${matchingStrategy}: the keyword side of a hybrid search too`)
    t.same(searchRefused(hybrid), [])
  }
  t.equal(searchParams(query()).matchingStrategy, matchingStrategyDefault, 'absent: the contracts\' default')
  t.equal(matchingStrategyDefault, 'last', 'Meilisearch\'s default')
  t.same(Object.values(MatchingStrategies).sort(), [...strategies].sort(), 'the API offers exactly the strategies Meilisearch has')
})

t.test('the sort is Meilisearch\'s own, sent as attribute:order', async (t) => {
  const sort: NonNullable<SearchQuery['sort']> = [{ attribute: 'price', order: 'asc' }, { attribute: 'rating.users', order: 'desc' }]
  // Typed as the client's SearchParams: Meilisearch's POST search takes the sort as a list.
  const params: SearchParams = searchParams(query({ sort }))
  t.same(params, { q: 'hiking boot', limit: 20, offset: 0, matchingStrategy: 'last', sort: ['price:asc', 'rating.users:desc'] }, 'most important first, as asked')
  t.same(searchRefused(params), [], 'a sort Meilisearch takes')
  const browse = searchParams(query({ q: '', sort }))
  t.same(browse.sort, ['price:asc', 'rating.users:desc'], 'a browse (placeholder search) is sorted too')
  t.same(searchRefused(browse), [])
  t.same(searchParams(query({ q: '🎧', sort })).sort, ['price:asc', 'rating.users:desc'], 'a query without a word as well')
  const vector = Float32Array.from([1, 0])
  const hybrid = searchParams(query({ sort, hybrid: { semanticRatio: 0.5, vector } }))
  t.same(hybrid.sort, ['price:asc', 'rating.users:desc'], 'and a hybrid search')
  t.same(searchRefused(hybrid), [])
  t.same(searchParams(query({ sort: [{ attribute: 'a:b', order: 'desc' }] })).sort, ['a:b:desc'], 'Meilisearch reads the attribute up to the last colon')
  t.notOk('sort' in searchParams(query()), 'no sort asked, none sent')
  t.notOk('sort' in searchParams(query({ sort: [] })), 'nor for an empty one')
})

t.test('Meilisearch response → search result', async (t) => {
  const response = {
    hits: [
      { id: 'a', title: 'A', _chatsearch: { hash: 'h', embedder: 'e' }, _vectors: { default: [1] }, _rankingScore: 0.987654, _own: 1 },
      { id: 'b', title: 'B', _chatsearch: { hash: 'h2', embedder: 'e' }, _rankingScore: 0.5 }
    ],
    query: 'x',
    processingTimeMs: 1,
    limit: 20,
    offset: 0,
    estimatedTotalHits: 42,
    facetDistribution: { brand: { Acme: 2 } }
  } as SearchResponse
  const result = searchResult(response, query({ rankingScore: true, facets: ['brand', 'color'] }))
  t.same(result.hits, [{ id: 'a', title: 'A', _own: 1 }, { id: 'b', title: 'B' }], 'no bookkeeping, vectors or scores in hits; the item\'s own _fields stay')
  t.same(result.scores, [0.9877, 0.5], 'scores in hit order, rounded as the embedded engine\'s')
  t.equal(result.estimatedTotalHits, 42)
  t.same(result.facetDistribution, { brand: { Acme: 2 }, color: {} }, 'every asked facet is there')
  const plain = searchResult(response, query())
  t.notOk('scores' in plain || 'facetDistribution' in plain, 'only what was asked')
  t.same(emptyResult(query({ rankingScore: true, facets: ['brand'] })), { hits: [], estimatedTotalHits: 0, scores: [], facetDistribution: { brand: {} } })
})

t.test('facet search → Meilisearch facet-search parameters', async (t) => {
  const facetQuery = (extra: Partial<FacetSearchQuery> = {}): FacetSearchQuery => ({ facet: 'brand', facetQuery: 'trail', q: 'hiking boot', filter: null, ...extra })
  // Typed as the client's parameters: a field Meilisearch's facet-search does not take would not compile.
  const params: SearchForFacetValuesParams = facetSearchParams(facetQuery())
  t.same(params, { facetName: 'brand', facetQuery: 'trail', q: 'hiking boot', matchingStrategy: 'last', exhaustiveFacetCount: true },
    'Meilisearch\'s own names; counts asked exhaustive, so that they equal the search\'s facetDistribution')
  t.same(facetSearchRefused(params), [], 'a facet search Meilisearch takes')
  t.same(facetSearchParams(facetQuery({ matchingStrategy: 'all' })).matchingStrategy, 'all', 'the matching strategy as asked')
  const filtered = facetSearchParams(facetQuery({ matchingStrategy: 'frequency', filter: parseFilter('in_stock = true AND price < 100') }))
  t.equal(filtered.filter, 'in_stock = "true" AND price < "100"', 'the filter as for a search')
  t.same(facetSearchRefused(filtered), [])
  for (const facet of ['', ' ', '🎧', '-', '…']) {
    t.notOk('facetQuery' in facetSearchParams(facetQuery({ facetQuery: facet })), `${JSON.stringify(facet)}: no letter or digit, so every value, as on the embedded engine`)
  }
  t.equal(facetSearchParams(facetQuery({ facetQuery: 'Navy-Bl' })).facetQuery, 'Navy-Bl', 'a facet query with a word goes as typed')
  for (const q of ['', '🎧 ?!']) t.equal(facetSearchParams(facetQuery({ q })).q, '', `${JSON.stringify(q)}: a placeholder search, every item counted`)
  t.same(facetSearchRefused(facetSearchParams(facetQuery({ q: '', facetQuery: '' }))), [], 'every value of every item: nothing but the facet')
  t.same(facetSearchParams(facetQuery({ facet: 'variants.color' })).facetName, 'variants.color')
  const hybrid = facetSearchParams(facetQuery({ hybrid: { semanticRatio: 0.6, vector: Float32Array.from([0.5, 0.5]) } }))
  t.same(hybrid.hybrid, { embedder: 'default', semanticRatio: 0.6 }, 'hybrid: the semantic side as a search sends it')
  t.same(hybrid.vector, [0.5, 0.5], 'with our query vector')
  t.same(facetSearchRefused(hybrid), [], 'a hybrid facet search Meilisearch takes')
  t.notOk('hybrid' in facetSearchParams(facetQuery({ hybrid: { semanticRatio: 0, vector: Float32Array.from([1]) } })), 'a ratio of 0: the keyword search as is')
  t.notOk('hybrid' in facetSearchParams(facetQuery({ q: '', hybrid: { semanticRatio: 0.6, vector: Float32Array.from([1]) } })), 'no word: the placeholder search, keyword only')
})

t.test('Meilisearch facet hits → the port\'s, in facet order', async (t) => {
  const response: SearchForFacetValuesResponse = {
    facetHits: [{ value: 'Trailblazer', count: 2 }, { value: 'Trailmark', count: 2 }, { value: 'trail co', count: 5 }, { value: 'Atrail', count: 2 }],
    facetQuery: 'trail',
    processingTimeMs: 1
  }
  t.same(facetHits(response), [
    { value: 'trail co', count: 5 },
    { value: 'Atrail', count: 2 },
    { value: 'Trailblazer', count: 2 },
    { value: 'Trailmark', count: 2 }
  ], 'the most frequent first, equal counts by value ascending (Meilisearch answers them descending)')
  const many: SearchForFacetValuesResponse = { facetHits: Array.from({ length: 150 }, (_, i) => ({ value: `v${i}`, count: i + 1 })), facetQuery: null, processingTimeMs: 1 }
  const kept = facetHits(many)
  t.equal(kept.length, 100, 'at most limits.facetValuesMax')
  t.same([kept[0], kept.at(-1)], [{ value: 'v149', count: 150 }, { value: 'v50', count: 51 }], 'the most frequent of them')
  t.same(facetHits({ facetHits: [], facetQuery: 'x', processingTimeMs: 0 }), [])
})

t.test('highlight and crop are the service\'s own: nothing is sent, and Meilisearch\'s _formatted is dropped', async (t) => {
  const params = searchParams(query({ rankingScore: true, facets: ['brand'], sort: [{ attribute: 'price', order: 'asc' }] }))
  for (const name of ['attributesToHighlight', 'attributesToCrop', 'cropLength', 'cropMarker', 'highlightPreTag', 'highlightPostTag', 'showMatchesPosition']) {
    t.notOk(name in params, name)
  }
  const response = {
    hits: [{ id: 'a', title: '<b>A</b>', _formatted: { id: 'a', title: '<em><b>A</b></em>' }, _matchesPosition: { title: [] } }],
    query: 'a',
    processingTimeMs: 1,
    limit: 20,
    offset: 0,
    estimatedTotalHits: 1
  } as unknown as SearchResponse
  t.same(searchResult(response, query()).hits, [{ id: 'a', title: '<b>A</b>' }], 'the route formats the hit as stored')
})

t.test('stored documents carry their vector and a hidden content hash', async (t) => {
  const document = { id: 'p1', title: 'Pan' }
  const vector = Float32Array.from([0.25, 0.75])
  const stored = storedDocument(document, 'hash-1', 'use-lite:512', vector)
  t.same(stored, { id: 'p1', title: 'Pan', _chatsearch: { hash: 'hash-1', embedder: 'use-lite:512' }, _vectors: { default: [0.25, 0.75] } })
  t.same(cleanDocument(stored), document)
  t.equal(storedHash(stored, 'use-lite:512'), 'hash-1')
  t.equal(storedHash(stored, 'none'), 'hash-1', 'with embeddings off, any stored vector will do')
  t.equal(storedHash(stored, 'openai:x:5'), undefined, 'another model: written again, with a new vector')
  const noVector = storedDocument(document, 'hash-2', 'use-lite:512', undefined)
  t.same(noVector, { id: 'p1', title: 'Pan', _chatsearch: { hash: 'hash-2', embedder: 'none' } })
  t.equal(storedHash(noVector, 'use-lite:512'), undefined, 'an item never embedded gets embedded once embeddings are on')
  t.equal(storedHash({ id: 'old' }, 'none'), undefined)
  const meaningless = storedDocument({ id: 'p2', title: '🎧' }, 'hash-3', 'use-lite:512', null)
  t.same(meaningless, { id: 'p2', title: '🎧', _chatsearch: { hash: 'hash-3', embedder: 'use-lite:512' }, _vectors: { default: null } },
    'embedded to no vector (nothing in its text means anything): null, Meilisearch\'s "no embedding"')
  t.same(cleanDocument(meaningless), { id: 'p2', title: '🎧' })
  t.equal(storedHash(meaningless, 'use-lite:512'), 'hash-3', 'not embedded again on the next import')
})

t.test('a search rule\'s pinned items → a documents read by ids and filter, one Meilisearch accepts', async (t) => {
  const contract = meilisearchContract()
  const filtered = documentsFetch(['sku-1', 'sku-2'], parseFilter('in_stock = true AND price < 100'))
  t.same(filtered, { ids: ['sku-1', 'sku-2'], limit: 2, filter: 'in_stock = "true" AND price < "100"' }, 'the filter as a search sends it; one page of them')
  t.same(contract.check('BrowseQuery', filtered), [])
  const plain = documentsFetch(['sku-1'], null)
  t.same(plain, { ids: ['sku-1'], limit: 1 }, 'no filter: none sent (the client then reads by GET)')
  t.same(contract.check('BrowseQuery', plain), [])
})
