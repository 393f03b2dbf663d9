import t, { type Test } from 'tap'
import { Meilisearch } from 'meilisearch'
import type { IndexSettings, PreparedDocument, PreparedKnowledge, SearchQuery } from '../src/engine/port.js'
import { MeilisearchEngine } from '../src/engines/meilisearch/engine.js'
import { DOCUMENT_CODES, ENGINE_CODES, REQUEST_CODES } from '../src/engines/meilisearch/errors.js'
import { chunkRecords } from '../src/engines/meilisearch/knowledge-translate.js'
import { suggestionId } from '../src/engines/meilisearch/suggestions.js'
import { storedDocument, SUGGESTIONS_SETTINGS } from '../src/engines/meilisearch/translate.js'
import { filterToMeilisearch, parseFilter } from '@chatsearch/filter'
import { MeilisearchContract, meilisearchContract } from './meilisearch-contract/contract.js'
import { FakeMeilisearch } from './meilisearch-contract/fake-meilisearch.js'

// The Meilisearch adapter against Meilisearch's own contract: its OpenAPI document for the version
// docker-compose pins (test/meilisearch-contract/README.md). Each request the adapter sends through
// the client is checked against it, and each answer the adapter reads is one the document allows;
// no Meilisearch server runs (see fake-meilisearch.ts for what the fake cannot answer).

const MODEL = { id: 'test-model:4', dimensions: 4 }
const CATALOG = 'cs-catalog-shop'
const SUGGEST = 'cs-suggest-shop'
const KNOWLEDGE = 'cs-knowledge-shop'
const TASK = 'GET /tasks/{task_id}'
const SETTINGS: IndexSettings = { searchableAttributes: ['title', 'brand'], filterableAttributes: ['brand', 'price'], facetableAttributes: ['brand'], sortableAttributes: ['price'] }
const vector = (...values: number[]) => Float32Array.from(values)

function meilisearch (t: Test, embedder = MODEL, knowledgeEmbedder = embedder) {
  const fake = new FakeMeilisearch()
  const engine = new MeilisearchEngine({ url: fake.host, indexPrefix: 'cs-', taskTimeoutMs: 5000, httpClient: fake.httpClient }, embedder, undefined, knowledgeEmbedder)
  t.teardown(() => engine.close())
  /** The operations sent since the last call, without the task polls between them. */
  const sent = () => fake.take().filter((op) => op !== TASK)
  return { fake, engine, sent }
}

/** A catalog that has had its first import: its settings and embedder are in the suggestions index. */
function seedCatalog (fake: FakeMeilisearch, embedder: string, documents: Array<Record<string, unknown>> = [], hits: Array<Record<string, unknown>> = []) {
  fake.seed(CATALOG, { documents, hits })
  fake.seed(SUGGEST, { documents: [{ id: '_settings', weight: 0, settings: SETTINGS, embedder }] })
}

const item = (id: string, title: string, brand: string, price: number, v: Float32Array | null): PreparedDocument =>
  ({ document: { id, title, brand, price }, hash: `h-${id}`, vector: v })

