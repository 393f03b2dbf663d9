import { gzipSync } from 'node:zlib'
import { connect, type Socket } from 'node:net'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import t, { type Test } from 'tap'
import { Type } from 'typebox'
import { errorCatalog } from '@chatsearch/contracts'
import Fastify, { type InjectOptions } from 'fastify'
import helmet from 'helmet'
import { createServer, securityHeaders, type Timeouts } from '../src/server.js'

// What a hostile or broken client sends at the HTTP layer: each answer is the documented error body
// with a catalog code, and the server keeps serving everyone else.

async function app (t: Test, timeouts: Partial<Timeouts> = {}) {
  const server = createServer({ name: 'test', logLevel: 'silent', timeouts })
  server.post('/things', {
    schema: { body: Type.Object({ name: Type.String(), extra: Type.Optional(Type.Unknown()) }, { additionalProperties: false }) }
  }, async () => ({ ok: true }))
  server.get('/things/:id', async () => ({ ok: true }))
  server.delete('/things/:id', async () => ({ deleted: true }))
  server.get('/ping', async () => ({ ok: true }))
  server.get('/echo', async (request) => request.query)
  t.teardown(() => server.close())
  return server
}

const bodyKeys = ['code', 'error', 'message', 'statusCode']

function conforming (t: Test, body: string, status: number, code: string) {
  const parsed = JSON.parse(body) as Record<string, unknown>
  t.same(Object.keys(parsed).sort(), bodyKeys, `${code}: the documented keys`)
  t.equal(parsed.statusCode, status)
  t.equal(parsed.code, code)
  t.equal(parsed.error, errorCatalog[code as keyof typeof errorCatalog].title, `${code}: the catalog's title`)
}

/** Sends raw bytes on a new connection and returns everything the server writes before closing. */
async function raw (port: number, request: string): Promise<{ status: number, headers: string, body: string }> {
  const socket = connect(port, '127.0.0.1')
  await once(socket, 'connect')
  socket.write(request)
  let text = ''
  socket.setEncoding('utf8').on('data', (chunk: string) => { text += chunk })
  await Promise.race([once(socket, 'close'), sleep(5000)])
  socket.destroy()
  const [head = '', body = ''] = text.split('\r\n\r\n')
  return { status: Number(head.split(' ')[1]), headers: head, body }
}

t.test('JSON nested thousands of levels deep is a 400, not a stack overflow', async (t) => {
  const server = await app(t)
  for (const depth of [5_000, 100_000]) {
    const payload = `{"name":"x","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`
    const res = await server.inject({ method: 'POST', url: '/things', payload, headers: { 'content-type': 'application/json' } })
    t.equal(res.statusCode, 400, `${depth} levels`)
    conforming(t, res.body, 400, 'invalid_request')
    t.match(res.json().message, /nested more than 32 levels/)
  }
  const shallow = { name: 'x', extra: JSON.parse(`${'['.repeat(30)}${']'.repeat(30)}`) as unknown }
  t.equal((await server.inject({ method: 'POST', url: '/things', payload: shallow })).statusCode, 200, '30 levels are fine')
  t.equal((await server.inject({ method: 'POST', url: '/things', payload: { name: 'a\u0000b' } })).statusCode, 400, 'NUL is still refused')
})

t.test('a number too large to be finite (1e309 reads as Infinity, written back as null) is refused', async (t) => {
  const server = await app(t)
  for (const extra of ['1e309', '-1e309', '[1, 2e400]']) {
    const res = await server.inject({ method: 'POST', url: '/things', payload: `{"name":"a","extra":${extra}}`, headers: { 'content-type': 'application/json' } })
    t.equal(res.statusCode, 400, extra)
    conforming(t, res.body, 400, 'invalid_request')
  }
  t.equal((await server.inject({ method: 'POST', url: '/things', payload: '{"name":"a","extra":1e308}', headers: { 'content-type': 'application/json' } })).statusCode, 200, '1e308 is a number')
})

