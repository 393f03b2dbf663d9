import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { serviceTokenOnly } from '@chatsearch/auth'
import { AdminHeaders, AnalyticsQuery, SearchAnalyticsResponse, analyticsDaysDefault, errorResponses, searchErrors } from '@chatsearch/contracts'
import { integerQuery } from '@chatsearch/shell'
import { searchAnalytics } from '../analytics.js'

/**
 * Routes the console calls for a project's team (decision 15), in a scope of their own whose hook
 * refuses anything but the service token; the gateway never routes /admin/ from outside. They
 * count against the `admin` rate limit (RATE_LIMIT_ADMIN).
 */
export async function adminRoutes (app: FastifyInstance) {
  app.addHook('onRequest', serviceTokenOnly)
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get('/admin/analytics', {
    config: { rateLimit: 'admin' },
    preValidation: integerQuery('days'),
    schema: {
      operationId: 'adminSearchAnalytics',
      tags: ['admin'],
      summary: 'Searches and autocompletes per day with their no-result, click-through and conversion rates and average click position, the most frequent queries and those that found nothing, over the last days',
      description: 'Service token only (`Authorization: Bearer <SERVICE_TOKEN>` and `X-Project-Id`). Days are UTC days, today included. ' +
        'A day\'s rates are those of the searches made that day, with the events (POST /events) that named them, whenever they came.',
      querystring: AnalyticsQuery,
      headers: AdminHeaders,
      response: { 200: SearchAnalyticsResponse, ...errorResponses(...searchErrors.adminSearchAnalytics) }
    }
  }, async (request) => {
    // This replica's searches of the last second are written first, so the report includes them.
    await app.analytics.flush()
    return await searchAnalytics(app.pg, request.principal.projectId, request.query.days ?? analyticsDaysDefault)
  })
}