t.test('the checks refuse what Meilisearch refuses, and the corrections are needed', async (t) => {
  const contract = meilisearchContract()
  t.equal(contract.document.info.version, '1.53.0', 'the document of the version docker-compose pins (v1.53.x)')
  t.same(contract.check('SearchQuery', { q: 'kettle', facets: ['brand'], hybrid: { embedder: 'default', semanticRatio: 0.5 }, vector: [0.5] }), [])
  t.match(contract.check('SearchQuery', { q: 'kettle', attributesToSnippet: ['title'] }).join('; '), /additional properties \(attributesToSnippet\)/)
  t.not(contract.check('SearchQuery', { q: 'kettle', hybrid: { embedder: 'default', ratio: 0.5 } }).length, 0, 'an unknown field of hybrid')
  t.not(contract.check('Settings_Unchecked', { faceting: { maxValuesPerFacet: 100, sortBy: {} } }).length, 0, 'an unknown field of a nested setting')
  t.not(contract.check('EmbeddingSettings', { source: 'userProvided', dimensions: 4, size: 4 }).length, 0, 'an unknown field of an embedder')
  t.type(contract.route('POST', '/indexes/shop/serch'), 'string', 'a path Meilisearch does not have')
  t.type(contract.route('PUT', '/indexes/shop/settings'), 'string', 'a method the path does not take')
  t.same(contract.checkRequest('GET', new URL('http://m/indexes/shop/documents?idz=a'), undefined).violations, ['unknown query parameter idz'])
  t.not(contract.checkRequest('GET', new URL('http://m/tasks/first'), undefined).violations.length, 0, 'a task uid is a number')
  t.not(contract.checkRequest('POST', new URL('http://m/indexes/shop/search'), undefined).violations.length, 0, 'a search has a body')

  // What the published document gets wrong, each corrected in corrections.ts.
  const published = MeilisearchContract.load({ corrected: false })
  t.not(published.check('SearchQuery', { facets: ['brand'] }).length, 0, 'as published, facets would be an object (AttributePatterns)')
  t.same(published.check('SearchQuery', { q: 'x', attributesToSnippet: ['title'] }), [], 'as published, unknown search fields would pass')
  const patchEmbedders = (c: MeilisearchContract, body: unknown) => c.checkRequest('PATCH', new URL('http://m/indexes/shop/settings/embedders'), body).violations
  t.not(patchEmbedders(published, { default: null }).length, 0, 'as published, null (remove the embedder) would be refused')
  t.same(patchEmbedders(contract, { default: null }), [])
  const unknownField = { default: { source: 'userProvided', dimensions: 4, size: 4 } }
  t.same(patchEmbedders(published, unknownField), [], 'as published, an unknown embedder field would pass')
  t.not(patchEmbedders(contract, unknownField).length, 0)
})

t.test('every error code the adapter names is one Meilisearch sends', async (t) => {
  const codes = new Set(meilisearchContract().document.components.schemas.Code!.enum as string[])
  // errors.ts's sets and map, and the codes the adapters branch on one by one (errors.ts, index.ts, knowledge-index.ts, writes.ts)
  const named = [...DOCUMENT_CODES, ...ENGINE_CODES, ...REQUEST_CODES.keys(), 'invalid_document_sort',
    'feature_not_enabled', 'payload_too_large', 'document_not_found', 'index_not_found', 'index_already_exists']
  t.same(named.filter((code) => !codes.has(code)), [], 'no code Meilisearch never sends')
  for (const code of ['invalid_vectors_type', 'invalid_search_embedder']) t.ok(ENGINE_CODES.has(code), `${code}: the adapter's vectors or embedder, a 503`)
})

t.test('every answer field the adapter reads is one Meilisearch declares', async (t) => {
  const contract = meilisearchContract()
  const reads: Array<[string, string[]]> = [
    ['SearchResult', ['hits', 'estimatedTotalHits', 'totalHits', 'facetDistribution']], // translate.ts, knowledge-translate.ts, suggestions.ts
    ['SearchHit', ['_rankingScore', '_rankingScoreDetails']],
    ['PaginationView_Value', ['results', 'total']], // documents read by ids or by filter
    ['IndexStats', ['numberOfDocuments']], // the catalog's count
    ['SummarizedTaskView', ['taskUid']], // the client, to wait for a write
    ['TaskView', ['status', 'error']], // writes.ts
    ['ResponseError', ['code', 'message']], // errors.ts, from an answer or a failed task
    ['EmbeddingSettings', ['source', 'dimensions']] // the knowledge index's embedder (GET …/settings/embedders)
  ]
  for (const [schema, fields] of reads) for (const field of fields) t.ok(contract.declares(schema, field), `${schema}.${field}`)
  t.notOk(contract.declares('SearchHit', 'typoCount'), 'the checks can fail: a field no answer declares')
})