t.test('a body in a content coding is 415, not bytes taken for JSON', async (t) => {
  const server = await app(t)
  const res = await server.inject({ method: 'POST', url: '/things', payload: gzipSync('{"name":"a"}'), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } })
  t.equal(res.statusCode, 415)
  conforming(t, res.body, 415, 'unsupported_media_type')
  t.match(res.json().message, /Content-Encoding gzip/)
  const identity = await server.inject({ method: 'POST', url: '/things', payload: '{"name":"a"}', headers: { 'content-type': 'application/json', 'content-encoding': 'identity' } })
  t.equal(identity.statusCode, 200, 'identity is no coding')
  t.equal((await server.inject({ method: 'GET', url: '/ping', headers: { 'content-encoding': 'gzip' } })).statusCode, 200, 'nor is a header without a body')
  const gzipped = { payload: gzipSync('{"name":"a"}'), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }
  t.equal((await server.inject({ method: 'POST', url: '/nowhere', ...gzipped })).statusCode, 404, 'an unknown path stays a 404')
  t.equal((await server.inject({ method: 'PUT', url: '/things', ...gzipped })).statusCode, 405, 'another method stays a 405, whatever the body')
  const get = await server.inject({ method: 'GET', url: '/things/a', ...gzipped })
  t.same([get.statusCode, get.json()], [200, { ok: true }], 'a GET\'s body is never read: answered as without one')
  t.equal((await server.inject({ method: 'DELETE', url: '/things/a', ...gzipped })).statusCode, 415, 'a DELETE\'s body is read')
})

t.test('a body is UTF-8: another charset is 415, bytes that are not UTF-8 a 400, never text with U+FFFD in it', async (t) => {
  const server = await app(t)
  const send = (payload: Buffer, type: string) => server.inject({ method: 'POST', url: '/things', payload, headers: { 'content-type': type } })
  const latin1 = Buffer.from('{"name":"caf\u00e9"}', 'latin1')
  const declared = await send(latin1, 'application/json; charset=latin1')
  t.equal(declared.statusCode, 415)
  conforming(t, declared.body, 415, 'unsupported_media_type')
  const undeclared = await send(latin1, 'application/json')
  t.equal(undeclared.statusCode, 400)
  conforming(t, undeclared.body, 400, 'invalid_request')
  t.match(undeclared.json().message, /not valid UTF-8/)
  t.equal((await send(Buffer.from('{"name":"café"}'), 'application/json; charset=UTF-8')).statusCode, 200, 'UTF-8, declared')
  t.equal((await send(Buffer.from('{"name":"café"}'), 'application/json; charset="utf8"')).statusCode, 200, 'quoted, its other spelling')
  t.equal((await send(Buffer.from('{"name":"cafe"}'), 'application/json; charset=latin1')).statusCode, 200, 'ASCII declared as an ASCII-based charset reads the same')
  t.equal((await send(Buffer.from('{"name":"cafe"}'), 'application/json; charset=us-ascii')).statusCode, 200, 'and as ASCII')
})

t.test('a lone surrogate escape is refused like NUL; a whole pair, sent escaped or as UTF-8, is text', async (t) => {
  const server = await app(t)
  const send = (body: string) => server.inject({ method: 'POST', url: '/things', payload: body, headers: { 'content-type': 'application/json' } })
  for (const body of ['{"name":"a\\ud800"}', '{"name":"\\udfffb"}', '{"name":"a","extra":["\\ud83d"]}', '{"name":"a","extra":{"\\ud800":1}}']) {
    const res = await send(body)
    t.equal(res.statusCode, 400, body)
    conforming(t, res.body, 400, 'invalid_request')
    t.match(res.json().message, /lone surrogate/)
  }
  t.equal((await send('{"name":"\\ud83d\\ude00"}')).statusCode, 200, 'an escaped pair')
  t.equal((await send('{"name":"😀 é"}')).statusCode, 200, 'UTF-8')
  // Percent-encoded bytes that are not UTF-8 (a surrogate's, ED A0 80) are left as written by the
  // query parser: text, never a lone surrogate that a jsonb column would refuse.
  const query = await server.inject({ method: 'GET', url: '/echo?x=%ED%A0%80&y=ok' })
  t.equal(query.statusCode, 200)
  t.same(query.json(), { x: '%ED%A0%80', y: 'ok' }, 'a surrogate\'s bytes in a query stay percent-encoded; the rest is read')
})

