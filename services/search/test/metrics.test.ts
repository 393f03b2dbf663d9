import t from 'tap'
import { searchHarness, send } from './helpers.js'
import { metricSample as sample } from '@chatsearch/shell/testing'

t.test('GET /metrics: engine and embedding latency by operation, requests by route', async (t) => {
  const h = await searchHarness(t)
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'POST', '/documents', await h.catalog())).statusCode, 200)
  await send(h.app, shop.key, 'POST', '/search', { search_term: 'boots', search_type: 'hybrid' })
  await send(h.app, shop.key, 'POST', '/search', { search_term: 'boots' })
  await send(h.app, shop.key, 'POST', '/autocomplete', { autocomplete_term: 'bo' })
  await send(h.app, shop.key, 'GET', '/documents/nope')

  const res = await h.app.inject('/metrics')
  t.equal(res.statusCode, 200)
  const text = res.body
  const engine = (operation: string) => sample(text, 'search_engine_duration_seconds_count', { service: 'search', operation })
  t.equal(engine('search'), 2, 'each search timed')
  t.equal(engine('suggest'), 1)
  t.equal(engine('upsert'), 1)
  t.equal(engine('get'), 1)
  t.ok((engine('open') ?? 0) >= 5, 'opening the project index is timed too')
  t.equal(sample(text, 'embedding_duration_seconds_count'), 2, 'one batch for the import, one for the hybrid query')
  t.equal(sample(text, 'http_requests_total', { route: '/search', status: '200' }), 2)
  t.equal(sample(text, 'http_requests_total', { route: '/documents/:id', status: '404' }), 1)
})
