import { request } from 'node:http'
import { connect } from 'node:net'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { buildApp as buildChat } from '@chatsearch/chat'
import { buildApp as buildConsole, createUser } from '@chatsearch/console'
import { buildApp as buildSearch } from '@chatsearch/search'
import { createPool } from '@chatsearch/shell'
import { freePort, testDatabase } from '@chatsearch/testkit'
import { composeLimits, startGateway, type Gateway, type GatewayLimits } from './support/gateway.js'
import { skipWithout } from './support/tools.js'

// The gateway's edges, with real nginx in front of the real services: the docs pages and OpenAPI
// documents under each prefix, the console at the root, per-client rate and connection limits,
// slow-client timeouts, and the paths never routed from outside (/admin/, /metrics) in every spelling.

interface Teardown { teardown: (fn: () => unknown) => void }

const CONSOLE_PASSWORD = 'gateway console password'

/** The three services on one fresh database, on loopback (no catalog, no model: only their routes matter). */
async function services (t: Teardown) {
  const databaseUrl = await testDatabase(t)
  const dataDir = await mkdtemp(join(tmpdir(), 'chatsearch-edges-search-'))
  t.teardown(() => rm(dataDir, { recursive: true, force: true }))
  const search = await buildSearch({ databaseUrl, dataDir, embeddings: false, readers: 0, logLevel: 'silent', dbPoolSize: 2, authCacheTtlMs: 5000 })
  t.teardown(() => search.close())
  const chat = await buildChat({ databaseUrl, logLevel: 'silent', dbPoolSize: 2, authCacheTtlMs: 5000, historyTurns: 6 })
  t.teardown(() => chat.close())
  const chatUrl = await chat.listen({ host: '127.0.0.1', port: 0 })
  const searchUrl = await search.listen({ host: '127.0.0.1', port: 0 })
  const consoleApp = await buildConsole({
    databaseUrl,
    logLevel: 'silent',
    dbPoolSize: 2,
    chatUrl,
    searchUrl,
    serviceToken: 'gateway-edges-service-token-'.padEnd(40, 'x'),
    sessionTtlMs: 3_600_000,
    signInFailures: 5,
    upstreamTimeoutMs: 5000,
    // the placeholder page, whatever is built in the checkout
    webRoot: join(tmpdir(), `no-web-build-${await freePort()}`)
  })
  t.teardown(() => consoleApp.close())
  const consoleUrl = await consoleApp.listen({ host: '127.0.0.1', port: 0 })
  const db = createPool(databaseUrl, 1)
  await createUser(db, 'ops', CONSOLE_PASSWORD)
  await db.end()
  return { chatUrl, searchUrl, consoleUrl, upstreams: { chat: new URL(chatUrl).host, search: new URL(searchUrl).host, console: new URL(consoleUrl).host } }
}

/** A GET whose path is sent exactly as written (fetch would resolve `.`, `..` and escapes first). */
async function rawGet (gateway: Gateway, path: string): Promise<{ status: number, body: string }> {
  const { hostname, port } = new URL(gateway.url)
  return await new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, timeout: 10_000 }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk }).on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject).end()
  })
}

/** A raw connection that sends `data` and then nothing more: the time until nginx closes it, in ms. */
async function stalled (gateway: Gateway, data: string): Promise<number> {
  const { hostname, port } = new URL(gateway.url)
  // nginx resets a connection that timed out (reset_timedout_connection): an error here is the end.
  const socket = connect(Number(port), hostname).on('error', () => {})
  await once(socket, 'connect')
  const started = performance.now()
  socket.write(data)
  socket.resume()
  // Not events.once: it would reject on the reset's 'error', which comes before 'close'.
  await Promise.race([new Promise((resolve) => socket.once('close', resolve)), sleep(30_000)])
  socket.destroy()
  return performance.now() - started
}

const contentTypes: Record<string, RegExp> = { css: /^text\/css/, js: /javascript/, png: /^image\/png/ }

const skip = skipWithout(t, ['nginx', 'envsubst'], 'apt-get install nginx-light gettext-base')

