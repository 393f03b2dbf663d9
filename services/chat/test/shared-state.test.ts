import t, { type Test } from 'tap'
import { startRedis } from '@chatsearch/testkit'
import { loadClassifier } from '../src/assistant/classifier.js'
import type { Retriever } from '../src/assistant/types.js'
import { call, get, harness, type Harness } from './helpers.js'

/** While `held` is set, a retrieval says it has started and waits to be let go: a retry can then arrive while the first turn runs. */
let held: { started: () => void, released: Promise<void> } | undefined
const heldRetriever: Retriever = {
  retrieve: async () => {
    if (held !== undefined) {
      held.started()
      await held.released
    }
    return { items: [] }
  },
  knowledge: async () => ({ passages: [] }),
  items: async () => ({ items: [] }),
  page: async () => ({ passages: [] })
}

const send = (app: Awaited<ReturnType<Harness['app']>>, key: string, body: object, headers: Record<string, string> = {}) =>
  call(app, key, { method: 'POST', url: '/newUserMessage', payload: body, headers })

async function chatsOf (app: Awaited<ReturnType<Harness['app']>>, key: string, consumer: string): Promise<Array<{ chat_id: string }>> {
  return (await get(app, key, '/listAllProjectConsumerChats', { consumer_id: consumer })).json().chats
}

const classifier = await loadClassifier()

