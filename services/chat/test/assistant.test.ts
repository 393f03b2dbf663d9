import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { freePort } from '@chatsearch/testkit'
import { get, harness, post } from './helpers.js'
import { searchStack, TOKEN, type Item } from './support/search-stack.js'
import { startFakeOpenAi, type FakeReply } from './support/fake-openai.js'
import { openAiChatModel, type ChatMessage } from '../src/assistant/llm/client.js'
import { itemsToShow } from '../src/assistant/assistant.js'
import { searchRetriever } from '../src/assistant/retriever.js'
import type { RetrievedItem, Retriever } from '../src/assistant/types.js'
import type { ItemEvidence } from '../src/assistant/evidence.js'

interface Citation { source: string, reference: string, confidence: number, title?: string }

/** Every catalog title a reply names must be among its citations (ARCHITECTURE.md decision 7). */
function assertGrounded (t: Test, reply: string, citations: Citation[], items: Item[]) {
  for (const item of items) {
    if (reply.toLowerCase().includes(item.title.toLowerCase())) {
      t.ok(citations.some((c) => c.reference === item.id), `"${item.title}" is named and cited`)
    }
  }
}

/** Reads a server-sent event stream into its events. */
async function readEvents (response: Response): Promise<Array<{ event: string, data: unknown }>> {
  const text = await response.text()
  return text.split('\n\n').filter((block) => block.trim() !== '').map((block) => {
    const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message'
    const data = /^data: (.*)$/m.exec(block)?.[1] ?? 'null'
    return { event, data: JSON.parse(data) as unknown }
  })
}

/** The first item of the latest catalog search a tool answered in this conversation. */
function firstItem (messages: ChatMessage[]): { id: string, price: number } {
  const result = messages.findLast((m) => m.role === 'tool')
  return (JSON.parse(String(result?.content ?? '{"items":[]}')) as { items: Array<{ id: string, price: number }> }).items[0] ?? { id: 'none', price: 0 }
}

/** A model that searches the catalog for the shopper's message, then recommends the first item found. */
const toolUsingModel: FakeReply = {
  toolCalls: (messages) => messages.some((m) => m.role === 'tool') ? [] : [{ name: 'search_catalog', arguments: { query: String(messages.at(-1)!.content) } }],
  text: (messages) => {
    if (!messages.some((m) => m.role === 'tool')) return ''
    const item = firstItem(messages)
    return `You could try this one [${item.id}] at $${item.price.toFixed(2)}. It is waterproof.`
  }
}

