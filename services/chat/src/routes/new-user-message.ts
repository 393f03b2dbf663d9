import type { OutgoingHttpHeaders } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { NewUserMessageBody, NewUserMessageEvent, NewUserMessageResponse, WidgetHeaders, bodyErrors, chatErrors, errorResponses, idempotencyErrors, widgetErrors, type Message } from '@chatsearch/contracts'
import { ApiError, errorBodyOf, wantsStream } from '@chatsearch/shell'
import type { AnswerOptions, Assistant, AssistantAnswer } from '../assistant/assistant.js'
import { appendTurn, createChatWithTurn, findChat, type StoredTurn, type Turn, type WithinTransaction } from '../store/chats.js'
import { recentMessages } from '../store/messages.js'
import { KeyedLock } from '../keyed-lock.js'

export interface NewUserMessageOptions {
  assistant: Assistant
  historyTurns: number
}

/** The reply's body; with a widget key, the token of the browser's consumer to send back next time. */
const response = (chatId: string, answer: AssistantAnswer, consumerToken: string | undefined): NewUserMessageResponse => ({
  assistant_response: answer.reply,
  chat_id: chatId,
  classification: answer.classification,
  citations: answer.citations,
  handoff: answer.handoff,
  ...(consumerToken === undefined ? {} : { consumer_token: consumerToken })
})

/** The turn to store: the reply with why it went that way (the response above leaves the decision out). */
const turnOf = (userMessage: string, answer: AssistantAnswer, startedAt: Date, test: boolean): Turn => ({
  userMessage, classification: answer.classification, reply: answer.reply, citations: answer.citations, startedAt, test, handoff: answer.handoff, decision: answer.decision
})

/**
 * Server-sent events: `delta` events ({"text": …}) as the reply is produced, `reset` when a failed
 * model's partial reply is replaced by the grounded responder's, then one `done` event holding
 * exactly the JSON body of the non-streamed response (or `error` with the error body).
 *
 * A turn is stored when its reply is complete, whether or not the client is still reading it: the
 * shopper who closed the window finds the answer in the conversation, and a retry with the same
 * Idempotency-Key gets it instead of a second turn. A client that disconnects before the reply is
 * complete (during retrieval, or while a model is still writing) stops the work, and nothing is
 * stored. The rule is the same for the model and the grounded responder; only the grounded reply is
 * complete the moment retrieval ends, so a disconnect during its deltas finds it already stored.
 */