for (const backend of ['memory', 'redis'] as const) {
  t.test(`chat service with ${backend === 'redis' ? 'a real Redis' : 'no Redis'}`, async (t: Test) => {
    const redisUrl = backend === 'redis' ? (await startRedis(t)).url : undefined
    const h = await harness(t)
    const build = (rateLimits = { chatWrite: 100, chatRead: 100 }) =>
      h.app({ ...(redisUrl === undefined ? {} : { redisUrl }), rateLimits }, { classifier, retriever: heldRetriever })
    const app = await build()

    t.test('a retried newUserMessage with its Idempotency-Key creates no second turn', async (t) => {
      const shop = await h.tenant()
      const body = { user_message: 'do you have rain jackets?', consumer_id: 'ana' }
      const first = await send(app, shop.key, body, { 'idempotency-key': 'turn-1' })
      t.equal(first.statusCode, 200)
      const retry = await send(app, shop.key, body, { 'idempotency-key': 'turn-1' })
      t.equal(retry.statusCode, 200)
      t.equal(retry.headers['idempotent-replayed'], 'true')
      t.same(retry.json(), first.json(), 'the same reply, chat id included')
      t.equal((await chatsOf(app, shop.key, 'ana')).length, 1, 'one chat')

      const followUp = { user_message: 'in blue?', chat_id: first.json().chat_id }
      const streamed = await send(app, shop.key, followUp, { 'idempotency-key': 'turn-2', accept: 'text/event-stream' })
      t.match(streamed.body, /event: done\n/)
      t.equal(streamed.headers['ratelimit-limit'], '100', 'a streamed reply carries the RateLimit headers')
      const done = JSON.parse(/event: done\ndata: (.*)\n/.exec(streamed.body)![1]!)
      const replayed = await send(app, shop.key, followUp, { 'idempotency-key': 'turn-2' })
      t.same(replayed.json(), done, 'a streamed turn is replayed as its final JSON')
      const replayedStream = await send(app, shop.key, followUp, { 'idempotency-key': 'turn-2', accept: 'text/event-stream' })
      t.equal(replayedStream.body, `event: done\ndata: ${JSON.stringify(done)}\n\n`, '…or as one done event to a streaming client')
      const history = (await get(app, shop.key, '/readConversation', { chat_id: first.json().chat_id })).json()
      t.equal(history.length, 4, 'two turns, not four')

      const reused = await send(app, shop.key, { ...followUp, user_message: 'in red?' }, { 'idempotency-key': 'turn-2' })
      t.equal(reused.statusCode, 422)
      t.equal(reused.json().code, 'idempotency_key_reused')
    })

    t.test('a retry while the first attempt still runs is 409; an error frees the key', async (t) => {
      const shop = await h.tenant()
      const body = { user_message: 'do you sell tents?', consumer_id: 'ben' }
      let started!: () => void
      let release!: () => void
      const inRetrieval = new Promise<void>((resolve) => { started = resolve })
      held = { started, released: new Promise((resolve) => { release = resolve }) }
      const first = send(app, shop.key, body, { 'idempotency-key': 'race' })
      // `first` settling instead would mean it never retrieved: the assertions below then say so.
      await Promise.race([inRetrieval, first])
      const b = await send(app, shop.key, body, { 'idempotency-key': 'race' })
      held = undefined
      release()
      const a = await first
      t.same([a.statusCode, b.statusCode], [200, 409])
      t.equal(b.json().code, 'idempotency_key_in_use')
      t.equal((await chatsOf(app, shop.key, 'ben')).length, 1)

      const missing = { user_message: 'hi', chat_id: 'chat_missing' }
      t.equal((await send(app, shop.key, missing, { 'idempotency-key': 'err' })).statusCode, 404)
      t.equal((await send(app, shop.key, missing, { 'idempotency-key': 'err' })).statusCode, 404, 'not replayed: the retry runs again')
      t.equal((await send(app, shop.key, body, { 'idempotency-key': 'bad key' })).json().code, 'invalid_request')
    })

    t.test('writes and reads have their own per-credential limits', async (t) => {
      const limited = await build({ chatWrite: 2, chatRead: 3 })
      const shop = await h.tenant()
      const other = await h.tenant('other')
      const body = { user_message: 'hi', consumer_id: 'cy' }
      const statuses = []
      for (let i = 0; i < 3; i++) statuses.push((await send(limited, shop.key, body)).statusCode)
      t.same(statuses, [200, 200, 429])
      const refused = await send(limited, shop.key, body)
      t.equal(refused.json().code, 'rate_limited')
      t.ok(Number(refused.headers['retry-after']) > 0)
      t.equal((await send(limited, other.key, body)).statusCode, 200, 'another credential is not slowed down')
      const read = await get(limited, shop.key, '/listAllProjectConsumerChats', { consumer_id: 'cy' })
      t.equal(read.statusCode, 200, 'reads are counted apart from writes')
      t.same([read.headers['ratelimit-limit'], read.headers['ratelimit-remaining']], ['3', '2'])
      const unauthenticated = await get(limited, undefined, '/listAllProjectConsumerChats', { consumer_id: 'cy' })
      t.equal(unauthenticated.statusCode, 401)
      t.equal(unauthenticated.headers['ratelimit-limit'], undefined, 'a request without a valid credential is not counted')
    })
  })
}

t.test('Redis dying mid-run: turns without a key go on, turns with a key are refused with 503', async (t) => {
  const redis = await startRedis(t)
  const h = await harness(t)
  const app = await h.app({ redisUrl: redis.url, rateLimits: { chatWrite: 100, chatRead: 100 } }, { classifier })
  const shop = await h.tenant()
  const body = { user_message: 'hello', consumer_id: 'dee' }
  t.equal((await send(app, shop.key, body, { 'idempotency-key': 'before' })).statusCode, 200)
  await redis.kill()
  const plain = await send(app, shop.key, body)
  t.equal(plain.statusCode, 200, 'rate limiting fails open')
  t.equal(plain.headers['ratelimit-limit'], undefined)
  const keyed = await send(app, shop.key, body, { 'idempotency-key': 'during' })
  t.equal(keyed.statusCode, 503)
  t.same(Object.keys(keyed.json()).sort(), ['code', 'error', 'message', 'statusCode'])
  t.equal((await chatsOf(app, shop.key, 'dee')).length, 2, 'the refused turn was not stored')
  t.equal(app.rateLimiter.failedOpen, 3)
  t.equal(app.idempotency.unavailable, 1)
})