t.test('a NUL character in a path parameter is a 400 before any handler, as in a query or a body', async (t) => {
  const server = await app(t)
  for (const url of ['/things/%00', '/things/a%00b']) {
    const res = await server.inject({ method: 'GET', url })
    t.equal(res.statusCode, 400, url)
    conforming(t, res.body, 400, 'invalid_request')
    t.match(res.json().message, /NUL character/)
  }
  t.equal((await server.inject({ method: 'DELETE', url: '/things/%00' })).statusCode, 400, 'DELETE too')
  t.equal((await server.inject({ method: 'GET', url: '/things/abc' })).statusCode, 200, 'an id without one is served')
})

t.test('a body handed on as a stream (a multipart upload passed through) is not taken for deep JSON', async (t) => {
  const server = createServer({ name: 'test', logLevel: 'silent' })
  t.teardown(() => server.close())
  server.addContentTypeParser('multipart/form-data', (_request, payload, done) => { done(null, payload) })
  server.post('/upload', async (request) => {
    let bytes = 0
    for await (const chunk of request.body as AsyncIterable<Buffer>) bytes += chunk.length
    return { bytes }
  })
  const payload = '--b\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\n\r\n# A\r\n--b--\r\n'
  // Over a real socket: the request stream then holds the socket and the server, far more than 32 levels.
  const url = await server.listen({ host: '127.0.0.1', port: 0 })
  const res = await fetch(`${url}/upload`, { method: 'POST', body: payload, headers: { 'content-type': 'multipart/form-data; boundary=b' } })
  t.equal(res.status, 200, await res.clone().text())
  t.same(await res.json(), { bytes: payload.length })
})

