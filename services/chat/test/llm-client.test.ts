import t, { type Test } from 'tap'
import { LlmError, openAiChatModel, type ChatModel, type ChatTurn, type OpenAiChatOptions, type TokenUsage } from '../src/assistant/llm/client.js'
import { DEFAULT_REPLY, startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.js'

const API_KEY = 'sk-test-0123456789secret'
const messages: ChatTurn[] = [
  { role: 'system', content: 'You are the shop assistant.' },
  { role: 'user', content: 'Any waterproof boots?' }
]

async function setup (t: Test, overrides: Partial<OpenAiChatOptions> = {}): Promise<{ fake: FakeOpenAi, model: ChatModel }> {
  const fake = await startFakeOpenAi(t)
  const model = openAiChatModel({ baseUrl: fake.baseUrl, model: 'fake-gpt', apiKey: API_KEY, timeoutMs: 2000, retries: 2, retryBaseMs: 5, ...overrides })
  return { fake, model }
}

async function collect (stream: AsyncIterable<string>, into: string[] = []): Promise<string[]> {
  for await (const delta of stream) into.push(delta)
  return into
}

/** The LlmError a promise rejects with; fails the test if it resolves or throws something else. */
async function failure (t: Test, promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise
  } catch (err) {
    t.type(err, LlmError, 'rejects with an LlmError')
    if (err instanceof LlmError) {
      t.notMatch(err.message, API_KEY, 'the message never shows the API key')
      return err
    }
    throw err
  }
  t.fail('expected a rejection')
  return new LlmError('protocol', 'did not reject')
}

t.test('complete: answer, request body and headers', async (t) => {
  const { fake, model } = await setup(t, { temperature: 0.2, maxTokens: 300 })
  fake.script({ text: (received) => `You asked: ${received.at(-1)?.content}` })
  t.equal(await model.complete(messages), 'You asked: Any waterproof boots?')
  t.equal(fake.requests.length, 1)
  const request = fake.requests[0]!
  t.equal(request.method, 'POST')
  t.equal(request.path, '/v1/chat/completions')
  t.equal(request.headers.authorization, `Bearer ${API_KEY}`)
  t.match(request.headers['content-type'], /^application\/json/)
  t.same(request.body, { model: 'fake-gpt', messages, stream: false, temperature: 0.2, max_tokens: 300 })
})

t.test('no API key, no Authorization header; a trailing slash on baseUrl is fine', async (t) => {
  const fake = await startFakeOpenAi(t)
  const model = openAiChatModel({ baseUrl: `${fake.baseUrl}/`, model: 'local', timeoutMs: 1000, retries: 0 })
  t.equal(await model.complete(messages), DEFAULT_REPLY)
  t.notOk('authorization' in fake.requests[0]!.headers)
  t.equal(fake.requests[0]!.path, '/v1/chat/completions')
  t.notOk('temperature' in fake.requests[0]!.body!, 'unset options are not sent')
})

t.test('stream: deltas in order, as sent', async (t) => {
  const { fake, model } = await setup(t)
  fake.script({ chunks: ['The ', 'Trailmark', ' Ridge', ' Boot', ' is waterproof.'] })
  t.same(await collect(model.stream(messages)), ['The ', 'Trailmark', ' Ridge', ' Boot', ' is waterproof.'])
  t.equal(fake.requests[0]!.body!.stream, true)
  t.equal(fake.requests[0]!.headers.authorization, `Bearer ${API_KEY}`)
  t.equal(fake.requests[0]!.headers.accept, 'text/event-stream')
})

t.test('stream: deltas are yielded as they arrive, not at the end', async (t) => {
  const { fake, model } = await setup(t)
  fake.script({ chunks: ['one', ' two', ' three'], chunkDelayMs: 80 })
  const started = Date.now()
  const arrivals: number[] = []
  const got: string[] = []
  for await (const delta of model.stream(messages)) {
    got.push(delta)
    arrivals.push(Date.now() - started)
  }
  t.same(got, ['one', ' two', ' three'])
  t.ok(arrivals[2]! - arrivals[0]! >= 120, `spread over time: ${arrivals.join(', ')} ms`)
})

