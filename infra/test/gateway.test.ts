import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { createKey, createProject } from '@chatsearch/auth'
import { buildApp as buildChat, type ChatParts } from '@chatsearch/chat'
import { buildApp as buildSearch, demoCatalogFile } from '@chatsearch/search'
import { createPool } from '@chatsearch/shell'
import { freePort, testDatabase } from '@chatsearch/testkit'
import { startGateway, type Gateway } from './support/gateway.js'
import { skipWithout } from './support/tools.js'

const TOKEN = 'gateway-test-service-token-' + 'x'.repeat(32)
const healthcheckScript = fileURLToPath(new URL('../healthcheck.mjs', import.meta.url))

interface Item { id: string, title: string, price: number }
interface Citation { source: string, reference: string, confidence: number }
type Model = NonNullable<ChatParts['model']>
type Message = Parameters<Model['respond']>[0][number]

/**
 * A stand-in for a language model that writes slowly, a word every 80 ms, so the test can tell a
 * stream that flows from one held back by a buffer. It speaks the tool-calling protocol as the
 * assistant expects: it first asks search_catalog for the shopper's message, then recommends the
 * first item the tool returned, by id in brackets, which becomes the reply's citation.
 */
function pacedModel (): Model {
  const write = (messages: Message[]) => {
    const result = messages.findLast((m) => m.role === 'tool')
    const item = (JSON.parse(String(result?.content ?? '{"items":[]}')) as { items?: Item[] }).items?.[0]
    return item === undefined ? 'I found nothing that matches, sorry.' : `Have a look at the ${item.title} [${item.id}], a sound choice for the trail.`
  }
  const unused = async () => { throw new Error('the assistant calls respond()') }
  return {
    complete: unused,
    stream: async function * () { yield await unused() },
    respond: async (messages, { signal, onText }) => {
      if (!messages.some((m) => m.role === 'tool')) {
        const asked = String(messages.at(-1)?.content ?? '')
        return { text: '', toolCalls: [{ id: 'call_1', name: 'search_catalog', arguments: JSON.stringify({ query: asked }) }] }
      }
      const text = write(messages)
      if (onText !== undefined) {
        for (const word of text.split(/(?<= )/)) {
          await sleep(80, undefined, { signal })
          onText(word)
        }
      }
      return { text, toolCalls: [] }
    }
  }
}

/** A server-sent event stream read as it arrives, each event with the time it came. */
async function readEvents (response: Response) {
  const events: Array<{ event: string, data: any, at: number }> = []
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true })
    let end: number
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      events.push({
        event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message',
        data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null'),
        at: performance.now()
      })
    }
  }
  return events
}

/** The two services on one fresh database, listening on loopback, with nginx in front. */
async function stack (t: Tap) {
  const databaseUrl = await testDatabase(t)
  const dataDir = await mkdtemp(join(tmpdir(), 'chatsearch-gateway-search-'))
  t.teardown(() => rm(dataDir, { recursive: true, force: true }))
  const search = await buildSearch({
    databaseUrl, dataDir, embeddings: true, readers: 1, logLevel: 'silent', dbPoolSize: 4, authCacheTtlMs: 5000, serviceToken: TOKEN
  })
  t.teardown(() => search.close())
  const searchUrl = await search.listen({ host: '127.0.0.1', port: 0 })

  const catalog = JSON.parse(await readFile(demoCatalogFile, 'utf8')) as Item[]
  const items = catalog.filter((item, n) => n < 40 || /hiking boot/i.test(item.title))
  const chat = await buildChat({
    databaseUrl,
    logLevel: 'silent',
    dbPoolSize: 4,
    authCacheTtlMs: 5000,
    historyTurns: 6,
    search: { url: searchUrl, serviceToken: TOKEN, timeoutMs: 10_000 }
  }, { model: pacedModel() })
  t.teardown(() => chat.close())
  const chatUrl = await chat.listen({ host: '127.0.0.1', port: 0 })

  const gateway = await startGateway(t, { chat: new URL(chatUrl).host, search: new URL(searchUrl).host })

  const db = createPool(databaseUrl, 2)
  t.teardown(() => db.end())
  const project = await createProject(db, 'shop')
  const chatKey = (await createKey(db, project.id, 'chat', 'tester')).key
  const searchKey = (await createKey(db, project.id, 'search', 'tester')).key
  return { gateway, search, chat, searchUrl, chatUrl, items, db, project, chatKey, searchKey }
}
type Tap = { teardown: (fn: () => unknown) => void }

