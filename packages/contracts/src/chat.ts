import { Type, type Static } from 'typebox'
import { limits } from './limits.js'
import { Citation } from './citation.js'
import { Classification, Message } from './message.js'

const ChatId = Type.String({ maxLength: limits.idMaxChars, description: 'Identifier of a conversation' })
const ConsumerId = Type.String({ minLength: 1, maxLength: limits.consumerIdMaxChars, description: 'End user of the calling application, chosen by the caller' })
const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC' })

/** Metadata of one conversation, without its messages. */
export const ChatSummary = Type.Object({
  id: Type.String(),
  created_at: Timestamp,
  last_updated_at: Timestamp,
  consumer_id: Type.String()
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
  citations: Type.Array(Citation)
}, { additionalProperties: false })
export type NewUserMessageResponse = Static<typeof NewUserMessageResponse>

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
