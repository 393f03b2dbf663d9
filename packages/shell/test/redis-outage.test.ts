import t from 'tap'
import Fastify from 'fastify'
import { idempotencyPlugin, installErrorHandler, rateLimitPlugin, redisPlugin, VersionedCache } from '../src/index.js'
import { startRedis } from '@chatsearch/testkit'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

t.test('Redis dying mid-run: limits fail open, idempotent writes get 503, the cache serves uncached; all recover', async (t) => {
  const redis = await startRedis(t)
  const logs: Array<{ level: number, msg: string }> = []
  const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => { logs.push(JSON.parse(line)) } } } })
  installErrorHandler(app)
  await app.register(redisPlugin, { url: redis.url, name: 'test' })
  const identify = () => 'alice'
  await app.register(rateLimitPlugin, { service: 'test', limits: { search: 100 }, identify })
  await app.register(idempotencyPlugin, { service: 'test', identify })
  let runs = 0
  app.post('/write', { config: { rateLimit: 'search', idempotency: {} } }, async () => ({ run: ++runs }))
  t.teardown(() => app.close())
  const cache = VersionedCache.create(app.redis, 'outage', 60_000, app.log)
  const write = (key?: string) => app.inject({ method: 'POST', url: '/write', payload: {}, headers: key === undefined ? {} : { 'idempotency-key': key } })

  t.equal((await write('k1')).headers['ratelimit-remaining'], '99')
  await (await cache.lookup('prj', 'q')).store('cached')
  t.equal((await cache.lookup('prj', 'q')).value, 'cached')

  await redis.kill()
  const started = performance.now()
  const plain = await write()
  t.equal(plain.statusCode, 200, 'a write without a key still succeeds')
  t.equal(plain.headers['ratelimit-limit'], undefined, 'no RateLimit headers while limits are not counted')
  t.equal(app.rateLimiter.failedOpen, 1)
  const keyed = await write('k2')
  t.equal(keyed.statusCode, 503, 'a write that needs its idempotency key is refused')
  t.equal(keyed.json().code, 'service_unavailable')
  t.equal(keyed.headers['retry-after'], '1')
  t.equal(runs, 2, 'the refused write did not run')
  t.equal((await cache.lookup('prj', 'q')).value, undefined, 'a cache lookup is a miss, not an error')
  await cache.bump('prj')
  t.ok(performance.now() - started < 1000, 'nothing waits for the dead Redis')
  t.ok(logs.some((l) => l.level === 40 && /rate limits are not enforced/.test(l.msg)), 'the fail-open is logged as a warning')
  t.ok(logs.some((l) => l.level === 40 && /Redis is unreachable/.test(l.msg)))

  await redis.restart()
  const deadline = Date.now() + 5000
  while (app.redis?.status !== 'ready' && Date.now() < deadline) await sleep(50)
  t.equal(app.redis?.status, 'ready', 'the connection comes back by itself')
  const again = await write('k2')
  t.equal(again.statusCode, 200)
  t.equal(again.headers['ratelimit-remaining'], '99', 'counting starts again (the new Redis is empty)')
  // The missed bump is retried every second: wait for it rather than for a fixed time.
  const bumpDeadline = Date.now() + 5000
  while (await app.redis?.get('outage:version:prj') !== '1' && Date.now() < bumpDeadline) await sleep(50)
  t.equal(await app.redis?.get('outage:version:prj'), '1', 'the bump missed during the outage was made once Redis was back')
  t.equal((await cache.lookup('prj', 'q')).value, undefined, 'the entry of the old version is not served')
  cache.close()
})