t.test('the gateway\'s edges', { skip }, async (t) => {
  const s = await services(t)
  const gateway = await startGateway(t, s.upstreams)

  t.test('each service\'s /docs page and OpenAPI document work under its prefix, and directly', async (t) => {
    const bases = [
      { name: 'chat through the gateway', base: `${gateway.url}/chat`, server: '/chat', path: '/newUserMessage' },
      { name: 'search through the gateway', base: `${gateway.url}/search`, server: '/search', path: '/search' },
      { name: 'chat directly', base: s.chatUrl, server: '/', path: '/newUserMessage' }
    ]
    for (const { name, base, server, path } of bases) {
      const first = await fetch(`${base}/docs`, { redirect: 'manual' })
      t.equal(first.status, 302, `${name}: /docs sends the browser on`)
      const pageUrl = new URL(first.headers.get('location') ?? '', `${base}/docs`)
      t.equal(pageUrl.href, `${base}/docs/`, `${name}: to docs/, below the prefix`)
      const page = await fetch(pageUrl)
      t.equal(page.status, 200)
      t.match(page.headers.get('content-type'), /^text\/html/)
      // Every stylesheet, script and icon the page names, resolved as a browser resolves it.
      const assets = [...(await page.text()).matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => new URL(m[1]!, pageUrl))
      t.ok(assets.length >= 5, `${name}: ${assets.length} assets`)
      for (const asset of assets) {
        const res = await fetch(asset)
        const type = contentTypes[asset.pathname.split('.').pop() ?? '']
        t.ok(res.status === 200 && asset.href.startsWith(`${base}/docs/`) && type?.test(res.headers.get('content-type') ?? ''),
          `${name}: ${asset.pathname} ${res.status} ${res.headers.get('content-type')}`)
        await res.arrayBuffer()
      }
      // What the page's script loads (./json, relative to the page) and the published document.
      for (const document of [new URL('json', pageUrl), new URL(`${base}/openapi.json`)]) {
        const doc = await (await fetch(document)).json() as { servers: Array<{ url: string }>, paths: Record<string, unknown> }
        // Behind the gateway the one server is its prefix; directly, the service's own list starts with itself.
        t.equal(doc.servers[0]?.url, server, `${name}: ${document.pathname} names the base the API is reached at first`)
        t.ok(doc.paths[path], `${name}: ${document.pathname} documents ${path}`)
      }
      const healthz = await fetch(new URL(`${server.replace(/\/$/, '')}/healthz`, base))
      t.equal(healthz.status, 200, `${name}: servers[0] + a path reaches the service`)
    }
    const spoofed = await (await fetch(`${gateway.url}/chat/openapi.json`, { headers: { 'x-forwarded-prefix': '/elsewhere' } })).json() as { servers: unknown }
    t.same(spoofed.servers, [{ url: '/chat' }], 'the gateway sets X-Forwarded-Prefix itself')
  })

  t.test('the console is served at the root: its pages, its API and its session cookie', async (t) => {
    const page = await fetch(`${gateway.url}/projects/prj_x/chats`)
    t.equal(page.status, 200, 'a path of the web app')
    t.match(page.headers.get('content-type'), /^text\/html/)
    t.match(page.headers.get('content-security-policy'), /script-src 'self'/, 'with the console\'s own policy')
    const signIn = await fetch(`${gateway.url}/api/session`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'ops', password: CONSOLE_PASSWORD })
    })
    t.equal(signIn.status, 200)
    const cookie = signIn.headers.get('set-cookie') ?? ''
    t.match(cookie, /^console_session=[\w-]+;.*HttpOnly.*SameSite=Strict/)
    t.notMatch(cookie, /Secure/, 'plain HTTP to the gateway: not Secure')
    const projects = await fetch(`${gateway.url}/api/projects`, { headers: { cookie: cookie.split(';')[0]! } })
    t.same(await projects.json(), { projects: [] })
    const unknown = await fetch(`${gateway.url}/api/nothing`)
    t.equal(unknown.status, 404)
    t.match(await unknown.json(), { code: 'not_found', message: 'no route GET /api/nothing' }, 'the console\'s own 404')
  })

  t.test('/admin/ and /metrics are never routed from outside, however spelled', async (t) => {
    const admin = ['/chat/admin/chats', '/search/admin/tasks', '/chat/admin', '/chat/admin?project=x', '/chat//admin/chats',
      '/chat/%61dmin/chats', '/search/ADMIN/tasks', '/search/Admin%2Ftasks', '/chat/./admin/chats', '/chat/x/../admin/chats',
      '/admin/chats', '/ADMIN', '/%61dmin/x', '/x/../admin/chats', '//admin']
    for (const path of admin) {
      const res = await rawGet(gateway, path)
      t.equal(res.status, 404, `${path}: 404`)
      t.match(JSON.parse(res.body), { statusCode: 404, code: 'not_found', message: /admin routes are not served through the gateway/ }, `${path}: answered by the gateway`)
    }
    for (const path of ['/chat/%6detrics', '/search/METRICS', '/chat/x/../metrics', '/metrics', '/%6Detrics/', '/x/../METRICS']) {
      const res = await rawGet(gateway, path)
      t.match({ status: res.status, body: JSON.parse(res.body) }, { status: 404, body: { message: /not served through the gateway/ } }, `${path}: not routed`)
    }
    // Decoded once by nginx, the rest reaches the service as the literal text it is: no admin route.
    const twice = await rawGet(gateway, '/chat/%2561dmin/chats')
    t.match({ status: twice.status, body: JSON.parse(twice.body) }, { status: 404, body: { message: /^no route GET \/%2561dmin\/chats|^no route GET \/%61dmin\/chats/ } }, 'a doubly escaped path is no admin path to the service')
    // nginx logs what it proxied: none of the admin paths went upstream.
    let log = await gateway.accessLog()
    for (const deadline = Date.now() + 5000; !log.some((l) => l.includes('2561dmin')) && Date.now() < deadline;) {
      await sleep(50)
      log = await gateway.accessLog()
    }
    const proxied = log.map((l) => JSON.parse(l) as { path: string, upstream: string }).filter((e) => e.upstream !== '' && /dmin|etrics/i.test(e.path))
    t.same(proxied.map((e) => e.path), ['/chat/%61dmin/chats'], 'only the doubly escaped path was proxied')
  })

  t.test('a client over the request rate gets a JSON 429 with Retry-After', async (t) => {
    const limited = await startGateway(t, s.upstreams, { ...composeLimits, GATEWAY_RATE_LIMIT: '1', GATEWAY_RATE_BURST: '5' })
    const answers = await Promise.all(Array.from({ length: 30 }, async () => await fetch(`${limited.url}/chat/healthz`)))
    const statuses = answers.map((r) => r.status)
    const passed = statuses.filter((status) => status === 200).length
    t.ok(passed >= 1 && passed <= 12, `${passed} of 30 let through (1 per second, a burst of 5)`)
    t.equal(statuses.filter((status) => status === 429).length, 30 - passed, 'the others refused')
    const refused = answers.find((r) => r.status === 429)!
    t.same(await refused.json(), {
      statusCode: 429, error: 'Too Many Requests', code: 'rate_limited', message: 'too many requests or connections from this address: retry after the Retry-After delay'
    })
    t.equal(refused.headers.get('retry-after'), '1')
    t.match(refused.headers.get('x-request-id'), /^[0-9a-f]{32}$/)
    t.equal(refused.headers.get('access-control-allow-origin'), null, 'no Origin, no CORS header')
    await Promise.all(answers.filter((r) => !r.bodyUsed).map(async (r) => await r.arrayBuffer()))
    const fromShop = await fetch(`${limited.url}/chat/healthz`, { headers: { origin: 'https://shop.example' } })
    t.equal(fromShop.status, 429, 'still over the rate')
    t.equal(fromShop.headers.get('access-control-allow-origin'), 'https://shop.example', 'the widget on a shop\'s page can read that it was refused for the rate')
    t.equal(fromShop.headers.get('access-control-expose-headers'), 'x-request-id, retry-after', 'and its Retry-After')
    t.equal(fromShop.headers.get('vary'), 'Origin')
    await fromShop.arrayBuffer()
    const health = await Promise.all(Array.from({ length: 10 }, async () => (await fetch(`${limited.url}/healthz`)).status))
    t.same(health, Array(10).fill(200), 'the gateway\'s own health is never limited')
    await sleep(1100)
    t.equal((await fetch(`${limited.url}/chat/healthz`)).status, 200, 'served again after the Retry-After delay')
  })

  t.test('connections at once per client are limited; slow clients are cut off', async (t) => {
    const limits: GatewayLimits = { ...composeLimits, GATEWAY_CONN_LIMIT: '2' }
    const limited = await startGateway(t, s.upstreams, limits)
    const { hostname, port } = new URL(limited.url)
    // Two requests whose bodies never come: each holds a connection while nginx waits for it.
    const holders = await Promise.all([0, 1].map(async () => {
      const socket = connect(Number(port), hostname).on('error', () => {})
      await once(socket, 'connect')
      socket.write('POST /search/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{')
      return socket
    }))
    t.teardown(() => { for (const socket of holders) socket.destroy() })
    await sleep(300)
    const third = await fetch(`${limited.url}/chat/healthz`)
    t.equal(third.status, 429, 'a third connection at once is refused')
    t.equal(((await third.json()) as { code: string }).code, 'rate_limited')
    for (const socket of holders) socket.destroy()
    await sleep(300)
    t.equal((await fetch(`${limited.url}/chat/healthz`)).status, 200, 'served once the others are gone')

    // Headers that never end, and a body that stops: nginx closes both after 10 s of silence.
    const [headerMs, bodyMs] = await Promise.all([
      stalled(gateway, 'GET /chat/healthz HTTP/1.1\r\nHost: x\r\n'),
      stalled(gateway, 'POST /search/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"search')
    ])
    t.ok(headerMs > 8000 && headerMs < 15_000, `incomplete headers: closed after ${Math.round(headerMs)} ms (client_header_timeout 10s)`)
    t.ok(bodyMs > 8000 && bodyMs < 15_000, `a stalled body: closed after ${Math.round(bodyMs)} ms (client_body_timeout 10s)`)
  })
})
