import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import type { ChatSummary, Citation, Classification, TurnDecision } from '@chatsearch/contracts'
import { inTransaction, jsonForDatabase, type Queryable } from '@chatsearch/shell'
import { isoTimestamps } from './timestamps.js'

export interface ChatRow {
  id: string
  consumer_id: string
  /** ISO 8601 already (isoTimestamps), as the API sends them. */
  created_at: string
  last_updated_at: string
  needs_human: boolean
}

export const toSummary = (row: ChatRow): ChatSummary => ({
  id: row.id,
  created_at: row.created_at,
  last_updated_at: row.last_updated_at,
  consumer_id: row.consumer_id,
  needs_human: row.needs_human
})

/** The columns of a ChatRow. */
const CHAT_COLUMNS = 'id, consumer_id, created_at, last_updated_at, needs_human'

/** One exchange: the user's message, as received, and the assistant's answer to it. */
export interface Turn {
  userMessage: string
  classification: Classification
  reply: string
  citations: Citation[]
  /** When the turn started; the stored times are moved later if needed to keep them in order. */
  startedAt: Date
  test: boolean
  /** The assistant could not help: the chat needs the project's team (spec/knowledge.md). */
  handoff: boolean
  /** Why the turn went that way (decision 17), kept with the assistant's message for the team. */
  decision?: TurnDecision
}

export async function findChat (db: Queryable, projectId: string, chatId: string): Promise<ChatRow | undefined> {
  const { rows } = await db.query<ChatRow>({
    name: 'find-chat',
    text: `SELECT ${CHAT_COLUMNS} FROM chats WHERE project_id = $1 AND id = $2`,
    values: [projectId, chatId],
    types: isoTimestamps
  })
  return rows[0]
}

/** The chats of one consumer of a project. */
export interface ConsumerKey { projectId: string, consumerId: string }

/**
 * The first `limit` chats of each consumer, newest activity first, in one query (see readBatches):
 * one index range per consumer, as consumerChatsQuery's.
 */
export async function consumersChats (db: Queryable, keys: readonly ConsumerKey[], limit: number): Promise<ChatRow[][]> {
  const { rows } = await db.query<ChatRow & { i: number }>({
    name: 'consumers-chats',
    text: `SELECT k.i::int AS i, c.* FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k (project_id, consumer_id, i)
           CROSS JOIN LATERAL (
             SELECT ${CHAT_COLUMNS} FROM chats
             WHERE project_id = k.project_id AND consumer_id = k.consumer_id
             ORDER BY last_updated_at DESC, id DESC LIMIT $3
           ) c
           ORDER BY k.i, c.last_updated_at DESC, c.id DESC`,
    values: [keys.map((k) => k.projectId), keys.map((k) => k.consumerId), limit],
    types: isoTimestamps
  })
  const chats: ChatRow[][] = keys.map(() => [])
  // The extra column stays on the row: toSummary reads only a chat's own.
  for (const row of rows) chats[row.i - 1]!.push(row)
  return chats
}

/**
 * SQL of the two listings, newest activity first; both are one index range scan. Hot queries are
 * named: node-postgres prepares a named statement once per connection, sparing PostgreSQL the
 * parsing and planning of every call.
 */
export const projectChatsQuery = (projectId: string) => ({
  name: 'project-chats',
  text: `SELECT ${CHAT_COLUMNS} FROM chats
         WHERE project_id = $1 ORDER BY last_updated_at DESC, id DESC`,
  values: [projectId],
  types: isoTimestamps
})
export const consumerChatsQuery = (projectId: string, consumerId: string) => ({
  name: 'consumer-chats',
  text: `SELECT ${CHAT_COLUMNS} FROM chats
         WHERE project_id = $1 AND consumer_id = $2 ORDER BY last_updated_at DESC, id DESC`,
  values: [projectId, consumerId],
  types: isoTimestamps
})

const later = (a: Date, b: Date) => (a.getTime() > b.getTime() ? a : b)
const plusMs = (d: Date, ms: number) => new Date(d.getTime() + ms)

/** What a turn's transaction stored, for work that must commit with it (the webhooks' events). */
export interface StoredTurn { chatId: string, consumerId: string, userMsgId: string, replyMsgId: string }
/** Work done in the transaction that stores a turn or an answer: it commits with it, or neither does. */
export type WithinTransaction<T> = (client: pg.PoolClient, stored: T) => Promise<void>