t.test('catalog settings, embedder and documents on the wire', async (t) => {
  const { fake, engine, sent } = meilisearch(t)
  seedCatalog(fake, 'none')
  const index = await engine.index('shop')
  await index.updateSettings(SETTINGS)
  t.same(sent(), ['GET /indexes/{index_uid}/documents/{document_id}', 'PATCH /indexes/{index_uid}/settings', 'PATCH /indexes/{index_uid}/settings', 'POST /indexes/{index_uid}/documents'],
    'the stored settings read, Meilisearch\'s applied to the catalog and the suggestions, ours stored')
  t.match(fake.lastBody('PATCH /indexes/{index_uid}/settings', CATALOG), { searchableAttributes: ['title', 'brand'], sortableAttributes: ['price'], synonyms: {}, stopWords: [], faceting: {}, pagination: {} })
  t.same(fake.lastBody('PATCH /indexes/{index_uid}/settings', SUGGEST), { synonyms: {}, stopWords: [] }, 'the suggestions use the same synonyms and stop words')

  await index.updateSettings({ ...SETTINGS, synonyms: { kettle: ['tea kettle', 'boiler'] }, stopWords: ['the', 'a'] })
  t.match(fake.lastBody('PATCH /indexes/{index_uid}/settings', CATALOG), { synonyms: { kettle: ['tea kettle', 'boiler'] }, stopWords: ['the', 'a'] }, 'synonyms and stop words as Meilisearch\'s own')
  t.same(fake.lastBody('PATCH /indexes/{index_uid}/settings', SUGGEST), { synonyms: { kettle: ['tea kettle', 'boiler'] }, stopWords: ['the', 'a'] })
  sent()

  await index.upsert([item('k1', 'Zephyr Kettle', 'Quillon', 30, vector(0.5, 0.5, 0.5, 0.5)), item('k2', '🎧', 'Orsk', 12, null)])
  const upsert = sent()
  t.ok(upsert.includes('PATCH /indexes/{index_uid}/settings/embedders'), 'the first embedded batch declares our embedder')
  t.notOk(upsert.includes('DELETE /indexes/{index_uid}/settings/embedders'), 'nothing to reset before it')
  t.same(fake.lastBody('PATCH /indexes/{index_uid}/settings/embedders', CATALOG), { default: { source: 'userProvided', dimensions: 4 } })
  t.same(fake.document(CATALOG, 'k1')?._vectors, { default: [0.5, 0.5, 0.5, 0.5] })
  t.same(fake.document(CATALOG, 'k2')?._vectors, { default: null }, 'an item whose text means nothing: null, no embedding')
  t.ok(fake.document(SUGGEST, suggestionId('quillon')), 'the phrases counted in the suggestions index')

  t.same(await index.get('k1'), { id: 'k1', title: 'Zephyr Kettle', brand: 'Quillon', price: 30 })
  t.equal(await index.count(), 2)
  t.same(await index.storedHashes(['k1', 'k2', 'gone']), new Map([['k1', 'h-k1'], ['k2', 'h-k2']]))
  t.equal(await index.remove('k1'), true)
  t.same(sent(), [
    'GET /indexes/{index_uid}/documents/{document_id}', 'GET /indexes/{index_uid}/stats', 'GET /indexes/{index_uid}/documents',
    'GET /indexes/{index_uid}/documents', 'DELETE /indexes/{index_uid}/documents/{document_id}', 'GET /indexes/{index_uid}/documents',
    'POST /indexes/{index_uid}/documents/delete-batch'
  ], 'read by id, counted, hashes by ids in the URL; the removed item\'s phrases dropped with it')
  await engine.ping()
  t.same(sent(), ['GET /health'])
  t.same(fake.violations, [], 'every request one Meilisearch v1.53 accepts, every answer one it gives')
})

t.test('catalog: another model\'s embedder is reset before ours is declared', async (t) => {
  const { fake, engine, sent } = meilisearch(t)
  seedCatalog(fake, 'other-model:8')
  await (await engine.index('shop')).upsert([item('k1', 'Zephyr Kettle', 'Quillon', 30, vector(1, 0, 0, 0))])
  t.same(sent().filter((op) => op.endsWith('/settings/embedders')), ['DELETE /indexes/{index_uid}/settings/embedders', 'PATCH /indexes/{index_uid}/settings/embedders'],
    'reset (its vectors dropped), then ours declared')
  t.same(fake.violations, [])
})

