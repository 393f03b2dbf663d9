import type { FastifyInstance } from 'fastify'
import fastJson from 'fast-json-stringify'
import { Message, ReadConversationQuery, ReadConversationResponse, WidgetHeaders, chatErrors, errorResponses, widgetErrors } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { findChat } from '../store/chats.js'
import { readConversations, type ConversationKey } from '../store/messages.js'
import { readBatches } from '../store/read-batches.js'
import { streamMessages } from './message-stream.js'

const stringifyMessage = fastJson(Message)

export async function readConversationRoutes (app: FastifyInstance) {
  const readConversation = readBatches((keys: readonly ConversationKey[]) => readConversations(app.pg, keys))
  app.get<{ Querystring: ReadConversationQuery }>('/readConversation', {
    config: { rateLimit: 'chat_read', widgetKey: true },
    schema: {
      operationId: 'readConversation',
      tags: ['chat'],
      summary: 'The whole message history of one conversation, earliest first',
      description: 'With a publishable widget key, only a chat of the consumer its X-Consumer-Token (or verified X-Consumer-Id) names: another consumer\'s chat is 404 `chat_not_found`, as a missing one.',
      headers: WidgetHeaders,
      querystring: ReadConversationQuery,
      response: { 200: ReadConversationResponse, ...errorResponses(...chatErrors.readConversation, ...widgetErrors) }
    }
  }, async (request, reply) => {
    const { projectId, consumerId } = request.principal
    const chatId = request.query.chat_id
    // A caller bound to one consumer reads only its chats; another's is answered as a missing one.
    if (consumerId !== undefined && (await findChat(app.pg, projectId, chatId))?.consumer_id !== consumerId) {
      throw new ApiError('chat_not_found', `chat ${chatId} does not exist`)
    }
    // A chat is created with its first turn, so no messages means no such chat in this project;
    // another project's chat is answered exactly like a missing one, revealing nothing.
    const pages = await readConversation({ projectId, chatId })
    if (pages.first.length === 0) throw new ApiError('chat_not_found', `chat ${chatId} does not exist`)
    if (pages.complete) return pages.first
    return await reply.type('application/json; charset=utf-8').send(streamMessages(pages, stringifyMessage))
  })
}