async function insertTurn (client: pg.PoolClient, projectId: string, chatId: string, seq: number, turn: Turn, userAt: Date, replyAt: Date): Promise<{ userMsgId: string, replyMsgId: string }> {
  const userMsgId = randomUUID()
  const replyMsgId = randomUUID()
  await client.query(
    `INSERT INTO messages (project_id, chat_id, seq, id, role, content, classification, citations, created_at, handoff, decision) VALUES
     ($1, $2, $3, $4, 'user', $5, $6, NULL, $7, false, NULL),
     ($1, $2, $3 + 1, $8, 'assistant', $9, NULL, $10, $11, $12, $13)`,
    [projectId, chatId, seq, userMsgId, turn.userMessage, turn.classification, userAt,
      replyMsgId, turn.reply, jsonForDatabase(turn.citations), replyAt, turn.handoff,
      turn.decision === undefined ? null : jsonForDatabase(turn.decision)])
  return { userMsgId, replyMsgId }
}

/** Creates a chat holding its first turn, all or nothing. */
export async function createChatWithTurn (pool: pg.Pool, projectId: string, consumerId: string, turn: Turn, within?: WithinTransaction<StoredTurn>): Promise<string> {
  const chatId = randomUUID()
  const replyAt = later(new Date(), plusMs(turn.startedAt, 1))
  await inTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO chats (project_id, id, consumer_id, is_test, message_count, created_at, last_updated_at, needs_human)
       VALUES ($1, $2, $3, $4, 2, $5, $6, $7)`, [projectId, chatId, consumerId, turn.test, turn.startedAt, replyAt, turn.handoff])
    const ids = await insertTurn(client, projectId, chatId, 0, turn, turn.startedAt, replyAt)
    await within?.(client, { chatId, consumerId, ...ids })
  })
  return chatId
}

/** The chat's row, locked until the transaction ends: what is appended to a chat is appended one at a time. */
async function lockChat (client: pg.PoolClient, projectId: string, chatId: string) {
  const { rows } = await client.query<{ message_count: number, last_updated_at: Date, consumer_id: string }>(
    'SELECT message_count, last_updated_at, consumer_id FROM chats WHERE project_id = $1 AND id = $2 FOR UPDATE',
    [projectId, chatId])
  return rows[0]
}

/**
 * Appends a turn to an existing chat, all or nothing. The chat's row lock serialises turns across
 * processes, so the two messages of a turn are always adjacent and no turn is lost; timestamps are
 * kept strictly increasing in conversation order. Returns false when the chat does not exist.
 */
export async function appendTurn (pool: pg.Pool, projectId: string, chatId: string, turn: Turn, within?: WithinTransaction<StoredTurn>): Promise<boolean> {
  return await inTransaction(pool, async (client) => {
    const chat = await lockChat(client, projectId, chatId)
    if (chat === undefined) return false
    const userAt = later(turn.startedAt, plusMs(chat.last_updated_at, 1))
    const replyAt = later(new Date(), plusMs(userAt, 1))
    const ids = await insertTurn(client, projectId, chatId, chat.message_count, turn, userAt, replyAt)
    await client.query(
      `UPDATE chats SET message_count = message_count + 2, last_updated_at = $3, is_test = is_test OR $4, needs_human = needs_human OR $5
       WHERE project_id = $1 AND id = $2`, [projectId, chatId, replyAt, turn.test, turn.handoff])
    await within?.(client, { chatId, consumerId: chat.consumer_id, ...ids })
    return true
  })
}

/**
 * A team member's answer (decision 15): an assistant message in their name appended to the chat,
 * which no longer needs a person. Undefined when the chat does not exist.
 */
export async function appendHumanAnswer (
  pool: pg.Pool, projectId: string, chatId: string, username: string, content: string,
  within?: WithinTransaction<{ id: string, consumerId: string, created_at: Date }>
): Promise<{ id: string, created_at: Date } | undefined> {
  return await inTransaction(pool, async (client) => {
    const chat = await lockChat(client, projectId, chatId)
    if (chat === undefined) return undefined
    const id = randomUUID()
    const at = later(new Date(), plusMs(chat.last_updated_at, 1))
    await client.query(
      `INSERT INTO messages (project_id, chat_id, seq, id, role, content, classification, citations, created_at, author_username)
       VALUES ($1, $2, $3, $4, 'assistant', $5, NULL, '[]', $6, $7)`,
      [projectId, chatId, chat.message_count, id, content, at, username])
    await client.query(
      `UPDATE chats SET message_count = message_count + 1, last_updated_at = $3, needs_human = false
       WHERE project_id = $1 AND id = $2`, [projectId, chatId, at])
    await within?.(client, { id, consumerId: chat.consumer_id, created_at: at })
    return { id, created_at: at }
  })
}

/** Deletes a chat and its messages; false when the project has no such chat. */
export async function deleteChat (db: Queryable, projectId: string, chatId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM chats WHERE project_id = $1 AND id = $2', [projectId, chatId])
  return rowCount === 1
}