t.test('catalog searches on the wire: keyword, hybrid, filter, facets, sort, matching strategy, scores', async (t) => {
  const { fake, engine, sent } = meilisearch(t)
  const stored = [
    storedDocument({ id: 'k1', title: 'Zephyr Kettle', brand: 'Quillon', price: 30 }, 'h1', MODEL.id, vector(1, 0, 0, 0)),
    storedDocument({ id: 'k2', title: 'Zephyr Teapot', brand: 'Orsk', price: 12 }, 'h2', MODEL.id, vector(0, 1, 0, 0))
  ]
  seedCatalog(fake, MODEL.id, stored, [{ ...stored[1], _rankingScore: 0.912345 }, { ...stored[0], _rankingScore: 0.5 }])
  const index = await engine.index('shop')
  const query: SearchQuery = {
    q: 'zephyr',
    filter: parseFilter('brand IN [Quillon, Orsk] AND price < 50'),
    facets: ['brand'],
    limit: 10,
    offset: 0,
    hybrid: { semanticRatio: 0.4, vector: vector(0.25, 0.25, 0.25, 0.25) },
    matchingStrategy: 'all',
    sort: [{ attribute: 'price', order: 'asc' }],
    rankingScore: true
  }
  const result = await index.search(query)
  t.same(sent(), ['GET /indexes/{index_uid}/documents/{document_id}', 'POST /indexes/{index_uid}/search'])
  const body = fake.lastBody('POST /indexes/{index_uid}/search', CATALOG) as Record<string, unknown>
  t.match(body, {
    q: 'zephyr',
    limit: 10,
    offset: 0,
    matchingStrategy: 'all',
    filter: String,
    facets: ['brand'],
    sort: ['price:asc'],
    showRankingScore: true,
    hybrid: { embedder: 'default', semanticRatio: 0.4 },
    vector: [0.25, 0.25, 0.25, 0.25]
  }, 'the keyword side with its filter, facets, sort and matching strategy; the semantic side with our query vector')
  for (const field of ['attributesToHighlight', 'attributesToCrop', 'cropLength', 'cropMarker', 'highlightPreTag']) t.notOk(field in body, `no ${field}: _formatted is the service's`)
  t.same(result, {
    hits: [{ id: 'k2', title: 'Zephyr Teapot', brand: 'Orsk', price: 12 }, { id: 'k1', title: 'Zephyr Kettle', brand: 'Quillon', price: 30 }],
    estimatedTotalHits: 2,
    scores: [0.9123, 0.5],
    facetDistribution: { brand: { Orsk: 1, Quillon: 1 } }
  }, 'hits without our bookkeeping or vectors; Meilisearch\'s scores and facet counts')

  await index.search({ q: 'kettle', filter: parseFilter('title CONTAINS kett'), facets: [], limit: 5, offset: 0 })
  t.same(sent(), ['PATCH /experimental-features', 'POST /indexes/{index_uid}/search'], 'CONTAINS: the containsFilter feature switched on first')
  t.same(fake.lastBody('PATCH /experimental-features'), { containsFilter: true })

  await index.search({ q: '🎧', filter: null, facets: [], limit: 5, offset: 0, hybrid: query.hybrid })
  t.match(fake.lastBody('POST /indexes/{index_uid}/search', CATALOG), { q: '', limit: 5 })
  t.notOk('hybrid' in (fake.lastBody('POST /indexes/{index_uid}/search', CATALOG) as object), 'no word: a browse, keyword only')
  t.same(fake.violations, [])
})

