import type { FastifyInstance } from 'fastify'
import { ReadConversationQuery, ReadConversationResponse, chatErrors, errorResponses } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { readConversations, type ConversationKey } from '../store/messages.js'
import { readBatches } from '../store/read-batches.js'

export async function readConversationRoutes (app: FastifyInstance) {
  const readConversation = readBatches((keys: readonly ConversationKey[]) => readConversations(app.pg, keys))
  app.get<{ Querystring: ReadConversationQuery }>('/readConversation', {
    config: { rateLimit: 'chat_read' },
    schema: {
      operationId: 'readConversation',
      tags: ['chat'],
      summary: 'The whole message history of one conversation, earliest first',
      querystring: ReadConversationQuery,
      response: { 200: ReadConversationResponse, ...errorResponses(...chatErrors.readConversation) }
    }
  }, async (request) => {
    const { projectId } = request.principal
    const chatId = request.query.chat_id
    // A chat is created with its first turn, so no messages means no such chat in this project;
    // another project's chat is answered exactly like a missing one, revealing nothing.
    const messages = await readConversation({ projectId, chatId })
    if (messages.length === 0) throw new ApiError('chat_not_found', `chat ${chatId} does not exist`)
    return messages
  })
}
