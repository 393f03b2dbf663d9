import t from 'tap'
import Fastify from 'fastify'
import { installErrorHandler, MemoryRateLimitStore, RedisRateLimitStore, rateLimitPlugin, redisPlugin } from '../src/index.js'
import { startRedis } from '@chatsearch/testkit'

// A caller counted in counters of its own instead of its credential's (a widget key's browsers:
// per address and per consumer), in the in-process store and in a real Redis.
for (const backend of ['memory', 'redis'] as const) {
  t.test(`several counters per request, ${backend}`, async (t) => {
    const app = Fastify()
    installErrorHandler(app)
    await app.register(redisPlugin, { url: backend === 'redis' ? (await startRedis(t)).url : undefined, name: 'test' })
    await app.register(rateLimitPlugin, {
      service: 'test',
      limits: { chat_read: 100, widget_address: 4, widget_consumer: 2 },
      identify: () => 'the-key',
      counters: (request) => {
        const consumer = request.headers['x-consumer'] as string | undefined
        return consumer === undefined ? undefined : [{ rateClass: 'widget_address', who: request.ip + String(request.headers['x-address']) }, { rateClass: 'widget_consumer', who: consumer }]
      }
    })
    app.get('/read', { config: { rateLimit: 'chat_read' } }, async () => ({ ok: true }))
    t.teardown(() => app.close())
    const read = (consumer: string, address = 'a') => app.inject({ url: '/read', headers: { 'x-consumer': consumer, 'x-address': address } })

    const first = await read('ann')
    t.equal(first.statusCode, 200)
    t.equal(first.headers['ratelimit-limit'], '2', 'the headers tell of the counter nearest its limit')
    t.equal(first.headers['ratelimit-remaining'], '1')
    t.equal((await read('ann')).statusCode, 200)
    const third = await read('ann')
    t.equal(third.statusCode, 429, 'past the consumer\'s limit')
    t.match(third.json().message, /for this consumer/)
    t.equal((await read('ben')).statusCode, 200, 'another consumer from the same address: its 4th request')
    const fifth = await read('cat')
    t.equal(fifth.statusCode, 429, 'the 5th from that address, whoever the consumer')
    t.match(fifth.json().message, /from this address/)
    t.equal((await read('cat', 'b')).statusCode, 200, 'another address, another consumer')
    t.equal((await app.inject({ url: '/read' })).headers['ratelimit-limit'], '100', 'without counters of its own, the credential\'s class')
  })
}

for (const backend of ['memory', 'redis'] as const) {
  t.test(`an attempt counted first is taken back when it succeeds, ${backend}`, async (t) => {
    let store
    if (backend === 'memory') store = new MemoryRateLimitStore()
    else {
      const app = Fastify()
      await app.register(redisPlugin, { url: (await startRedis(t)).url, name: 'test' })
      t.teardown(() => app.close())
      store = new RedisRateLimitStore(app.redis!)
    }
    await store.release('never-counted')
    t.same(await store.peek('never-counted'), { count: 0, resetMs: 0 }, 'no window is made by a release')
    await store.hit('signin', 60_000)
    await store.hit('signin', 60_000)
    await store.release('signin')
    t.equal((await store.peek('signin')).count, 1, 'one taken back')
    await store.release('signin')
    await store.release('signin')
    t.equal((await store.peek('signin')).count, 0, 'never below zero')
  })
}