t.test('stream: SSE split at every few bytes, CRLF, comments, usage chunk, UTF-8', async (t) => {
  const { fake, model } = await setup(t)
  const text = 'Größe 42 — “Gore-Tex” ☔ boots, 129.00 €.'
  fake.script(
    { text, fragmentBytes: 3, lineEnding: '\r\n', keepAlive: true },
    { text, fragmentBytes: 1, lineEnding: '\n' },
    { text, fragmentBytes: 7, lineEnding: '\r\n' },
    { text, fragmentBytes: 1, lineEnding: '\r\n', multiLineData: true }
  )
  for (let i = 0; i < 4; i++) t.equal((await collect(model.stream(messages))).join(''), text, `reply ${i + 1}`)
  t.equal(fake.requests.length, 4, 'no retries were needed')
})

t.test('stream: a server that answers with plain JSON still gives the text', async (t) => {
  const { fake, model } = await setup(t)
  fake.script({ text: 'not streamed', ignoreStream: true })
  t.same(await collect(model.stream(messages)), ['not streamed'])
  t.equal(fake.requests[0]!.body!.stream, true)
})

t.test('token usage: from a completion\'s body, from a stream\'s last chunk when asked, none when the server reports none', async (t) => {
  const seen: TokenUsage[] = []
  const { fake, model } = await setup(t, { onUsage: (usage) => { seen.push(usage) } })
  fake.script(
    { text: 'a completion', usage: { prompt_tokens: 11, completion_tokens: 3 } },
    { text: 'a streamed reply', usage: { prompt_tokens: 12, completion_tokens: 4 }, fragmentBytes: 5 },
    { text: 'plain JSON to a stream', usage: { prompt_tokens: 13, completion_tokens: 5 }, ignoreStream: true },
    { text: 'no usage', usage: false },
    { text: 'no usage either', usage: false }
  )
  t.equal(await model.complete(messages), 'a completion')
  t.equal((await collect(model.stream(messages))).join(''), 'a streamed reply')
  t.equal((await collect(model.stream(messages))).join(''), 'plain JSON to a stream')
  t.equal(await model.complete(messages), 'no usage')
  t.equal((await collect(model.stream(messages))).join(''), 'no usage either')
  t.same(seen, [
    { promptTokens: 11, completionTokens: 3 },
    { promptTokens: 12, completionTokens: 4 },
    { promptTokens: 13, completionTokens: 5 }
  ], 'one report per answer that had one')
  t.same(fake.requests[1]!.body!.stream_options, { include_usage: true }, 'a stream asks for it')
  t.notOk('stream_options' in fake.requests[0]!.body!, 'a completion does not (OpenAI refuses the option there)')
})

t.test('a server refusing stream_options is asked again without it, and from then on never with it', async (t) => {
  const seen: TokenUsage[] = []
  const { fake, model } = await setup(t, { retries: 0, onUsage: (usage) => { seen.push(usage) } })
  fake.handle(() => ({ refuseStreamOptions: true }))
  t.equal((await collect(model.stream(messages))).join(''), DEFAULT_REPLY, 'answered, though retries are 0')
  t.equal((await collect(model.stream(messages))).join(''), DEFAULT_REPLY)
  t.same(fake.requests.map((r) => r.body!.stream_options !== undefined), [true, false, false])
  t.same(seen, [], 'no usage without the option')
  fake.script({ status: 400, error: { message: 'messages: too long' } })
  t.equal((await failure(t, collect(model.stream(messages)))).status, 400, 'another 400 is not retried')
  t.equal(fake.requests.length, 4)
})

t.test('retries 429, 500 and 503, then succeeds', async (t) => {
  const { fake, model } = await setup(t, { retries: 3 })
  fake.script({ status: 429, retryAfter: 0 }, { status: 500 }, { status: 503 }, { text: 'finally' })
  t.equal(await model.complete(messages), 'finally')
  t.equal(fake.requests.length, 4)

  fake.script({ status: 503 }, { status: 429 }, { chunks: ['streamed', ' finally'] })
  t.same(await collect(model.stream(messages)), ['streamed', ' finally'])
  t.equal(fake.requests.length, 7)
})

t.test('back-off doubles from retryBaseMs', async (t) => {
  const { fake, model } = await setup(t, { retries: 2, retryBaseMs: 100 })
  fake.script({ status: 500 }, { status: 500 }, {})
  const started = Date.now()
  await model.complete(messages)
  const elapsed = Date.now() - started
  t.ok(elapsed >= 290 && elapsed < 1000, `100 + 200 ms of back-off, took ${elapsed} ms`)
})

