// Click and conversion events (POST /events) and the query_id of search answers, and what the
// console's analytics make of them. Events and searches are PostgreSQL's, but the query_id rides on
// each engine's answers: run on every engine of the suite (Meilisearch with MEILI_URL).
import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { limits } from '@chatsearch/contracts'
import { ENGINES, send, withCatalog, type EngineKind } from './helpers.js'

const TOKEN = 'test-service-token-' + 'x'.repeat(32)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const DAY = 86_400_000
const utcDay = (d: Date) => d.toISOString().slice(0, 10)

type Answer = Awaited<ReturnType<typeof send>>

const suite = (engine: EngineKind) => async (t: Test) => {
  // The response cache on: a cached answer must still be a search of its own.
  const { h, shop, search } = await withCatalog(t, engine, false, { serviceToken: TOKEN, cacheTtlS: 60 })
  const events = (body: unknown, key = shop.key, headers: Record<string, string> = {}) => send(h.app, key, 'POST', '/events', body, headers)
  const clicks = async (projectId: string): Promise<number> =>
    (await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM search_clicks WHERE project_id = $1', [projectId])).rows[0]!.n
  const refusedAsMissing = (t: Test, res: Answer, what: string) => {
    t.equal(res.statusCode, 404, what)
    t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'], `${what}: the documented error body`)
    t.match(res.json(), { statusCode: 404, error: 'Query Not Found', code: 'query_not_found' }, what)
  }
  /** Another shop holding the test catalog, whose analytics hold only what a test does. */
  const freshShop = async (name: string) => {
    const tenant = await h.tenant(name)
    t.equal((await send(h.app, tenant.key, 'POST', '/documents', await h.catalog())).statusCode, 200)
    const searchAs = async (body: Record<string, unknown>) => {
      const res = await send(h.app, tenant.key, 'POST', '/search', body)
      t.equal(res.statusCode, 200, JSON.stringify(body))
      return res.json() as { query_id: string, estimatedTotalHits: number }
    }
    return { ...tenant, search: searchAs }
  }
  const searchesPerDay = async (projectId: string, days: number) => {
    const res = await h.app.inject({ url: '/admin/analytics', query: { days: String(days) }, headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': projectId } })
    t.equal(res.statusCode, 200)
    return res.json().searches_per_day
  }

  t.test('every answer carries a query_id of its own, a cached answer too, and each is recorded with it', async (t) => {
    const before = h.app.searchCache.hits
    const first = await search({ search_term: 'hiking boot' })
    const again = await search({ search_term: 'hiking boot' })
    t.equal(h.app.searchCache.hits - before, 1, 'the second answer came from the cache')
    t.match(first.query_id, UUID)
    t.match(again.query_id, UUID)
    t.not(again.query_id, first.query_id)
    t.same(again.hits, first.hits, 'the same answer otherwise')
    await h.app.analytics.flush()
    const { rows } = await h.db.query('SELECT query_id FROM search_events WHERE project_id = $1 AND query_id = ANY($2::uuid[])', [shop.projectId, [first.query_id, again.query_id]])
    t.equal(rows.length, 2, 'both searches are findable by their query_id')
    const res = await events({ type: 'click', query_id: again.query_id, item_id: first.hits[0].id, position: 1 })
    t.equal(res.statusCode, 200)
    t.same(res.json(), { recorded: 1 }, 'the cached answer\'s query_id names its search')
  })

  t.test('clicks and conversions counted per day of their search: click-through, average position, conversion and no-result rates', async (t) => {
    const fresh = await freshShop('outcomes shop')
    const boots = await fresh.search({ search_term: 'hiking boot', consumer_id: 'user-1' })
    const phones = await fresh.search({ search_term: 'headphones' })
    await fresh.search({ search_term: 'tent' })
    const nothing = await fresh.search({ search_term: 'zzzzqx' })
    t.equal(nothing.estimatedTotalHits, 0)
    t.ok(boots.estimatedTotalHits > 0 && phones.estimatedTotalHits > 0)

    const one = await events({ type: 'click', query_id: boots.query_id, item_id: 'boot-1', position: 1, consumer_id: 'user-1' }, fresh.key)
    t.equal(one.statusCode, 200)
    t.same(one.json(), { recorded: 1 }, 'one event')
    const list = await events([
      { type: 'click', query_id: boots.query_id, item_id: 'boot-3', position: 3, consumer_id: 'user-1' },
      { type: 'conversion', query_id: boots.query_id, item_id: 'boot-3', consumer_id: 'user-1' },
      { type: 'click', query_id: phones.query_id, item_id: 'audio-1', position: 2 }
    ], fresh.key)
    t.equal(list.statusCode, 200)
    t.same(list.json(), { recorded: 3 }, 'a list')
    const { rows } = await h.db.query('SELECT type, item_id, position, consumer_id FROM search_clicks WHERE project_id = $1 ORDER BY id', [fresh.projectId])
    t.same(rows, [
      { type: 'click', item_id: 'boot-1', position: 1, consumer_id: 'user-1' },
      { type: 'click', item_id: 'boot-3', position: 3, consumer_id: 'user-1' },
      { type: 'conversion', item_id: 'boot-3', position: null, consumer_id: 'user-1' },
      { type: 'click', item_id: 'audio-1', position: 2, consumer_id: null }
    ], 'recorded for the project, in order')

    // Yesterday's search, clicked today: it counts for yesterday.
    const yesterday = randomUUID()
    await h.db.query(`INSERT INTO search_events (project_id, kind, consumer_id, query, hits, latency_ms, created_at, query_id)
                      VALUES ($1, 'search', NULL, 'lantern', 5, 3, $2, $3)`, [fresh.projectId, new Date(Date.now() - DAY), yesterday])
    t.equal((await events({ type: 'click', query_id: yesterday, item_id: 'lantern-1', position: 4 }, fresh.key)).statusCode, 200, 'a written search is found in PostgreSQL')

    const now = Date.now()
    t.same(await searchesPerDay(fresh.projectId, 3), [
      { day: utcDay(new Date(now - 2 * DAY)), searches: 0, autocompletes: 0, no_result_rate: null, click_through_rate: null, conversion_rate: null, average_click_position: null },
      { day: utcDay(new Date(now - DAY)), searches: 1, autocompletes: 0, no_result_rate: 0, click_through_rate: 1, conversion_rate: 0, average_click_position: 4 },
      // 4 searches, 1 that found nothing; 2 clicked (boots twice), 1 converted; clicks at 1, 3 and 2.
      { day: utcDay(new Date(now)), searches: 4, autocompletes: 0, no_result_rate: 0.25, click_through_rate: 0.5, conversion_rate: 0.25, average_click_position: 2 }
    ], 'a quiet day has no rates; a search clicked twice counts once in the rate and twice in the position')
  })

  t.test('an event for a search not yet written is accepted: it is found in the analytics buffer', async (t) => {
    const fresh = await freshShop('buffered shop')
    await h.app.analytics.flush()
    // Searches are written in batches; holding the table keeps this one's batch from being written.
    const holder = await h.db.connect()
    // Closed rather than returned to the pool: should the test fail while it holds the table, the lock goes with it.
    t.teardown(() => holder.release(true))
    await holder.query('BEGIN')
    await holder.query('LOCK TABLE search_events IN EXCLUSIVE MODE')
    const answer = await fresh.search({ search_term: 'tent' })
    const writing = h.app.analytics.flush()
    const res = await events({ type: 'click', query_id: answer.query_id, item_id: 'tent-1', position: 1 }, fresh.key)
    t.equal(res.statusCode, 200, 'accepted at once')
    const { rows } = await h.db.query('SELECT 1 FROM search_events WHERE query_id = $1', [answer.query_id])
    t.equal(rows.length, 0, 'while its search is still unwritten')
    await holder.query('COMMIT')
    await writing
    t.equal((await h.db.query('SELECT 1 FROM search_events WHERE query_id = $1', [answer.query_id])).rows.length, 1, 'then written')
    t.equal(await clicks(fresh.projectId), 1)
  })

  t.test('an event sent to another replica than its search\'s is accepted once that replica writes the search', async (t) => {
    const fresh = await freshShop('replicated shop')
    const other = await h.replica()
    const answer = await fresh.search({ search_term: 'headphones' })
    const res = await send(other, fresh.key, 'POST', '/events', { type: 'click', query_id: answer.query_id, item_id: 'audio-1', position: 1 })
    t.equal(res.statusCode, 200)
    t.equal(await clicks(fresh.projectId), 1)
  })

  t.test('an unknown query_id, another project\'s, or a service-token search\'s is refused as a missing one, with nothing recorded', async (t) => {
    const other = await freshShop('other shop')
    const theirs = await other.search({ search_term: 'tent' })
    const ours = await h.app.inject({ method: 'POST', url: '/search', headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId }, payload: { search_term: 'tent' } })
    t.equal(ours.statusCode, 200)
    t.match(ours.json().query_id, UUID, 'a service-token search has a query_id too')
    const before = await clicks(shop.projectId)

    const unknown = randomUUID()
    const missing = await events({ type: 'click', query_id: unknown, item_id: 'tent-1' })
    refusedAsMissing(t, missing, 'a query_id no search answered with')
    const foreign = await events({ type: 'click', query_id: theirs.query_id, item_id: 'tent-1' })
    refusedAsMissing(t, foreign, 'another project\'s query_id')
    t.equal(foreign.json().message.replace(theirs.query_id, '…'), missing.json().message.replace(unknown, '…'), 'in the same words: nothing tells it exists')
    refusedAsMissing(t, await events({ type: 'click', query_id: ours.json().query_id, item_id: 'tent-1' }), 'a service-token search\'s query_id (not recorded)')
    refusedAsMissing(t, await events({ type: 'conversion', query_id: 'not-a-query-id', item_id: 'tent-1' }), 'a query_id that is no UUID')
    t.equal(await clicks(shop.projectId), before, 'nothing recorded')
    t.equal(await clicks(other.projectId), 0, 'nor for the other project')
  })

  t.test('a list with one bad event records nothing', async (t) => {
    const answer = await search({ search_term: 'tent' })
    const good = { type: 'click', query_id: answer.query_id, item_id: 'tent-1', position: 1 }
    const before = await clicks(shop.projectId)
    const unknown = await events([good, { ...good, type: 'conversion' }, { ...good, query_id: randomUUID() }])
    refusedAsMissing(t, unknown, 'one unknown query_id in three')
    t.match(unknown.json().message, /^event 3 of 3: /, 'the message names the event')
    const invalid = await events([good, { ...good, position: 0 }])
    t.equal(invalid.statusCode, 400, 'one invalid event')
    t.equal(await clicks(shop.projectId), before, 'nothing of either list was written')
    t.equal((await events([good, good])).statusCode, 200, 'the same list without them is recorded')
    t.equal(await clicks(shop.projectId), before + 2)
    const empty = await events([])
    t.equal(empty.statusCode, 200, 'an empty list is no error')
    t.same(empty.json(), { recorded: 0 }, 'and records nothing')
    t.equal(await clicks(shop.projectId), before + 2)
  })

  t.test('invalid bodies are 400 with the error body, saying what is wrong', async (t) => {
    const answer = await search({ search_term: 'tent' })
    const good = { type: 'click', query_id: answer.query_id, item_id: 'tent-1' }
    const cases: Array<[string, unknown, string, RegExp]> = [
      ['no fields', {}, 'missing_parameters', /type is required/],
      ['no query_id', { type: 'click', item_id: 'tent-1' }, 'missing_parameters', /query_id is required/],
      ['no query_id, in a list', [good, { type: 'click', item_id: 'tent-1' }], 'missing_parameters', /query_id is required/],
      ['an unknown type', { ...good, type: 'view' }, 'invalid_request', /type/],
      ['an unknown type, in a list', [{ ...good, type: 'view' }], 'invalid_request', /type/],
      ['position 0', { ...good, position: 0 }, 'invalid_request', /position/],
      ['a position that is no integer', { ...good, position: '2' }, 'invalid_request', /position/],
      ['an item id with a slash', { ...good, item_id: '../keys' }, 'invalid_request', /item_id/],
      ['an unknown field', { ...good, price: 10 }, 'invalid_request', /unknown field price/],
      ['too many events', Array.from({ length: limits.clickEventsMax + 1 }, () => good), 'invalid_request', /1000/]
    ]
    const before = await clicks(shop.projectId)
    for (const [what, body, code, message] of cases) {
      const res = await events(body)
      t.equal(res.statusCode, 400, what)
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'], what)
      t.equal(res.json().code, code, what)
      t.match(res.json().message, message, what)
    }
    const raw = (payload: string) => h.app.inject({ method: 'POST', url: '/events', headers: { authorization: `Bearer ${shop.key}`, 'content-type': 'application/json' }, payload })
    const text = await raw('"click"')
    t.equal(text.statusCode, 400, 'neither an event nor a list')
    t.match(text.json(), { code: 'invalid_request', message: /body must be object/ })
    t.equal((await raw('{"type":')).statusCode, 400, 'not JSON')
    t.equal(await clicks(shop.projectId), before, 'nothing recorded')
  })

  t.test('a retried list with the same Idempotency-Key is recorded once', async (t) => {
    const answer = await search({ search_term: 'tent' })
    const body = [{ type: 'click', query_id: answer.query_id, item_id: 'tent-1', position: 1 }]
    const before = await clicks(shop.projectId)
    const key = { 'idempotency-key': randomUUID() }
    const first = await events(body, shop.key, key)
    const again = await events(body, shop.key, key)
    t.equal(first.statusCode, 200)
    t.equal(again.statusCode, 200)
    t.equal(again.headers['idempotent-replayed'], 'true')
    t.same(again.json(), first.json())
    t.equal(await clicks(shop.projectId), before + 1)
  })

  t.test('a search credential of the project is needed', async (t) => {
    const answer = await search({ search_term: 'tent' })
    const res = await h.app.inject({ method: 'POST', url: '/events', payload: { type: 'click', query_id: answer.query_id, item_id: 'tent-1' } })
    t.equal(res.statusCode, 401)
    t.equal(res.json().code, 'unauthorized')
  })
}

for (const engine of ENGINES) t.test(`click and conversion events (${engine} engine)`, suite(engine))
