import type { AdminChatSummary, Classification } from '@chatsearch/contracts'
import type { Queryable } from '@chatsearch/shell'

/** What the console filters the chats of a project by; absent: no condition. */
export interface ChatFilters {
  consumerId?: string | undefined
  classification?: Classification | undefined
  needsHuman?: boolean | undefined
  /** On last_updated_at: from inclusive, to exclusive. */
  from?: Date | undefined
  to?: Date | undefined
}

/** Where a page ends in the listing's order: the next page starts after this chat. */
export interface ChatPosition {
  needsHuman: boolean
  lastUpdatedAt: Date
  chatId: string
}

export interface AdminChatRow {
  id: string
  consumer_id: string
  created_at: Date
  last_updated_at: Date
  message_count: number
  needs_human: boolean
  is_test: boolean
  classifications: Classification[]
  last_message: string | null
}

export const toAdminSummary = (row: AdminChatRow): AdminChatSummary => ({
  chat_id: row.id,
  consumer_id: row.consumer_id,
  created_at: row.created_at.toISOString(),
  last_updated_at: row.last_updated_at.toISOString(),
  message_count: row.message_count,
  needs_human: row.needs_human,
  is_test: row.is_test,
  classifications: row.classifications,
  last_message: row.last_message ?? ''
})

export const positionOf = (row: AdminChatRow): ChatPosition => ({ needsHuman: row.needs_human, lastUpdatedAt: row.last_updated_at, chatId: row.id })

const SUMMARY_COLUMNS = `c.id, c.consumer_id, c.created_at, c.last_updated_at, c.message_count, c.needs_human, c.is_test,
  ARRAY(SELECT DISTINCT m.classification FROM messages m
        WHERE m.project_id = c.project_id AND m.chat_id = c.id AND m.role = 'user' ORDER BY 1) AS classifications,
  (SELECT left(m.content, 200) FROM messages m
   WHERE m.project_id = c.project_id AND m.chat_id = c.id ORDER BY m.seq DESC LIMIT 1) AS last_message`

/**
 * The chats of a project that pass the filters, waiting for a person first, then the most recently
 * updated (the chats_for_console index's order); $1 to $6 are the project and the filters, a null
 * filter holds for every chat. One text for every combination, so the statement is prepared once.
 * The class filter names the project as $1, not as c.project_id: PostgreSQL may answer it by
 * collecting the chats that have such a message first, and then collects the project's (an index
 * range of messages_by_class), not every project's.
 */
const FILTERED = `SELECT ${SUMMARY_COLUMNS} FROM chats c
  WHERE c.project_id = $1
    AND ($2::text IS NULL OR c.consumer_id = $2)
    AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM messages m
         WHERE m.project_id = $1 AND m.chat_id = c.id AND m.role = 'user' AND m.classification = $3))
    AND ($4::boolean IS NULL OR c.needs_human = $4)
    AND ($5::timestamptz IS NULL OR c.last_updated_at >= $5)
    AND ($6::timestamptz IS NULL OR c.last_updated_at < $6)`
const ORDER = 'ORDER BY c.needs_human DESC, c.last_updated_at DESC, c.id DESC'

const filterValues = (projectId: string, f: ChatFilters) =>
  [projectId, f.consumerId ?? null, f.classification ?? null, f.needsHuman ?? null, f.from ?? null, f.to ?? null]

/** One page of the console's listing: `limit` chats after `after` (from the start without it). */
export async function adminChatPage (db: Queryable, projectId: string, filters: ChatFilters, limit: number, after?: ChatPosition): Promise<AdminChatRow[]> {
  const { rows } = await db.query<AdminChatRow>({
    name: 'admin-chat-page',
    text: `${FILTERED}
      AND ($7::boolean IS NULL OR (c.needs_human, c.last_updated_at, c.id) < ($7, $8::timestamptz, $9::text))
      ${ORDER} LIMIT $10`,
    values: [...filterValues(projectId, filters), after?.needsHuman ?? null, after?.lastUpdatedAt ?? null, after?.chatId ?? null, limit]
  })
  return rows
}

/** Every chat passing the filters, in the listing's order: the export reads it a batch at a time. */
export const adminChatsQuery = (projectId: string, filters: ChatFilters) => ({
  name: 'admin-chats',
  text: `${FILTERED} ${ORDER}`,
  values: filterValues(projectId, filters)
})

export async function adminChat (db: Queryable, projectId: string, chatId: string): Promise<AdminChatRow | undefined> {
  const { rows } = await db.query<AdminChatRow>({
    name: 'admin-chat',
    text: `SELECT ${SUMMARY_COLUMNS} FROM chats c WHERE c.project_id = $1 AND c.id = $2`,
    values: [projectId, chatId]
  })
  return rows[0]
}
