import t from 'tap'
import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { buildService } from '../src/server.js'
import { ApiError } from '../src/errors.js'
import { metricSample as sample } from '@chatsearch/testkit'

async function app (metricsToken?: string) {
  return await buildService({ name: 'test', logLevel: 'silent', ...(metricsToken === undefined ? {} : { metricsToken }) }, async (server) => {
    server.get('/items/:id', async (request) => {
      const { id } = request.params as { id: string }
      if (id === 'missing') throw new ApiError('chat_not_found', 'no such item')
      return { id }
    })
  })
}

t.test('GET /metrics: requests by route template and status, latency, process metrics', async (t) => {
  const server = await app()
  t.teardown(() => server.close())
  for (const id of ['1', '2', 'a-very-unique-id']) await server.inject(`/items/${id}`)
  await server.inject('/items/missing')
  await server.inject('/nowhere/at/all?x=1')

  const res = await server.inject('/metrics')
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^text\/plain; version=0\.0\.4/)
  const text = res.body
  const ok = { service: 'test', method: 'GET', route: '/items/:id', status: '200' }
  t.equal(sample(text, 'http_requests_total', ok), 3, 'three 200s on the route template')
  t.equal(sample(text, 'http_requests_total', { ...ok, status: '404' }), 1, 'a 404 of the route')
  t.equal(sample(text, 'http_requests_total', { route: 'unmatched', status: '404' }), 1, 'unknown paths share one series')
  t.equal(sample(text, 'http_request_duration_seconds_count', ok), 3)
  t.equal(sample(text, 'http_request_duration_seconds_bucket', { ...ok, le: '+Inf' }), 3)
  t.notMatch(text, /a-very-unique-id|nowhere/, 'raw URLs never become labels')
  t.notMatch(text, /route="\/metrics"/, 'scrapes are not counted')
  t.match(text, /^# TYPE cache_requests_total counter$/m, 'cache metric defined for the cache to count into')
  t.match(text, /^# TYPE rate_limited_total counter$/m, 'rate-limit metric defined')
})

t.test('app.metrics: typed counters and histograms in a registry per app', async (t) => {
  const one = await app()
  const two = await app()
  t.teardown(() => Promise.all([one.close(), two.close()]))
  const hits = one.metrics.counter({ name: 'things_total', help: 'things', labelNames: ['kind'] })
  t.equal(one.metrics.counter({ name: 'things_total', help: 'things', labelNames: ['kind'] }), hits, 'asking again gives the same metric')
  t.throws(() => one.metrics.histogram({ name: 'things_total', help: 'things' }), /another type/)
  hits.inc({ kind: 'a' }, 2)
  one.metrics.cacheRequests.inc({ cache: 'auth', result: 'hit' })
  one.metrics.rateLimited.inc({ class: 'search' })
  const text = (await one.inject('/metrics')).body
  t.equal(sample(text, 'things_total', { kind: 'a', service: 'test' }), 2)
  t.equal(sample(text, 'cache_requests_total', { cache: 'auth', result: 'hit' }), 1)
  t.equal(sample(text, 'rate_limited_total', { class: 'search' }), 1)
  t.notMatch((await two.inject('/metrics')).body, /things_total/, 'another app does not see them')
})

t.test('process metrics: on every app, labelled with its service, collected once per process', async (t) => {
  const quiet = async (name: string) => await buildService({ name, logLevel: 'silent' }, async () => {})
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'Immediate').length
  const before = timers()
  const chat = await quiet('chat')
  const search = await quiet('search')
  t.teardown(() => Promise.all([chat.close(), search.close()]))
  // Concurrent scrapes of two apps read the same collectors.
  const [c, s] = await Promise.all([chat.inject('/metrics'), search.inject('/metrics')])
  for (const [text, service] of [[c.body, 'chat'], [s.body, 'search']] as const) {
    t.ok((sample(text, 'process_cpu_user_seconds_total', { service }) ?? 0) > 0, `${service}: CPU`)
    t.ok((sample(text, 'process_resident_memory_bytes', { service }) ?? 0) > 0, `${service}: memory`)
    t.ok((sample(text, 'nodejs_heap_size_used_bytes', { service }) ?? 0) > 0, `${service}: heap`)
    t.not(sample(text, 'nodejs_eventloop_lag_p99_seconds', { service }), undefined, `${service}: event-loop lag`)
    t.not(sample(text, 'nodejs_active_handles_total', { service }), undefined, `${service}: handles`)
    t.match(text, /^# TYPE nodejs_gc_duration_seconds histogram$/m, `${service}: GC`)
    t.notMatch(text, /^(process|nodejs)_\w+(\{(?![^}]*service=)[^}]*\})? /m, `${service}: no process series without the service label`)
  }
  t.equal(sample(c.body, 'process_cpu_user_seconds_total', { service: 'search' }), undefined, 'each app labels with its own service')
  const lag = 'nodejs_eventloop_lag_seconds'
  t.equal(chat.metrics.registry.getSingleMetric(lag), search.metrics.registry.getSingleMetric(lag), 'one collector, not one per app')

  // Many apps in one process (as in the test suites): no duplicate registration, nothing left running.
  for (let i = 0; i < 20; i++) await (await quiet(`app${i}`)).close()
  await Promise.all([chat.close(), search.close()])
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(timers(), before, 'no timer outlives the apps')
})

t.test('nodejs_heap_live_bytes: the heap held alive, read after each full collection', async (t) => {
  const chat = await buildService({ name: 'chat', logLevel: 'silent' }, async () => {})
  t.teardown(() => chat.close())
  // The live heap is read after a full collection: hold 40 MB alive across one, then let it go and collect again.
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const live = async () => {
    gc()
    await new Promise((resolve) => setTimeout(resolve, 50))
    return sample((await chat.inject('/metrics')).body, 'nodejs_heap_live_bytes', { service: 'chat' }) ?? 0
  }
  const base = await live()
  t.ok(base > 0 && base <= getHeapStatistics().total_heap_size, `live heap after a full collection: ${(base / 1e6).toFixed(1)} MB`)
  let held: number[][] | undefined = Array.from({ length: 40 }, () => new Array(131072).fill(1.5))
  const holding = await live()
  t.ok(holding - base > 35e6, `40 MB held alive: +${((holding - base) / 1e6).toFixed(1)} MB`)
  t.equal(held.length, 40)
  held = undefined
  t.ok((await live()) < holding - 35e6, 'released: back down after the next full collection')
})

t.test('METRICS_TOKEN: the scrape must present it', async (t) => {
  const token = 'metrics-secret-0123456789'
  const server = await app(token)
  t.teardown(() => server.close())
  const missing = await server.inject('/metrics')
  t.equal(missing.statusCode, 401)
  t.equal(missing.json().code, 'unauthorized')
  t.equal((await server.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode, 401)
  const ok = await server.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } })
  t.equal(ok.statusCode, 200)
  t.match(ok.body, /http_requests_total/)
})
