import type pg from 'pg'
import { classifications, type ChatAnalyticsResponse, type Classification } from '@chatsearch/contracts'
import { LAST_DAYS } from '@chatsearch/shell'

type Queryable = Pick<pg.Pool, 'query'>

/**
 * The project's chat analytics over the last `days` UTC days; test chats are left out (decision 5).
 * A chat counts on the UTC day it started, a message on the UTC day it was sent.
 */
export async function chatAnalytics (db: Queryable, projectId: string, days: number): Promise<ChatAnalyticsResponse> {
  const [perDay, byClass, handoff] = await Promise.all([
    db.query<{ day: string, chats: number, messages: number }>({
      name: 'analytics-per-day',
      text: `WITH ${LAST_DAYS},
        started AS (
          SELECT (c.created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS chats FROM chats c, bounds
          WHERE c.project_id = $1 AND NOT c.is_test AND c.created_at >= bounds.first GROUP BY 1
        ),
        sent AS (
          SELECT (m.created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS messages
          FROM messages m JOIN chats c ON c.project_id = m.project_id AND c.id = m.chat_id, bounds
          WHERE m.project_id = $1 AND NOT c.is_test AND m.created_at >= bounds.first GROUP BY 1
        )
        SELECT to_char(span.day, 'YYYY-MM-DD') AS day, coalesce(started.chats, 0)::int AS chats, coalesce(sent.messages, 0)::int AS messages
        FROM span LEFT JOIN started USING (day) LEFT JOIN sent USING (day) ORDER BY span.day`,
      values: [projectId, days]
    }),
    db.query<{ classification: Classification, count: number }>({
      name: 'analytics-classes',
      text: `WITH ${LAST_DAYS}
        SELECT m.classification, count(*)::int AS count
        FROM messages m JOIN chats c ON c.project_id = m.project_id AND c.id = m.chat_id, bounds
        WHERE m.project_id = $1 AND NOT c.is_test AND m.role = 'user' AND m.created_at >= bounds.first
        GROUP BY m.classification`,
      values: [projectId, days]
    }),
    db.query<{ chats: number, handed_off: number }>({
      name: 'analytics-handoff',
      text: `WITH ${LAST_DAYS}
        SELECT count(*)::int AS chats,
          count(*) FILTER (WHERE EXISTS (SELECT 1 FROM messages m WHERE m.project_id = c.project_id AND m.chat_id = c.id AND m.handoff))::int AS handed_off
        FROM chats c, bounds WHERE c.project_id = $1 AND NOT c.is_test AND c.created_at >= bounds.first`,
      values: [projectId, days]
    })
  ])
  const counts = Object.fromEntries(classifications.map((c) => [c, 0])) as Record<Classification, number>
  for (const row of byClass.rows) counts[row.classification] = row.count
  const { chats, handed_off: handedOff } = handoff.rows[0] ?? { chats: 0, handed_off: 0 }
  return {
    days,
    chats_per_day: perDay.rows,
    classifications: counts,
    handoff: { chats, handed_off: handedOff, rate: chats === 0 ? 0 : handedOff / chats }
  }
}
