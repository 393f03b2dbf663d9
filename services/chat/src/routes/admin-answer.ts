import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AdminAnswerBody, AdminAnswerParams, AdminHeaders, Message, bodyErrors, errorResponses } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { appendHumanAnswer } from '../store/chats.js'

/**
 * Routes the console calls for a project's team (decision 15). They take only the service token,
 * which names the project in X-Project-Id; a project's own chat key is refused. The gateway never
 * routes /admin/ from outside.
 */
export async function adminRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  // Before the body is validated: a project's key learns nothing from these routes but 401.
  api.addHook('onRequest', async (request) => {
    if (request.principal.keyId !== 'service') throw new ApiError('unauthorized', 'admin routes take only the service token (SERVICE_TOKEN) with the project in X-Project-Id')
  })

  api.post('/admin/chats/:chat_id/answer', {
    config: { rateLimit: 'chat_write' },
    schema: {
      operationId: 'adminAnswerChat',
      tags: ['admin'],
      summary: 'A team member answers a chat: stored as an assistant message in their name; the chat no longer needs a person',
      description: 'Service token only (`Authorization: Bearer <SERVICE_TOKEN>` and `X-Project-Id`). The shopper\'s client reads the answer in readConversation, with `author: {kind: "human", username}`; the chat\'s `needs_human` becomes false.',
      params: AdminAnswerParams,
      headers: AdminHeaders,
      body: AdminAnswerBody,
      response: { 201: Message, ...errorResponses('missing_parameters', ...bodyErrors, 'chat_not_found') }
    }
  }, async (request, reply) => {
    const { chat_id: chatId } = request.params
    const { content, username } = request.body
    const stored = await appendHumanAnswer(app.pg, request.principal.projectId, chatId, username, content)
    if (stored === undefined) throw new ApiError('chat_not_found', `chat ${chatId} does not exist`)
    const message: Message = { msg_id: stored.id, role: 'assistant', content, timestamp: stored.created_at.toISOString(), citations: [], author: { kind: 'human', username } }
    return await reply.code(201).send(message)
  })
}