t.test('facet search on the wire', async (t) => {
  const { fake, engine, sent } = meilisearch(t)
  const stored = [
    storedDocument({ id: 'k1', title: 'Zephyr Kettle', brand: 'Quillon', price: 30 }, 'h1', MODEL.id, vector(1, 0, 0, 0)),
    storedDocument({ id: 'k2', title: 'Zephyr Teapot', brand: 'Quince', price: 12 }, 'h2', MODEL.id, vector(0, 1, 0, 0)),
    storedDocument({ id: 'k3', title: 'Zephyr Mug', brand: 'Quince', price: 8 }, 'h3', MODEL.id, vector(0, 0, 1, 0))
  ]
  seedCatalog(fake, MODEL.id, stored, stored)
  const index = await engine.index('shop')
  const hits = await index.facetSearch({ facet: 'brand', facetQuery: 'qu', q: 'zephyr', filter: parseFilter('price < 50'), matchingStrategy: 'all' })
  t.same(sent(), ['GET /indexes/{index_uid}/documents/{document_id}', 'POST /indexes/{index_uid}/facet-search'])
  t.match(fake.lastBody('POST /indexes/{index_uid}/facet-search', CATALOG), {
    facetName: 'brand', facetQuery: 'qu', q: 'zephyr', filter: String, matchingStrategy: 'all', exhaustiveFacetCount: true
  }, 'Meilisearch\'s own facet search, with exact counts')
  t.same(hits, [{ value: 'Quince', count: 2 }, { value: 'Quillon', count: 1 }], 'the values, most frequent first')
  await index.facetSearch({ facet: 'brand', facetQuery: '', q: 'zephyr', filter: null, hybrid: { semanticRatio: 0.4, vector: vector(0.25, 0.25, 0.25, 0.25) } })
  t.match(fake.lastBody('POST /indexes/{index_uid}/facet-search', CATALOG), {
    facetName: 'brand', q: 'zephyr', hybrid: { embedder: 'default', semanticRatio: 0.4 }, vector: [0.25, 0.25, 0.25, 0.25]
  }, 'hybrid: the semantic side with our query vector, as a search sends it')
  t.same(fake.violations, [])
})

t.test('a search rule\'s pinned items read by ids and the search\'s filter, on the wire', async (t) => {
  const { fake, engine, sent } = meilisearch(t)
  const stored = [
    storedDocument({ id: 'k1', title: 'Zephyr Kettle', brand: 'Quillon', price: 30 }, 'h1', MODEL.id, vector(1, 0, 0, 0)),
    storedDocument({ id: 'k2', title: 'Zephyr Teapot', brand: 'Orsk', price: 12 }, 'h2', MODEL.id, vector(0, 1, 0, 0)),
    storedDocument({ id: 'k3', title: 'Zephyr Mug', brand: 'Orsk', price: 8 }, 'h3', MODEL.id, vector(0, 0, 1, 0))
  ]
  seedCatalog(fake, MODEL.id, stored)
  const index = await engine.index('shop')
  const filter = parseFilter('brand = Orsk AND price < 50')
  const documents = await index.getMany(['k1', 'k3', 'gone', '../keys'], filter)
  t.same(sent(), ['GET /indexes/{index_uid}/documents/{document_id}', 'POST /indexes/{index_uid}/documents/fetch'], 'one read, by ids and filter together')
  t.same(fake.lastBody('POST /indexes/{index_uid}/documents/fetch', CATALOG), { ids: ['k1', 'k3', 'gone'], limit: 3, filter: filterToMeilisearch(filter!) },
    'an id no item can have is not sent; Meilisearch applies the filter (the fake does not: it answers by ids)')
  t.same(documents, [{ id: 'k1', title: 'Zephyr Kettle', brand: 'Quillon', price: 30 }, { id: 'k3', title: 'Zephyr Mug', brand: 'Orsk', price: 8 }],
    'the items as the API shows them: no bookkeeping, no vectors')
  await index.getMany(['k2'], null)
  t.same(sent(), ['GET /indexes/{index_uid}/documents'], 'without a filter, the ids in the URL')
  t.same(await index.getMany(['../keys'], null), [], 'nothing to ask')
  t.same(sent(), [])
  t.same(fake.violations, [])
})

