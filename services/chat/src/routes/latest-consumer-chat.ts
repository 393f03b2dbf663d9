import type { FastifyInstance } from 'fastify'
import { ConsumerQuery, LatestConsumerChatIdResponse, chatErrors, errorResponses } from '@chatsearch/contracts'
import { consumersChats, type ConsumerKey } from '../store/chats.js'
import { readBatches } from '../store/read-batches.js'

export async function latestConsumerChatRoutes (app: FastifyInstance) {
  const latestChat = readBatches(async (keys: readonly ConsumerKey[]) => (await consumersChats(app.pg, keys, 1)).map((chats) => chats[0]))
  app.get<{ Querystring: ConsumerQuery }>('/latestConsumerChatId', {
    config: { rateLimit: 'chat_read' },
    schema: {
      operationId: 'latestConsumerChatId',
      tags: ['chat'],
      summary: 'The most recently updated chat of a consumer',
      querystring: ConsumerQuery,
      response: { 200: LatestConsumerChatIdResponse, ...errorResponses(...chatErrors.latestConsumerChatId) }
    }
  }, async (request): Promise<LatestConsumerChatIdResponse> => {
    const consumerId = request.query.consumer_id
    const chat = await latestChat({ projectId: request.principal.projectId, consumerId })
    if (chat === undefined) return { chat_id: null, message: `no chats found for consumer ${consumerId}` }
    return { chat_id: chat.id, last_updated_at: chat.last_updated_at }
  })
}