interface CallOptions { key?: string, body?: unknown, headers?: Record<string, string>, method?: string }
/** A response whose JSON body the assertions look into. */
type Reply = Omit<Response, 'json'> & { json: () => Promise<any> }

function caller (gateway: Gateway) {
  return async (path: string, opts: CallOptions = {}): Promise<Reply> => {
    const body = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body)
    return await fetch(gateway.url + path, {
      method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(opts.key === undefined ? {} : { authorization: `Bearer ${opts.key}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...opts.headers
      },
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(30_000)
    })
  }
}

/** infra/healthcheck.mjs, the images' probe, against one service: its exit code. Asynchronous: the service runs in this process. */
async function probe (service: 'chat' | 'search', port: number | string, path: string): Promise<number | null> {
  const env = { PATH: process.env.PATH, SERVICE: service, [`${service.toUpperCase()}_PORT`]: String(port) }
  return await new Promise((resolve) => {
    execFile(process.execPath, [healthcheckScript, path], { env, timeout: 10_000 }, (err) => {
      resolve(err === null ? 0 : typeof err.code === 'number' ? err.code : null)
    })
  })
}

const skip = skipWithout(t, ['nginx', 'envsubst'], 'apt-get install nginx-light gettext-base')

t.test('the gateway in front of both services', { skip }, async (t) => {
  const s = await stack(t)
  const call = caller(s.gateway)
  const boots = new Set(s.items.filter((i) => /hiking boot/i.test(i.title)).map((i) => i.id))

  t.test('health: the gateway itself, and each service under its prefix', async (t) => {
    const own = await call('/healthz')
    t.equal(own.status, 200)
    t.same(await own.json(), { status: 'ok', service: 'gateway' })
    t.same(await (await call('/chat/healthz')).json(), { status: 'ok', service: 'chat' })
    t.same(await (await call('/chat/readyz')).json(), { status: 'ready', service: 'chat', checks: { database: 'ok' } })
    t.same(await (await call('/search/readyz')).json(), { status: 'ready', service: 'search', checks: { database: 'ok', engine: 'ok' } })
    // The images' HEALTHCHECK and compose's probe.
    t.equal(await probe('chat', new URL(s.chatUrl).port, '/readyz'), 0, 'healthcheck.mjs: chat ready')
    t.equal(await probe('search', new URL(s.searchUrl).port, '/healthz'), 0, 'healthcheck.mjs: search alive')
    t.equal(await probe('chat', await freePort(), '/healthz'), 1, 'healthcheck.mjs: nothing listening')
  })

  t.test('a catalog write, a search and an autocomplete', async (t) => {
    const written = await call('/search/documents', { key: s.searchKey, body: s.items })
    t.equal(written.status, 200)
    t.match(await written.json(), { received: s.items.length, indexed: s.items.length })

    const found = await call('/search/search', { key: s.searchKey, body: { search_term: 'hiking boot', limit: 5, facets: ['brand'] } })
    t.equal(found.status, 200)
    const result = await found.json() as { hits: Item[], estimatedTotalHits: number, facetDistribution: object }
    t.equal(result.hits.length, 5)
    t.ok(result.hits.every((hit) => boots.has(hit.id)), 'only hiking boots')
    t.ok(result.estimatedTotalHits >= boots.size, 'every boot counted')
    t.ok(result.facetDistribution)

    const one = await call(`/search/documents/${result.hits[0]!.id}`, { key: s.searchKey })
    t.equal(one.status, 200, 'a path parameter survives the prefix')
    t.equal((await one.json()).id, result.hits[0]!.id)

    const suggested = await call('/search/autocomplete', { key: s.searchKey, body: { autocomplete_term: 'hik', limit: 3 } })
    t.equal(suggested.status, 200)
    t.ok((await suggested.json()).suggestions.length > 0)
  })

  t.test('a chat turn retrieves from the search service and cites what it found', async (t) => {
    const res = await call('/chat/newUserMessage', { key: s.chatKey, body: { user_message: 'do you have hiking boots?', consumer_id: 'shopper-1' } })
    t.equal(res.status, 200)
    const body = await res.json() as { chat_id: string, assistant_response: string, citations: Citation[] }
    t.ok(body.citations.length > 0, 'cited')
    t.ok(body.citations.every((c) => boots.has(c.reference)), 'a hiking boot')
    const read = await call(`/chat/readConversation?chat_id=${encodeURIComponent(body.chat_id)}`, { key: s.chatKey })
    t.equal(read.status, 200, 'the query string survives the prefix')
    t.same((await read.json()).map((m: { role: string }) => m.role), ['user', 'assistant'])
  })

  t.test('a streamed reply reaches the client event by event, then done', async (t) => {
    const started = performance.now()
    const res = await call('/chat/newUserMessage', {
      key: s.chatKey,
      body: { user_message: 'any hiking boots in stock?', consumer_id: 'shopper-2' },
      headers: { accept: 'text/event-stream', 'x-request-id': 'stream-1' }
    })
    t.equal(res.status, 200)
    t.match(res.headers.get('content-type'), /^text\/event-stream/)
    t.equal(res.headers.get('x-request-id'), 'stream-1', 'the gateway adds the id the hijacked stream lacks')
    const events = await readEvents(res)
    const deltas = events.filter((e) => e.event === 'delta')
    const done = events.at(-1)!
    t.equal(done.event, 'done')
    t.ok(deltas.length >= 5, `${deltas.length} delta events`)
    t.equal(deltas.map((e) => e.data.text).join(''), done.data.assistant_response, 'the deltas make up the reply')
    t.ok(done.data.citations.length > 0 && done.data.citations.every((c: Citation) => boots.has(c.reference)))
    // The model writes a word every 80 ms: a buffering proxy would deliver everything at the end.
    const firstDelta = deltas[0]!.at
    t.ok(done.at - firstDelta > 400, `first delta ${Math.round(firstDelta - started)} ms, done ${Math.round(done.at - started)} ms after the request`)
  })

  t.test('request ids: passed through, made when missing or malformed, returned and logged', async (t) => {
    const given = await call('/chat/listAllProjectChats', { key: s.chatKey, headers: { 'x-request-id': 'trace-42.a:b' } })
    t.equal(given.status, 200)
    t.equal(given.headers.get('x-request-id'), 'trace-42.a:b', 'one id, the caller\'s')

    // nginx's own ids are 32 hex digits; the service would make a UUID had it not received one.
    const made = await call('/search/search', { key: s.searchKey, body: { search_term: 'tent' } })
    t.match(made.headers.get('x-request-id'), /^[0-9a-f]{32}$/, 'made by the gateway and echoed by the service')
    const malformed = await call('/chat/listAllProjectChats', { key: s.chatKey, headers: { 'x-request-id': 'has spaces and {braces}' } })
    t.match(malformed.headers.get('x-request-id'), /^[0-9a-f]{32}$/, 'a malformed id is replaced')

    const own = await call('/nowhere', { headers: { 'x-request-id': 'lost-1' } })
    t.equal(own.headers.get('x-request-id'), 'lost-1', 'on the gateway\'s own answers too')

    // nginx writes the line once the response is sent: wait for it rather than for a fixed time.
    let log = await s.gateway.accessLog()
    for (const deadline = Date.now() + 5000; !log.some((l) => l.includes('"path":"/nowhere"')) && Date.now() < deadline;) {
      await sleep(50)
      log = await s.gateway.accessLog()
    }
    const line = log.find((l) => l.includes('"request_id":"trace-42.a:b"'))
    t.ok(line, 'the access log names the request id')
    const entry = JSON.parse(line!) as Record<string, unknown>
    t.match(entry, { method: 'GET', path: '/chat/listAllProjectChats', status: 200 })
    t.notOk(log.some((l) => l.includes(s.chatKey) || l.includes(s.searchKey)), 'no credential in the log')
  })

  t.test('credentials reach the services; the service token does not work from outside', async (t) => {
    const none = await call('/search/search', { body: { search_term: 'tent' } })
    t.equal(none.status, 401)
    t.match(await none.json(), { statusCode: 401, error: 'Unauthorized', code: 'unauthorized', message: /Authorization header/ })
    const wrongService = await call('/chat/listAllProjectChats', { key: s.searchKey })
    t.equal(wrongService.status, 401)
    t.match((await wrongService.json()).message, /chat credential/, 'the service itself judged the key it received')

    const asService = { key: TOKEN, body: { search_term: 'tent' }, headers: { 'x-project-id': s.project.id } }
    const direct = await fetch(`${s.searchUrl}/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'x-project-id': s.project.id },
      body: JSON.stringify(asService.body)
    })
    t.equal(direct.status, 200, 'inside the network the service token works')
    const through = await call('/search/search', asService)
    t.equal(through.status, 401, 'through the gateway it does not: X-Project-Id is dropped')
  })

  t.test('body limits: 1 MiB, 64 MiB for catalog imports', async (t) => {
    const big = JSON.stringify({ user_message: 'a'.repeat(1_100_000), consumer_id: 'x' })
    const tooLarge = await call('/chat/newUserMessage', { key: s.chatKey, body: big, headers: { 'x-request-id': 'big-1' } })
    t.equal(tooLarge.status, 413)
    t.match(await tooLarge.json(), { statusCode: 413, error: 'Payload Too Large', code: 'payload_too_large' })
    t.equal(tooLarge.headers.get('x-request-id'), 'big-1')
    t.equal(tooLarge.headers.get('access-control-allow-origin'), null, 'no Origin, no CORS header')
    const fromShop = await call('/chat/newUserMessage', { key: s.chatKey, body: big, headers: { origin: 'https://shop.example' } })
    t.equal(fromShop.status, 413)
    t.equal(fromShop.headers.get('access-control-allow-origin'), 'https://shop.example', 'the widget on a shop\'s page can read that its message was too large')
    t.equal(fromShop.headers.get('access-control-expose-headers'), 'x-request-id')
    t.equal(fromShop.headers.get('vary'), 'Origin')
    t.match(fromShop.headers.get('x-request-id'), /^[0-9a-f]{32}$/, 'exactly one request id, the gateway\'s')
    await fromShop.arrayBuffer()
    t.equal((await call('/search/search', { key: s.searchKey, body: JSON.stringify({ search_term: 'x'.repeat(2_000_000) }) })).status, 413)

    // 2 MiB reaches the search service on /documents: it answers (the item is invalid), not the gateway.
    const imported = await call('/search/documents', { key: s.searchKey, body: [{ id: 'not valid!', pad: 'x'.repeat(2_000_000) }] })
    t.equal(imported.status, 400)
    t.equal((await imported.json()).code, 'invalid_document')
  })

  t.test('a widget on a shop\'s page: its scripts, a preflight and a turn with a widget key, through /chat', async (t) => {
    const loader = await call('/chat/widget/v1/loader.js', { headers: { 'accept-encoding': 'gzip' } })
    t.equal(loader.status, 200)
    t.match(loader.headers.get('content-type'), /javascript/)
    t.equal(loader.headers.get('content-encoding'), 'gzip', 'compressed once, by the service')
    t.ok((await loader.text()).length > 0)
    const etag = loader.headers.get('etag')
    t.ok(etag !== null, 'with an ETag')
    t.equal((await call('/chat/widget/v1/loader.js', { headers: { 'if-none-match': etag! } })).status, 304, 'unchanged: 304')

    const widgetKey = (await createKey(s.db, s.project.id, 'widget', 'tester', ['https://shop.example'])).key
    const preflight = await call('/chat/newUserMessage', {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' }
    })
    t.equal(preflight.status, 204, 'the preflight passes the gateway')
    t.equal(preflight.headers.get('access-control-allow-origin'), 'https://shop.example')
    const turn = await call('/chat/newUserMessage', { key: widgetKey, headers: { origin: 'https://shop.example' }, body: { user_message: 'do you have hiking boots?' } })
    t.equal(turn.status, 200)
    t.equal(turn.headers.get('access-control-allow-origin'), 'https://shop.example')
    t.match(await turn.json(), { consumer_token: /^v1\./ }, 'the browser gets its consumer token')
    const elsewhere = await call('/chat/newUserMessage', { key: widgetKey, headers: { origin: 'https://evil.example' }, body: { user_message: 'hello' } })
    t.equal(elsewhere.status, 403)
    t.match(await elsewhere.json(), { code: 'origin_not_allowed' })
  })

  t.test('unknown paths get the JSON error body', async (t) => {
    // Outside /chat/ and /search/ every path is the console's (gateway-edges.test.ts runs one): none here.
    const outside = await call('/newUserMessage')
    t.equal(outside.status, 503)
    t.match(await outside.json(), { statusCode: 503, code: 'service_unavailable' })
    const inside = await call('/chat/nowhere')
    t.equal(inside.status, 404)
    t.match(await inside.json(), { code: 'not_found', message: 'no route GET /nowhere' }, 'the prefix is stripped')
    // Each service answers /metrics on its own port (open when METRICS_TOKEN is unset), never through here.
    t.equal((await fetch(`${s.chatUrl}/metrics`)).status, 200, 'the service itself serves it')
    for (const path of ['/chat/metrics', '/search/metrics', '/search//metrics', '/chat/metrics/?name=x']) {
      const metrics = await call(path)
      t.equal(metrics.status, 404, `${path}: not routed`)
      t.match(await metrics.json(), { statusCode: 404, code: 'not_found', message: /not served through the gateway/ })
    }
  })

  t.test('a service that is down: 503 from the gateway, and chat still answers without citations', async (t) => {
    await s.search.close()
    const down = await call('/search/search', { key: s.searchKey, body: { search_term: 'tent' } })
    t.equal(down.status, 503)
    t.same(await down.json(), { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable', message: 'the service is unreachable, try again shortly' })
    t.equal(down.headers.get('retry-after'), '5')
    t.match(down.headers.get('x-request-id'), /^[0-9a-f]{32}$/)
    t.equal(down.headers.get('access-control-allow-origin'), null, 'no Origin, no CORS header')
    const fromShop = await call('/search/search', { key: s.searchKey, headers: { origin: 'https://shop.example' }, body: { search_term: 'tent' } })
    t.equal(fromShop.status, 503)
    t.equal(fromShop.headers.get('access-control-allow-origin'), 'https://shop.example', 'a page of the shop can read why')
    t.equal(fromShop.headers.get('access-control-expose-headers'), 'x-request-id, retry-after')
    t.equal(fromShop.headers.get('vary'), 'Origin')
    await fromShop.arrayBuffer()

    const reply = await call('/chat/newUserMessage', { key: s.chatKey, body: { user_message: 'any hiking boots?', consumer_id: 'shopper-3' } })
    t.equal(reply.status, 200)
    t.same((await reply.json()).citations, [])
  })
})
