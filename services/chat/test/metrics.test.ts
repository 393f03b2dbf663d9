import t from 'tap'
import { freePort, metricSample } from '@chatsearch/testkit'
import { call, harness, post } from './helpers.js'
import { searchStack, TOKEN } from './support/search-stack.js'
import { startFakeOpenAi } from './support/fake-openai.js'
import { openAiChatModel, type ChatModel } from '../src/assistant/llm/client.js'

const h = await harness(t)

t.test('GET /metrics on the chat service: requests, retrieval, model latency and fallbacks', async (t) => {
  const shop = await h.tenant()
  const stack = await searchStack(t, h, shop)
  const fake = await startFakeOpenAi(t)
  const model = openAiChatModel({ baseUrl: fake.baseUrl, model: 'fake', timeoutMs: 5000, retries: 0 })
  const app = await h.app({ search: { url: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 } }, { model })

  // A greeting the model answers; a question it fails on, which the grounded pipeline then answers
  // from the catalog and the knowledge (one retrieval each).
  fake.script({ text: 'Hello! What are you looking for?' }, { status: 500 })
  t.equal((await post(app, shop.key, '/newUserMessage', { user_message: 'hello there', consumer_id: 'm1' })).statusCode, 200)
  t.equal((await post(app, shop.key, '/newUserMessage', { user_message: 'tents?', consumer_id: 'm2' })).statusCode, 200)
  t.equal((await post(app, shop.key, '/newUserMessage', { user_message: 'hi', chat_id: 'nope' })).statusCode, 404)

  const text = (await app.inject('/metrics')).body
  t.equal(metricSample(text, 'http_requests_total', { service: 'chat', route: '/newUserMessage', status: '200' }), 2)
  t.equal(metricSample(text, 'http_requests_total', { route: '/newUserMessage', status: '404' }), 1)
  t.equal(metricSample(text, 'llm_request_duration_seconds_count', { mode: 'complete', outcome: 'ok' }), 1)
  t.equal(metricSample(text, 'llm_request_duration_seconds_count', { mode: 'complete', outcome: 'http' }), 1, 'the failure, by kind')
  t.equal(metricSample(text, 'llm_fallbacks_total'), 1, 'the grounded responder stood in once')
  t.equal(metricSample(text, 'retrieval_duration_seconds_count', { source: 'catalog', outcome: 'ok' }), 1)
  t.equal(metricSample(text, 'retrieval_duration_seconds_count', { source: 'knowledge', outcome: 'ok' }), 1)
  t.equal(metricSample(text, 'retrieval_failures_total'), 0)
  t.type(metricSample(text, 'memory_store_entries', { store: 'assistant_sentence_vectors' }), 'number', 'the sentence cache has its gauge')
  t.type(metricSample(text, 'memory_store_entries', { store: 'assistant_message_vectors' }), 'number', 'the message cache has its gauge')
  t.equal(metricSample(text, 'memory_store_entries', { store: 'retriever_catalog_shapes' }), 1, 'one project asked: one catalog shape kept, gauged')

  const closed = `http://127.0.0.1:${await freePort()}`
  const down = await h.app({ search: { url: closed, serviceToken: TOKEN, timeoutMs: 500 } })
  await post(down, shop.key, '/newUserMessage', { user_message: 'hiking boots?', consumer_id: 'd1' })
  const downText = (await down.inject('/metrics')).body
  t.equal(metricSample(downText, 'retrieval_failures_total'), 1, 'search down is counted')
  t.equal(metricSample(downText, 'retrieval_duration_seconds_count', { source: 'catalog', outcome: 'failed' }), 1)
  t.equal(metricSample(downText, 'knowledge_failures_total'), 1, 'and so is its knowledge search')
  t.equal(metricSample(downText, 'llm_request_duration_seconds_count'), undefined, 'no model configured: no model calls')
})

