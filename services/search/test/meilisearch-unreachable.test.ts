import t from 'tap'
import { freePort } from '@chatsearch/testkit'
import { MeilisearchEngine } from '../src/engines/meilisearch/engine.js'
import { searchHarness, send } from './helpers.js'

// Nothing listens on the port: every call to Meilisearch fails to connect, as when it is down.
t.test('Meilisearch out of reach: 503 service_unavailable with the documented body, never a 500', async (t) => {
  const url = `http://127.0.0.1:${await freePort()}`
  const h = await searchHarness(t, false, { meilisearch: { url, indexPrefix: 'down-', taskTimeoutMs: 1000 } })
  const shop = await h.tenant()
  const calls: Array<[('GET' | 'POST' | 'DELETE' | 'PUT'), string, unknown]> = [
    ['POST', '/search', { search_term: 'boot' }],
    ['POST', '/autocomplete', { autocomplete_term: 'bo' }],
    ['POST', '/facet-search', { facet_name: 'brand' }],
    ['POST', '/documents', [{ id: 'a', title: 'A' }]],
    ['GET', '/documents/a', undefined],
    ['DELETE', '/documents/a', undefined],
    ['GET', '/settings', undefined],
    ['PUT', '/settings', { searchableAttributes: ['title'], filterableAttributes: [], facetableAttributes: [] }]
  ]
  for (const [method, path, body] of calls) {
    const res = await send(h.app, shop.key, method, path, body)
    t.equal(res.statusCode, 503, `${method} ${path}`)
    const answer = res.json()
    t.same({ ...answer, message: undefined }, { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable', message: undefined })
    t.notMatch(answer.message, /127\.0\.0\.1|ECONNREFUSED|fetch/, 'no address or system error in the answer')
  }
  t.equal((await send(h.app, shop.key, 'POST', '/search', {})).statusCode, 400, 'a bad request is still a 400')
  const rules = await send(h.app, shop.key, 'PUT', '/rules', [{ id: 'r', query: 'boot', match: 'exact', pin: [{ item_id: 'a', position: 1 }] }])
  t.equal(rules.statusCode, 200, 'search rules live in PostgreSQL: they can be edited while the engine is down')
  t.equal((await send(h.app, shop.key, 'POST', '/search', { search_term: 'boot' })).statusCode, 503, 'and a search they apply to is still a 503')
  // An id no item can have is not sent: the client would put it into the request path as is.
  t.equal((await send(h.app, shop.key, 'GET', '/documents/..%2F..%2Fkeys')).statusCode, 404, 'GET ../../keys asks Meilisearch nothing')
  t.equal((await send(h.app, shop.key, 'DELETE', '/documents/..%2F..%2Fkeys')).statusCode, 404, 'DELETE ../../keys asks Meilisearch nothing')

  const engine = new MeilisearchEngine({ url, indexPrefix: 'down-', taskTimeoutMs: 1000 }, { id: 'none', dimensions: 512 })
  await t.rejects(engine.ping(), { statusCode: 503, code: 'service_unavailable' }, 'ping fails for readiness checks')
})