t.test('the assistant answers from the catalog through the search service', async (t) => {
  const h = await harness(t)
  const shop = await h.tenant()
  const stack = await searchStack(t, h, shop)
  const app = await h.app({ search: { url: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 } })
  const ask = async (message: string, extra: Record<string, unknown> = { consumer_id: 'shopper' }) => {
    const res = await post(app, shop.key, '/newUserMessage', { user_message: message, ...extra })
    t.equal(res.statusCode, 200, message)
    return res.json() as { assistant_response: string, chat_id: string, classification: string, citations: Citation[] }
  }

  t.test('a question with a price limit gets matching items, each cited, best first', async (t) => {
    const body = await ask('do you have waterproof hiking boots under $150?')
    t.equal(body.classification, 'question')
    t.ok(body.citations.length > 0 && body.citations.length <= 3, `cited ${body.citations.length}`)
    const byId = new Map(stack.items.map((i) => [i.id, i]))
    for (const c of body.citations) {
      const item = byId.get(c.reference)!
      t.equal(c.source, 'catalog')
      t.ok(item.price <= 150, `${item.title} costs ${item.price}`)
      t.match(item.title, /boot/i)
      t.ok(body.assistant_response.includes(item.title), 'the reply names what it cites')
      t.ok(body.assistant_response.includes(`$${item.price.toFixed(2)}`), 'with its price')
      t.ok(c.confidence > 0 && c.confidence <= 1)
    }
    const confidences = body.citations.map((c) => c.confidence)
    t.same(confidences, [...confidences].sort((a, b) => b - a), 'best first')
    assertGrounded(t, body.assistant_response, body.citations, stack.items)
  })

  t.test('a message longer than a search term, or with an emoji across the cut, is still searched', async (t) => {
    // The search service takes terms of limits.termMaxChars (1,000) UTF-16 units; a message may be 8,000.
    const long = 'waterproof hiking boots for rainy mountain trails '.repeat(40).trim()
    const emoji = `${'boots '.repeat(166)}abc\u{1F600}`
    t.equal(emoji.length, 1001, 'the emoji\'s halves are units 1,000 and 1,001')
    for (const message of [long, emoji]) {
      const body = await ask(message)
      t.ok(body.citations.some((c) => c.source === 'catalog'), `items cited for a ${message.length}-unit message: ${body.assistant_response.slice(0, 80)}`)
    }
  })

  t.test('a follow-up uses the conversation so far', async (t) => {
    const first = await ask('Do you have any tents?')
    t.ok(first.citations.length > 0)
    const next = await ask('and under $200?', { chat_id: first.chat_id })
    const byId = new Map(stack.items.map((i) => [i.id, i]))
    t.ok(next.citations.length > 0, 'still about tents')
    for (const c of next.citations) {
      t.match(byId.get(c.reference)!.title, /tent/i)
      t.ok(byId.get(c.reference)!.price <= 200)
    }
  })

  t.test('"the cheapest …" cites the cheapest good matches first', async (t) => {
    const body = await ask("what's the cheapest espresso machine you have?")
    const byId = new Map(stack.items.map((i) => [i.id, i]))
    const prices = body.citations.map((c) => byId.get(c.reference)!.price)
    t.ok(prices.length > 0, `cited ${prices.length}`)
    t.same(prices, [...prices].sort((a, b) => a - b), 'cheapest first')
    const machines = stack.items.filter((i) => /espresso machine/i.test(i.title)).map((i) => i.price).sort((a, b) => a - b)
    t.equal(prices[0], machines[0], 'the cheapest espresso machine of the catalog comes first')
  })

  t.test('a greeting cites nothing; nothing that matches is said plainly', async (t) => {
    const hello = await ask('hello!')
    t.equal(hello.classification, 'greeting')
    t.same(hello.citations, [])
    const nothing = await ask('do you sell submarine periscopes under $5?')
    t.same(nothing.citations, [])
    t.match(nothing.assistant_response, /could not find|Nothing in the catalog|no catalog results/i)
  })

  t.test('search down: the turn is still answered, without citations, and counted', async (t) => {
    const closed = `http://127.0.0.1:${await freePort()}`
    const down = await h.app({ search: { url: closed, serviceToken: TOKEN, timeoutMs: 500 } })
    const res = await post(down, shop.key, '/newUserMessage', { user_message: 'do you have hiking boots?', consumer_id: 'c2' })
    t.equal(res.statusCode, 200)
    t.same(res.json().citations, [])
    t.match(res.json().assistant_response, /cannot|unable|not answering/i)
    t.equal(down.assistant.stats.retrievalFailures, 1)
  })

  t.test('with a model: it looks the items up with the tools, and the items it names are cited', async (t) => {
    const fake = await startFakeOpenAi(t)
    // The fake "model" speaks the tool-calling protocol: first it searches the catalog for the
    // shopper's message, then it recommends the first item the tool returned, by id marker and price.
    fake.handle(() => toolUsingModel)
    const modelApp = await h.app({ search: { url: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 } },
      { model: openAiChatModel({ baseUrl: fake.baseUrl, model: 'fake', timeoutMs: 5000, retries: 2, retryBaseMs: 10 }) })
    const res = await post(modelApp, shop.key, '/newUserMessage', { user_message: 'waterproof hiking boots under $150?', consumer_id: 'm1' })
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.match(body.assistant_response, /^You could try this one at \$\d+\.\d\d\. It is waterproof\.$/, 'markers are taken out')
    t.equal(body.citations.length, 1)
    t.match(body.citations[0], { source: 'catalog', reference: /^sku-\d+$/ })
    const byId = new Map(stack.items.map((i) => [i.id, i]))
    t.ok(body.assistant_response.includes(`$${byId.get(body.citations[0].reference)!.price.toFixed(2)}`), 'the price is the item\'s own')
    const [first, second] = fake.requests.slice(-2).map((r) => r.body!)
    t.same(first!.tools?.map((tool) => tool.function.name), ['search_catalog', 'search_knowledge', 'get_item'], 'the tools are offered')
    t.equal(first!.messages[0]!.role, 'system')
    const call = second!.messages.find((m) => m.role === 'assistant' && 'tool_calls' in m)
    t.match(call, { tool_calls: [{ type: 'function', function: { name: 'search_catalog', arguments: JSON.stringify({ query: 'waterproof hiking boots under $150?' }) } }] })
    const result = second!.messages.find((m) => m.role === 'tool')
    t.match(result, { role: 'tool', tool_call_id: (call as { tool_calls: Array<{ id: string }> }).tool_calls[0]!.id })
    t.ok(String(result?.content).includes(body.citations[0].reference), 'the tool result held the item')

    await t.test('streamed: the tool calls stream in pieces, the reply streams, one done event', async (t) => {
      const port = await freePort()
      const url = await modelApp.listen({ host: '127.0.0.1', port })
      const response = await fetch(`${url}/newUserMessage`, {
        method: 'POST',
        headers: { authorization: `Bearer ${shop.key}`, accept: 'text/event-stream', 'content-type': 'application/json' },
        body: JSON.stringify({ user_message: 'waterproof hiking boots under $150?', consumer_id: 'm1s' })
      })
      const events = await readEvents(response)
      const deltas = events.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text)
      const done = events.at(-1)!
      t.equal(done.event, 'done')
      t.ok(deltas.length > 3, 'the reply came in pieces')
      t.equal(deltas.join(''), (done.data as { assistant_response: string }).assistant_response, 'the pieces make the reply, markers out')
      t.match(done.data, { citations: [{ source: 'catalog' }], handoff: false })
    })

    await t.test('a reply that cites what no tool returned, or states a price no cited source holds, is not sent', async (t) => {
      const before = modelApp.assistant.stats.llmFallbacks
      fake.script({ text: 'The Trailmark Phantom Boot [sku-999999] is perfect.' })
      const invented = (await post(modelApp, shop.key, '/newUserMessage', { user_message: 'waterproof hiking boots under $150?', consumer_id: 'm5' })).json()
      t.notMatch(invented.assistant_response, /Phantom/)
      t.ok(invented.citations.length > 0 && invented.citations.every((c: Citation) => byId.has(c.reference)), 'the grounded responder answered with real items')
      fake.script(toolUsingModel, { text: (messages) => `Try this one [${firstItem(messages).id}] for only $1.99.` })
      const cheap = (await post(modelApp, shop.key, '/newUserMessage', { user_message: 'waterproof hiking boots under $150?', consumer_id: 'm6' })).json()
      t.notMatch(cheap.assistant_response, /\$1\.99/)
      t.equal(modelApp.assistant.stats.llmFallbacks, before + 2)
    })
    fake.handle(() => ({}))
    fake.script({ status: 500 }, { status: 500 }, { status: 500 })
    const fallback = await post(modelApp, shop.key, '/newUserMessage', { user_message: 'waterproof hiking boots under $150?', consumer_id: 'm2' })
    t.equal(fallback.statusCode, 200, 'a failing model does not fail the turn')
    t.ok(fallback.json().citations.length > 0, 'the grounded responder answered')
    t.equal(modelApp.assistant.stats.llmFallbacks, 3)

    fake.script({ text: () => 'Great choice! I have noted your request and someone from support will contact you today.' })
    const promised = await post(modelApp, shop.key, '/newUserMessage', { user_message: 'waterproof hiking boots under $150?', consumer_id: 'm3' })
    t.equal(promised.statusCode, 200)
    t.notMatch(promised.json().assistant_response, /noted|someone from support/, 'a reply promising what nothing does is not sent')
    t.ok(promised.json().citations.length > 0, 'the grounded responder answered with items')
    t.equal(modelApp.assistant.stats.llmFallbacks, 4)

    // A complaint is handed off with an honest template: the model is not asked to word it.
    const asked = fake.requests.length
    const complaint = await post(modelApp, shop.key, '/newUserMessage', { user_message: 'my boots fell apart after a week, this is unacceptable', consumer_id: 'm4' })
    t.match(complaint.json(), { handoff: true, assistant_response: /flagged/ })
    t.equal(fake.requests.length, asked, 'no model call')
  })

  t.test('streaming: deltas, then one done event with the JSON body; stored once', async (t) => {
    const port = await freePort()
    const fake = await startFakeOpenAi(t)
    const streaming: FastifyInstance = await h.app({ search: { url: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 } },
      { model: openAiChatModel({ baseUrl: fake.baseUrl, model: 'fake', timeoutMs: 5000, retries: 0 }) })
    const url = await streaming.listen({ host: '127.0.0.1', port })
    const send = (message: string, consumer: string, signal?: AbortSignal) => fetch(`${url}/newUserMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.key}`, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ user_message: message, consumer_id: consumer }),
      ...(signal === undefined ? {} : { signal })
    })

    // A greeting: a model may answer it without a source (a question it may not: see the tool tests).
    fake.script({ chunks: ['Hello ', 'and ', 'welcome: ', 'what ', 'are you ', 'looking for?'] })
    const res = await send('hello there!', 'streamer')
    t.equal(res.status, 200)
    t.match(res.headers.get('content-type'), /^text\/event-stream/)
    const events = await readEvents(res)
    const deltas = events.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text)
    t.ok(deltas.length >= 3, 'token by token')
    const done = events.at(-1)!
    t.equal(done.event, 'done')
    const body = done.data as { assistant_response: string, chat_id: string }
    t.same(Object.keys(body).sort(), ['assistant_response', 'chat_id', 'citations', 'classification', 'handoff'])
    t.equal(deltas.join('').trim(), body.assistant_response)
    const history = await get(streaming, shop.key, '/readConversation', { chat_id: body.chat_id })
    t.equal(history.json().length, 2, 'one turn stored')

    // A client that goes away midway leaves no turn behind. The model's reply would take 4 s: the
    // check comes after it would have ended, and the server has those 4 s to see the client leave,
    // which a loaded machine needs (with 2 s, a fresh-clone run once found the turn stored).
    fake.script({ chunks: Array.from({ length: 40 }, (_, i) => `word${i} `), chunkDelayMs: 100 })
    const gone = new AbortController()
    const partial = await send('hello there!', 'leaver', gone.signal)
    const reader = partial.body!.getReader()
    await reader.read()
    gone.abort()
    await new Promise((resolve) => setTimeout(resolve, 5000))
    t.equal((await get(streaming, shop.key, '/latestConsumerChatId', { consumer_id: 'leaver' })).json().chat_id, null, 'nothing stored')

    const unknown = await fetch(`${url}/newUserMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.key}`, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ user_message: 'hi', chat_id: 'nope' })
    })
    t.equal(unknown.status, 404, 'errors found before the reply starts are plain JSON errors')
    t.equal((await unknown.json() as { code: string }).code, 'chat_not_found')
  })

  t.test('streaming from the grounded responder: a complete reply is stored, an unfinished one is not', async (t) => {
    // Retrieval waits for the gate, so the test chooses whether the client leaves before or after the reply exists.
    const real = searchRetriever({ searchUrl: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 })
    let gate = Promise.resolve()
    let entered = () => {}
    const retriever: Retriever = {
      retrieve: async (...args) => { entered(); await gate; return await real.retrieve(...args) },
      knowledge: async (...args) => await real.knowledge(...args),
      items: async (...args) => await real.items(...args),
      page: async (...args) => await real.page(...args)
    }
    const grounded: FastifyInstance = await h.app({}, { retriever })
    const url = await grounded.listen({ host: '127.0.0.1', port: await freePort() })
    const send = (consumer: string, signal: AbortSignal) => fetch(`${url}/newUserMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.key}`, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ user_message: 'waterproof hiking boots under $150?', consumer_id: consumer }),
      signal
    })
    const latest = async (consumer: string) => (await get(grounded, shop.key, '/latestConsumerChatId', { consumer_id: consumer })).json().chat_id as string | null
    const settle = async (consumer: string, want: 'stored' | 'none') => {
      for (const deadline = Date.now() + 5000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
        if ((await latest(consumer) !== null) === (want === 'stored')) break
      }
    }

    // Leaves after the first delta: the reply was complete, so the turn is there to be read later.
    const early = new AbortController()
    const res = await send('reader-leaves', early.signal)
    const first = await res.body!.getReader().read()
    t.match(new TextDecoder().decode(first.value), /event: delta/, 'the reply had started')
    early.abort()
    await settle('reader-leaves', 'stored')
    const chatId = await latest('reader-leaves')
    t.not(chatId, null, 'the complete reply is stored')
    const messages = (await get(grounded, shop.key, '/readConversation', { chat_id: chatId! })).json() as Array<{ role: string, content: string }>
    t.same(messages.map((m) => m.role), ['user', 'assistant'], 'one whole turn')
    t.match(messages[1]!.content, /boot/i, 'with the reply the client was reading')

    // Leaves while retrieval is still running: no reply existed, nothing is stored.
    let open = () => {}
    gate = new Promise((resolve) => { open = resolve })
    const inRetrieval = new Promise<void>((resolve) => { entered = resolve })
    const gone = new AbortController()
    const pending = send('leaves-early', gone.signal).catch(() => undefined)
    await inRetrieval
    gone.abort()
    await pending
    await new Promise((resolve) => setTimeout(resolve, 200))
    open()
    await settle('leaves-early', 'none')
    await new Promise((resolve) => setTimeout(resolve, 500))
    t.equal(await latest('leaves-early'), null, 'nothing stored')
  })
})

