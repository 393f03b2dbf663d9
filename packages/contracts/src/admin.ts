import { Type, type Static } from 'typebox'
import { limits } from './limits.js'
import { Classification, Message } from './message.js'
import { TurnDecision } from './decision.js'
import { Feedback } from './feedback.js'
import { Timestamp, timestampOf } from './timestamp.js'

// The admin routes of both services (decision 15): what the console calls with the service token
// and X-Project-Id. The gateway never routes /admin/ from outside.

/** What the service token of an admin route sends beside `Authorization`: the project it acts for. */
export const AdminHeaders = Type.Object({
  'x-project-id': Type.String({ description: 'The project the service token acts for' })
})

/** A chat named in an admin route's path. */
export const AdminChatParams = Type.Object({
  chat_id: Type.String({ minLength: 1, maxLength: limits.idMaxChars })
})
export type AdminChatParams = Static<typeof AdminChatParams>

/** A team member's answer to a chat (POST /admin/chats/{chat_id}/answer). */
export const AdminAnswerBody = Type.Object({
  content: Type.String({ minLength: 1, maxLength: limits.userMessageMaxChars, pattern: '\\S', description: 'The answer as the shopper will read it' }),
  username: Type.String({ minLength: 1, maxLength: limits.idMaxChars, pattern: '\\S', description: 'The team member who answers, shown as the message\'s author' })
}, { additionalProperties: false })
export type AdminAnswerBody = Static<typeof AdminAnswerBody>

/** The filters of the console's chat listing and of its export. */
const chatFilters = {
  consumer_id: Type.Optional(Type.String({ minLength: 1, maxLength: limits.consumerIdMaxChars, description: 'Only this consumer\'s chats' })),
  classification: Type.Optional(Classification),
  needs_human: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'Only chats that wait for a person (`true`) or that do not (`false`)' })),
  from: Type.Optional(timestampOf('Only chats last updated at or after this instant (ISO 8601)')),
  to: Type.Optional(timestampOf('Only chats last updated before this instant (ISO 8601)'))
}

export const adminChatsLimitDefault = 50
export const adminChatsLimitMax = 200

export const AdminChatsQuery = Type.Object({
  ...chatFilters,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: adminChatsLimitMax, default: adminChatsLimitDefault, description: 'Chats per page' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'The `next_cursor` of the previous page, with the same filters' }))
}, { additionalProperties: false })
export type AdminChatsQuery = Static<typeof AdminChatsQuery>

export const AdminExportQuery = Type.Object({
  ...chatFilters,
  format: Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: '`json`: an array of `{chat, messages}`; `csv`: one row per message' })
}, { additionalProperties: false })
export type AdminExportQuery = Static<typeof AdminExportQuery>

/** One chat as the console lists it. */
export const AdminChatSummary = Type.Object({
  chat_id: Type.String(),
  consumer_id: Type.String(),
  created_at: Timestamp,
  last_updated_at: Timestamp,
  message_count: Type.Integer({ minimum: 0 }),
  needs_human: Type.Boolean({ description: 'A turn was handed off and no team member has answered since' }),
  is_test: Type.Boolean({ description: 'Sent with `test: true` (left out of analytics)' }),
  classifications: Type.Array(Classification, { description: 'The distinct classes of its user messages' }),
  last_message: Type.String({ description: 'The first 200 characters of its last message' })
}, { additionalProperties: false })
export type AdminChatSummary = Static<typeof AdminChatSummary>

export const AdminChatList = Type.Object({
  chats: Type.Array(AdminChatSummary, { description: 'Chats waiting for a person first, then the most recently updated' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page' })
}, { additionalProperties: false })
export type AdminChatList = Static<typeof AdminChatList>

/**
 * A message as the project's team reads it: the shopper's `Message`, and on the assistant's own
 * messages why the turn went that way and the customer's rating (POST /feedback). The public routes
 * answer with `Message`, which has neither.
 */
export const AdminMessage = Type.Object({
  ...Message.properties,
  decision: Type.Optional(TurnDecision),
  feedback: Type.Optional(Feedback)
}, { additionalProperties: false, description: 'A message of the conversation; an assistant\'s message also says why its turn went that way (absent on a team member\'s answer and on messages stored before decisions were kept) and, once the customer rated it, their rating' })
export type AdminMessage = Static<typeof AdminMessage>

export const AdminChatDetail = Type.Object({
  chat: AdminChatSummary,
  messages: Type.Array(AdminMessage, { description: 'The whole conversation, earliest first' })
}, { additionalProperties: false })
export type AdminChatDetail = Static<typeof AdminChatDetail>

export const AdminChatExport = Type.Array(AdminChatDetail)

export const AdminDeleted = Type.Object({ deleted: Type.Literal(true) }, { additionalProperties: false })
export type AdminDeleted = Static<typeof AdminDeleted>

export const analyticsDaysDefault = 30
export const analyticsDaysMax = 365

export const AnalyticsQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: analyticsDaysMax, default: analyticsDaysDefault, description: 'How many UTC days, today included' }))
}, { additionalProperties: false })
export type AnalyticsQuery = Static<typeof AnalyticsQuery>

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A UTC day, YYYY-MM-DD' })
const Count = Type.Integer({ minimum: 0 })

/** How many questions `unanswered` groups at most, and how many sources `top_cited` lists per kind. */
export const analyticsUnansweredGroupsMax = 20
export const analyticsTopCitedMax = 10

