import t, { type Test } from 'tap'
import { startRedis } from '@chatsearch/testkit'
import { ids, searchHarness, send } from './helpers.js'

const settings = { searchableAttributes: ['title', 'description', 'brand'], filterableAttributes: ['brand', 'price'], facetableAttributes: ['brand'] }
const boot = (id: string, title: string) => ({ id, title, brand: 'Trailmark', price: 99, description: 'a hiking boot' })

for (const backend of ['memory', 'redis'] as const) {
  t.test(`search service with ${backend === 'redis' ? 'a real Redis' : 'no Redis'}`, async (t: Test) => {
    const redisUrl = backend === 'redis' ? (await startRedis(t)).url : undefined
    const h = await searchHarness(t, false, { cacheTtlS: 60, rateLimits: { search: 1000, catalog: 1000 }, ...(redisUrl === undefined ? {} : { redisUrl }) })
    const shop = await h.tenant()
    const app = h.app
    t.equal((await send(app, shop.key, 'PUT', '/settings', settings)).statusCode, 200)
    t.equal((await send(app, shop.key, 'POST', '/documents', await h.catalog())).statusCode, 200)
    const search = async (body: object) => {
      const res = await send(app, shop.key, 'POST', '/search', body)
      t.equal(res.statusCode, 200, JSON.stringify(body))
      return res.json()
    }

    t.test('a repeated search is served from the cache with its own processingTimeMs', async (t) => {
      const before = { hits: app.searchCache.hits, misses: app.searchCache.misses }
      const first = await search({ search_term: 'hiking boot', filters: 'brand = Trailmark', facets: ['brand'], consumer_id: 'u1' })
      t.ok(first.hits.length > 0)
      const again = await search({ search_term: '  hiking   boot', filters: '(brand="Trailmark")', facets: ['brand', 'brand'], consumer_id: 'u2' })
      t.same(app.searchCache.misses - before.misses, 1)
      t.same(app.searchCache.hits - before.hits, 1, 'the same question in another spelling is a hit')
      t.same({ ...again, processingTimeMs: 0, query_id: '' }, { ...first, processingTimeMs: 0, query_id: '' })
      t.not(again.query_id, first.query_id, 'a cached answer is a search of its own, for POST /events')
      t.ok(Number.isInteger(again.processingTimeMs) && again.processingTimeMs >= 0)
      await search({ search_term: 'hiking boot', filters: 'brand = Trailmark', facets: ['brand'], limit: 1 })
      t.same(app.searchCache.misses - before.misses, 2, 'another page is another question')

      await app.analytics.flush()
      const { rows } = await h.db.query('SELECT consumer_id FROM search_events WHERE project_id = $1 AND consumer_id IN ($2, $3) ORDER BY id', [shop.projectId, 'u1', 'u2'])
      t.same(rows.map((r) => r.consumer_id), ['u1', 'u2'], 'a hit is recorded for analytics like a miss')
    })

    t.test('a catalog or settings change is visible at once', async (t) => {
      t.notOk(ids(await search({ search_term: 'zephyr' })).includes('new-1'))
      t.equal((await send(app, shop.key, 'POST', '/documents', [boot('new-1', 'Zephyr Hiking Boot')])).statusCode, 200)
      t.same(ids(await search({ search_term: 'zephyr' })), ['new-1'], 'an added item')
      t.equal((await send(app, shop.key, 'DELETE', '/documents/new-1')).statusCode, 200)
      t.same(ids(await search({ search_term: 'zephyr' })), [], 'a removed item')

      const suggest = async () => (await send(app, shop.key, 'POST', '/autocomplete', { autocomplete_term: 'quasar' })).json().suggestions
      t.same(await suggest(), [])
      await send(app, shop.key, 'POST', '/documents', [boot('new-2', 'Quasar Trail Runner')])
      t.ok((await suggest()).length > 0, 'autocomplete too')

      t.ok((await search({ search_term: '', filters: 'price = 99' })).estimatedTotalHits >= 1)
      t.equal((await send(app, shop.key, 'PUT', '/settings', { ...settings, filterableAttributes: ['brand'] })).statusCode, 200)
      const refused = await send(app, shop.key, 'POST', '/search', { search_term: '', filters: 'price = 99' })
      t.equal(refused.statusCode, 400, 'a settings change too: the filter is no longer allowed')
    })

    t.test('catalog writes honour Idempotency-Key', async (t) => {
      const key = { 'idempotency-key': `import-${backend}` }
      const first = await send(app, shop.key, 'POST', '/documents', [boot('idem-1', 'Idem Boot')], key)
      t.equal(first.statusCode, 200)
      const again = await send(app, shop.key, 'POST', '/documents', [boot('idem-1', 'Idem Boot')], key)
      t.equal(again.headers['idempotent-replayed'], 'true')
      t.same(again.json(), first.json())
      t.equal((await send(app, shop.key, 'POST', '/documents', [boot('idem-2', 'Idem Boot')], key)).statusCode, 422)
    })

    t.test('search has its own per-credential limit', async (t) => {
      const limited = await h.restart({ rateLimits: { search: 2, catalog: 1000 } })
      // Credentials no earlier request counted: a window lasts a minute from its first request, and
      // one started earlier in this test could end at any point of the run.
      const fresh = await h.tenant('fresh')
      const other = await h.tenant('other')
      const statuses = []
      for (let i = 0; i < 3; i++) statuses.push((await send(limited, fresh.key, 'POST', '/autocomplete', { autocomplete_term: 'bo' })).statusCode)
      t.same(statuses, [200, 200, 429])
      const res = await send(limited, fresh.key, 'GET', '/settings')
      t.equal(res.statusCode, 200, 'catalog routes count apart')
      if (backend === 'redis') {
        const replica = await h.replica({ rateLimits: { search: 2, catalog: 1000 } })
        t.equal((await send(replica, fresh.key, 'POST', '/search', { search_term: 'x' })).statusCode, 429, 'the window is shared by the replicas (same Redis)')
      }
      t.equal((await send(limited, other.key, 'POST', '/search', { search_term: 'x' })).headers['ratelimit-remaining'], '1')
    })
  })
}

