import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { FeedbackBody, FeedbackResponse, WidgetHeaders, bodyErrors, chatErrors, errorResponses, idempotencyErrors, widgetErrors } from '@chatsearch/contracts'
import { ApiError, inTransaction } from '@chatsearch/shell'
import { rateMessage } from '../store/feedback.js'

/** A customer rates an assistant reply (issue 29): kept with the message for the project's team. */
export async function feedbackRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post('/feedback', {
    config: { rateLimit: 'chat_write', idempotency: {}, widgetKey: true },
    schema: {
      operationId: 'feedback',
      tags: ['chat'],
      summary: 'Rate an assistant message up or down, with an optional comment',
      description: 'One rating per message: a second replaces the first, comment included (a rating sent without a comment leaves none). Only the assistant\'s messages (a team member\'s answers included) can be rated: a customer\'s own message, an unknown msg_id or one of another chat is 404 `message_not_found`; an unknown chat, or one of another project, 404 `chat_not_found`. The project\'s team sees the rating with the message in the console\'s transcript, and the counts in its analytics. With a publishable widget key, only a chat of its consumer: another consumer\'s is 404 `chat_not_found`.',
      headers: WidgetHeaders,
      body: FeedbackBody,
      response: { 200: FeedbackResponse, ...errorResponses(...bodyErrors, ...chatErrors.feedback, ...idempotencyErrors, ...widgetErrors) }
    }
  }, async (request) => {
    const { chat_id: chatId, msg_id: msgId, rating, comment } = request.body
    const { projectId, consumerId } = request.principal
    const said = comment !== undefined && /\S/.test(comment) ? comment : null
    // The project's webhooks are told of the rating (feedback.created) in its transaction.
    const stored = await inTransaction(app.pg, async (client) => {
      const rated = await rateMessage(client, { projectId, chatId, msgId, consumerId }, rating, said)
      if (typeof rated === 'object') {
        await app.webhooks.emit(projectId, 'feedback.created', {
          chat_id: chatId, msg_id: msgId, ...rated, ...(consumerId === undefined ? {} : { consumer_id: consumerId })
        }, client)
      }
      return rated
    })
    if (stored === 'no_chat') throw new ApiError('chat_not_found', `chat ${chatId} does not exist`)
    if (stored === 'no_message') throw new ApiError('message_not_found', `chat ${chatId} has no assistant message ${msgId}`)
    app.webhooks.wake()
    return { chat_id: chatId, msg_id: msgId, ...stored }
  })
}
