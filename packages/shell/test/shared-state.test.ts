import t, { type Test } from 'tap'
import Fastify from 'fastify'
import { idempotencyPlugin, installErrorHandler, MemoryIdempotencyStore, rateLimitPlugin, RedisIdempotencyStore, redisPlugin, VersionedCache } from '../src/index.js'
import { startRedis } from '@chatsearch/testkit'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A request body `{ hold: true }` enters the handler and waits there until `release()`. */
function gate () {
  let enter = () => {}
  let release = () => {}
  const entered = new Promise<void>((resolve) => { enter = resolve })
  const released = new Promise<void>((resolve) => { release = resolve })
  return { entered, released, enter, release }
}

/**
 * Rate limits and idempotency on a bare app, once with the in-process stores and once with a real
 * Redis. The caller is named by the `x-who` header, standing in for a credential.
 */
async function bareApp (t: Test, redisUrl: string | undefined, opts: { leaseMs?: number } = {}) {
  const app = Fastify()
  installErrorHandler(app)
  await app.register(redisPlugin, { url: redisUrl, name: 'test' })
  const identify = (request: { headers: Record<string, unknown> }) => request.headers['x-who'] as string | undefined
  await app.register(rateLimitPlugin, { service: 'test', limits: { search: 3, chat_write: 100 }, identify })
  await app.register(idempotencyPlugin, { service: 'test', identify, ...opts })
  const runs: unknown[] = []
  const hold = gate()
  app.get('/limited', { config: { rateLimit: 'search' } }, async () => ({ ok: true }))
  app.get('/open', async () => ({ ok: true }))
  app.post('/write', { config: { rateLimit: 'chat_write', idempotency: { stream: true } } }, async (request, reply) => {
    const body = request.body as { fail?: number, hold?: boolean }
    if (body.hold === true) {
      hold.enter()
      await hold.released
    }
    if (body.fail !== undefined) return reply.code(body.fail).send({ statusCode: body.fail, error: 'x', code: 'x', message: 'x' })
    runs.push(body)
    return { run: runs.length }
  })
  t.teardown(async () => {
    hold.release()
    await app.close()
  })
  return { app, runs, hold }
}

