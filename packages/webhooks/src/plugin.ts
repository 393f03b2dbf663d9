import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Webhooks, type WebhooksOptions } from './webhooks.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The project's webhooks: emit events; the worker sends due deliveries (decision 18). */
    webhooks: Webhooks
  }
}

/** The tables of endpoints and deliveries (scope `webhooks`, after the auth package's: they refer to its projects). */
export const webhookMigrations = fileURLToPath(new URL('../migrations', import.meta.url))

/** Each attempt in `webhook_attempts_total{outcome}` and `webhook_attempt_duration_seconds`. */
function attemptMetrics (app: FastifyInstance): NonNullable<WebhooksOptions['onAttempt']> {
  const attempts = app.metrics.counter({ name: 'webhook_attempts_total', help: 'Webhook delivery attempts by outcome: delivered, retrying (failed, due again), failed (for good)', labelNames: ['outcome'] })
  const duration = app.metrics.histogram({ name: 'webhook_attempt_duration_seconds', help: 'How long webhook delivery attempts took, answer or failure', buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] })
  return (outcome, seconds) => {
    attempts.inc({ outcome })
    duration.observe(seconds)
  }
}

/** Webhooks on the app's pool; the worker starts with the app and stops when it closes. */
export const webhooksPlugin = fp<WebhooksOptions>(async (app, options) => {
  const webhooks = new Webhooks(app.pg, app.log, { ...options, ...(app.hasDecorator('metrics') ? { onAttempt: attemptMetrics(app) } : {}) })
  app.decorate('webhooks', webhooks)
  app.addHook('onReady', async () => { webhooks.start() })
  app.addHook('onClose', async () => { await webhooks.close() })
}, { name: '@chatsearch/webhooks', fastify: '5.x', dependencies: ['@chatsearch/database'] })
