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

/**
 * Messages per read of a conversation. A chat has no length limit, so a long one is read and sent a
 * page at a time: a page of the longest messages stays a few MB however long the chat grows.
 */
export const MESSAGES_PER_PAGE = 200

/** A conversation's messages a page at a time, earliest first. */
export interface MessagePages<M> {
  /** The first page, already read: a failing query fails before any response is sent. */
  first: M[]
  /** True when the first page is the whole conversation. */
  complete: boolean
  /** The pages after the first, each read when asked for, with no connection held in between. */
  rest: () => AsyncGenerator<M[]>
}

/** A message row with its place in the conversation, for reading the next page after it. */
type Placed<R> = R & { seq: number }

/**
 * The pages of a conversation from its first, read with one row more than a page (so that a
 * conversation of exactly one page is known whole), each later one read after the last seq of the one before.
 */
function pagesFrom<R, M> (firstRows: Array<Placed<R>>, page: (afterSeq: number) => Promise<Array<Placed<R>>>, toM: (row: R) => M): MessagePages<M> {
  const first = firstRows.slice(0, MESSAGES_PER_PAGE)
  return {
    first: first.map(toM),
    complete: firstRows.length <= MESSAGES_PER_PAGE,
    rest: async function * () {
      let last = first
      while (last.length === MESSAGES_PER_PAGE) {
        last = await page(last[last.length - 1]!.seq)
        if (last.length > 0) yield last.map(toM)
      }
    }
  }
}

/** The whole conversation as the team reads it (decisions and ratings included), earliest first. */
export async function readMessages (db: Queryable, projectId: string, chatId: string): Promise<MessagePages<AdminMessage>> {
  const page = async (afterSeq: number, limit = MESSAGES_PER_PAGE) => (await db.query<Placed<AdminMessageRow>>({
    name: 'read-messages',
    text: `SELECT seq, ${ADMIN_COLUMNS} FROM messages WHERE project_id = $1 AND chat_id = $2 AND seq > $3 ORDER BY seq LIMIT $4`,
    values: [projectId, chatId, afterSeq, limit],
    types: isoTimestamps
  })).rows
  return pagesFrom(await page(-1, MESSAGES_PER_PAGE + 1), page, toAdminMessage)
}

/** A conversation to read: the chat and the project it must belong to. */
export interface ConversationKey { projectId: string, chatId: string }

/** The messages of one conversation after `afterSeq`, as the shopper reads them: one page. */
async function conversationPage (db: Queryable, projectId: string, chatId: string, afterSeq: number): Promise<Array<Placed<MessageRow>>> {
  const { rows } = await db.query<Placed<MessageRow>>({
    name: 'conversation-page',
    text: `SELECT seq, id, role, content, classification, citations, created_at, author_username FROM messages
           WHERE project_id = $1 AND chat_id = $2 AND seq > $3 ORDER BY seq LIMIT $4`,
    values: [projectId, chatId, afterSeq, MESSAGES_PER_PAGE],
    types: isoTimestamps
  })
  return rows
}

/**
 * Each key's conversation as the shopper reads it (no decisions), earliest first: the first pages of
 * all keys in one query (see readBatches), the rest of a longer one page by page. A project with no
 * such chat gets an empty first page.
 */
export async function readConversations (db: Queryable, keys: readonly ConversationKey[]): Promise<Array<MessagePages<Message>>> {
  const { rows } = await db.query<Placed<MessageRow> & { i: number }>({
    name: 'read-conversations',
    text: `SELECT k.i::int AS i, m.seq, m.id, m.role, m.content, m.classification, m.citations, m.created_at, m.author_username
           FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k (project_id, chat_id, i)
           CROSS JOIN LATERAL (
             SELECT * FROM messages WHERE project_id = k.project_id AND chat_id = k.chat_id ORDER BY seq LIMIT $3
           ) m
           ORDER BY k.i, m.seq`,
    values: [keys.map((k) => k.projectId), keys.map((k) => k.chatId), MESSAGES_PER_PAGE + 1],
    types: isoTimestamps
  })
  const firstPages: Array<Array<Placed<MessageRow>>> = keys.map(() => [])
  for (const row of rows) firstPages[row.i - 1]!.push(row)
  return keys.map((key, i) => pagesFrom(firstPages[i]!, async (afterSeq) => await conversationPage(db, key.projectId, key.chatId, afterSeq), toMessage))
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