t.test('autocomplete and counted searches on the wire', async (t) => {
  const { fake, engine, sent } = meilisearch(t)
  seedCatalog(fake, 'none')
  const typos = (typoCount: number) => ({ typo: { order: 1, typoCount, maxTypoCount: 2, score: 1 - typoCount / 3 } })
  fake.seed(SUGGEST, {
    documents: [{ id: '_settings', weight: 0, settings: SETTINGS, embedder: 'none' }],
    hits: [{ text: 'Zephyr Teapot', weight: 5, _rankingScoreDetails: typos(1) }, { text: 'Zephyr Kettle', weight: 3, _rankingScoreDetails: typos(0) }]
  })
  const index = await engine.index('shop')
  t.same(await index.suggest('zephir', 5, 0), ['Zephyr Kettle', 'Zephyr Teapot'], 'fewer typos first, read from the ranking score details')
  t.match(fake.lastBody('POST /indexes/{index_uid}/search', SUGGEST), {
    q: 'zephir', offset: 0, filter: 'weight > 0', matchingStrategy: 'all', attributesToRetrieve: ['text', 'weight'], showRankingScoreDetails: true
  })
  await index.recordQuery('Zephyr Kettle', { keywordHits: 3, searcher: 'c:ann' })
  t.same(sent().slice(-2), ['GET /indexes/{index_uid}/documents', 'POST /indexes/{index_uid}/documents'], 'the search counted into its completion')
  const counted = fake.document(SUGGEST, suggestionId('zephyr kettle'))
  t.match(counted, { text: 'zephyr kettle', searches: 1, lastHits: 3, weight: 0 }, 'one searcher: counted, not suggested')
  t.match(counted?.searchers, [/^[0-9a-f]{16}$/], 'the searcher kept as a keyed hash')
  t.notOk(JSON.stringify(counted).includes('ann'), 'never as the consumer id')
  t.match(fake.document(SUGGEST, '_settings'), { searcherKey: /^[0-9a-f]{64}$/ }, 'the catalog\'s key, made with the first searcher counted')
  await index.recordQuery('zephyr  KETTLE', { keywordHits: 3, searcher: 'c:bob' })
  await index.recordQuery('Zephyr Kettle', { keywordHits: null, searcher: 'a:10.0.0.7' })
  t.match(fake.document(SUGGEST, suggestionId('zephyr kettle')), { searches: 3, lastHits: 3, weight: 15 }, 'three searchers: suggested; hits not known (hybrid) keep the last known')

  // Searched only as hybrid: its keyword hits are looked up once, when it reaches the threshold.
  fake.seed(CATALOG, { hits: [{ id: 'k1', title: 'Zephyr Kettle' }] })
  for (const searcher of ['c:a', 'c:b']) await index.recordQuery('kettle for tea', { keywordHits: null, searcher })
  t.notOk(sent().includes('POST /indexes/{index_uid}/search'), 'two searchers: nothing looked up')
  await index.recordQuery('kettle for tea', { keywordHits: null, searcher: 'c:c' })
  t.same(fake.lastBody('POST /indexes/{index_uid}/search', CATALOG), { q: 'kettle for tea', limit: 0, offset: 0, matchingStrategy: 'last' },
    'the third: one keyword search for its total, no hits, no filter')
  t.match(fake.document(SUGGEST, suggestionId('kettle for tea')), { lastHits: 1, weight: 15 })

  const popular = await index.popularSearches(10, 0)
  t.same(fake.lastBody('POST /indexes/{index_uid}/documents/fetch', SUGGEST), {
    filter: 'searches > 0', sort: ['searches:desc'], fields: ['text', 'searches', 'lastHits', 'searchers'], limit: 10, offset: 0
  }, 'the console\'s list: the completions searched for, the most searched first')
  t.same(popular.searches.map((s) => [s.query, s.count, s.searchers, s.hits]).sort(), [['kettle for tea', 3, 3, 1], ['zephyr kettle', 3, 3, 3]])

  sent()
  await index.updateSettings({ ...SETTINGS, suggestionsMinSearchers: 4 })
  t.ok(sent().includes('POST /indexes/{index_uid}/documents/fetch'), 'a new threshold: the completions searched for are weighed again')
  t.match(fake.document(SUGGEST, suggestionId('zephyr kettle')), { weight: 0 }, 'three searchers are too few now')
  await index.updateSettings({ ...SETTINGS, suggestionsExcluded: ['Kettle  for TEA'] })
  t.same((await index.settings()).suggestionsExcluded, ['kettle for tea'], 'excluded searches kept folded')
  t.match(fake.document(SUGGEST, suggestionId('zephyr kettle')), { weight: 15 }, 'back to three')
  t.match(fake.document(SUGGEST, suggestionId('kettle for tea')), { weight: 0 }, 'excluded')

  // A new catalog's suggestions index gets these settings; the adapter reaches that step only after
  // a 404 the hook cannot give (see fake-meilisearch.ts), so they are sent through the same client.
  const client = new Meilisearch({ host: fake.host, httpClient: fake.httpClient })
  await client.index(SUGGEST).updateSettings(SUGGESTIONS_SETTINGS).waitTask()
  t.same(fake.violations, [])
})

