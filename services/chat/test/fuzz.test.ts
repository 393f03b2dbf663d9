import t from 'tap'
import fc from 'fast-check'
import { fuzzRoutes } from '@chatsearch/testkit/fuzz'
import { get, harness, post } from './helpers.js'

// Arbitrary requests at every route of the chat service (its OpenAPI document): no answer is a 5xx,
// and every error is the documented body. FUZZ_RUNS=10000 for a long run.

t.test('hostile requests at every chat route: no 5xx, only conforming error bodies', async (t) => {
  const h = await harness(t)
  const shop = await h.tenant()
  const other = await h.tenant('other')
  // The failed-authentication throttle off: otherwise the fuzzer's own bad keys soon lock its address out.
  const app = await h.app({ authFailuresPerMinute: 0 })
  const chats: string[] = []
  const messages: string[] = []
  for (const consumer of ['alice', 'bob']) {
    const res = await post(app, shop.key, '/newUserMessage', { user_message: 'hello', consumer_id: consumer })
    chats.push(res.json().chat_id as string)
    const read = await get(app, shop.key, '/readConversation', { chat_id: res.json().chat_id })
    messages.push(...read.json().map((m: { msg_id: string }) => m.msg_id))
  }
  const result = await fuzzRoutes(app, {
    authorizations: [`Bearer ${shop.key}`, `Bearer ${other.key}`, 'Bearer csk_chat_' + 'A'.repeat(40), 'Bearer csk_search_' + 'A'.repeat(40)],
    fields: {
      chat_id: fc.constantFrom(...chats, '', 'nope', '00000000-0000-0000-0000-000000000000', 'x'.repeat(200)),
      consumer_id: fc.constantFrom('alice', 'bob', '', ' ', 'x'.repeat(300), '\u0000'),
      user_message: fc.constantFrom('hi', 'do you have boots?', 'I want a refund', '🎧', '', ' ', 'x'.repeat(8000), 'x'.repeat(8001)),
      // POST /feedback: the chats' messages (the shopper's and the assistant's) and ratings, right and wrong.
      msg_id: fc.constantFrom(...messages, '', 'nope', 'x'.repeat(200)),
      rating: fc.constantFrom('up', 'down', 'UP', '', 'sideways'),
      comment: fc.constantFrom('Helpful, thanks', '', ' ', '👍', 'x'.repeat(2000), 'x'.repeat(2001))
    },
    runs: 400
  })
  t.ok(result.requests > 0, `${result.requests} requests; statuses ${JSON.stringify(result.statuses)}`)
  t.ok((result.statuses[200] ?? 0) > result.requests / 10, 'a good share got past validation')
  t.equal((await post(app, shop.key, '/newUserMessage', { user_message: 'hi', consumer_id: 'carol' })).statusCode, 200, 'and the service still answers')
})
