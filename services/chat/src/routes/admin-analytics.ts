import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AdminHeaders, AnalyticsQuery, ChatAnalyticsResponse, analyticsDaysDefault, chatErrors, errorResponses } from '@chatsearch/contracts'
import { integerQuery } from '@chatsearch/shell'
import { chatAnalytics } from '../store/analytics.js'

export async function adminAnalyticsRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get('/admin/analytics', {
    config: { rateLimit: 'admin' },
    preValidation: integerQuery('days'),
    schema: {
      operationId: 'adminChatAnalytics',
      tags: ['admin'],
      summary: 'Chats and messages per day, user messages by class, the handoff rate and the replies rated up and down over the last days',
      description: 'Service token only (`Authorization: Bearer <SERVICE_TOKEN>` and `X-Project-Id`). Days are UTC days, today included; test chats are left out.',
      querystring: AnalyticsQuery,
      headers: AdminHeaders,
      response: { 200: ChatAnalyticsResponse, ...errorResponses(...chatErrors.adminChatAnalytics) }
    }
  }, async (request) => await chatAnalytics(app.pg, request.principal.projectId, request.query.days ?? analyticsDaysDefault))
}