t.test('Retry-After is honoured, capped at 2 s', async (t) => {
  const { fake, model } = await setup(t, { retries: 1, retryBaseMs: 1, timeoutMs: 5000 })
  fake.script({ status: 429, retryAfter: 60 }, {})
  let started = Date.now()
  await model.complete(messages)
  let elapsed = Date.now() - started
  t.ok(elapsed >= 1950 && elapsed < 2600, `waited ${elapsed} ms for "Retry-After: 60"`)

  fake.script({ status: 429, retryAfterMs: 150 }, {})
  started = Date.now()
  await model.complete(messages)
  elapsed = Date.now() - started
  t.ok(elapsed >= 145 && elapsed < 600, `waited ${elapsed} ms for "retry-after-ms: 150"`)
})

t.test('retries exhausted: http error with the status and the server message', async (t) => {
  const { fake, model } = await setup(t, { retries: 2 })
  fake.handle(() => ({ status: 502, error: { message: `upstream broke for key ${API_KEY}` } }))
  const err = await failure(t, model.complete(messages))
  t.equal(err.kind, 'http')
  t.equal(err.status, 502)
  t.match(err.message, /502.*upstream broke/)
  t.equal(fake.requests.length, 3, 'first attempt + 2 retries')

  const streamErr = await failure(t, collect(model.stream(messages)))
  t.equal(streamErr.kind, 'http')
  t.equal(streamErr.status, 502)
  t.equal(fake.requests.length, 6)
})

t.test('400 and 404 are not retried', async (t) => {
  const { fake, model } = await setup(t, { retries: 3 })
  fake.script({ status: 400, error: { message: 'messages must not be empty', code: 'invalid_value' } })
  const err = await failure(t, model.complete(messages))
  t.equal(err.kind, 'http')
  t.equal(err.status, 400)
  t.match(err.message, 'messages must not be empty')
  t.equal(fake.requests.length, 1)

  const wrongPath = openAiChatModel({ baseUrl: fake.baseUrl.replace('/v1', '/v2'), model: 'm', timeoutMs: 1000, retries: 3, retryBaseMs: 1 })
  const notFound = await failure(t, collect(wrongPath.stream(messages)))
  t.equal(notFound.status, 404)
  t.equal(fake.requests.length, 2)
})

// The timing tests leave wide margins (deadlines of 0.5–1 s, bounds of 4×): on a shared 2-core machine
// a first response took longer than the 200 ms they once allowed.
t.test('timeout: a slow server fails within the deadline, retries included', async (t) => {
  const { fake, model } = await setup(t, { timeoutMs: 500, retries: 2 })
  fake.handle(() => ({ delayMs: 3000 }))
  let started = Date.now()
  const err = await failure(t, model.complete(messages))
  let elapsed = Date.now() - started
  t.equal(err.kind, 'timeout')
  t.ok(elapsed >= 490 && elapsed < 2000, `gave up after ${elapsed} ms`)
  t.equal(fake.requests.length, 1, 'the deadline covers the whole call, so no retry')

  started = Date.now()
  const streamErr = await failure(t, collect(model.stream(messages)))
  elapsed = Date.now() - started
  t.equal(streamErr.kind, 'timeout')
  t.ok(elapsed >= 490 && elapsed < 2000, `stream gave up after ${elapsed} ms`)
})

t.test('timeout: retries that cannot finish in time end as a timeout naming the last failure', async (t) => {
  const { fake, model } = await setup(t, { timeoutMs: 1000, retries: 5, retryBaseMs: 750 })
  fake.handle(() => ({ status: 503 }))
  const started = Date.now()
  const err = await failure(t, model.complete(messages))
  t.equal(err.kind, 'timeout')
  t.match(err.message, /last failure.*503/)
  t.ok(Date.now() - started < 2500)
})

t.test('stream timeouts: first delta within timeoutMs, then at most timeoutMs between chunks', async (t) => {
  const { fake, model } = await setup(t, { timeoutMs: 1000 })
  fake.script({ chunks: Array.from({ length: 8 }, (_, i) => `w${i} `), chunkDelayMs: 250 })
  const started = Date.now()
  t.equal((await collect(model.stream(messages))).length, 8, 'a steady stream may run longer than timeoutMs')
  t.ok(Date.now() - started > 1500)

  fake.script({ chunks: ['a', 'b', 'c', 'd'], pauseAfter: { chunks: 2, ms: 5000 } })
  const got: string[] = []
  const err = await failure(t, collect(model.stream(messages), got))
  t.equal(err.kind, 'timeout')
  t.same(got, ['a', 'b'], 'text before the stall was delivered')
  t.equal(fake.requests.length, 2, 'no retry after text was yielded')
})

