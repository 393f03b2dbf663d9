import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { harness, get, post } from './helpers.js'

interface Stored { role: string, content: string, timestamp: string }

/** Every user message is directly followed by an assistant message, and times never go backwards. */
function assertWholeTurns (t: Test, history: Stored[]) {
  history.forEach((m, i) => t.equal(m.role, i % 2 === 0 ? 'user' : 'assistant', `message ${i} role`))
  const times = history.map((m) => m.timestamp)
  t.same([...times].sort(), times, 'timestamps follow conversation order')
}

t.test('parallel posts on one chat', async (t) => {
  const h = await harness(t)
  const app = await h.app()
  const shop = await h.tenant()

  const send = (target: FastifyInstance, chatId: string, i: number) =>
    post(target, shop.key, '/newUserMessage', { user_message: `question number ${i}: do you have size ${i} boots?`, chat_id: chatId })

  t.test('10 parallel posts in one process add 20 messages as whole turns', async (t) => {
    const chatId = (await post(app, shop.key, '/newUserMessage', { user_message: 'hello', consumer_id: 'eve' })).json().chat_id
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => send(app, chatId, i)))
    t.same(results.map((r) => r.statusCode), Array(10).fill(200))
    const history: Stored[] = (await get(app, shop.key, '/readConversation', { chat_id: chatId })).json()
    t.equal(history.length, 22)
    assertWholeTurns(t, history)
    const asked = history.filter((m) => m.role === 'user').slice(1).map((m) => m.content).sort()
    t.same(asked, Array.from({ length: 10 }, (_, i) => `question number ${i}: do you have size ${i} boots?`).sort(), 'no message lost or doubled')
    const { rows } = await h.db.query('SELECT message_count FROM chats WHERE id = $1', [chatId])
    t.equal(rows[0].message_count, 22)
  })

  t.test('posts through two app instances (two replicas) on one chat still make whole turns', async (t) => {
    const replica = await h.app()
    const chatId = (await post(app, shop.key, '/newUserMessage', { user_message: 'hello', consumer_id: 'fay' })).json().chat_id
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i % 2 === 0 ? app : replica, chatId, i)))
    t.same(results.map((r) => r.statusCode), Array(10).fill(200))
    const history: Stored[] = (await get(app, shop.key, '/readConversation', { chat_id: chatId })).json()
    t.equal(history.length, 22)
    assertWholeTurns(t, history)
  })
})
