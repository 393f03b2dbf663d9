import type { FastifyInstance, FastifyReply } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import {
  AdminChatDetail, AdminChatList, AdminChatParams, AdminChatsQuery, AdminDeleted, AdminExportQuery, AnalyticsQuery, ChatAnalyticsResponse, ConsoleAnswerBody,
  Message, NewUserMessageEvent, NewUserMessageResponse, PlaygroundBody, ProjectParams, SearchAnalyticsResponse, analyticsDaysDefault, bodyErrors,
  chatErrors, searchErrors, sessionErrorResponses, type ErrorCode
} from '@chatsearch/contracts'
import { ApiError, integerQuery } from '@chatsearch/shell'
import { forwarded, pathSegment, queryOf, type Upstream } from '../upstream.js'

const chatPath = (chatId: string) => `/admin/chats/${pathSegment(chatId)}`

const ChatPathParams = Type.Object({ ...ProjectParams.properties, ...AdminChatParams.properties })
/** What a forward to the chat service can answer besides the operation's own codes (chatErrors): the console's, and the service's rate limit. */
const forwardErrors = (...codes: ErrorCode[]) => sessionErrorResponses('project_not_found', 'rate_limited', ...codes)
const changeErrors = (...codes: ErrorCode[]) => forwardErrors(...bodyErrors, 'csrf_failed', ...codes)

/**
 * Conversations, analytics and the playground of a project: forwards to the chat service's admin
 * routes (decision 15) and, for analytics, the search service's too.
 */
export async function chatForwards (app: FastifyInstance, opts: { chat: Upstream, search: Upstream }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { chat, search } = opts

  api.get('/api/projects/:project_id/chats', {
    ...forwarded,
    schema: {
      operationId: 'listChats',
      tags: ['conversations'],
      summary: 'The project\'s chats: those waiting for a person first, then the most recently updated, a page at a time (GET /admin/chats of the chat service)',
      description: 'Test chats (the playground\'s) are listed, flagged `is_test`. Pass `next_cursor` back as `cursor`, with the same filters, for the next page.',
      params: ProjectParams,
      querystring: AdminChatsQuery,
      response: { 200: AdminChatList, ...forwardErrors(...chatErrors.adminListChats) }
    }
  }, async (request, reply) =>
    await chat.relay(request, reply, request.member.projectId, { method: 'GET', path: '/admin/chats', query: queryOf(request) }))

  api.get('/api/projects/:project_id/chats/export', {
    ...forwarded,
    schema: {
      operationId: 'exportChats',
      tags: ['conversations'],
      summary: 'Every chat passing the filters with its messages, as a JSON or CSV attachment (GET /admin/chats/export)',
      params: ProjectParams,
      querystring: AdminExportQuery,
      response: {
        200: {
          description: 'The export, as an attachment',
          content: { 'application/json': { schema: Type.Array(AdminChatDetail) }, 'text/csv': { schema: Type.String() } }
        },
        ...forwardErrors(...chatErrors.adminExportChats)
      }
    }
  }, async (request, reply) =>
    await chat.relay(request, reply, request.member.projectId, { method: 'GET', path: '/admin/chats/export', query: queryOf(request) }))

  api.get('/api/projects/:project_id/chats/:chat_id', {
    ...forwarded,
    schema: {
      operationId: 'readChat',
      tags: ['conversations'],
      summary: 'One chat: its summary and the whole conversation, with citations and authors (GET /admin/chats/{chat_id})',
      params: ChatPathParams,
      response: { 200: AdminChatDetail, ...forwardErrors(...chatErrors.adminReadChat) }
    }
  }, async (request, reply) =>
    await chat.relay(request, reply, request.member.projectId, { method: 'GET', path: chatPath(request.params.chat_id) }))

  api.delete('/api/projects/:project_id/chats/:chat_id', {
    ...forwarded,
    schema: {
      operationId: 'deleteChat',
      tags: ['conversations'],
      summary: 'Delete a chat and all its messages, for good (DELETE /admin/chats/{chat_id})',
      params: ChatPathParams,
      response: { 200: AdminDeleted, ...changeErrors(...chatErrors.adminDeleteChat) }
    }
  }, async (request, reply) =>
    await chat.relay(request, reply, request.member.projectId, { method: 'DELETE', path: chatPath(request.params.chat_id) }))

  api.post('/api/projects/:project_id/chats/:chat_id/answer', {
    schema: {
      operationId: 'answerChat',
      tags: ['conversations'],
      summary: 'Answer a chat as the signed-in user: stored as an assistant message in their name; the chat no longer needs a person (POST /admin/chats/{chat_id}/answer)',
      params: ChatPathParams,
      body: ConsoleAnswerBody,
      response: { 201: Message, ...changeErrors(...chatErrors.adminAnswerChat) }
    }
  }, async (request, reply) => {
    const { chat_id: chatId } = request.params
    return await chat.relay(request, reply, request.member.projectId, {
      method: 'POST', path: `${chatPath(chatId)}/answer`, body: { content: request.body.content, username: request.session.username }
    })
  })

  api.post('/api/projects/:project_id/playground/chat', {
    schema: {
      operationId: 'playgroundChat',
      tags: ['playground'],
      summary: 'Talk to the project\'s assistant: POST /newUserMessage as consumer `console:<username>`, a test chat left out of analytics',
      description: 'Starts a chat without `chat_id`, otherwise continues it. With `stream: true` the reply comes as server-sent events, as POST /newUserMessage with `Accept: text/event-stream` answers.',
      params: ProjectParams,
      body: PlaygroundBody,
      response: {
        200: {
          description: 'The reply: a JSON body, or with `stream: true` server-sent events ending with `done` (that same body) or `error`',
          content: { 'application/json': { schema: NewUserMessageResponse }, 'text/event-stream': { schema: NewUserMessageEvent } }
        },
        ...changeErrors(...chatErrors.newUserMessage)
      }
    }
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
    // What the services answered is sent on as it came, not re-serialised.
    serializerCompiler: forwarded.serializerCompiler,
    schema: {
      operationId: 'getAnalytics',
      tags: ['analytics'],
      summary: 'Chats, messages, classes and handoffs per day from the chat service; searches per day with their no-result, click-through and conversion rates and average click position, and the top queries, from the search service; over the last days',
      description: 'GET /admin/analytics of both services; the first refusal of either is passed on as it came.',
      params: ProjectParams,
      querystring: AnalyticsQuery,
      response: { 200: Type.Object({ chat: ChatAnalyticsResponse, search: SearchAnalyticsResponse }, { additionalProperties: false }), ...forwardErrors(...chatErrors.adminChatAnalytics, ...searchErrors.adminSearchAnalytics) }
    }
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
        // The service's own refusal, whatever its status: not one of this route's typed replies.
        return await (reply as FastifyReply).code(answer.status).send(answer.body)
      }
    }
    return { chat: chatAnswer.body as ChatAnalyticsResponse, search: searchAnswer.body as SearchAnalyticsResponse }
  })
}
