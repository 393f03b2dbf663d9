import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { MemoryCacheStore } from '../src/redis/cache-store.js'
import { keptOf, MemoryIdempotencyStore } from '../src/redis/idempotency-store.js'
import { MemoryRateLimitStore } from '../src/redis/rate-limit-store.js'
import { Metrics } from '../src/metrics.js'
import { metricSample } from '@chatsearch/testkit'

// Each in-process store filled far past its cap stays at the cap, and drops what has expired.

t.test('MemoryCacheStore: bounded by characters of keys and values; expired entries swept on writes', async (t) => {
  const store = new MemoryCacheStore(100_000)
  const value = 'x'.repeat(990)
  for (let i = 0; i < 1000; i++) await store.set(`key:${String(i).padStart(6, '0')}`, value, 60_000)
  t.ok(store.size.bytes! <= 100_000, `${store.size.bytes} characters held, cap 100000`)
  t.ok(store.size.entries >= 95 && store.size.entries <= 100, `${store.size.entries} entries of about 1000 characters`)
  t.equal(await store.get('key:000999'), value, 'the newest entry is kept')
  t.equal(await store.get('key:000000'), undefined, 'the oldest went first')
  await store.set('huge', 'y'.repeat(20_000), 60_000)
  t.equal(await store.get('huge'), undefined, 'a value over an eighth of the cap is not kept')

  const short = new MemoryCacheStore(100_000)
  for (let i = 0; i < 50; i++) await short.set(`short:${i}`, 'v', 5)
  await sleep(20)
  t.equal(short.size.entries, 50, 'expired entries are still held until a sweep')
  await short.set('fresh', 'v', 60_000, Date.now() + 2000)
  t.same(short.size, { entries: 1, bytes: 6 }, 'a write a second later sweeps the expired ones')
})

t.test('MemoryRateLimitStore: at most maxKeys windows; ended windows swept', async (t) => {
  const store = new MemoryRateLimitStore(1000)
  for (let i = 0; i < 5000; i++) await store.hit(`client:${i}`, 60_000)
  t.equal(store.size.entries, 1000, '5000 clients, 1000 windows kept')
  t.equal((await store.hit('client:4999', 60_000)).count, 2, 'the most recent client still counts')
  t.equal((await store.peek('client:0')).count, 0, 'the least recent one was dropped')

  const short = new MemoryRateLimitStore(1000)
  for (let i = 0; i < 50; i++) await short.hit(`client:${i}`, 5)
  await sleep(20)
  await short.hit('late', 60_000, Date.now() + 2000)
  t.equal(short.size.entries, 1, 'ended windows are swept by a later new window')
})

t.test('MemoryIdempotencyStore: kept responses bounded by keys and bytes; held keys never pushed out', async (t) => {
  const store = new MemoryIdempotencyStore(100, 10_000)
  // each kept record counts its key and body in UTF-8, and 400
  const held = await store.claim('held', 'f', 60_000)
  t.equal(held.state, 'new')
  const body = 'b'.repeat(200)
  for (let i = 0; i < 1000; i++) {
    const key = `done:${i}`
    const claim = await store.claim(key, 'f', 60_000)
    if (claim.state !== 'new') throw new Error('expected a new claim')
    await store.complete(key, claim.token, 'f', { status: 200, contentType: 'application/json', body }, 60_000)
  }
  t.ok(store.size.bytes! <= 10_000, `${store.size.bytes} bytes of responses kept, cap 10000`)
  t.ok(store.size.entries <= 1 + 10_000 / (400 + 200), `${store.size.entries} keys: the held key and what fits in 10000`)
  t.same(await store.claim('held', 'f', 60_000), { state: 'in_flight' }, 'the held key is still held')
  t.match(await store.claim('done:999', 'f', 60_000), { state: 'done', response: { body } }, 'the newest response replays')
  t.equal((await store.claim('done:0', 'f', 60_000)).state, 'new', 'the oldest was forgotten: the request runs again')

  const keys = new MemoryIdempotencyStore(100, 10_000_000)
  for (let i = 0; i < 1000; i++) await keys.claim(`k:${i}`, 'f', 60_000)
  t.equal(keys.size.entries, 100, 'keys held by running requests: bounded by the key cap')
  const small = new MemoryIdempotencyStore(100, 10_000)
  for (let i = 0; i < 1000; i++) {
    const claim = await small.claim(`k:${i}`, 'f', 60_000)
    if (claim.state === 'new') await small.complete(`k:${i}`, claim.token, 'f', { status: 200, contentType: 'text/plain', body: '' }, 60_000)
  }
  t.ok(small.size.entries <= 10_000 / 400, `${small.size.entries} kept records of empty bodies: each counts at least 400`)

  // Counted in UTF-8 bytes, and replayed as sent: "—" and "•" are three bytes each.
  const wide = new MemoryIdempotencyStore(100, 10_000_000)
  const reply = '• Trailmark Boot — $129\n'.repeat(10)
  const claim = await wide.claim('wide', 'f', 60_000)
  if (claim.state !== 'new') throw new Error('expected a new claim')
  await wide.complete('wide', claim.token, 'f', { status: 200, contentType: 'application/json', body: reply }, 60_000)
  t.equal(wide.size.bytes, 400 + 'wide'.length + Buffer.byteLength(reply), 'key, body bytes and the record')
  t.ok(Buffer.byteLength(reply) > reply.length, 'more bytes than characters')
  t.same(await wide.claim('wide', 'f', 60_000), { state: 'done', response: { status: 200, contentType: 'application/json', body: reply } }, 'replayed character for character')
  t.same(await wide.claim('wide', 'g', 60_000), { state: 'mismatch' }, 'another body under the key is refused')
  // Each kept body has memory of its own size: a slice of Node's shared buffer pool would keep a whole 8 KiB slab alive for a day.
  const { body: bytes } = keptOf('f', { status: 200, contentType: 'application/json', body: '{"ok":true}' }, 0)
  t.equal(bytes.buffer.byteLength, bytes.byteLength, 'a short body is not a slice of a shared buffer')
  t.notOk(Buffer.from('{"ok":true}').buffer.byteLength === 11, 'as Buffer.from would have made it')
})

t.test('memory_store_entries and memory_store_bytes report each registered store', async (t) => {
  const metrics = new Metrics('test')
  const store = new MemoryRateLimitStore(10)
  for (let i = 0; i < 30; i++) await store.hit(`c${i}`, 60_000)
  metrics.store('windows', () => store.size)
  metrics.store('cache', () => ({ entries: 2, bytes: 123 }))
  const text = await metrics.registry.metrics()
  t.equal(metricSample(text, 'memory_store_entries', { store: 'windows', service: 'test' }), 10)
  t.equal(metricSample(text, 'memory_store_entries', { store: 'cache' }), 2)
  t.equal(metricSample(text, 'memory_store_bytes', { store: 'cache' }), 123)
  t.notMatch(text, /memory_store_bytes\{[^}]*store="windows"/, 'a store that counts no bytes has no bytes series')
})
