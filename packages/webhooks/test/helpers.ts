import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Fastify, { type FastifyInstance } from 'fastify'
import { authMigrations } from '@chatsearch/auth'
import { databasePlugin, migrate } from '@chatsearch/shell'
import { WEBHOOK_DEFAULTS, webhookMigrations, webhooksPlugin, type WebhooksOptions } from '../src/index.js'

interface Teardown { teardown: (fn: () => unknown) => void }

/** A bare app with the database, the migrations and webhooks: what a service registers. */
export async function webhookApp (databaseUrl: string, options: Partial<WebhooksOptions> = {}): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(databasePlugin, { databaseUrl, poolSize: 4 })
  await migrate(app.pg, 'auth', authMigrations)
  await migrate(app.pg, 'webhooks', webhookMigrations)
  await app.register(webhooksPlugin, { ...WEBHOOK_DEFAULTS, allowPrivateNetworks: true, retryBaseMs: 50, pollMs: 50, timeoutMs: 1000, userAgent: 'test', ...options })
  await app.ready()
  return app
}

export interface Received { headers: IncomingMessage['headers'], body: string, at: number }

/** A receiver on 127.0.0.1 answering each request with `answer` (given the request's number, from 1). */
export async function receiver (t: Teardown, answer: (n: number, res: ServerResponse) => void = (_n, res) => { res.end('ok') }) {
  const received: Received[] = []
  const waiters: Array<() => void> = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      for (const w of waiters.splice(0)) w()
      answer(received.length, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  /** Waits until `count` requests came (or fails after `ms`). */
  const until = async (count: number, ms = 10_000) => {
    const deadline = Date.now() + ms
    while (received.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${received.length} of ${count} requests came within ${ms} ms`)
      await new Promise<void>((resolve) => { waiters.push(resolve); setTimeout(resolve, 50) })
    }
  }
  return { url, received, until }
}

export async function project (app: FastifyInstance, id = 'p1'): Promise<string> {
  await app.pg.query('INSERT INTO projects (id, name) VALUES ($1, $1) ON CONFLICT DO NOTHING', [id])
  return id
}

/** Polls the delivery's row until `done` holds of it. */
export async function deliveryWhen (app: FastifyInstance, pick: string, done: (row: Record<string, unknown>) => boolean, ms = 10_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + ms
  for (;;) {
    const { rows } = await app.pg.query(`SELECT * FROM webhook_deliveries WHERE ${pick} ORDER BY created_at DESC LIMIT 1`)
    if (rows[0] !== undefined && done(rows[0])) return rows[0]
    if (Date.now() > deadline) throw new Error(`delivery not as expected: ${JSON.stringify(rows[0])}`)
    await new Promise((resolve) => setTimeout(resolve, 30))
  }
}
