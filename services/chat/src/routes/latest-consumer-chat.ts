import type { FastifyInstance } from 'fastify'
import { ConsumerQuery, LatestConsumerChatIdResponse, errorResponses } from '@chatsearch/contracts'
import { latestConsumerChat } from '../store/chats.js'

export async function latestConsumerChatRoutes (app: FastifyInstance) {
  app.get<{ Querystring: ConsumerQuery }>('/latestConsumerChatId', {
    config: { rateLimit: 'chat_read' },
    schema: {
      operationId: 'latestConsumerChatId',
      tags: ['chat'],
      summary: 'The most recently updated chat of a consumer',
      querystring: ConsumerQuery,
      response: { 200: LatestConsumerChatIdResponse, ...errorResponses('missing_parameters') }
    }
  }, async (request): Promise<LatestConsumerChatIdResponse> => {
    const consumerId = request.query.consumer_id
    const chat = await latestConsumerChat(app.pg, request.principal.projectId, consumerId)
    if (chat === undefined) return { chat_id: null, message: `no chats found for consumer ${consumerId}` }
    return { chat_id: chat.id, last_updated_at: chat.last_updated_at }
  })
}
