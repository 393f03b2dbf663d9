import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AdminAnswerBody, AdminChatParams, AdminHeaders, Message, bodyErrors, chatErrors, errorResponses } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { appendHumanAnswer } from '../store/chats.js'

/** A team member answers a chat (decision 15); registered in the admin scope (admin.ts). */
export async function adminAnswerRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post('/admin/chats/:chat_id/answer', {
    config: { rateLimit: 'admin' },
    schema: {
      operationId: 'adminAnswerChat',
      tags: ['admin'],
      summary: 'A team member answers a chat: stored as an assistant message in their name; the chat no longer needs a person',
      description: 'Service token only (`Authorization: Bearer <SERVICE_TOKEN>` and `X-Project-Id`). The shopper\'s client reads the answer in readConversation, with `author: {kind: "human", username}`; the chat\'s `needs_human` becomes false. The project\'s webhooks subscribed to `chat.answered_by_team` are told.',
      params: AdminChatParams,
      headers: AdminHeaders,
      body: AdminAnswerBody,
      response: { 201: Message, ...errorResponses(...bodyErrors, ...chatErrors.adminAnswerChat) }
    }
  }, async (request, reply) => {
    const { chat_id: chatId } = request.params
    const { content, username } = request.body
    const { projectId } = request.principal
    // The project's webhooks are told in the answer's transaction (chat.answered_by_team).
    const stored = await appendHumanAnswer(app.pg, projectId, chatId, username, content, async (client, answer) => {
      await app.webhooks.emit(projectId, 'chat.answered_by_team', {
        chat_id: chatId, consumer_id: answer.consumerId, msg_id: answer.id, username, content, answered_at: answer.created_at.toISOString()
      }, client)
    })
    if (stored === undefined) throw new ApiError('chat_not_found', `chat ${chatId} does not exist`)
    app.webhooks.wake()
    const message: Message = { msg_id: stored.id, role: 'assistant', content, timestamp: stored.created_at.toISOString(), citations: [], author: { kind: 'human', username } }
    return await reply.code(201).send(message)
  })
}
