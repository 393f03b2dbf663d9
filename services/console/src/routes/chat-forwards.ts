import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AnalyticsQuery, ConsoleAnswerBody, PlaygroundBody, analyticsDaysDefault } from '@chatsearch/contracts'
import { ApiError, integerQuery } from '@chatsearch/shell'
import { queryOf, type Upstream } from '../upstream.js'

const chatPath = (chatId: string) => `/admin/chats/${encodeURIComponent(chatId)}`

/**
 * Conversations, analytics and the playground of a project: forwards to the chat service's admin
 * routes (decision 15) and, for analytics, the search service's too.
 */
export async function chatForwards (app: FastifyInstance, opts: { chat: Upstream, search: Upstream }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { chat, search } = opts
  type ChatParams = { project_id: string, chat_id: string }

  api.get('/api/projects/:project_id/chats', async (request, reply) =>
    await chat.relay(request, reply, request.member.projectId, { method: 'GET', path: '/admin/chats', query: queryOf(request) }))

  api.get('/api/projects/:project_id/chats/export', async (request, reply) =>
    await chat.relay(request, reply, request.member.projectId, { method: 'GET', path: '/admin/chats/export', query: queryOf(request) }))

  api.get<{ Params: ChatParams }>('/api/projects/:project_id/chats/:chat_id', async (request, reply) =>
    await chat.relay(request, reply, request.member.projectId, { method: 'GET', path: chatPath(request.params.chat_id) }))

  api.delete<{ Params: ChatParams }>('/api/projects/:project_id/chats/:chat_id', async (request, reply) =>
    await chat.relay(request, reply, request.member.projectId, { method: 'DELETE', path: chatPath(request.params.chat_id) }))

  api.post('/api/projects/:project_id/chats/:chat_id/answer', {
    schema: { body: ConsoleAnswerBody }
  }, async (request, reply) => {
    const { chat_id: chatId } = request.params as ChatParams
    return await chat.relay(request, reply, request.member.projectId, {
      method: 'POST', path: `${chatPath(chatId)}/answer`, body: { content: request.body.content, username: request.session.username }
    })
  })

  api.post('/api/projects/:project_id/playground/chat', {
    schema: { body: PlaygroundBody }
  }, async (request, reply) => {
    const { user_message: userMessage, chat_id: chatId, stream } = request.body
    return await chat.relay(request, reply, request.member.projectId, {
      method: 'POST',
      path: '/newUserMessage',
      body: { user_message: userMessage, ...(chatId === undefined ? {} : { chat_id: chatId }), consumer_id: `console:${request.session.username}`, test: true },
      headers: { accept: stream === true ? 'text/event-stream' : 'application/json' }
    })
  })

  api.get('/api/projects/:project_id/analytics', {
    preValidation: integerQuery('days'),
    schema: { querystring: AnalyticsQuery }
  }, async (request, reply) => {
    const days = request.query.days ?? analyticsDaysDefault
    const call = { method: 'GET', path: '/admin/analytics', query: new URLSearchParams({ days: String(days) }).toString() }
    const [chatAnswer, searchAnswer] = await Promise.all([
      chat.json(request, request.member.projectId, call),
      search.json(request, request.member.projectId, call)
    ])
    // The first refusal is passed on as it came (a bad `days` is refused by both alike).
    for (const answer of [chatAnswer, searchAnswer]) {
      if (answer.status !== 200) {
        const retry = answer.headers.get('retry-after')
        if (retry !== null) reply.header('retry-after', retry)
        if (answer.body === null) throw new ApiError('service_unavailable', 'analytics are unavailable; try again shortly')
        return await reply.code(answer.status).send(answer.body)
      }
    }
    return { chat: chatAnswer.body, search: searchAnswer.body }
  })
}