t.test('errors the HTTP parser raises before routing carry the catalog code', async (t) => {
  const server = await app(t)
  await server.listen({ port: 0, host: '127.0.0.1' })
  const port = (server.server.address() as { port: number }).port
  const cases: Array<[string, string, number, string]> = [
    ['Content-Length that is not a number', 'POST /things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}', 400, 'invalid_request'],
    ['chunked and Content-Length together', 'POST /things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n', 400, 'invalid_request'],
    ['headers too large', `GET /ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
    ['not HTTP at all', 'HELLO\r\n\r\n', 400, 'invalid_request']
  ]
  for (const [name, request, status, code] of cases) {
    const res = await raw(port, request)
    t.equal(res.status, status, name)
    t.match(res.headers, /content-type: application\/json/i, `${name}: JSON`)
    conforming(t, res.body, status, code)
  }
  const badUrl = await server.inject({ method: 'GET', url: '/things/%zz' })
  t.equal(badUrl.statusCode, 400, 'a malformed percent-encoding')
  conforming(t, badUrl.body, 400, 'invalid_request')
  t.equal((await fetch(`http://127.0.0.1:${port}/ping`)).status, 200, 'and the server still serves')
})

t.test('a known path with the wrong method is 405 with Allow; an unknown path 404', async (t) => {
  const server = await app(t)
  const wrong = await server.inject({ method: 'GET', url: '/things' })
  t.equal(wrong.statusCode, 405)
  t.equal(wrong.headers.allow, 'POST')
  conforming(t, wrong.body, 405, 'method_not_allowed')
  const param = await server.inject({ method: 'PUT', url: '/things/42' })
  t.equal(param.statusCode, 405, 'a path with a parameter')
  t.equal(param.headers.allow, 'DELETE, GET, HEAD')
  const missing = await server.inject({ method: 'GET', url: '/nothing/here' })
  t.equal(missing.statusCode, 404)
  conforming(t, missing.body, 404, 'not_found')
})

t.test('a method the path does not have is 405 whatever the body sent with it', async (t) => {
  const server = await app(t)
  const json = { 'content-type': 'application/json' }
  const cases: Array<[string, InjectOptions]> = [
    ['PUT, JSON content type and no body', { method: 'PUT', url: '/things', headers: json }],
    ['PATCH, JSON content type and no body', { method: 'PATCH', url: '/things', headers: json, payload: '' }],
    ['DELETE, JSON content type and no body', { method: 'DELETE', url: '/things', headers: json }],
    ['broken JSON', { method: 'PUT', url: '/things', headers: json, payload: '{"name":' }],
    ['a body over the limit', { method: 'PUT', url: '/things', headers: json, payload: JSON.stringify({ name: 'a'.repeat(1_100_000) }) }],
    ['a content type no route reads', { method: 'PATCH', url: '/things', headers: { 'content-type': 'text/plain' }, payload: 'hi' }],
    ['a malformed content type', { method: 'PUT', url: '/things', headers: { 'content-type': '/' }, payload: '{}' }]
  ]
  for (const [name, request] of cases) {
    const res = await server.inject(request)
    t.equal(res.statusCode, 405, name)
    t.equal(res.headers.allow, 'POST', `${name}: Allow`)
    conforming(t, res.body, 405, 'method_not_allowed')
    // The body is not read: a connection with one on its way is closed after the answer.
    t.equal(res.headers.connection === 'close', request.payload !== undefined && request.payload !== '', `${name}: connection closed only after an unread body`)
  }
  const nowhere = await server.inject({ method: 'PUT', url: '/nowhere', headers: json })
  t.equal(nowhere.statusCode, 404, 'an unknown path with an empty JSON body')
  conforming(t, nowhere.body, 404, 'not_found')
  const valid = await server.inject({ method: 'POST', url: '/things', headers: json, payload: '' })
  t.equal(valid.statusCode, 400, 'the method the path has still reads the body')
})

t.test('a request without Host or with an expectation other than 100-continue gets the documented body', async (t) => {
  const server = await app(t)
  await server.listen({ port: 0, host: '127.0.0.1' })
  const port = (server.server.address() as { port: number }).port

  const noHost = await raw(port, 'GET /ping HTTP/1.1\r\n\r\n')
  t.equal(noHost.status, 400, 'HTTP/1.1 without Host')
  t.match(noHost.headers, /content-type: application\/json/i)
  t.match(noHost.headers, /x-request-id: \S+/i, 'with a request id')
  t.match(noHost.headers, /x-content-type-options: nosniff/i, 'and the security headers')
  conforming(t, noHost.body, 400, 'invalid_request')
  t.match(JSON.parse(noHost.body), { message: /Host/ })
  t.equal((await raw(port, 'GET /ping HTTP/1.0\r\n\r\n')).status, 200, 'HTTP/1.0 needs no Host')
  t.equal((await raw(port, 'GET /ping HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n')).status, 200, 'an empty Host is a Host')

  for (const expect of ['200-ok', 'something-else', '100-continuous']) {
    const res = await raw(port, `POST /things HTTP/1.1\r\nHost: x\r\nExpect: ${expect}\r\nContent-Type: application/json\r\nContent-Length: 12\r\nConnection: close\r\n\r\n{"name":"a"}`)
    t.equal(res.status, 417, `Expect: ${expect}`)
    t.match(res.headers, /content-type: application\/json/i)
    conforming(t, res.body, 417, 'expectation_failed')
  }
  t.equal((await raw(port, 'GET /ping HTTP/1.0\r\nExpect: 200-ok\r\n\r\n')).status, 200, 'HTTP/1.0 has no expectations (as Node)')
  const injected = await server.inject({ method: 'GET', url: '/ping', headers: { expect: '200-ok' } })
  t.equal(injected.statusCode, 417, 'the same through inject')

  const continued = await raw(port, 'POST /things HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 12\r\nConnection: close\r\n\r\n{"name":"a"}')
  t.equal(continued.status, 100, 'Expect: 100-continue is met')
  t.match(continued.body, /^HTTP\/1\.1 200 OK\r\n/, 'and the request answered')
  t.equal((await fetch(`http://127.0.0.1:${port}/ping`)).status, 200, 'and the server still serves')
})

t.test('DELETE with a JSON content type and no body is accepted; an empty POST body is not', async (t) => {
  const server = await app(t)
  const res = await server.inject({ method: 'DELETE', url: '/things/1', headers: { 'content-type': 'application/json' } })
  t.equal(res.statusCode, 200)
  t.same(res.json(), { deleted: true })
  const post = await server.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: '' })
  t.equal(post.statusCode, 400)
  conforming(t, post.body, 400, 'invalid_request')
})

