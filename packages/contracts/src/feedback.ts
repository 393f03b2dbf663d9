import { Type, type Static } from 'typebox'
import { limits } from './limits.js'
import { Timestamp } from './timestamp.js'

// A customer's rating of an assistant reply (issue 29): one per message, the latest replacing the
// one before, kept with the message for the project's team (the admin transcript, the analytics).

export const Rating = Type.Union([Type.Literal('up'), Type.Literal('down')], { description: 'Whether the reply helped: `up` or `down`' })
export type Rating = Static<typeof Rating>

/** A rating as stored with its message. */
export const Feedback = Type.Object({
  rating: Rating,
  comment: Type.Optional(Type.String({ description: 'What the customer wrote with the rating; absent when they wrote nothing' })),
  rated_at: Timestamp
}, { additionalProperties: false, description: 'The customer\'s rating of this reply (the latest, when they rated it again)' })
export type Feedback = Static<typeof Feedback>

export const FeedbackBody = Type.Object({
  chat_id: Type.String({ minLength: 1, maxLength: limits.idMaxChars, description: 'The conversation of the message' }),
  msg_id: Type.String({ minLength: 1, maxLength: limits.idMaxChars, description: 'An assistant message of that conversation (its `msg_id` in readConversation)' }),
  rating: Rating,
  comment: Type.Optional(Type.String({
    maxLength: limits.feedbackCommentMaxChars,
    description: `Why, in the customer's words, up to ${limits.feedbackCommentMaxChars} characters; empty or only white space is no comment`
  }))
}, { additionalProperties: false })
export type FeedbackBody = Static<typeof FeedbackBody>

export const FeedbackResponse = Type.Object({
  chat_id: Type.String(),
  msg_id: Type.String(),
  ...Feedback.properties
}, { additionalProperties: false, description: 'The rating as stored; it replaced any earlier rating of the message, comment included' })
export type FeedbackResponse = Static<typeof FeedbackResponse>