async function streamTurn (
  request: FastifyRequest,
  reply: FastifyReply,
  produce: (opts: AnswerOptions) => Promise<AssistantAnswer>,
  store: (answer: AssistantAnswer) => Promise<string>
) {
  const gone = new AbortController()
  reply.raw.on('close', () => { if (!reply.raw.writableFinished) gone.abort() })
  reply.hijack()
  reply.raw.writeHead(200, {
    // Headers set before the handler (RateLimit-*) go out with the stream too.
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'x-request-id': request.id,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    // nginx and other proxies must pass each event on as it comes.
    'x-accel-buffering': 'no'
  })
  const send = (event: string, data: unknown) => { if (!gone.signal.aborted) reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`) }
  let stored = false
  try {
    const answer = await produce({ onDelta: (text) => send('delta', { text }), onReset: () => send('reset', {}), signal: gone.signal })
    const body = response(await store(answer), answer, request.principal.consumerToken)
    stored = true
    // The turn is stored: a retry with the same Idempotency-Key gets this reply, not a new turn.
    await request.idempotency?.complete({ status: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) })
    send('done', body)
  } catch (err) {
    if (gone.signal.aborted && !stored) return
    const body = errorBodyOf(err)
    if (body.statusCode >= 500) request.log.error({ err }, 'streamed turn failed')
    send('error', body)
  } finally {
    if (gone.signal.aborted) {
      request.log.info(stored
        ? 'client disconnected during a streamed reply; the complete reply is stored'
        : 'client disconnected before the reply was complete; nothing stored')
    }
    reply.raw.end()
  }
}

/**
 * A handed-off turn's `chat.handoff` event, written in the turn's transaction: the project's team is
 * told of every handoff that is stored, and of none that is not.
 */
function handoffEvent (app: FastifyInstance, projectId: string, message: string, answer: AssistantAnswer, test: boolean): WithinTransaction<StoredTurn> | undefined {
  if (!answer.handoff) return undefined
  return async (client, stored) => {
    await app.webhooks.emit(projectId, 'chat.handoff', {
      chat_id: stored.chatId,
      consumer_id: stored.consumerId,
      msg_id: stored.replyMsgId,
      reason: answer.decision?.handoff_reason ?? null,
      classification: answer.classification,
      user_message: message,
      assistant_response: answer.reply,
      test
    }, client)
  }
}

export async function newUserMessageRoutes (app: FastifyInstance, opts: NewUserMessageOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const turns = new KeyedLock()
  app.metrics.gauge({
    name: 'chat_turns_waiting',
    help: 'Turns waiting in this process for an earlier turn of the same chat to finish',
    collect () { this.set(turns.waiting) }
  })

  api.post('/newUserMessage', {
    config: { rateLimit: 'chat_write', idempotency: { stream: true }, widgetKey: true },
    schema: {
      operationId: 'newUserMessage',
      tags: ['chat'],
      summary: 'Send a user message and receive the assistant reply',
      description: 'Starts a conversation when chat_id is omitted or empty (consumer_id is then required), otherwise continues it. With `Accept: text/event-stream` the reply is streamed as server-sent events as it is produced. A publishable widget key (`csk_pub_…`) may call it from its allowed origins: the consumer is then its X-Consumer-Token\'s (or the verified X-Consumer-Id\'s, or a new one), whatever `consumer_id` says, another consumer\'s chat_id is 404, and the reply carries `consumer_token`.',
      headers: WidgetHeaders,
      body: NewUserMessageBody,
      response: {
        200: {
          description: 'The reply: a JSON body, or with `Accept: text/event-stream` server-sent events ending with `done` (that same body) or `error`',
          content: { 'application/json': { schema: NewUserMessageResponse }, 'text/event-stream': { schema: NewUserMessageEvent } }
        },
        ...errorResponses(...bodyErrors, ...chatErrors.newUserMessage, ...idempotencyErrors, ...widgetErrors)
      }
    }
  }, async (request, reply) => {
    const { user_message: message, chat_id: chatId } = request.body
    // A caller bound to one consumer (a widget key's browser) acts for it, whatever the body says,
    // and cannot leave its chats out of the shop's analytics as test chats.
    const { projectId, consumerId: bound, consumerToken } = request.principal
    const consumerId = bound ?? request.body.consumer_id
    const test = bound === undefined && request.body.test === true
    const startedAt = new Date()
    const stream = wantsStream(request)

    /** Answers with the history given, stores the turn with `store`, and replies (streamed or not). */
    const turn = async (history: Message[], store: (answer: AssistantAnswer) => Promise<string>) => {
      if (stream) {
        await streamTurn(request, reply, (o) => opts.assistant.answer(projectId, message, history, { ...o, requestId: request.id }), store)
        return reply
      }
      const answer = await opts.assistant.answer(projectId, message, history, { requestId: request.id })
      return response(await store(answer), answer, consumerToken)
    }

    if (chatId === undefined || chatId === '') {
      if (consumerId === undefined) throw new ApiError('missing_parameters', 'consumer_id is required when chat_id is not given')
      return await turn([], async (answer) => {
        const created = await createChatWithTurn(app.pg, projectId, consumerId, turnOf(message, answer, startedAt, test), handoffEvent(app, projectId, message, answer, test))
        if (answer.handoff) app.webhooks.wake()
        return created
      })
    }

    return await turns.run(`${projectId}\n${chatId}`, async () => {
      // Both at once: a chat that is not there has no messages either, and is refused below.
      const [chat, history] = await Promise.all([
        findChat(app.pg, projectId, chatId),
        recentMessages(app.pg, projectId, chatId, opts.historyTurns * 2)
      ])
      // A consumer_id that is not the chat's own means the caller has the wrong chat: same answer as missing.
      if (chat === undefined || (consumerId !== undefined && chat.consumer_id !== consumerId)) {
        // The consumer id stays out of the message: it is the caller's end-user identifier, and rejections are logged.
        throw new ApiError('chat_not_found', `chat ${chatId} does not exist${consumerId === undefined ? '' : ' for this consumer_id'}`)
      }
      return await turn(history, async (answer) => {
        const stored = await appendTurn(app.pg, projectId, chatId, turnOf(message, answer, startedAt, test), handoffEvent(app, projectId, message, answer, test))
        if (!stored) throw new ApiError('chat_not_found', `chat ${chatId} does not exist`)
        if (answer.handoff) app.webhooks.wake()
        return chatId
      })
    })
  })
}
