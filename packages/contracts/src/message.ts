import { Type, type Static } from 'typebox'
import { Citation } from './citation.js'
import { Timestamp } from './timestamp.js'

export const Classification = Type.Union([
  Type.Literal('question'),
  Type.Literal('request'),
  Type.Literal('greeting'),
  Type.Literal('complaint'),
  Type.Literal('feedback'),
  Type.Literal('other')
], { description: 'Kind of user message' })
export type Classification = Static<typeof Classification>
export const classifications: readonly Classification[] = ['question', 'request', 'greeting', 'complaint', 'feedback', 'other']

export const Role = Type.Union([Type.Literal('user'), Type.Literal('assistant')])
export type Role = Static<typeof Role>

/** Who wrote an assistant message: the assistant, or a member of the project's team (spec/knowledge.md, handoff). */
export const Author = Type.Union([
  Type.Object({ kind: Type.Literal('assistant') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('human'), username: Type.String() }, { additionalProperties: false })
])
export type Author = Static<typeof Author>

/** One message of a conversation; user messages carry a classification, assistant messages citations and their author. */
export const Message = Type.Object({
  msg_id: Type.String(),
  role: Role,
  content: Type.String(),
  timestamp: Timestamp,
  classification: Type.Optional(Classification),
  citations: Type.Optional(Type.Array(Citation)),
  author: Type.Optional(Author)
}, { additionalProperties: false })
export type Message = Static<typeof Message>
