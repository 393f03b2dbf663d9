import t from 'tap'
import { classifications } from '@chatsearch/contracts'
import { harness, get, post } from './helpers.js'

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

t.test('newUserMessage', async (t) => {
  const h = await harness(t)
  const app = await h.app()
  const shop = await h.tenant()

  t.test('starts a chat for a consumer and answers with the documented fields', async (t) => {
    const res = await post(app, shop.key, '/newUserMessage', { user_message: 'Hello there!', consumer_id: 'alice' })
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.same(Object.keys(body).sort(), ['assistant_response', 'chat_id', 'citations', 'classification', 'handoff'])
    t.type(body.chat_id, 'string')
    t.ok(body.assistant_response.length > 10, 'a real reply')
    t.equal(body.classification, 'greeting')
    t.same(body.citations, [])
  })

  t.test('an empty chat_id with a consumer_id starts a chat too', async (t) => {
    const res = await post(app, shop.key, '/newUserMessage', { user_message: 'do you sell tents?', chat_id: '', consumer_id: 'bob', test: false })
    t.equal(res.statusCode, 200)
    t.ok(classifications.includes(res.json().classification))
  })

  t.test('continues a chat: history grows by whole turns in order, with metadata', async (t) => {
    const first = (await post(app, shop.key, '/newUserMessage', { user_message: 'hi', consumer_id: 'carol' })).json()
    const second = await post(app, shop.key, '/newUserMessage', { user_message: 'My parcel arrived damaged and nobody answers my emails.', chat_id: first.chat_id })
    t.equal(second.statusCode, 200)
    t.equal(second.json().chat_id, first.chat_id)
    t.equal(second.json().classification, 'complaint')

    const history = (await get(app, shop.key, '/readConversation', { chat_id: first.chat_id })).json()
    t.equal(history.length, 4)
    t.same(history.map((m: { role: string }) => m.role), ['user', 'assistant', 'user', 'assistant'])
    t.equal(history[0].content, 'hi')
    t.equal(history[2].content, 'My parcel arrived damaged and nobody answers my emails.')
    t.equal(history[3].content, second.json().assistant_response)
    t.equal(history[2].classification, 'complaint')
    t.notOk('citations' in history[0], 'user messages carry no citations')
    t.notOk('classification' in history[1], 'assistant messages carry no classification')
    t.same(history[1].citations, [])
    const times = history.map((m: { timestamp: string }) => m.timestamp)
    for (const ts of times) t.match(ts, ISO_UTC)
    t.same([...times].sort(), times, 'chronological order')
    t.equal(new Set(history.map((m: { msg_id: string }) => m.msg_id)).size, 4, 'unique message ids')
  })

  t.test('the consumer of an existing chat must match when given', async (t) => {
    const chat = (await post(app, shop.key, '/newUserMessage', { user_message: 'hey', consumer_id: 'dave' })).json()
    const ok = await post(app, shop.key, '/newUserMessage', { user_message: 'where is my order?', chat_id: chat.chat_id, consumer_id: 'dave' })
    t.equal(ok.statusCode, 200)
    const wrong = await post(app, shop.key, '/newUserMessage', { user_message: 'where is my order?', chat_id: chat.chat_id, consumer_id: 'mallory' })
    t.equal(wrong.statusCode, 404)
    t.equal(wrong.json().code, 'chat_not_found')
  })

  t.test('rules of the spec', async (t) => {
    const cases: Array<[string, unknown, number, string]> = [
      ['neither chat_id nor consumer_id', { user_message: 'hi' }, 400, 'missing_parameters'],
      ['an empty chat_id and no consumer_id', { user_message: 'hi', chat_id: '' }, 400, 'missing_parameters'],
      ['no user_message', { consumer_id: 'x' }, 400, 'missing_parameters'],
      ['an empty user_message', { user_message: '', consumer_id: 'x' }, 400, 'invalid_request'],
      ['a blank user_message', { user_message: ' \n\t ', consumer_id: 'x' }, 400, 'invalid_request'],
      ['an unknown chat_id', { user_message: 'hi', chat_id: 'no-such-chat' }, 404, 'chat_not_found'],
      ['an empty consumer_id', { user_message: 'hi', consumer_id: '' }, 400, 'invalid_request']
    ]
    for (const [name, payload, status, code] of cases) {
      const res = await post(app, shop.key, '/newUserMessage', payload)
      t.equal(res.statusCode, status, name)
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'], `${name}: error body`)
      t.equal(res.json().code, code, name)
      t.equal(res.json().statusCode, status, name)
    }
    const notFound = await post(app, shop.key, '/newUserMessage', { user_message: 'hi', chat_id: 'nope' })
    t.equal(notFound.json().error, 'Chat Not Found')
  })

  t.test('test: true flags the chat as a test chat', async (t) => {
    const res = (await post(app, shop.key, '/newUserMessage', { user_message: 'testing 1 2 3', consumer_id: 'qa', test: true })).json()
    const plain = (await post(app, shop.key, '/newUserMessage', { user_message: 'hello', consumer_id: 'qa' })).json()
    const { rows } = await h.db.query('SELECT id, is_test FROM chats WHERE id = ANY($1)', [[res.chat_id, plain.chat_id]])
    const flags = Object.fromEntries(rows.map((r) => [r.id, r.is_test]))
    t.equal(flags[res.chat_id], true)
    t.equal(flags[plain.chat_id], false)
    const listed = (await get(app, shop.key, '/listAllProjectConsumerChats', { consumer_id: 'qa' })).json()
    t.equal(listed.total_count, 2, 'test chats are still listed')
  })

  t.test('a chat of another project is not found, and is left untouched', async (t) => {
    const other = await h.tenant('other shop')
    const theirs = (await post(app, other.key, '/newUserMessage', { user_message: 'hello', consumer_id: 'alice' })).json()
    const res = await post(app, shop.key, '/newUserMessage', { user_message: 'hijack', chat_id: theirs.chat_id })
    t.equal(res.statusCode, 404)
    t.equal(res.json().code, 'chat_not_found')
    const history = (await get(app, other.key, '/readConversation', { chat_id: theirs.chat_id })).json()
    t.equal(history.length, 2)
  })
})