t.test('itemsToShow: best first, or in the order asked among the items of the best matches\' kind', async (t) => {
  const item = (id: string, relevance: number, price: number, rating: number, category: string): ItemEvidence => ({
    kind: 'item',
    item: { id, title: id, price, rating, category, semantic: 0, keyword: 0, rank: 0 } satisfies RetrievedItem,
    features: { semantic: 0, keyword: 0, coverage: 0, head: 0 },
    relevance
  })
  const items = [item('b', 0.9, 120, 4.8, 'Laptops'), item('c', 0.85, 900, 3.9, 'Laptops'), item('a', 0.8, 300, 4.1, 'Laptops'), item('sleeve', 0.7, 20, 5, 'Accessories')]
  const ids = (list: ItemEvidence[]) => list.map((e) => e.item.id)
  t.same(ids(itemsToShow(items, undefined)), ['b', 'c', 'a'], 'best first, three at most')
  t.same(ids(itemsToShow(items, 'price')), ['b', 'a', 'c'], 'the cheapest laptops, not the cheaper sleeve that also matched')
  t.same(ids(itemsToShow(items, 'rating')), ['b', 'a', 'c'], 'best rated first among the laptops')
  t.same(itemsToShow([], 'price'), [])
  const machines = [item('m1', 0.9, 400, 4, 'Coffee'), item('tamper', 0.8, 30, 5, 'Coffee'), item('m2', 0.7, 250, 4.5, 'Coffee')]
  for (const e of machines) e.item.title = e.item.id === 'tamper' ? 'Espresso Tamper' : `Espresso Machine ${e.item.id}`
  t.same(ids(itemsToShow(machines, 'price', ['espresso', 'machin'])), ['m2', 'm1'], 'the cheapest of the items named as asked: not the tamper of the same category')
  t.same(ids(itemsToShow(machines, 'price', ['phone'])), ['tamper', 'm2', 'm1'], 'no title names what was asked: the kind alone')
})
