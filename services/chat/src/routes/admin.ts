import type { FastifyInstance } from 'fastify'
import { serviceTokenOnly } from '@chatsearch/auth'
import { webhookAdminRoutes } from '@chatsearch/webhooks'
import { adminAnswerRoutes } from './admin-answer.js'
import { adminChatRoutes } from './admin-chats.js'
import { adminAnalyticsRoutes } from './admin-analytics.js'

/**
 * Routes the console calls for a project's team (decision 15), in a scope of their own whose hook
 * refuses anything but the service token; the gateway never routes /admin/ from outside. Each
 * counts against the `admin` rate limit (RATE_LIMIT_ADMIN), not the public routes' limits.
 */
export async function adminRoutes (app: FastifyInstance) {
  app.addHook('onRequest', serviceTokenOnly)
  await app.register(adminAnswerRoutes)
  await app.register(adminChatRoutes)
  await app.register(adminAnalyticsRoutes)
  await app.register(webhookAdminRoutes, { projectOf: (request) => request.principal.projectId })
}
