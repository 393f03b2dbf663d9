import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { parse } from 'csv-parse/sync'
import { errorBody, limits, type ErrorCode } from '@chatsearch/contracts'
import { rateMessage } from '../src/store/feedback.js'
import { harness, call, get, post, type Tenant } from './helpers.js'
import { TOKEN } from './support/search-stack.js'

interface Message { msg_id: string, role: string, feedback?: unknown }

t.test('feedback on assistant messages', async (t) => {
  const h = await harness(t)
  const app = await h.app({ serviceToken: TOKEN })
  const shop = await h.tenant()
  const other = await h.tenant('other shop')

  const start = async (tenant: Tenant, consumer: string, extra: Record<string, unknown> = {}) =>
    (await post(app, tenant.key, '/newUserMessage', { user_message: 'hello', consumer_id: consumer, ...extra })).json().chat_id as string
  const messagesOf = async (tenant: Tenant, chatId: string) => (await get(app, tenant.key, '/readConversation', { chat_id: chatId })).json() as Message[]
  const transcript = async (projectId: string, chatId: string) => {
    const res = await app.inject({ url: `/admin/chats/${chatId}`, headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': projectId } })
    t.equal(res.statusCode, 200)
    return (res.json() as { messages: Message[] }).messages
  }
  const rate = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(app, key, { method: 'POST', url: '/feedback', payload: body, headers })
  /** The answer is the catalog's error body for `code`, and nothing was rated by it. */
  const refused = async (t: Test, res: Awaited<ReturnType<typeof rate>>, code: ErrorCode, name: string) => {
    t.equal(res.statusCode, errorBody(code).statusCode, `${name}: status`)
    t.same(res.json(), errorBody(code, res.json().message), `${name}: ${code}`)
  }
  const rated = async () => (await h.db.query('SELECT count(*)::int AS n FROM messages WHERE feedback_rating IS NOT NULL')).rows[0].n as number

  const chat = await start(shop, 'ann')
  await post(app, shop.key, '/newUserMessage', { user_message: 'do you sell tents?', chat_id: chat })
  const [question, reply, , secondReply] = await messagesOf(shop, chat)
  const otherChat = await start(shop, 'ben')
  const [, otherReply] = await messagesOf(shop, otherChat)
  const theirs = await start(other, 'ann')
  const [, theirReply] = await messagesOf(other, theirs)

  t.test('a rating up with a comment is stored with the message and shown in the transcript', async (t) => {
    const res = await rate(shop.key, { chat_id: chat, msg_id: reply!.msg_id, rating: 'up', comment: 'Quick and right.' })
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.same(Object.keys(body).sort(), ['chat_id', 'comment', 'msg_id', 'rated_at', 'rating'])
    t.match(body, { chat_id: chat, msg_id: reply!.msg_id, rating: 'up', comment: 'Quick and right.' })
    t.match(body.rated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'ISO 8601 UTC')

    const messages = await transcript(shop.projectId, chat)
    t.same(messages.find((m) => m.msg_id === reply!.msg_id)?.feedback, { rating: 'up', comment: 'Quick and right.', rated_at: body.rated_at })
    t.same(messages.filter((m) => m.feedback !== undefined).map((m) => m.msg_id), [reply!.msg_id], 'on that message only')
    t.notOk((await messagesOf(shop, chat)).some((m) => 'feedback' in m), 'the shopper\'s readConversation shows none')
  })

  t.test('a second rating replaces the first, its comment with it', async (t) => {
    const first = (await transcript(shop.projectId, chat)).find((m) => m.msg_id === reply!.msg_id)?.feedback as { rated_at: string }
    const res = await rate(shop.key, { chat_id: chat, msg_id: reply!.msg_id, rating: 'down' })
    t.equal(res.statusCode, 200)
    t.same(Object.keys(res.json()).sort(), ['chat_id', 'msg_id', 'rated_at', 'rating'], 'no comment sent, none kept')
    const now = (await transcript(shop.projectId, chat)).find((m) => m.msg_id === reply!.msg_id)?.feedback as { rating: string, rated_at: string }
    t.same(now, { rating: 'down', rated_at: res.json().rated_at })
    t.ok(now.rated_at >= first.rated_at, 'the time of the latest rating')
    t.equal(await rated(), 1, 'one rating per message')

    const blank = await rate(shop.key, { chat_id: chat, msg_id: reply!.msg_id, rating: 'down', comment: ' \n ' })
    t.notOk('comment' in blank.json(), 'white space is no comment')
    const longest = 'é'.repeat(limits.feedbackCommentMaxChars)
    const kept = await rate(shop.key, { chat_id: chat, msg_id: secondReply!.msg_id, rating: 'up', comment: longest })
    t.equal(kept.statusCode, 200)
    t.equal(((await transcript(shop.projectId, chat)).find((m) => m.msg_id === secondReply!.msg_id)?.feedback as { comment: string }).comment, longest, 'the longest comment, kept as sent')
  })

  t.test('the CSV export carries each rating with its comment, empty on the messages nobody rated', async (t) => {
    const res = await app.inject({ url: '/admin/chats/export?format=csv&consumer_id=ann', headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId } })
    t.equal(res.statusCode, 200)
    const rows = (parse(res.body, { columns: true }) as Array<Record<string, string>>).filter((r) => r.chat_id === chat)
    t.same(rows.map((r) => [r.role, r.feedback_rating, r.feedback_comment]), [
      ['user', '', ''],
      ['assistant', 'down', ''],
      ['user', '', ''],
      ['assistant', 'up', 'é'.repeat(limits.feedbackCommentMaxChars)]
    ])
  })

  t.test('only an assistant message of the caller\'s project\'s chat can be rated: anything else is 404', async (t) => {
    const before = await rated()
    const cases: Array<[string, string, Record<string, unknown>, ErrorCode]> = [
      ['the customer\'s own message', shop.key, { chat_id: chat, msg_id: question!.msg_id }, 'message_not_found'],
      ['an unknown message', shop.key, { chat_id: chat, msg_id: '00000000-0000-4000-8000-000000000000' }, 'message_not_found'],
      ['another chat\'s message', shop.key, { chat_id: chat, msg_id: otherReply!.msg_id }, 'message_not_found'],
      ['an unknown chat', shop.key, { chat_id: 'nope', msg_id: reply!.msg_id }, 'chat_not_found'],
      ['another project\'s chat and message', shop.key, { chat_id: theirs, msg_id: theirReply!.msg_id }, 'chat_not_found'],
      ['this project\'s message with another project\'s key', other.key, { chat_id: chat, msg_id: reply!.msg_id }, 'chat_not_found']
    ]
    for (const [name, key, ids, code] of cases) await refused(t, await rate(key, { ...ids, rating: 'up' }), code, name)
    t.equal(await rated(), before, 'nothing was rated')
  })

  t.test('bad input is 400 with the error body', async (t) => {
    const ok = { chat_id: chat, msg_id: reply!.msg_id, rating: 'up' }
    const without = (field: string) => Object.fromEntries(Object.entries(ok).filter(([name]) => name !== field))
    const cases: Array<[string, Record<string, unknown>, ErrorCode]> = [
      ['no rating', without('rating'), 'missing_parameters'],
      ['no chat_id', without('chat_id'), 'missing_parameters'],
      ['no msg_id', without('msg_id'), 'missing_parameters'],
      ['a rating neither up nor down', { ...ok, rating: 'sideways' }, 'invalid_request'],
      ['a rating in capitals', { ...ok, rating: 'UP' }, 'invalid_request'],
      ['a numeric rating', { ...ok, rating: 1 }, 'invalid_request'],
      ['a comment too long', { ...ok, comment: 'x'.repeat(limits.feedbackCommentMaxChars + 1) }, 'invalid_request'],
      ['a comment that is not text', { ...ok, comment: ['nice'] }, 'invalid_request'],
      ['a null comment', { ...ok, comment: null }, 'invalid_request'],
      ['an empty chat_id', { ...ok, chat_id: '' }, 'invalid_request'],
      ['a msg_id too long', { ...ok, msg_id: 'm'.repeat(limits.idMaxChars + 1) }, 'invalid_request'],
      ['a NUL in the comment', { ...ok, comment: 'a\u0000b' }, 'invalid_request'],
      ['an unknown field', { ...ok, consumer_id: 'ann' }, 'invalid_request']
    ]
    const before = (await transcript(shop.projectId, chat)).find((m) => m.msg_id === reply!.msg_id)?.feedback
    for (const [name, body, code] of cases) await refused(t, await rate(shop.key, body), code, name)
    const tooLong = await rate(shop.key, { ...ok, comment: 'x'.repeat(limits.feedbackCommentMaxChars + 1) })
    t.match(tooLong.json().message, /comment/, 'the message names the field')
    t.equal((await rate(shop.key, { ...ok, rating: 'sideways' })).json().message, 'rating must be one of "up", "down"', 'and the values allowed')
    t.same((await transcript(shop.projectId, chat)).find((m) => m.msg_id === reply!.msg_id)?.feedback, before, 'the stored rating is untouched')
  })

  t.test('a team member\'s answer is an assistant message too, and can be rated', async (t) => {
    const answered = await app.inject({
      method: 'POST', url: `/admin/chats/${otherChat}/answer`, headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId }, payload: { content: 'Here to help.', username: 'ana' }
    })
    const res = await rate(shop.key, { chat_id: otherChat, msg_id: answered.json().msg_id, rating: 'up' })
    t.equal(res.statusCode, 200)
    t.match((await transcript(shop.projectId, otherChat)).at(-1), { msg_id: answered.json().msg_id, feedback: { rating: 'up' } })
  })

  t.test('a retry with the same Idempotency-Key gets the stored answer', async (t) => {
    const body = { chat_id: otherChat, msg_id: otherReply!.msg_id, rating: 'up' }
    const first = await rate(shop.key, body, { 'idempotency-key': 'rate-1' })
    const again = await rate(shop.key, body, { 'idempotency-key': 'rate-1' })
    t.equal(again.headers['idempotent-replayed'], 'true')
    t.same(again.json(), first.json())
    await refused(t, await rate(shop.key, { ...body, rating: 'down' }, { 'idempotency-key': 'rate-1' }), 'idempotency_key_reused', 'the key with another body')
  })

  t.test('counted against the chat write limit, and refused without a credential', async (t) => {
    const limited = await h.app({ rateLimits: { chatWrite: 1, chatRead: 100 } })
    const body = { chat_id: otherChat, msg_id: otherReply!.msg_id, rating: 'up' }
    const first = await call(limited, shop.key, { method: 'POST', url: '/feedback', payload: body })
    t.equal(first.headers['ratelimit-limit'], '1')
    await refused(t, await call(limited, shop.key, { method: 'POST', url: '/feedback', payload: body }), 'rate_limited', 'past the limit')
    await refused(t, await call(limited, undefined, { method: 'POST', url: '/feedback', payload: body }), 'unauthorized', 'no key')
  })

  t.test('a caller bound to one consumer rates only that consumer\'s chats', async (t) => {
    const key = { projectId: shop.projectId, chatId: otherChat, msgId: otherReply!.msg_id }
    t.equal(await rateMessage(h.db, { ...key, consumerId: 'ann' }, 'down', null), 'no_chat', 'ben\'s chat is missing for ann')
    t.match(await rateMessage(h.db, { ...key, consumerId: 'ben' }, 'down', 'meh'), { rating: 'down', comment: 'meh' }, 'his own')
  })

  t.test('analytics count the replies rated up and down, test chats and other projects left out', async (t) => {
    const fresh = await h.tenant('fresh shop')
    const rateFirstReply = async (tenant: Tenant, chatId: string, rating: string) => {
      const [, first] = await messagesOf(tenant, chatId)
      t.equal((await rate(tenant.key, { chat_id: chatId, msg_id: first!.msg_id, rating })).statusCode, 200)
    }
    await rateFirstReply(fresh, await start(fresh, 'a'), 'up')
    await rateFirstReply(fresh, await start(fresh, 'b'), 'up')
    await rateFirstReply(fresh, await start(fresh, 'c'), 'down')
    await rateFirstReply(fresh, await start(fresh, 'console:ana', { test: true }), 'down')
    await rateFirstReply(other, theirs, 'down')
    const analytics = async (app: FastifyInstance, projectId: string) =>
      (await app.inject({ url: '/admin/analytics?days=1', headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': projectId } })).json()
    t.same((await analytics(app, fresh.projectId)).feedback, { up: 2, down: 1, ratio: 2 / 3 })
    t.same((await analytics(app, other.projectId)).feedback, { up: 0, down: 1, ratio: 0 })
  })
})
