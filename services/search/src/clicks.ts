import { setTimeout as sleep } from 'node:timers/promises'
import type { ClickEvent } from '@chatsearch/contracts'
import type { Queryable } from '@chatsearch/shell'
import { FLUSH_EVERY_MS, type SearchAnalytics } from './analytics.js'

/** What POST /search answers with (randomUUID): any other text names no search, and is no uuid for PostgreSQL. */
const QUERY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * How long an event whose search is nowhere to be found waits before it is looked for once more:
 * the search may have been answered a moment ago by another replica, whose analytics buffer is
 * written within FLUSH_EVERY_MS. The margin is for that write itself.
 */
const OTHER_REPLICAS_MS = FLUSH_EVERY_MS + 500

/** Of `queryIds` (well-formed), those that neither this replica's buffer nor search_events hold for the project. */
async function notFound (db: Queryable, analytics: SearchAnalytics, projectId: string, queryIds: string[]): Promise<string[]> {
  const unbuffered = queryIds.filter((id) => analytics.unwrittenSearch(id) !== projectId)
  if (unbuffered.length === 0) return []
  const { rows } = await db.query<{ query_id: string }>(
    'SELECT query_id FROM search_events WHERE project_id = $1 AND query_id = ANY($2::uuid[])', [projectId, unbuffered])
  const written = new Set(rows.map((r) => r.query_id.toLowerCase()))
  return unbuffered.filter((id) => !written.has(id.toLowerCase()))
}

/**
 * The query ids among `queryIds` that name no recorded search of the project: not a search's id at
 * all, another project's, one made with the service token (never recorded), or one dropped before it
 * was written. A search still waiting in this replica's buffer is found there; one in another
 * replica's is found after OTHER_REPLICAS_MS, so an event sent right after its search is accepted
 * whichever replica takes it, and only a refusal waits.
 */
export async function unknownQueries (db: Queryable, analytics: SearchAnalytics, projectId: string, queryIds: string[]): Promise<Set<string>> {
  const distinct = [...new Set(queryIds)]
  const malformed = distinct.filter((id) => !QUERY_ID.test(id))
  // Refused at once: no search will ever have answered with these.
  if (malformed.length > 0) return new Set(malformed)
  const missing = await notFound(db, analytics, projectId, distinct)
  if (missing.length === 0) return new Set()
  await sleep(OTHER_REPLICAS_MS)
  return new Set(await notFound(db, analytics, projectId, missing))
}

/** The events of one request, in one statement: all of them are written, or none. */
export async function recordClicks (db: Queryable, projectId: string, events: ClickEvent[], at: Date): Promise<void> {
  await db.query(
    `INSERT INTO search_clicks (project_id, query_id, type, item_id, position, consumer_id, created_at)
     SELECT $1::text, query_id, type, item_id, position, consumer_id, $7::timestamptz FROM unnest($2::uuid[], $3::text[], $4::text[], $5::int[], $6::text[])
       AS e (query_id, type, item_id, position, consumer_id)`,
    [projectId, events.map((e) => e.query_id), events.map((e) => e.type), events.map((e) => e.item_id),
      events.map((e) => e.position ?? null), events.map((e) => e.consumer_id ?? null), at])
}