const chunks = [{ id: '0', section: 'Shipping', text: 'We ship to the EU.' }, { id: '1', section: 'Shipping › Costs', text: 'Free over 50 euros.' }]
const shipping = (vectors?: Array<Float32Array | null>): PreparedKnowledge =>
  ({ document: { id: 'shipping', kind: 'page', title: 'Shipping', content: '# Shipping…', format: 'markdown' }, hash: 'h1', chunks, ...(vectors === undefined ? {} : { vectors }) })
const chunkHit = { document_id: 'shipping', chunk_id: '1', kind: 'page', title: 'Shipping', section: 'Shipping › Costs', text: 'Free over 50 euros.', url: null, _rankingScore: 0.8 }
const question = { q: 'shipping costs', limit: 5, hybrid: { semanticRatio: 0.5, vector: vector(0, 0, 1, 0) } }

t.test('the knowledge index on the wire: created, configured, written, read', async (t) => {
  const { fake, engine, sent } = meilisearch(t)
  const knowledge = await engine.knowledge('shop')
  await knowledge.upsert([shipping([vector(1, 0, 0, 0), null])])
  t.same(sent(), [
    'POST /indexes', 'GET /indexes/{index_uid}/settings/embedders', 'PATCH /indexes/{index_uid}/settings',
    'POST /indexes/{index_uid}/documents', 'POST /indexes/{index_uid}/documents/delete'
  ], 'created, its embedders read, configured; the chunks written over the old ones, the old tail deleted')
  t.same(fake.lastBody('PATCH /indexes/{index_uid}/settings', KNOWLEDGE), {
    searchableAttributes: ['title', 'section', 'text'],
    filterableAttributes: ['document_id', 'kind', 'position'],
    sortableAttributes: ['document_id', 'position'],
    embedders: { default: { source: 'userProvided', dimensions: 4 } }
  })
  // The fake does not evaluate filters: what is checked of these reads is what they send.
  await knowledge.list({ limit: 20, offset: 0, kind: 'page' })
  t.match(fake.lastBody('POST /indexes/{index_uid}/documents/fetch', KNOWLEDGE), { filter: 'position = 0 AND kind = "page"', sort: ['document_id:asc'], limit: 20, offset: 0 })
  t.match(await knowledge.get('shipping'), { id: 'shipping', chunks: [{ id: '0' }, { id: '1' }] })
  await knowledge.count()
  t.same(fake.lastBody('POST /indexes/{index_uid}/documents/fetch', KNOWLEDGE), { filter: 'position = 0', fields: ['id'], limit: 1 })
  t.same(await knowledge.storedHashes(['shipping']), new Map([['shipping', 'h1']]))
  t.equal(await knowledge.remove('shipping'), true)
  t.same(sent(), [
    'POST /indexes/{index_uid}/documents/fetch', 'POST /indexes/{index_uid}/documents/fetch', 'POST /indexes/{index_uid}/documents/fetch',
    'POST /indexes/{index_uid}/documents/fetch', 'POST /indexes/{index_uid}/documents/fetch', 'POST /indexes/{index_uid}/documents/delete'
  ], 'reads by filter (POST …/documents/fetch), a removal by filter')
  t.same(fake.violations, [])
})

