import type pg from 'pg'
import type { Citation, Classification, Message } from '@chatsearch/contracts'
import { isoTimestamps } from './timestamps.js'

type Queryable = Pick<pg.Pool, 'query'>

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

/** The whole conversation, earliest first. */
export async function readMessages (db: Queryable, projectId: string, chatId: string): Promise<Message[]> {
  const { rows } = await db.query<MessageRow>({
    name: 'read-messages',
    text: `SELECT id, role, content, classification, citations, created_at, author_username FROM messages
           WHERE project_id = $1 AND chat_id = $2 ORDER BY seq`,
    values: [projectId, chatId],
    types: isoTimestamps
  })
  return rows.map(toMessage)
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

/** The messages of several chats, each chat's earliest first: the conversations of an export page. */
export async function messagesOfChats (db: Queryable, projectId: string, chatIds: string[]): Promise<Map<string, Message[]>> {
  const { rows } = await db.query<MessageRow & { chat_id: string }>({
    name: 'messages-of-chats',
    text: `SELECT chat_id, id, role, content, classification, citations, created_at, author_username FROM messages
           WHERE project_id = $1 AND chat_id = ANY($2::text[]) ORDER BY chat_id, seq`,
    values: [projectId, chatIds],
    types: isoTimestamps
  })
  const byChat = new Map<string, Message[]>(chatIds.map((id) => [id, []]))
  for (const row of rows) byChat.get(row.chat_id)?.push(toMessage(row))
  return byChat
}
