import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

interface Teardown { teardown: (fn: () => unknown) => void }

/** A request the receiver got: its headers, its raw body (to check a signature on), and when. */
export interface Received { headers: IncomingMessage['headers'], body: string, at: number }

export interface WebhookReceiver {
  /** http://127.0.0.1:<port>/hook */
  url: string
  received: Received[]
  /** Waits until `count` requests came; throws after `ms`. */
  until: (count: number, ms?: number) => Promise<void>
}

/**
 * An HTTP server on 127.0.0.1 standing for a project's webhook endpoint: it keeps every request and
 * answers each with `answer` (given the request's number, from 1; by default 200 "ok"). Closed when
 * the test ends.
 */
export async function webhookReceiver (t: Teardown, answer: (n: number, res: ServerResponse) => void = (_n, res) => { res.end('ok') }): Promise<WebhookReceiver> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      answer(received.length, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  const until = async (count: number, ms = 10_000) => {
    const deadline = Date.now() + ms
    while (received.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${received.length} of ${count} webhook requests came within ${ms} ms`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, until }
}
