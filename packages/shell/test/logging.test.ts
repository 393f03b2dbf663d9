import t from 'tap'
import { buildService } from '../src/server.js'
import { ApiError } from '../src/errors.js'
import { healthRoutes } from '../src/health.js'

const SECRET = 'csk_chat_' + 'S3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS3cr3t'

/** A service whose logs are captured, behind a credential check like the auth plugin's. */
async function app () {
  const lines: string[] = []
  const server = await buildService({ name: 'test', logLevel: 'trace', logStream: { write: (line) => { lines.push(line) } } }, async (server) => {
    server.register(async (api) => {
      api.addHook('onRequest', async (request) => {
        if (request.headers.authorization !== `Bearer ${SECRET}`) throw new ApiError('unauthorized', 'the API key is invalid or has been revoked')
      })
      // What someone debugging might well log: the whole headers object, in the usual places.
      api.get('/private', async (request) => {
        request.log.debug({ headers: request.headers }, 'headers as received')
        request.log.debug({ request: { headers: request.headers } }, 'request as received')
        request.log.warn({ err: { message: 'upstream failed', headers: request.headers } }, 'an error holding headers')
        return { ok: true }
      })
      api.get('/stream', async (request, reply) => {
        reply.hijack()
        reply.raw.writeHead(200, { 'content-type': 'text/event-stream' })
        reply.raw.end('event: done\ndata: {}\n\n')
      })
    })
  })
  return { server, lines }
}

t.test('credentials never reach the logs, on success or on 401', async (t) => {
  const { server, lines } = await app()
  t.teardown(() => server.close())
  const headers = { authorization: `Bearer ${SECRET}`, cookie: `session=${SECRET}`, 'x-api-key': SECRET, 'proxy-authorization': `Basic ${SECRET}` }
  t.equal((await server.inject({ url: '/private', headers })).statusCode, 200)
  const refused = await server.inject({ url: '/private', headers: { authorization: `Bearer ${SECRET}x` } })
  t.equal(refused.statusCode, 401)

  const logged = lines.join('')
  t.ok(lines.length >= 7, `${lines.length} lines logged`)
  t.notOk(logged.includes(SECRET.slice(9)), 'the secret appears nowhere')
  const entries = lines.map((l) => JSON.parse(l) as Record<string, any>)
  t.equal(entries.find((e) => e.msg === 'headers as received')?.headers.authorization, '[redacted]')
  t.equal(entries.find((e) => e.msg === 'request as received')?.request.headers.cookie, '[redacted]')
  t.equal(entries.find((e) => e.msg === 'an error holding headers')?.err.headers['x-api-key'], '[redacted]')
  t.ok(entries.some((e) => e.msg === 'request rejected' && e.code === 'unauthorized'), 'the 401 is logged')
})

t.test('request ids: kept from the gateway, echoed on every response, on every log line', async (t) => {
  const { server, lines } = await app()
  t.teardown(() => server.close())
  const url = await server.listen({ host: '127.0.0.1', port: 0 })
  const authorization = `Bearer ${SECRET}`

  const ok = await fetch(`${url}/private`, { headers: { authorization, 'x-request-id': 'gw-ok-1' } })
  t.equal(ok.headers.get('x-request-id'), 'gw-ok-1')
  const refused = await fetch(`${url}/private`, { headers: { 'x-request-id': 'gw-401' } })
  t.equal(refused.status, 401)
  t.equal(refused.headers.get('x-request-id'), 'gw-401', 'errors carry it')
  const stream = await fetch(`${url}/stream`, { headers: { authorization, 'x-request-id': 'gw-stream' } })
  await stream.text()
  t.equal(stream.headers.get('x-request-id'), 'gw-stream', 'event streams (hijacked replies) carry it')
  const tooLong = await fetch(`${url}/private`, { headers: { authorization, 'x-request-id': 'x'.repeat(129) } })
  t.match(tooLong.headers.get('x-request-id'), /^[0-9a-f-]{36}$/, 'an id over 128 characters is replaced')
  const unsafe = await fetch(`${url}/private`, { headers: { authorization, 'x-request-id': 'a"b<c>' } })
  t.match(unsafe.headers.get('x-request-id'), /^[0-9a-f-]{36}$/, 'an id with unsafe characters is replaced')

  const entries = lines.map((l) => JSON.parse(l) as { reqId?: string, msg: string })
  const of = (id: string) => entries.filter((e) => e.reqId === id).map((e) => e.msg)
  t.ok(of('gw-ok-1').includes('incoming request') && of('gw-ok-1').includes('request completed'), 'request lines carry it')
  t.ok(of('gw-ok-1').includes('headers as received'), 'the route\'s own lines carry it')
  t.ok(of('gw-401').includes('request rejected'))
})