t.test('GET /metrics: turns waiting for an earlier turn of their chat, and the PostgreSQL pool', async (t) => {
  const shop = await h.tenant()
  let open = () => {}
  const gate = new Promise<void>((resolve) => { open = resolve })
  let reached = () => {}
  const inModel = new Promise<void>((resolve) => { reached = resolve })
  let hold = false
  const reply = async () => {
    if (hold) { reached(); await gate }
    return 'Thanks for waiting.'
  }
  const model: ChatModel = { complete: reply, async * stream () { yield await reply() }, respond: async () => ({ text: await reply(), toolCalls: [] }) }
  const app = await h.app({ dbPoolSize: 3 }, { model })
  const chatId = (await post(app, shop.key, '/newUserMessage', { user_message: 'hello', consumer_id: 'q1' })).json().chat_id

  hold = true
  const turn = (text: string) => post(app, shop.key, '/newUserMessage', { user_message: text, chat_id: chatId })
  // Searches for products reach the model (a matter for a person, or a question nothing answers, would not).
  const turns = [turn('do you have boots?'), turn('do you sell tents?'), turn('do you have socks?')]
  await inModel
  const waiting = async () => metricSample((await app.inject('/metrics')).body, 'chat_turns_waiting')
  const deadline = Date.now() + 10_000
  while (await waiting() !== 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  const text = (await app.inject('/metrics')).body
  t.equal(metricSample(text, 'chat_turns_waiting', { service: 'chat' }), 2, 'two turns wait behind the one the model holds')
  t.equal(metricSample(text, 'db_pool_connections', { state: 'in_use' }), 0, 'no connection held while the model writes')
  t.ok((metricSample(text, 'db_pool_connections', { state: 'idle' }) ?? 0) >= 1, 'the connections opened so far are idle')
  t.equal(metricSample(text, 'db_pool_waiting_requests'), 0)
  t.equal(metricSample(text, 'db_pool_max_connections'), 3)

  open()
  t.same((await Promise.all(turns)).map((r) => r.statusCode), [200, 200, 200])
  t.equal(await waiting(), 0, 'none left waiting')
})

t.test('GET /metrics: tokens the model reported, by model and kind, streamed replies included', async (t) => {
  const shop = await h.tenant()
  const fake = await startFakeOpenAi(t)
  const app = await h.app({ llm: { baseUrl: fake.baseUrl, model: 'fake-gpt', timeoutMs: 5000, retries: 0, promptTokens: 3000 } })
  fake.script(
    { text: 'Good morning! How can I help?', usage: { prompt_tokens: 120, completion_tokens: 7 } },
    { text: 'Hi! Ask me about the shop.', usage: { prompt_tokens: 200, completion_tokens: 9 } },
    { text: 'Hello!', usage: false }
  )
  // Greetings: a model may answer them without a source.
  t.equal((await post(app, shop.key, '/newUserMessage', { user_message: 'good morning', consumer_id: 'k1' })).statusCode, 200)
  const streamed = await call(app, shop.key, {
    method: 'POST', url: '/newUserMessage', headers: { accept: 'text/event-stream' }, payload: { user_message: 'hi there!', consumer_id: 'k2' }
  })
  t.match(streamed.body, /Hi! Ask me about the shop\./)
  t.same(fake.requests[1]?.body?.stream_options, { include_usage: true }, 'the stream asked for its usage')
  t.equal((await post(app, shop.key, '/newUserMessage', { user_message: 'hello', consumer_id: 'k3' })).statusCode, 200)

  const text = (await app.inject('/metrics')).body
  t.equal(metricSample(text, 'llm_tokens_total', { service: 'chat', model: 'fake-gpt', kind: 'prompt' }), 320)
  t.equal(metricSample(text, 'llm_tokens_total', { model: 'fake-gpt', kind: 'completion' }), 16, 'a reply with no usage adds nothing')
  t.equal(metricSample(text, 'llm_request_duration_seconds_count', { mode: 'stream', outcome: 'ok' }), 1, 'latency as before')
  t.equal(metricSample(text, 'llm_request_duration_seconds_count', { mode: 'complete', outcome: 'ok' }), 2)
})