t.test('security headers on every answer', async (t) => {
  const server = await app(t)
  for (const [name, url] of [['success', '/ping'], ['not found', '/nowhere'], ['error', '/things']] as const) {
    const res = await server.inject({ method: name === 'error' ? 'PUT' : 'GET', url })
    t.equal(res.headers['x-content-type-options'], 'nosniff', `${name}: nosniff`)
    t.equal(res.headers['x-frame-options'], 'SAMEORIGIN', `${name}: no framing by others`)
    t.match(res.headers['content-security-policy'], /default-src 'none'/, `${name}: a CSP that allows nothing`)
    t.equal(res.headers['referrer-policy'], 'no-referrer', `${name}: no referrer`)
    t.equal(res.headers['x-powered-by'], undefined, `${name}: no server fingerprint`)
  }
})

t.test('the security headers computed once are exactly those helmet\'s middleware sets on a response', async (t) => {
  const policy = { defaultSrc: ["'self'"], scriptSrc: ["'self'"] }
  for (const csp of [undefined, policy]) {
    const live = Fastify()
    t.teardown(() => live.close())
    const middleware = helmet({
      contentSecurityPolicy: { useDefaults: false, directives: csp ?? { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      crossOriginResourcePolicy: { policy: 'same-origin' }
    })
    live.addHook('onRequest', (request, reply, done) => { middleware(request.raw, reply.raw, () => { done() }) })
    live.get('/', async () => 'ok')
    const res = await live.inject('/')
    const expected = Object.entries(res.headers).filter(([name]) => !['content-type', 'content-length', 'date', 'connection'].includes(name))
    t.ok(expected.length >= 10, 'helmet sets a dozen headers')
    t.same(securityHeaders(csp).sort(), expected.sort(), csp === undefined ? 'the default policy' : 'a policy of the service\'s own')
  }
})

t.test('slow clients cannot hold connections: headers that trickle in are cut off', async (t) => {
  const server = await app(t, { headersMs: 600, requestMs: 1500, checkIntervalMs: 100 })
  await server.listen({ port: 0, host: '127.0.0.1' })
  const port = (server.server.address() as { port: number }).port
  const request = 'GET /ping HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(10_000)
  const sockets: Socket[] = []
  const closedAt: number[] = []
  const started = Date.now()
  for (let i = 0; i < 200; i++) {
    const socket = connect(port, '127.0.0.1')
    socket.on('error', () => {})
    socket.on('close', () => closedAt.push(Date.now() - started))
    sockets.push(socket)
  }
  // One byte every 50 ms per connection, far slower than the 600 ms allowed for the headers.
  let sent = 0
  const drip = setInterval(() => {
    for (const socket of sockets) if (!socket.destroyed) socket.write(request[sent % request.length]!)
    sent++
  }, 50)
  t.teardown(() => { clearInterval(drip); for (const socket of sockets) socket.destroy() })

  await sleep(300)
  const during = Date.now()
  const res = await fetch(`http://127.0.0.1:${port}/ping`)
  t.equal(res.status, 200, 'others are served meanwhile')
  t.ok(Date.now() - during < 1000, 'promptly')

  for (const deadline = Date.now() + 5000; closedAt.length < sockets.length && Date.now() < deadline;) await sleep(50)
  clearInterval(drip)
  t.equal(closedAt.length, 200, 'every trickling connection was closed')
  t.ok(Math.max(...closedAt) < 2500, `within the header timeout and a check interval (last after ${Math.max(...closedAt)} ms)`)
})