interface Entry { level: number, reqId?: string, msg: string }

t.test('health probes and scrapes: their request lines are debug, so an info log has none of them', async (t) => {
  const logged = async (logLevel: 'info' | 'debug') => {
    const lines: string[] = []
    const server = await buildService({ name: 'test', logLevel, logStream: { write: (line) => { lines.push(line) } } }, async (server) => {
      let ready = true
      await server.register(healthRoutes, { service: 'test', checks: { database: async () => { if (!ready) throw new Error('connection refused') } } })
      server.get('/items', async () => { ready = false; return [] })
    })
    t.teardown(() => server.close())
    for (const url of ['/healthz', '/readyz', '/metrics', '/items', '/readyz']) {
      await server.inject({ url, headers: { 'x-request-id': `${url.slice(1)}-${lines.length}` } })
    }
    return lines.map((l) => JSON.parse(l) as Entry)
  }
  const requestLines = (entries: Entry[]) => entries.filter((e) => e.msg === 'incoming request' || e.msg === 'request completed')
  const of = (entries: Entry[], route: string) => entries.filter((e) => e.reqId?.startsWith(`${route}-`) === true)

  const info = await logged('info')
  t.same(requestLines(info).map((e) => e.reqId?.replace(/-\d+$/, '')), ['items', 'items'], 'at info, request lines of the other routes only')
  t.ok(requestLines(info).every((e) => e.level === 30), 'at info level')
  t.ok(info.some((e) => e.msg === 'readiness check did not pass' && e.level === 40), 'a failing readiness check still warns')

  const debug = await logged('debug')
  for (const route of ['healthz', 'readyz', 'metrics']) {
    const lines = requestLines(of(debug, route))
    t.ok(lines.length >= 2 && lines.every((e) => e.level === 20), `at debug, ${route}: its request lines, at debug`)
  }
  t.ok(requestLines(of(debug, 'items')).every((e) => e.level === 30), 'the other routes: at info, as before')
})

t.test('consumer_id values never reach a logged URL, however the key is written; other values do', async (t) => {
  const lines: string[] = []
  const server = await buildService({ name: 'test', logLevel: 'info', logStream: { write: (line) => { lines.push(line) } } }, async (server) => {
    server.get('/chats', async (request) => request.query)
  })
  t.teardown(() => server.close())
  const sent: Array<[string, string]> = [
    ['/chats?consumer_id=alice-4f9c&chat_id=c-1', '/chats?consumer_id=[redacted]&chat_id=c-1'],
    ['/chats?limit=5&consumer_id=alice-4f9c&consumer_id=alice%2D4f9c', '/chats?limit=5&consumer_id=[redacted]&consumer_id=[redacted]'],
    ['/chats?consumer%5Fid=alice-4f9c', '/chats?consumer%5Fid=[redacted]'],
    ['/chats?Consumer_ID=alice-4f9c', '/chats?Consumer_ID=[redacted]'],
    ['/chats?consumer_id%5B%5D=alice-4f9c', '/chats?consumer_id%5B%5D=[redacted]'],
    ['/chats?consumer_id', '/chats?consumer_id=[redacted]'],
    ['/chats?consumer_ids=kept&%ZZ=kept', '/chats?consumer_ids=kept&%ZZ=kept'],
    ['/chats', '/chats']
  ]
  const first = await server.inject(sent[0]![0])
  t.same(first.json(), { consumer_id: 'alice-4f9c', chat_id: 'c-1' }, 'the route still gets the value')
  for (const [url] of sent.slice(1)) await server.inject(url)
  const logged = lines.map((l) => JSON.parse(l) as { msg: string, req?: { url: string } }).filter((e) => e.msg === 'incoming request')
  t.same(logged.map((e) => e.req?.url), sent.map(([, expected]) => expected))
  t.notOk(lines.join('').includes('alice'), 'the value is nowhere in the log')
})