t.test('a catalog and the knowledge embedded by two embedders (CATALOG_EMBEDDER): each index records its own', async (t) => {
  const { fake, engine } = meilisearch(t, { id: 'catalog-model:4', dimensions: 4 }, { id: 'knowledge-model:4', dimensions: 4 })
  await (await engine.knowledge('shop')).upsert([shipping([vector(1, 0, 0, 0), null])])
  // The first chunk stands for the document and holds its bookkeeping.
  const [first] = fake.lastBody('POST /indexes/{index_uid}/documents', KNOWLEDGE) as Array<{ _chatsearch: { embedder: string } }>
  t.equal(first?._chatsearch.embedder, 'knowledge-model:4', 'the knowledge\'s page: the knowledge\'s embedder')
  seedCatalog(fake, 'none')
  await (await engine.index('shop')).upsert([item('k1', 'Zephyr Kettle', 'Quillon', 30, vector(0, 1, 0, 0))])
  t.same(fake.document(CATALOG, 'k1')?._chatsearch, { hash: 'h-k1', embedder: 'catalog-model:4' }, 'the catalog\'s items: the catalog\'s')
  t.same(fake.violations, [])
})

t.test('the knowledge index asks for hybrid only where it takes our vectors', async (t) => {
  const searchOf = async (embedders: Record<string, Record<string, unknown>>, embedder = MODEL) => {
    const { fake, engine, sent } = meilisearch(t, embedder)
    fake.seed(KNOWLEDGE, { documents: chunkRecords(shipping(), 'none', '2026-01-01T00:00:00.000Z'), embedders, hits: [chunkHit] })
    const knowledge = await engine.knowledge('shop')
    const hits = await knowledge.search(question)
    await knowledge.search(question)
    t.same(fake.violations, [])
    return { hits, ops: sent(), body: fake.lastBody('POST /indexes/{index_uid}/search', KNOWLEDGE) as Record<string, unknown> }
  }
  const declared = await searchOf({ default: { source: 'userProvided', dimensions: 4 } })
  t.match(declared.body, { q: 'shipping costs', matchingStrategy: 'frequency', showRankingScore: true, hybrid: { embedder: 'default', semanticRatio: 0.5 }, vector: [0, 0, 1, 0] })
  t.same(declared.ops, ['GET /indexes/{index_uid}/settings/embedders', 'POST /indexes/{index_uid}/search', 'POST /indexes/{index_uid}/search'],
    'the embedders read once for both searches')
  t.same(declared.hits, [{ documentId: 'shipping', chunkId: '1', kind: 'page', title: 'Shipping', section: 'Shipping › Costs', text: 'Free over 50 euros.', score: 0.8 }])

  // Written while embeddings were off: Meilisearch would refuse hybrid (400 invalid_search_embedder).
  const none = await searchOf({})
  t.notOk('hybrid' in none.body || 'vector' in none.body, 'an index without our embedder: keyword only')
  t.equal(none.hits.length, 1)
  const otherSize = await searchOf({ default: { source: 'userProvided', dimensions: 8 } })
  t.notOk('hybrid' in otherSize.body, 'an embedder of another vector size: keyword only')
  const off = await searchOf({ default: { source: 'userProvided', dimensions: 4 } }, { id: 'none', dimensions: 4 })
  t.notOk('hybrid' in off.body, 'embeddings off here: keyword only')
  t.notOk(off.ops.includes('GET /indexes/{index_uid}/settings/embedders'), 'and the embedders are not read')
})

t.test('the knowledge index resets an embedder of another vector size before declaring ours', async (t) => {
  const upsertOver = async (dimensions: number) => {
    const { fake, engine, sent } = meilisearch(t)
    fake.seed(KNOWLEDGE, { embedders: { default: { source: 'userProvided', dimensions } } })
    await (await engine.knowledge('shop')).upsert([shipping([vector(1, 0, 0, 0), vector(0, 1, 0, 0)])])
    t.same(fake.violations, [])
    return sent()
  }
  t.same((await upsertOver(8)).slice(0, 4), [
    'POST /indexes', 'GET /indexes/{index_uid}/settings/embedders', 'DELETE /indexes/{index_uid}/settings/embedders', 'PATCH /indexes/{index_uid}/settings'
  ], 'the 8-number embedder and its vectors dropped, then ours declared')
  t.notOk((await upsertOver(4)).includes('DELETE /indexes/{index_uid}/settings/embedders'), 'the same size: kept')
})
