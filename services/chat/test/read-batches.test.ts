import t from 'tap'
import type pg from 'pg'
import { consumersChats, type ConsumerKey } from '../src/store/chats.js'
import { readConversations, readMessages, type ConversationKey } from '../src/store/messages.js'
import { readBatches } from '../src/store/read-batches.js'
import { harness, get, post } from './helpers.js'

t.test('reads of concurrent requests share one query', async (t) => {
  const h = await harness(t)
  const app = await h.app()
  const shop = await h.tenant()
  const other = await h.tenant('other')

  const start = async (key: string, consumer: string, text: string) =>
    (await post(app, key, '/newUserMessage', { user_message: text, consumer_id: consumer })).json().chat_id as string
  const ann1 = await start(shop.key, 'ann', 'do you ship to Norway?')
  const ann2 = await start(shop.key, 'ann', 'what sizes do the hiking boots come in?')
  await post(app, shop.key, '/newUserMessage', { user_message: 'and to Sweden?', chat_id: ann1 })
  const ben1 = await start(shop.key, 'ben', 'hello')
  const theirs = await start(other.key, 'ann', 'how do I return a jacket?')
  // One consumer with more chats than a batch holds: the listing reads it again through a cursor.
  await h.db.query(`INSERT INTO chats (project_id, id, consumer_id, created_at, last_updated_at)
    SELECT $1, 'many-' || g, 'many', now(), now() - g * interval '1 second' FROM generate_series(1, 1203) g`, [shop.projectId])

  /** Counts the queries sent: the batching is what is under test, the database is real. */
  function counted (db: pg.Pool) {
    const counter = { queries: 0, query: ((...args: Parameters<pg.Pool['query']>) => { counter.queries++; return db.query(...args) }) as pg.Pool['query'] }
    return counter
  }

  t.test('one query answers each conversation with its own messages', async (t) => {
    const db = counted(h.db)
    const read = readBatches((keys: readonly ConversationKey[]) => readConversations(db, keys))
    const keys = [
      { projectId: shop.projectId, chatId: ann1 },
      { projectId: shop.projectId, chatId: theirs }, // another project's chat: none
      { projectId: other.projectId, chatId: theirs },
      { projectId: shop.projectId, chatId: 'no-such-chat' },
      { projectId: shop.projectId, chatId: ann1 }, // the same key twice
      { projectId: shop.projectId, chatId: ben1 }
    ]
    const conversations = (await Promise.all(keys.map(read))).map((pages) => pages.first)
    t.equal(db.queries, 1, 'six reads started together: one query')
    t.same(conversations.map((c) => c.length), [4, 0, 2, 0, 4, 2])
    t.same(conversations[0]!.filter((m) => m.role === 'user').map((m) => m.content), ['do you ship to Norway?', 'and to Sweden?'])
    t.same(conversations[2]![0]!.content, 'how do I return a jacket?')
    t.same(conversations[4], conversations[0])
    for (const [i, key] of keys.entries()) {
      // The team's read of a conversation holds each turn's decision too; the shopper's never does.
      const forTeam = (await readMessages(h.db, key.projectId, key.chatId)).first.map(({ decision, ...message }) => message)
      t.same(conversations[i], forTeam, `read ${i}: what the conversation's own query reads, without the decisions`)
      t.notOk(conversations[i]!.some((m) => 'decision' in m), `read ${i}: no decision`)
    }
  })

  t.test('one query answers each consumer with their own chats, newest first', async (t) => {
    const db = counted(h.db)
    const read = readBatches((keys: readonly ConsumerKey[]) => consumersChats(db, keys, 2))
    const [ann, annThere, nobody, many] = await Promise.all([
      read({ projectId: shop.projectId, consumerId: 'ann' }),
      read({ projectId: other.projectId, consumerId: 'ann' }),
      read({ projectId: shop.projectId, consumerId: 'zed' }),
      read({ projectId: shop.projectId, consumerId: 'many' })
    ])
    t.equal(db.queries, 1)
    t.same(ann!.map((c) => c.id), [ann1, ann2], 'ann1 was continued last')
    t.same(annThere!.map((c) => c.id), [theirs])
    t.same(nobody, [])
    t.same(many!.map((c) => c.id), ['many-1', 'many-2'], 'at most the limit, newest first')
  })

  t.test('a failing query fails every read of its batch, and the next batch works', async (t) => {
    let fail = true
    const read = readBatches(async (keys: readonly ConversationKey[]) => {
      if (fail) { fail = false; await h.db.query('SELECT 1/0') }
      return await readConversations(h.db, keys)
    })
    const first = await Promise.allSettled([read({ projectId: shop.projectId, chatId: ann1 }), read({ projectId: shop.projectId, chatId: ben1 })])
    t.same(first.map((r) => r.status), ['rejected', 'rejected'])
    t.equal((await read({ projectId: shop.projectId, chatId: ben1 })).first.length, 2)
  })

  t.test('the routes answer concurrent requests as they answer each alone', async (t) => {
    const requests: Array<[string, string, Record<string, string>]> = [
      [shop.key, '/readConversation', { chat_id: ann1 }],
      [shop.key, '/readConversation', { chat_id: theirs }],
      [other.key, '/readConversation', { chat_id: theirs }],
      [shop.key, '/readConversation', { chat_id: ben1 }],
      // Refused before it reaches a batch: one request's bad input never fails the others'.
      [shop.key, '/readConversation', { chat_id: 'a\u0000b' }],
      [shop.key, '/latestConsumerChatId', { consumer_id: 'ann' }],
      [other.key, '/latestConsumerChatId', { consumer_id: 'ann' }],
      [shop.key, '/latestConsumerChatId', { consumer_id: 'zed' }],
      [shop.key, '/listAllProjectConsumerChats', { consumer_id: 'ann' }],
      [shop.key, '/listAllProjectConsumerChats', { consumer_id: 'many' }],
      [other.key, '/listAllProjectConsumerChats', { consumer_id: 'ann' }],
      [shop.key, '/listAllProjectConsumerChats', { consumer_id: 'zed' }]
    ]
    const answer = async ([key, url, query]: [string, string, Record<string, string>]) => {
      const res = await get(app, key, url, query)
      return { status: res.statusCode, body: res.json() }
    }
    const together = await Promise.all(requests.map(answer))
    const alone = []
    for (const request of requests) alone.push(await answer(request))
    t.same(together, alone)
    t.same(together.map((a) => a.status), [200, 404, 200, 200, 400, 200, 200, 200, 200, 200, 200, 200])
    t.equal(together[4]!.body.code, 'invalid_request', together[4]!.body.message)
    t.equal(together[5]!.body.chat_id, ann1)
    t.equal(together[6]!.body.chat_id, theirs)
    t.equal(together[7]!.body.chat_id, null)
    const many = together[9]!.body
    t.equal(many.total_count, 1203, 'more than a batch: streamed in full')
    t.equal(many.chats.length, 1203)
    t.same([many.chats[0].id, many.chats[1202].id], ['many-1', 'many-1203'])
  })
})