const UnansweredGroup = Type.Object({
  question: Type.String({ description: 'The latest question of the group, as the customer wrote it' }),
  count: Type.Integer({ minimum: 1, description: 'How many times it, or a question with nearly the same words, was handed off for lack of an answer' }),
  last_asked_at: Timestamp,
  chat_id: Type.String({ description: 'The chat of the latest one, to read in the console' })
}, { additionalProperties: false })

const CitedSource = Type.Object({
  reference: Type.String({ description: 'The item id, the knowledge document id (its chunks counted together) or the FAQ pair\'s id' }),
  title: Type.Optional(Type.String({ description: 'The title the latest citation carried' })),
  count: Type.Integer({ minimum: 1, description: 'Replies of the range that cited it' })
}, { additionalProperties: false })

export const ChatAnalyticsResponse = Type.Object({
  days: Type.Integer({ minimum: 1 }),
  chats_per_day: Type.Array(Type.Object({ day: Day, chats: Count, messages: Count }, { additionalProperties: false }), {
    description: 'Every day of the range, earliest first, zero when nothing happened: chats started and messages sent that day'
  }),
  classifications: Type.Object({
    question: Count, request: Count, greeting: Count, complaint: Count, feedback: Count, other: Count
  }, { additionalProperties: false, description: 'User messages of the range by class' }),
  resolution: Type.Object({
    chats: Type.Integer({ minimum: 0, description: 'Chats started in the range' }),
    resolved: Type.Integer({ minimum: 0, description: 'Those of them the assistant resolved: no turn handed off and no reply rated down' }),
    rate: Type.Number({ minimum: 0, maximum: 1, description: 'resolved / chats (0 without chats)' })
  }, { additionalProperties: false }),
  handoff: Type.Object({
    chats: Type.Integer({ minimum: 0, description: 'Chats started in the range' }),
    handed_off: Type.Integer({ minimum: 0, description: 'Those of them with at least one turn handed off to the team' }),
    rate: Type.Number({ minimum: 0, maximum: 1, description: 'handed_off / chats (0 without chats)' }),
    reasons: Type.Object({ action: Count, person: Count, complaint: Count, unanswered: Count }, {
      additionalProperties: false,
      description: 'The turns of the range handed off, by reason: an action on the customer\'s order or account, a person asked for, a complaint, a question nothing answers (turns stored before reasons were kept are not counted)'
    })
  }, { additionalProperties: false }),
  team_answer: Type.Object({
    handoffs: Type.Integer({ minimum: 0, description: 'Turns of the range handed off to the team' }),
    answered: Type.Integer({ minimum: 0, description: 'Those a team member has answered since (POST /admin/chats/{chat_id}/answer)' }),
    median_seconds: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'The median time from a handed-off turn to the team\'s first answer after it; null when none was answered' })
  }, { additionalProperties: false }),
  feedback: Type.Object({
    up: Type.Integer({ minimum: 0, description: 'Replies of the range rated up (POST /feedback), by their latest rating' }),
    down: Type.Integer({ minimum: 0, description: 'Replies of the range rated down' }),
    ratio: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description: 'up / (up + down); null when no reply was rated' })
  }, { additionalProperties: false, description: 'The customers\' ratings of the assistant messages sent in the range' }),
  unanswered: Type.Array(UnansweredGroup, {
    maxItems: analyticsUnansweredGroupsMax,
    description: 'The questions of the range handed off because nothing answered them, those with nearly the same words (the same word stems, mostly) grouped together, most frequent first: what the help pages should say next'
  }),
  top_cited: Type.Object({
    knowledge: Type.Array(CitedSource, { maxItems: analyticsTopCitedMax }),
    faq: Type.Array(CitedSource, { maxItems: analyticsTopCitedMax }),
    catalog: Type.Array(CitedSource, { maxItems: analyticsTopCitedMax })
  }, { additionalProperties: false, description: 'The sources the assistant\'s replies of the range cited most, by kind, most cited first' })
}, { additionalProperties: false, description: 'Test chats are left out' })
export type ChatAnalyticsResponse = Static<typeof ChatAnalyticsResponse>

const QueryCount = Type.Object({ query: Type.String(), count: Type.Integer({ minimum: 1 }) }, { additionalProperties: false })

/** A share of a day's searches; null when the day has none to share (rather than a 0 % that did not happen). */
const Rate = (description: string) => Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description })

/**
 * One day of searches. The rates are those of the day's searches, whenever their events came:
 * a click today on yesterday's search counts for yesterday.
 */
const SearchDay = Type.Object({
  day: Day,
  searches: Count,
  autocompletes: Count,
  no_result_rate: Rate('Searches that found nothing / searches (browsing included)'),
  click_through_rate: Rate('Searches with at least one click (POST /events) / searches with a query_id (those recorded before query_id existed are left out)'),
  conversion_rate: Rate('Searches with at least one conversion (POST /events) / searches with a query_id'),
  average_click_position: Type.Union([Type.Number({ minimum: 1 }), Type.Null()], {
    description: 'The mean position (1-based) of the clicks on the day\'s searches that gave one; null without such clicks'
  })
}, { additionalProperties: false })

export const SearchAnalyticsResponse = Type.Object({
  days: Type.Integer({ minimum: 1 }),
  searches_per_day: Type.Array(SearchDay, {
    description: 'Every day of the range, earliest first; counts zero and rates null when nothing happened'
  }),
  top_queries: Type.Array(QueryCount, { description: 'The 20 most frequent search queries of the range, most frequent first' }),
  no_result_queries: Type.Array(QueryCount, { description: 'The 20 most frequent search queries of the range that found nothing' })
}, { additionalProperties: false })
export type SearchAnalyticsResponse = Static<typeof SearchAnalyticsResponse>