t.test('stream: a slow consumer does not count as server silence', async (t) => {
  const { fake, model } = await setup(t, { timeoutMs: 100 })
  fake.script({ chunks: ['a', 'b', 'c'], chunkDelayMs: 20 })
  const got: string[] = []
  for await (const delta of model.stream(messages)) {
    got.push(delta)
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
  t.same(got, ['a', 'b', 'c'])
})

t.test('disconnect mid-stream', async (t) => {
  t.test('after text was yielded: network error, no retry', async (t) => {
    const { fake, model } = await setup(t, { retries: 3 })
    fake.handle(() => ({ chunks: ['Hello', ' there', ' friend'], disconnectAfter: 2 }))
    const got: string[] = []
    const err = await failure(t, collect(model.stream(messages), got))
    t.equal(err.kind, 'network')
    t.same(got, ['Hello', ' there'])
    t.equal(fake.requests.length, 1)
  })

  t.test('before any text: retried, and the text is not duplicated', async (t) => {
    const { fake, model } = await setup(t, { retries: 3 })
    fake.script({ chunks: ['Hello', ' there'], disconnectAfter: 0 }, { chunks: ['Hello', ' there'] })
    t.same(await collect(model.stream(messages)), ['Hello', ' there'])
    t.equal(fake.requests.length, 2)
  })

  t.test('a clean end without [DONE] is a dropped connection', async (t) => {
    const { fake, model } = await setup(t, { retries: 3 })
    fake.handle(() => ({ chunks: ['Hel', 'lo'], omitDone: true }))
    const got: string[] = []
    const err = await failure(t, collect(model.stream(messages), got))
    t.equal(err.kind, 'network')
    t.match(err.message, '[DONE]')
    t.same(got, ['Hel', 'lo'])
    t.equal(fake.requests.length, 1)
  })

  t.test('complete(): a hang-up is a network error, retried', async (t) => {
    const { fake, model } = await setup(t, { retries: 1 })
    fake.script({ hangUp: true }, { text: 'second time lucky' })
    t.equal(await model.complete(messages), 'second time lucky')
    fake.handle(() => ({ hangUp: true }))
    const err = await failure(t, model.complete(messages))
    t.equal(err.kind, 'network')
    t.equal(fake.requests.length, 4)
  })

  t.test('nobody listening: network error after the retries', async (t) => {
    const fake = await startFakeOpenAi()
    await fake.close()
    const model = openAiChatModel({ baseUrl: fake.baseUrl, model: 'm', timeoutMs: 1000, retries: 2, retryBaseMs: 1 })
    const err = await failure(t, model.complete(messages))
    t.equal(err.kind, 'network')
    t.match(err.message, /ECONNREFUSED/)
  })
})

t.test('protocol errors are not retried', async (t) => {
  const { fake, model } = await setup(t, { retries: 3 })
  fake.script({ malformed: true })
  t.equal((await failure(t, model.complete(messages))).kind, 'protocol', 'malformed JSON')
  t.equal(fake.requests.length, 1)

  fake.script({ body: { id: 'x', object: 'chat.completion', choices: [] } })
  const empty = await failure(t, model.complete(messages))
  t.equal(empty.kind, 'protocol', 'no choices')
  t.match(empty.message, 'choices[0].message.content')

  fake.script({ body: { id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null } }] } })
  t.equal((await failure(t, model.complete(messages))).kind, 'protocol', 'null content')

  fake.script({ chunks: ['fine so far'], malformed: true })
  const got: string[] = []
  t.equal((await failure(t, collect(model.stream(messages), got))).kind, 'protocol', 'malformed stream chunk')
  t.same(got, ['fine so far'])
  t.equal(fake.requests.length, 4)
})

t.test('an error object inside the stream', async (t) => {
  const { fake, model } = await setup(t, { retries: 3 })
  fake.script({ chunks: ['Partial', ' answer'], streamErrorAfter: 1, error: { message: 'The model is overloaded', code: 'server_error' } })
  const got: string[] = []
  const err = await failure(t, collect(model.stream(messages), got))
  t.equal(err.kind, 'http')
  t.match(err.message, 'The model is overloaded')
  t.same(got, ['Partial'])
  t.equal(fake.requests.length, 1)

  fake.script({ streamErrorAfter: 0, error: { message: 'busy', code: 503 } }, { chunks: ['ok'] })
  t.same(await collect(model.stream(messages)), ['ok'], 'a retryable error before any text is retried')
  t.equal(fake.requests.length, 3)
})