const write = (app: Awaited<ReturnType<typeof bareApp>>['app'], body: object, key?: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/write', payload: body, headers: { 'x-who': 'alice', ...(key === undefined ? {} : { 'idempotency-key': key }), ...headers } })

for (const backend of ['memory', 'redis'] as const) {
  t.test(`with ${backend === 'redis' ? 'a real Redis' : 'in-process stores'}`, async (t) => {
    const redisUrl = backend === 'redis' ? (await startRedis(t)).url : undefined

    t.test('a credential is limited per class, with the RateLimit headers on every response', async (t) => {
      const { app } = await bareApp(t, redisUrl)
      const get = (who: string) => app.inject({ url: '/limited', headers: { 'x-who': who } })
      const remaining = []
      for (let i = 0; i < 3; i++) {
        const res = await get('bob')
        t.equal(res.statusCode, 200)
        t.equal(res.headers['ratelimit-limit'], '3')
        remaining.push(res.headers['ratelimit-remaining'])
        const reset = Number(res.headers['ratelimit-reset'])
        t.ok(reset >= 1 && reset <= 60, `reset ${reset} s`)
      }
      t.same(remaining, ['2', '1', '0'])
      const limited = await get('bob')
      t.equal(limited.statusCode, 429)
      t.same(Object.keys(limited.json()).sort(), ['code', 'error', 'message', 'statusCode'])
      t.equal(limited.json().code, 'rate_limited')
      t.equal(limited.headers['ratelimit-remaining'], '0')
      t.ok(Number(limited.headers['retry-after']) >= 1 && Number(limited.headers['retry-after']) <= 60)
      t.equal((await get('carol')).statusCode, 200, 'another credential is not affected')
      t.equal((await app.inject({ method: 'POST', url: '/write', payload: {}, headers: { 'x-who': 'bob' } })).statusCode, 200, 'another class is not affected')
      const open = await app.inject({ url: '/open', headers: { 'x-who': 'bob' } })
      t.equal(open.statusCode, 200)
      t.equal(open.headers['ratelimit-limit'], undefined, 'a route without a class is not limited')
      t.equal(app.rateLimiter.limited, 1)
    })

    if (backend === 'redis') {
      t.test('replicas share the counters', async (t) => {
        const one = await bareApp(t, redisUrl)
        const two = await bareApp(t, redisUrl)
        const statuses = []
        for (const app of [one.app, two.app, one.app, two.app]) {
          statuses.push((await app.inject({ url: '/limited', headers: { 'x-who': 'dave' } })).statusCode)
        }
        t.same(statuses, [200, 200, 200, 429])
      })
    }

    t.test('the same key and body replay the response without running again', async (t) => {
      const { app, runs } = await bareApp(t, redisUrl)
      const first = await write(app, { a: 1, b: 2 }, 'key-1')
      t.equal(first.statusCode, 200)
      t.same(first.json(), { run: 1 })
      const again = await write(app, { b: 2, a: 1 }, 'key-1')
      t.equal(again.statusCode, 200)
      t.same(again.json(), { run: 1 }, 'fields in another order are the same body')
      t.equal(again.headers['idempotent-replayed'], 'true')
      t.equal(runs.length, 1)
      const streamed = await write(app, { a: 1, b: 2 }, 'key-1', { accept: 'text/event-stream' })
      t.match(streamed.headers['content-type'], /^text\/event-stream/)
      t.equal(streamed.body, 'event: done\ndata: {"run":1}\n\n', 'a streaming client gets the stored reply as one done event')
      t.equal((await write(app, { a: 1, b: 2 }, 'key-1', { 'x-who': 'eve' })).json().run, 2, 'keys belong to one credential')
      t.equal((await write(app, { a: 1, b: 2 })).json().run, 3, 'without a key every request runs')
      t.equal(app.idempotency.replays, 2)
    })

    t.test('the same key with another body is 422', async (t) => {
      const { app, runs } = await bareApp(t, redisUrl)
      t.equal((await write(app, { a: 1 }, 'key-2')).statusCode, 200)
      const res = await write(app, { a: 2 }, 'key-2')
      t.equal(res.statusCode, 422)
      t.equal(res.json().code, 'idempotency_key_reused')
      t.equal(runs.length, 1)
    })

    t.test('a key still in flight is 409, and free again after a failure', async (t) => {
      const { app, runs, hold } = await bareApp(t, redisUrl)
      const slow = write(app, { hold: true }, 'key-3')
      await hold.entered
      const busy = await write(app, { hold: true }, 'key-3')
      t.equal(busy.statusCode, 409)
      t.equal(busy.json().code, 'idempotency_key_in_use')
      hold.release()
      t.equal((await slow).statusCode, 200)
      t.equal(runs.length, 1)
      t.equal((await write(app, { fail: 400 }, 'key-4')).statusCode, 400)
      t.equal((await write(app, { fail: 400 }, 'key-4')).statusCode, 400, 'an error is not stored: the retry runs')
      t.equal(app.idempotency.replays, 0)
    })

    t.test('a running request keeps renewing its lease', async (t) => {
      const { app, hold } = await bareApp(t, redisUrl, { leaseMs: 300 })
      const slow = write(app, { hold: true }, 'key-5')
      await hold.entered
      await sleep(700)
      t.equal((await write(app, { hold: true }, 'key-5')).statusCode, 409, 'still held after two leases')
      hold.release()
      t.equal((await slow).statusCode, 200)
    })

    t.test('the lease of a request that died ends by itself', async (t) => {
      const { app } = await bareApp(t, redisUrl)
      const store = app.redis === undefined ? new MemoryIdempotencyStore() : new RedisIdempotencyStore(app.redis)
      t.equal((await store.claim('alive', 'f', 60_000)).state, 'new')
      t.equal((await store.claim('alive', 'f', 60_000)).state, 'in_flight', 'held within its lease')
      t.equal((await store.claim('died', 'f', 100)).state, 'new')
      await sleep(250)
      t.equal((await store.claim('died', 'f', 100)).state, 'new', 'never completed nor released, the key is free once its lease is over')
    })

    t.test('a malformed key is 400 with the error body', async (t) => {
      const { app } = await bareApp(t, redisUrl)
      for (const bad of ['', 'has space', 'x'.repeat(256), 'é']) {
        const res = await write(app, {}, bad)
        t.equal(res.statusCode, 400, JSON.stringify(bad))
        t.equal(res.json().code, 'invalid_request')
      }
    })

    t.test('a cache bump hides every older entry at once', async (t) => {
      const { app } = await bareApp(t, redisUrl)
      const cache = VersionedCache.create(app.redis, `test-${Math.random()}`, 60_000)
      const first = await cache.lookup('prj', 'q')
      t.equal(first.value, undefined)
      await first.store('answer')
      t.equal((await cache.lookup('prj', 'q')).value, 'answer')
      t.equal((await cache.lookup('other', 'q')).value, undefined, 'scopes do not share entries')
      await cache.bump('prj')
      t.equal((await cache.lookup('prj', 'q')).value, undefined)
      t.same([cache.hits, cache.misses], [1, 3])
    })
  })
}
