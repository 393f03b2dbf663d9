import Fastify, { type FastifyInstance } from 'fastify'
import { authMigrations } from '@chatsearch/auth'
import { databasePlugin, migrate } from '@chatsearch/shell'
export { webhookReceiver as receiver } from '@chatsearch/testkit/webhook-receiver'
import { WEBHOOK_DEFAULTS, webhookMigrations, webhooksPlugin, type WebhooksOptions } from '../src/index.js'

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
