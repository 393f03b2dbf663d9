import type { FastifyInstance } from 'fastify'
import { LatestConsumerChatIdResponse, LatestConsumerChatQuery, WidgetHeaders, chatErrors, errorResponses, widgetErrors } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { consumersChats, type ConsumerKey } from '../store/chats.js'
import { readBatches } from '../store/read-batches.js'

export async function latestConsumerChatRoutes (app: FastifyInstance) {
  const latestChat = readBatches(async (keys: readonly ConsumerKey[]) => (await consumersChats(app.pg, keys, 1)).map((chats) => chats[0]))
  app.get<{ Querystring: LatestConsumerChatQuery }>('/latestConsumerChatId', {
    config: { rateLimit: 'chat_read', widgetKey: true },
    schema: {
      operationId: 'latestConsumerChatId',
      tags: ['chat'],
      summary: 'The most recently updated chat of a consumer',
      description: 'consumer_id is required with an API key; with a publishable widget key the consumer is its X-Consumer-Token\'s (or the verified X-Consumer-Id\'s), and consumer_id is ignored.',
      headers: WidgetHeaders,
      querystring: LatestConsumerChatQuery,
      response: { 200: LatestConsumerChatIdResponse, ...errorResponses(...chatErrors.latestConsumerChatId, ...widgetErrors) }
    }
  }, async (request): Promise<LatestConsumerChatIdResponse> => {
    const consumerId = request.principal.consumerId ?? request.query.consumer_id
    if (consumerId === undefined) throw new ApiError('missing_parameters', 'querystring must have required property \'consumer_id\'')
    const chat = await latestChat({ projectId: request.principal.projectId, consumerId })
    if (chat === undefined) return { chat_id: null, message: `no chats found for consumer ${consumerId}` }
    return { chat_id: chat.id, last_updated_at: chat.last_updated_at }
  })
}
