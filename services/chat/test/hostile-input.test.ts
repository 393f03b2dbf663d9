import t from 'tap'
import { harness, call, get, post } from './helpers.js'

t.test('hostile input never gets a 5xx and never half-writes', async (t) => {
  const h = await harness(t)
  const app = await h.app()
  const shop = await h.tenant()
  const count = async () => (await h.db.query('SELECT count(*)::int AS n FROM messages')).rows[0].n as number

  t.test('malformed and mistyped bodies', async (t) => {
    const before = await count()
    const raw = (payload: string, contentType = 'application/json') =>
      call(app, shop.key, { method: 'POST', url: '/newUserMessage', payload, headers: { 'content-type': contentType } })
    const cases: Array<[string, () => ReturnType<typeof raw>, number]> = [
      ['broken JSON', () => raw('{"user_message": "hi", '), 400],
      ['JSON array', () => raw('["hi"]'), 400],
      ['JSON string', () => raw('"hi"'), 400],
      ['JSON null', () => raw('null'), 400],
      ['empty body', () => raw(''), 400],
      ['text body', () => raw('hello', 'text/plain'), 415],
      ['number message', () => post(app, shop.key, '/newUserMessage', { user_message: 42, consumer_id: 'x' }), 400],
      ['object message', () => post(app, shop.key, '/newUserMessage', { user_message: { $ne: '' }, consumer_id: 'x' }), 400],
      ['string test flag', () => post(app, shop.key, '/newUserMessage', { user_message: 'hi', consumer_id: 'x', test: 'false' }), 400],
      ['number consumer', () => post(app, shop.key, '/newUserMessage', { user_message: 'hi', consumer_id: 7 }), 400],
      ['null chat_id', () => post(app, shop.key, '/newUserMessage', { user_message: 'hi', chat_id: null, consumer_id: 'x' }), 400],
      ['NUL character', () => post(app, shop.key, '/newUserMessage', { user_message: 'a\u0000b', consumer_id: 'x' }), 400],
      // A handoff's webhook event is jsonb, which refuses it: it was a 500 after the turn was half written.
      ['lone surrogate', () => raw('{"user_message": "I want to talk to a person \\ud83d", "consumer_id": "x"}'), 400],
      ['lone surrogate in a key', () => raw('{"user_message": "hi", "consumer_id": "x", "\\udc00": 1}'), 400],
      ['unknown field', () => post(app, shop.key, '/newUserMessage', { user_message: 'hi', consumer_id: 'x', role: 'assistant' }), 400],
      ['message too long', () => post(app, shop.key, '/newUserMessage', { user_message: 'a'.repeat(8001), consumer_id: 'x' }), 400],
      ['consumer id too long', () => post(app, shop.key, '/newUserMessage', { user_message: 'hi', consumer_id: 'c'.repeat(257) }), 400],
      ['body over 1 MiB', () => raw(JSON.stringify({ user_message: 'a'.repeat(1_100_000), consumer_id: 'x' })), 413]
    ]
    for (const [name, send, status] of cases) {
      const res = await send()
      t.equal(res.statusCode, status, name)
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'], `${name}: error body`)
    }
    t.equal(await count(), before, 'nothing was stored')
  })

  t.test('the longest allowed message and unicode round-trip exactly', async (t) => {
    const long = 'é'.repeat(8000)
    t.equal((await post(app, shop.key, '/newUserMessage', { user_message: long, consumer_id: 'u' })).statusCode, 200)
    const text = 'Ich hätte gern 👟 Größe 42 — ¿tenéis? 你好 مرحبا \u0301e\u200d "quotes" \\ back\nslash'
    const res = await post(app, shop.key, '/newUserMessage', { user_message: text, consumer_id: 'ü-ñ-👤' })
    t.equal(res.statusCode, 200)
    const history = (await get(app, shop.key, '/readConversation', { chat_id: res.json().chat_id })).json()
    t.equal(history[0].content, text, 'stored as sent')
    const listed = (await get(app, shop.key, '/listAllProjectConsumerChats', { consumer_id: 'ü-ñ-👤' })).json()
    t.equal(listed.total_count, 1)
  })

  t.test('odd query strings', async (t) => {
    const weird = ["' OR 1=1 --", '%', '_', '\\', 'a'.repeat(128)]
    for (const chatId of weird) {
      const res = await get(app, shop.key, '/readConversation', { chat_id: chatId })
      t.equal(res.statusCode, 404, `chat_id ${chatId.slice(0, 20)}`)
    }
    t.equal((await get(app, shop.key, '/readConversation', { chat_id: 'a'.repeat(129) })).statusCode, 400)
    const repeated = await call(app, shop.key, { method: 'GET', url: '/readConversation?chat_id=a&chat_id=b' })
    t.equal(repeated.statusCode, 400, 'a repeated parameter is rejected')
    t.equal((await get(app, shop.key, '/latestConsumerChatId', { consumer_id: "'; DROP TABLE chats; --" })).json().chat_id, null)
    t.equal((await get(app, shop.key, '/listAllProjectConsumerChats', { consumer_id: 'a\u0000b' })).statusCode, 400, 'NUL in a query')
  })

  t.test('unknown routes answer 404 with the error body', async (t) => {
    const res = await get(app, shop.key, '/nope')
    t.equal(res.statusCode, 404)
    t.equal(res.json().code, 'not_found')
    for (const method of ['PUT', 'PATCH'] as const) {
      const wrong = await call(app, shop.key, { method, url: '/newUserMessage', headers: { 'content-type': 'application/json' } })
      t.equal(wrong.statusCode, 405, `${method} /newUserMessage with a JSON content type and no body`)
      t.equal(wrong.headers.allow, 'OPTIONS, POST', 'POST, and OPTIONS for the widget\'s preflight')
      t.equal(wrong.json().code, 'method_not_allowed')
    }
  })
})
