import type { AdminMessage, Citation, Classification, Message, Rating, TurnDecision } from '@chatsearch/contracts'
import type { Queryable } from '@chatsearch/shell'
import { isoTimestamps } from './timestamps.js'
import { toFeedback } from './feedback.js'

interface MessageRow {
  id: string
  role: 'user' | 'assistant'
  content: string
  classification: Classification | null
  citations: Citation[] | null
  /** ISO 8601 already (isoTimestamps). */
  created_at: string
  author_username: string | null
}

function toMessage (row: MessageRow): Message {
  const message: Message = { msg_id: row.id, role: row.role, content: row.content, timestamp: row.created_at }
  if (row.classification !== null) message.classification = row.classification
  if (row.citations !== null) message.citations = row.citations
  if (row.role === 'assistant') message.author = row.author_username === null ? { kind: 'assistant' } : { kind: 'human', username: row.author_username }
  return message
}

/** A message's row with why its turn went that way and the customer's rating: read for the admin routes only. */
interface AdminMessageRow extends MessageRow {
  decision: TurnDecision | null
  feedback_rating: Rating | null
  feedback_comment: string | null
  /** ISO 8601 already (isoTimestamps). */
  feedback_at: string | null
}

/** The columns of an AdminMessageRow. */
const ADMIN_COLUMNS = 'id, role, content, classification, citations, created_at, author_username, decision, feedback_rating, feedback_comment, feedback_at'

function toAdminMessage (row: AdminMessageRow): AdminMessage {
  const message: AdminMessage = toMessage(row)
  if (row.decision !== null) message.decision = row.decision
  if (row.feedback_rating !== null && row.feedback_at !== null) message.feedback = toFeedback(row.feedback_rating, row.feedback_comment, row.feedback_at)
  return message
}

/** The whole conversation as the team reads it (decisions and ratings included), earliest first. */
export async function readMessages (db: Queryable, projectId: string, chatId: string): Promise<AdminMessage[]> {
  const { rows } = await db.query<AdminMessageRow>({
    name: 'read-messages',
    text: `SELECT ${ADMIN_COLUMNS} FROM messages WHERE project_id = $1 AND chat_id = $2 ORDER BY seq`,
    values: [projectId, chatId],
    types: isoTimestamps
  })
  return rows.map(toAdminMessage)
}

/** A conversation to read: the chat and the project it must belong to. */
export interface ConversationKey { projectId: string, chatId: string }

/**
 * The whole conversation of each key as the shopper reads it (no decisions), earliest first, in
 * one query (see readBatches): an empty list where the project has no such chat.
 */
export async function readConversations (db: Queryable, keys: readonly ConversationKey[]): Promise<Message[][]> {
  const { rows } = await db.query<MessageRow & { i: number }>({
    name: 'read-conversations',
    text: `SELECT k.i::int AS i, m.id, m.role, m.content, m.classification, m.citations, m.created_at, m.author_username
           FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k (project_id, chat_id, i)
           JOIN messages m ON m.project_id = k.project_id AND m.chat_id = k.chat_id
           ORDER BY k.i, m.seq`,
    values: [keys.map((k) => k.projectId), keys.map((k) => k.chatId)],
    types: isoTimestamps
  })
  const conversations: Message[][] = keys.map(() => [])
  for (const row of rows) conversations[row.i - 1]!.push(toMessage(row))
  return conversations
}

/** The last `count` messages, earliest first: the context the assistant sees. */
export async function recentMessages (db: Queryable, projectId: string, chatId: string, count: number): Promise<Message[]> {
  if (count === 0) return []
  const { rows } = await db.query<MessageRow>({
    name: 'recent-messages',
    text: `SELECT * FROM (
             SELECT seq, id, role, content, classification, citations, created_at, author_username FROM messages
             WHERE project_id = $1 AND chat_id = $2 ORDER BY seq DESC LIMIT $3
           ) recent ORDER BY seq`,
    values: [projectId, chatId, count],
    types: isoTimestamps
  })
  return rows.map(toMessage)
}

/**
 * The messages of several chats as the team reads them (decisions and ratings included), each chat's earliest
 * first: the conversations of an export page.
 */
export async function messagesOfChats (db: Queryable, projectId: string, chatIds: string[]): Promise<Map<string, AdminMessage[]>> {
  const { rows } = await db.query<AdminMessageRow & { chat_id: string }>({
    name: 'messages-of-chats',
    text: `SELECT chat_id, ${ADMIN_COLUMNS} FROM messages
           WHERE project_id = $1 AND chat_id = ANY($2::text[]) ORDER BY chat_id, seq`,
    values: [projectId, chatIds],
    types: isoTimestamps
  })
  const byChat = new Map<string, AdminMessage[]>(chatIds.map((id) => [id, []]))
  for (const row of rows) byChat.get(row.chat_id)?.push(toAdminMessage(row))
  return byChat
}
