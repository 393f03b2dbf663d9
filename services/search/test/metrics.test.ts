import t from 'tap'
import { searchHarness, send } from './helpers.js'
import { metricSample as sample } from '@chatsearch/testkit'

const h = await searchHarness(t)

t.test('GET /metrics: engine and embedding latency by operation, requests by route', async (t) => {
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'POST', '/documents', await h.catalog())).statusCode, 200)
  await send(h.app, shop.key, 'POST', '/search', { search_term: 'boots', search_type: 'hybrid' })
  await send(h.app, shop.key, 'POST', '/search', { search_term: 'boots' })
  await send(h.app, shop.key, 'POST', '/autocomplete', { autocomplete_term: 'bo' })
  await send(h.app, shop.key, 'POST', '/facet-search', { facet_name: 'brand', facet_query: 'tr' })
  await send(h.app, shop.key, 'GET', '/documents/nope')

  const res = await h.app.inject('/metrics')
  t.equal(res.statusCode, 200)
  const text = res.body
  const engine = (operation: string) => sample(text, 'search_engine_duration_seconds_count', { service: 'search', operation })
  t.equal(engine('search'), 2, 'each search timed')
  t.equal(engine('suggest'), 1)
  t.equal(engine('facetSearch'), 1)
  t.equal(engine('ingestBatch'), 1, 'the batch, written on the writer thread as sent')
  t.equal(engine('get'), 1)
  t.ok((engine('open') ?? 0) >= 5, 'opening the project index is timed too')
  t.equal(sample(text, 'embedding_duration_seconds_count'), 2, 'one batch for the import, one for the hybrid query')
  t.equal(sample(text, 'http_requests_total', { route: '/search', status: '200' }), 2)
  t.equal(sample(text, 'http_requests_total', { route: '/documents/:id', status: '404' }), 1)
  t.ok((sample(text, 'db_pool_max_connections') ?? 0) > 0, 'the PostgreSQL pool\'s gauges')
  t.equal(sample(text, 'memory_store_entries', { store: 'search_rules' }), 1, 'the search rules of the one project searched, read for its searches')
  t.equal(sample(text, 'memory_store_bytes', { store: 'search_rules' }), 2, 'none set: kept as the JSON text "[]"')
})

t.test('GET /metrics: reader threads busy and idle, queries queued for them, analytics not yet written', async (t) => {
  const app = await h.replica({ readers: 2 })
  const shop = await h.tenant('readers')
  t.equal((await send(app, shop.key, 'POST', '/documents', await h.catalog())).statusCode, 200)
  const scrape = async () => (await app.inject('/metrics')).body
  let text = await scrape()
  t.equal(sample(text, 'search_reader_threads', { service: 'search', state: 'idle' }), 2)
  t.equal(sample(text, 'search_reader_threads', { state: 'busy' }), 0)
  t.equal(sample(text, 'search_reader_queued_requests'), 0)

  const index = await app.engine.index(shop.projectId)
  const searches = Array.from({ length: 5 }, () => index.search({ q: 'boots', filter: null, facets: [], limit: 5, offset: 0 }))
  // Collected at once, before the event loop turns: no reader can have answered yet.
  text = await app.metrics.registry.metrics()
  t.equal(sample(text, 'search_reader_threads', { state: 'busy' }), 2, 'both readers at work')
  t.equal(sample(text, 'search_reader_threads', { state: 'idle' }), 0)
  t.equal(sample(text, 'search_reader_queued_requests'), 3, 'three searches wait behind them')
  t.equal(sample(text, 'memory_store_entries', { store: 'search_open_indexes' }), 1, 'the project\'s catalog is open')
  await Promise.all(searches)
  text = await scrape()
  t.equal(sample(text, 'search_reader_threads', { state: 'idle' }), 2, 'all answered')
  t.equal(sample(text, 'search_reader_queued_requests'), 0)

  // How it counts is in catalog-batch.test.ts; here, that the gauge is there.
  await Promise.all(Array.from({ length: 3 }, (_, i) => index.recordQuery(`boots ${i}`, { keywordHits: 1, searcher: 'c:shopper' })))
  t.equal(sample(await scrape(), 'memory_store_entries', { store: 'search_writer_requests' }), 0, 'writes sent to the writer thread, all answered')
  t.equal(sample(await scrape(), 'memory_store_entries', { store: 'search_responses' }), 0, 'the response cache, empty (no cache TTL in this test)')

  await app.analytics.flush()
  const event = { projectId: shop.projectId, kind: 'search' as const, queryId: null, consumerId: null, searcher: 'a:127.0.0.1', query: 'boots', hits: 2, keywordHits: 2, latencyMs: 1, at: new Date() }
  for (let i = 0; i < 3; i++) app.analytics.record(event)
  t.equal(sample(await app.metrics.registry.metrics(), 'search_analytics_pending_events'), 3, 'three events wait for the next flush')
  const flushed = app.analytics.flush()
  t.equal(app.analytics.pending, 3, 'taken by the flush, not yet written: still pending')
  await flushed
  t.equal(sample(await scrape(), 'search_analytics_pending_events'), 0, 'written')
})

t.test('GET /metrics: no reader gauges when queries run on the event loop', async (t) => {
  const app = await h.replica({ readers: 0 })
  const text = (await app.inject('/metrics')).body
  t.equal(sample(text, 'search_reader_threads', { state: 'idle' }), undefined)
  t.match(text, /^search_analytics_pending_events\{service="search"\} 0$/m, 'the analytics queue is there whatever the engine')
})
