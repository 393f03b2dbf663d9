import t from 'tap'
import { connect } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { createServer } from '../src/server.js'
import { drain } from '../src/shutdown.js'

/**
 * A listening app with a slow event stream (`/stream?n=`, one event every 100 ms) and a route held
 * until the test lets it answer (`/held`).
 */
async function app (t: { teardown: (fn: () => unknown) => void }) {
  const server = createServer({ name: 'test', logLevel: 'silent' })
  const closed: string[] = []
  const held = gate()
  const arrived = gate()
  const closing = gate()
  server.addHook('onClose', async () => { closed.push('resources') })
  // Registered after the server's own: runs once draining has begun.
  server.addHook('preClose', async () => { closing.open() })
  server.get('/stream', async (request, reply) => {
    const n = Number((request.query as { n?: string }).n ?? 5)
    reply.hijack()
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' })
    for (let i = 0; i < n && !reply.raw.destroyed; i++) {
      reply.raw.write(`event: delta\ndata: ${i}\n\n`)
      await sleep(100)
    }
    reply.raw.end('event: done\ndata: {}\n\n')
  })
  server.get('/held', async () => {
    arrived.open()
    await held.done
    return { ok: true }
  })
  const url = await server.listen({ host: '127.0.0.1', port: 0 })
  t.teardown(() => server.close())
  return { server, url, port: Number(new URL(url).port), closed, held, arrived, closing }
}

function gate () {
  let open = () => {}
  const done = new Promise<void>((resolve) => { open = resolve })
  return { done, open: () => open() }
}

/** Sends raw HTTP/1.1 on one connection and collects everything the server sends back. */
function rawConnection (port: number) {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  let received = ''
  socket.on('data', (chunk) => { received += chunk.toString() })
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()))
  return { send: (path: string) => socket.write(`GET ${path} HTTP/1.1\r\nhost: test\r\n\r\n`), received: () => received, ended }
}

t.test('draining: streams in flight finish, new connections are refused, late requests get a 503', async (t) => {
  const { server, url, port, closed, held, arrived, closing } = await app(t)
  const started = Date.now()
  // Both in flight: the stream has sent its headers, /held has reached its handler.
  const stream = (await fetch(`${url}/stream?n=8`)).text()
  const pipelined = rawConnection(port)
  pipelined.send('/held')
  await arrived.done

  const draining = drain(server, 10_000)
  await closing.done
  // On the connection still busy with /held, the next request is refused with our error body.
  pipelined.send('/held')
  while (server.server.listening) await sleep(5)
  const refused = await fetch(`${url}/held`).then(() => 'answered', (err: Error & { cause?: { code?: string } }) => err.cause?.code)
  t.equal(refused, 'ECONNREFUSED', 'no new connection is accepted')
  held.open()

  const events = await stream
  t.match(events, /event: done/, 'the stream was not cut')
  t.equal(events.match(/event: delta/g)?.length, 8)
  await draining
  t.ok(Date.now() - started < 5000, 'closed as soon as the last response ended, not at a keep-alive timeout')
  t.same(closed, ['resources'], 'then the resources closed')

  await pipelined.ended
  const [first, second] = pipelined.received().split(/(?=HTTP\/1\.1 )/)
  t.match(first, /^HTTP\/1\.1 200/, 'the request in flight was answered')
  t.match(second, /^HTTP\/1\.1 503/)
  t.match(second, /x-request-id: \S+/i)
  const body = JSON.parse(second?.slice(second.indexOf('\r\n\r\n') + 4) ?? 'null') as unknown
  t.same(body, { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable', message: 'this instance is shutting down; retry the request' })
})

t.test('draining is bounded: what overruns the grace period is cut, then the resources close', async (t) => {
  const { server, url, closed } = await app(t)
  const response = await fetch(`${url}/stream?n=100`)
  const events = response.text().then((text) => text, () => 'cut')
  await sleep(100)
  const started = Date.now()
  await drain(server, 500)
  const took = Date.now() - started
  t.ok(took >= 450 && took < 2000, `closed after the grace period (${took} ms)`)
  t.same(closed, ['resources'])
  const text = await events
  t.notMatch(text, /event: done/, 'the stream was cut')
})