t.test('replicas share the cache and its version through Redis', async (t) => {
  const redis = await startRedis(t)
  const h = await searchHarness(t, false, { cacheTtlS: 60, redisUrl: redis.url })
  const shop = await h.tenant()
  const one = h.app
  const two = await h.replica()
  await send(one, shop.key, 'PUT', '/settings', settings)
  await send(one, shop.key, 'POST', '/documents', await h.catalog())
  const first = (await send(one, shop.key, 'POST', '/search', { search_term: 'hiking' })).json()
  const onTwo = (await send(two, shop.key, 'POST', '/search', { search_term: 'hiking' })).json()
  t.equal(two.searchCache.hits, 1, 'computed on one replica, served by the other')
  t.same(ids(onTwo), ids(first))
  t.equal((await send(two, shop.key, 'POST', '/documents', [boot('new-9', 'Zephyr Hiking Boot')])).statusCode, 200)
  t.ok(ids((await send(one, shop.key, 'POST', '/search', { search_term: 'hiking' })).json()).includes('new-9'),
    'a write on one replica is visible at once on the other')
  t.equal(one.searchCache.hits, 0)
})

t.test('Redis dying mid-run: searches are served uncached, limits fail open, keyed catalog writes get 503', async (t) => {
  const redis = await startRedis(t)
  const h = await searchHarness(t, false, { cacheTtlS: 60, redisUrl: redis.url, rateLimits: { search: 1000, catalog: 1000 } })
  const shop = await h.tenant()
  const app = h.app
  await send(app, shop.key, 'PUT', '/settings', settings)
  await send(app, shop.key, 'POST', '/documents', await h.catalog())
  const before = (await send(app, shop.key, 'POST', '/search', { search_term: 'hiking' })).json()
  await redis.kill()
  const during = await send(app, shop.key, 'POST', '/search', { search_term: 'hiking' })
  t.equal(during.statusCode, 200)
  t.same(ids(during.json()), ids(before), 'the same answer, computed again')
  t.equal(during.headers['ratelimit-limit'], undefined, 'rate limits are not counted meanwhile')
  t.equal(app.searchCache.hits, 0)
  t.ok(app.searchCache.errors >= 1)
  t.ok(app.rateLimiter.failedOpen >= 1)
  const keyed = await send(app, shop.key, 'POST', '/documents', [boot('k-1', 'Keyed Boot')], { 'idempotency-key': 'during-outage' })
  t.equal(keyed.statusCode, 503)
  t.equal(keyed.json().code, 'service_unavailable')
  t.equal((await send(app, shop.key, 'GET', '/documents/k-1')).statusCode, 404, 'the refused write was not made')
  t.equal((await send(app, shop.key, 'POST', '/documents', [boot('k-2', 'Plain Boot')])).statusCode, 200, 'a write without a key goes on')
})
