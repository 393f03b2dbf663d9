import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { ClickEventsBody, ClickEventsResponse, bodyErrors, errorResponses, idempotencyErrors, limits, searchErrors } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { recordClicks, unknownQueries } from '../clicks.js'

/**
 * What shoppers did with search answers, sent by the shop's own clients: clicks on hits and the
 * conversions that followed, for the console's analytics. Counted against the `search` rate limit,
 * as the searches they follow.
 */
export async function eventRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post('/events', {
    config: { rateLimit: 'search', idempotency: {} },
    schema: {
      operationId: 'recordEvents',
      tags: ['search'],
      summary: 'Record clicks on search hits and conversions after a search, for the analytics',
      description: `One event or a list of them (at most ${limits.clickEventsMax}), each naming the query_id of a ` +
        'POST /search answer made with a credential of this project. All are recorded, or none: one unknown query_id ' +
        '(another project\'s, one made with the service token, or none at all) refuses the list with 404 query_not_found. ' +
        'An event may follow its search at once, whichever replica answered it; only a refusal waits (about 1.5 s). ' +
        'The console\'s analytics count them per day of the search: click-through rate, average click position, conversion rate.',
      body: ClickEventsBody,
      response: { 200: ClickEventsResponse, ...errorResponses(...bodyErrors, ...searchErrors.recordEvents, ...idempotencyErrors) }
    }
  }, async (request): Promise<ClickEventsResponse> => {
    const events = Array.isArray(request.body) ? request.body : [request.body]
    const { projectId } = request.principal
    const unknown = await unknownQueries(app.pg, app.analytics, projectId, events.map((e) => e.query_id))
    const refused = events.findIndex((e) => unknown.has(e.query_id))
    if (refused !== -1) {
      const where = Array.isArray(request.body) ? `event ${refused + 1} of ${events.length}: ` : ''
      throw new ApiError('query_not_found', `${where}no search of this project answered with query_id ${events[refused]!.query_id}; nothing was recorded`)
    }
    await recordClicks(app.pg, projectId, events, new Date())
    return { recorded: events.length }
  })
}
