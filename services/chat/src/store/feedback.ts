import type { Feedback, Rating } from '@chatsearch/contracts'
import type { Queryable } from '@chatsearch/shell'
import { isoTimestamps } from './timestamps.js'

/** The message a customer rates, and whose chats they may rate. */
export interface RatedMessage {
  projectId: string
  chatId: string
  msgId: string
  /**
   * Set when the caller acts for one consumer only (decision 18's widget key): then another
   * consumer's chat is answered as a missing one. Unset, any chat of the project.
   */
  consumerId?: string | undefined
}

/** A rating as the API shows it; a message's rating columns, or what was just stored. */
export const toFeedback = (rating: Rating, comment: string | null, ratedAt: string): Feedback =>
  ({ rating, ...(comment === null ? {} : { comment }), rated_at: ratedAt })

/**
 * Stores the rating of an assistant message, replacing any earlier one (comment included), in one
 * statement: the rating as stored, or what is missing: the chat (within the project, and the
 * consumer when one is given), or an assistant message of that id in it.
 */
export async function rateMessage (db: Queryable, key: RatedMessage, rating: Rating, comment: string | null): Promise<Feedback | 'no_chat' | 'no_message'> {
  const { rows } = await db.query<{ chat_found: boolean, rated_at: string | null }>({
    name: 'rate-message',
    text: `WITH chat AS (
             SELECT id FROM chats WHERE project_id = $1 AND id = $2 AND ($3::text IS NULL OR consumer_id = $3)
           ), rated AS (
             UPDATE messages m SET feedback_rating = $5, feedback_comment = $6, feedback_at = now()
             FROM chat WHERE m.project_id = $1 AND m.chat_id = chat.id AND m.id = $4 AND m.role = 'assistant'
             RETURNING m.feedback_at
           )
           SELECT EXISTS (SELECT 1 FROM chat) AS chat_found, (SELECT feedback_at FROM rated) AS rated_at`,
    values: [key.projectId, key.chatId, key.consumerId ?? null, key.msgId, rating, comment],
    types: isoTimestamps
  })
  const { chat_found: chatFound, rated_at: ratedAt } = rows[0]!
  if (!chatFound) return 'no_chat'
  if (ratedAt === null) return 'no_message'
  return toFeedback(rating, comment, ratedAt)
}
