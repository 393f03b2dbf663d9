import t from 'tap'
import { searchHarness, send } from './helpers.js'

const TOKEN = 'test-service-token-' + 'x'.repeat(32)
const DAY = 86_400_000
const utcDay = (d: Date) => d.toISOString().slice(0, 10)

t.test('search analytics for the console', async (t) => {
  const h = await searchHarness(t, false, { serviceToken: TOKEN })
  const shop = await h.tenant()
  const other = await h.tenant('other shop')
  const analytics = (query: Record<string, string> = {}, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId }) =>
    h.app.inject({ url: '/admin/analytics', query, headers })
  const now = Date.now()
  const event = (projectId: string, kind: 'search' | 'autocomplete', query: string, hits: number, daysAgo: number) =>
    h.db.query(`INSERT INTO search_events (project_id, kind, consumer_id, query, hits, latency_ms, created_at)
                VALUES ($1, $2, NULL, $3, $4, 3, $5)`, [projectId, kind, query, hits, new Date(now - daysAgo * DAY)])

  for (let i = 0; i < 3; i++) await event(shop.projectId, 'search', 'boots', 4, 0)
  await event(shop.projectId, 'search', 'Boots', 4, 2)
  await event(shop.projectId, 'search', 'tent', 2, 2)
  for (let i = 0; i < 2; i++) await event(shop.projectId, 'search', 'unicorn saddle', 0, 0)
  await event(shop.projectId, 'search', 'pogo stick', 0, 2)
  await event(shop.projectId, 'search', '', 120, 0)
  await event(shop.projectId, 'autocomplete', 'bo', 3, 0)
  await event(shop.projectId, 'search', 'ancient query', 0, 20)
  await event(other.projectId, 'search', 'their query', 0, 0)

  t.test('counts per day, every day present, and the frequent and fruitless queries', async (t) => {
    const res = await analytics({ days: '7' })
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.equal(body.days, 7)
    t.same(body.searches_per_day.map((d: { day: string }) => d.day), [6, 5, 4, 3, 2, 1, 0].map((n) => utcDay(new Date(now - n * DAY))))
    const byDay = Object.fromEntries(body.searches_per_day.map((d: { day: string, searches: number, autocompletes: number }) => [d.day, [d.searches, d.autocompletes]]))
    t.same(byDay[utcDay(new Date(now))], [6, 1], 'browsing is a search too; another project\'s are not counted')
    t.same(byDay[utcDay(new Date(now - 2 * DAY))], [3, 0])
    t.same(byDay[utcDay(new Date(now - DAY))], [0, 0], 'a quiet day is there, zero')
    t.same(body.top_queries, [{ query: 'boots', count: 4 }, { query: 'unicorn saddle', count: 2 }, { query: 'pogo stick', count: 1 }, { query: 'tent', count: 1 }],
      'most frequent first, case folded, no empty query, nothing from before the range')
    t.same(body.no_result_queries, [{ query: 'unicorn saddle', count: 2 }, { query: 'pogo stick', count: 1 }])
    const month = (await analytics()).json()
    t.equal(month.days, 30, '30 days by default')
    t.equal(month.searches_per_day.length, 30)
    t.ok(month.no_result_queries.some((q: { query: string }) => q.query === 'ancient query'))
  })

  t.test('a search just made is in the report; one of our own services (the service token) is not', async (t) => {
    const fresh = await h.tenant('fresh shop')
    t.equal((await send(h.app, fresh.key, 'POST', '/search', { search_term: 'lantern' })).statusCode, 200)
    const ours = await h.app.inject({ method: 'POST', url: '/search', headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': fresh.projectId }, payload: { search_term: 'chat retrieval' } })
    t.equal(ours.statusCode, 200)
    const body = (await analytics({ days: '1' }, { authorization: `Bearer ${TOKEN}`, 'x-project-id': fresh.projectId })).json()
    t.same(body.searches_per_day, [{
      day: utcDay(new Date()),
      searches: 1,
      autocompletes: 0,
      no_result_rate: 1,
      click_through_rate: 0,
      conversion_rate: 0,
      average_click_position: null
    }], 'the shop\'s one search, which found nothing and was not clicked')
    t.same(body.no_result_queries, [{ query: 'lantern', count: 1 }])
  })

  t.test('only the service token with a project opens it', async (t) => {
    const refused: Array<Record<string, string>> = [{ authorization: `Bearer ${shop.key}` }, { authorization: `Bearer ${TOKEN}` }, {}]
    for (const headers of refused) {
      const res = await analytics({}, headers)
      t.equal(res.statusCode, 401, JSON.stringify(Object.keys(headers)))
      t.equal(res.json().code, 'unauthorized')
    }
  })

  t.test('bad days get 400 with the error body', async (t) => {
    for (const days of ['0', '366', 'week', '1.5']) {
      const res = await analytics({ days })
      t.equal(res.statusCode, 400, days)
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'])
      t.equal(res.json().code, 'invalid_request')
    }
    t.equal((await analytics({ days: '7', extra: '1' })).statusCode, 400, 'an unknown parameter')
  })
})