t.test('caller abort', async (t) => {
  t.test('while waiting for an answer', async (t) => {
    const { fake, model } = await setup(t)
    fake.handle(() => ({ delayMs: 2000 }))
    const started = Date.now()
    const err = await failure(t, model.complete(messages, AbortSignal.timeout(50)))
    t.equal(err.kind, 'aborted')
    t.ok(Date.now() - started < 400)
    t.equal(fake.requests.length, 1)
  })

  t.test('already aborted: no request at all', async (t) => {
    const { fake, model } = await setup(t)
    const controller = new AbortController()
    controller.abort()
    t.equal((await failure(t, model.complete(messages, controller.signal))).kind, 'aborted')
    t.equal((await failure(t, collect(model.stream(messages, controller.signal)))).kind, 'aborted')
    t.equal(fake.requests.length, 0)
  })

  t.test('during back-off: no further attempt', async (t) => {
    const { fake, model } = await setup(t, { retries: 3, timeoutMs: 5000 })
    fake.handle(() => ({ status: 429, retryAfter: 2 }))
    const started = Date.now()
    const err = await failure(t, model.complete(messages, AbortSignal.timeout(100)))
    t.equal(err.kind, 'aborted')
    t.ok(Date.now() - started < 500)
    await new Promise((resolve) => setTimeout(resolve, 50))
    t.equal(fake.requests.length, 1)
  })

  t.test('mid-stream', async (t) => {
    const { fake, model } = await setup(t, { retries: 3 })
    fake.script({ chunks: ['one', ' two', ' three', ' four'], chunkDelayMs: 100 })
    const controller = new AbortController()
    const got: string[] = []
    const err = await failure(t, (async () => {
      for await (const delta of model.stream(messages, controller.signal)) {
        got.push(delta)
        controller.abort()
      }
    })())
    t.equal(err.kind, 'aborted')
    t.same(got, ['one'])
    t.equal(fake.requests.length, 1)
  })
})

t.test('a consumer that stops early closes the stream', async (t) => {
  const { fake, model } = await setup(t)
  fake.script({ chunks: ['a', 'b', 'c', 'd'], chunkDelayMs: 20 }, { text: 'next' })
  const iterator = model.stream(messages)[Symbol.asyncIterator]()
  t.same(await iterator.next(), { value: 'a', done: false })
  t.same(await iterator.return?.(), { value: undefined, done: true })
  t.equal(await model.complete(messages), 'next', 'the model is still usable')
})

t.test('respond: the tool-calling protocol, as a completion and as a stream', async (t) => {
  const { fake, model } = await setup(t)
  const tools = [{ name: 'search_catalog', description: 'Search the catalog', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }]
  const calls = [{ name: 'search_catalog', arguments: { query: 'waterproof boots, "size 9" ünder $150' } }, { name: 'search_knowledge', arguments: { query: 'returns' } }]

  fake.script({ toolCalls: calls })
  const completed = await model.respond(messages, { tools })
  t.same(completed.text, '', 'content null: no text')
  t.same(completed.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]), calls.map((c) => [c.name, c.arguments]))
  t.match(completed.toolCalls[0]!.id, /^call_/)
  t.same(fake.requests[0]!.body!.tools, [{ type: 'function', function: tools[0] }], 'the tools are sent in OpenAI\'s shape')

  // Streamed: each call's id and name first, its arguments in pieces of 7 characters (cutting the JSON and the UTF-8 anywhere).
  fake.script({ toolCalls: calls, text: 'Let me look.' })
  const shown: string[] = []
  const streamed = await model.respond(messages, { tools, onText: (delta) => shown.push(delta) })
  t.equal(shown.join(''), 'Let me look.')
  t.equal(streamed.text, 'Let me look.')
  t.same(streamed.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]), calls.map((c) => [c.name, c.arguments]), 'the pieces make the calls whole')
  t.equal(fake.requests[1]!.body!.stream, true)

  // The results go back as `tool` messages after the assistant's request for them.
  const followUp = [...messages,
    { role: 'assistant' as const, content: null, tool_calls: streamed.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) },
    ...streamed.toolCalls.map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: '{"items":[]}' }))]
  fake.script({ text: 'Nothing matched.' })
  t.same(await model.respond(followUp, { tools }), { text: 'Nothing matched.', toolCalls: [] })
  t.same(fake.requests[2]!.body!.messages, followUp, 'sent as given')

  fake.script({ body: { choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'x', type: 'function', function: { arguments: '{}' } }] } }] } })
  t.equal((await failure(t, model.respond(messages, { tools }))).kind, 'protocol', 'a tool call without a name')
})
