import { fileURLToPath } from 'node:url'
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

/** Webhooks on the app's pool; the worker starts with the app and stops when it closes. */
export const webhooksPlugin = fp<WebhooksOptions>(async (app, options) => {
  const webhooks = new Webhooks(app.pg, app.log, options)
  app.decorate('webhooks', webhooks)
  app.addHook('onReady', async () => { webhooks.start() })
  app.addHook('onClose', async () => { await webhooks.close() })
}, { name: '@chatsearch/webhooks', fastify: '5.x', dependencies: ['@chatsearch/database'] })
