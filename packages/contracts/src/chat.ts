import { Type, type Static, type TSchema } from 'typebox'
import { limits } from './limits.js'
import { Citation } from './citation.js'
import { Classification, Message } from './message.js'
import { errorBodySchema } from './error.js'
import { Timestamp } from './timestamp.js'

const ChatId = Type.String({ maxLength: limits.idMaxChars, description: 'Identifier of a conversation' })
const ConsumerId = Type.String({ minLength: 1, maxLength: limits.consumerIdMaxChars, description: 'End user of the calling application, chosen by the caller' })

/** Metadata of one conversation, without its messages. */
export const ChatSummary = Type.Object({
  id: Type.String(),
  created_at: Timestamp,
  last_updated_at: Timestamp,
  consumer_id: Type.String(),
  needs_human: Type.Boolean({ description: 'A turn was handed off to the project\'s team and no team member has answered since' })
}, { additionalProperties: false })
export type ChatSummary = Static<typeof ChatSummary>

export const NewUserMessageBody = Type.Object({
  user_message: Type.String({
    minLength: 1,
    maxLength: limits.userMessageMaxChars,
    pattern: '\\S',
    description: 'Message text; must hold a non-space character'
  }),
  chat_id: Type.Optional(ChatId),
  consumer_id: Type.Optional(ConsumerId),
  test: Type.Optional(Type.Boolean({ description: 'Flags the chat as a test chat, left out of usage counts and analytics' }))
}, { additionalProperties: false })
export type NewUserMessageBody = Static<typeof NewUserMessageBody>

export const NewUserMessageResponse = Type.Object({
  assistant_response: Type.String(),
  chat_id: Type.String(),
  classification: Classification,
  citations: Type.Array(Citation),
  handoff: Type.Boolean({ description: 'The assistant could not help and the chat is flagged for the project\'s team (needs_human), which answers it from the console' }),
  consumer_token: Type.Optional(Type.String({ description: 'With a publishable widget key only: the signed token naming this browser\'s consumer (a new one when the request sent none). Keep it and send it back in X-Consumer-Token: the consumer is the token\'s, whatever a body or query says.' }))
}, { additionalProperties: false })
export type NewUserMessageResponse = Static<typeof NewUserMessageResponse>

const event = (name: string, data: TSchema, description: string) =>
  Type.Object({ event: Type.Literal(name), data }, { additionalProperties: false, description })

/**
 * One server-sent event of a streamed reply (`Accept: text/event-stream`): its `event:` name and
 * the JSON of its `data:` line. `done` or `error` ends the stream.
 */
export const NewUserMessageEvent = Type.Union([
  event('delta', Type.Object({ text: Type.String() }, { additionalProperties: false }), 'The next piece of the reply'),
  event('reset', Type.Object({}, { additionalProperties: false }), 'Discard the pieces received so far: a language model failed mid-reply and the grounded responder\'s reply follows instead'),
  event('done', NewUserMessageResponse, 'The last event of a reply: exactly the JSON body of the non-streamed response, sent once the turn is stored'),
  event('error', errorBodySchema(['chat_not_found', 'internal_error', 'service_unavailable']), 'The last event when the turn failed after the stream began: the error body')
], {
  description: 'With `Accept: text/event-stream` the reply comes as server-sent events, each written as `event: <name>` and `data: <JSON>` lines and a blank line; this schema describes one event. Errors found before the stream begins (401, 404, 429, …) are answered as JSON with their status. A request replayed by its Idempotency-Key gets one `done` event.'
})

export const ReadConversationQuery = Type.Object({
  chat_id: Type.String({ minLength: 1, maxLength: limits.idMaxChars })
})
export type ReadConversationQuery = Static<typeof ReadConversationQuery>

export const ReadConversationResponse = Type.Array(Message)
export type ReadConversationResponse = Static<typeof ReadConversationResponse>

export const ListAllProjectChatsResponse = Type.Object({
  chats: Type.Array(ChatSummary)
}, { additionalProperties: false })
export type ListAllProjectChatsResponse = Static<typeof ListAllProjectChatsResponse>

export const ConsumerQuery = Type.Object({
  consumer_id: ConsumerId
})
export type ConsumerQuery = Static<typeof ConsumerQuery>

/** GET /latestConsumerChatId: a widget key's consumer is its token's, so it sends no consumer_id. */
export const LatestConsumerChatQuery = Type.Object({
  consumer_id: Type.Optional(Type.String({ ...ConsumerId, description: 'Consumer whose latest chat is wanted: required with an API key; ignored with a widget key, whose consumer is its token\'s' }))
})
export type LatestConsumerChatQuery = Static<typeof LatestConsumerChatQuery>

export const ListAllProjectConsumerChatsResponse = Type.Object({
  chats: Type.Array(ChatSummary),
  consumer_id: Type.String(),
  total_count: Type.Integer({ minimum: 0 })
}, { additionalProperties: false })
export type ListAllProjectConsumerChatsResponse = Static<typeof ListAllProjectConsumerChatsResponse>

export const LatestConsumerChatIdResponse = Type.Object({
  chat_id: Type.Union([Type.String(), Type.Null()], { description: 'null when the consumer has no chats' }),
  last_updated_at: Type.Optional(Timestamp),
  message: Type.Optional(Type.String())
}, { additionalProperties: false })
export type LatestConsumerChatIdResponse = Static<typeof LatestConsumerChatIdResponse>
