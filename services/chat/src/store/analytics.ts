import { classifications, type ChatAnalyticsResponse, type Classification } from '@chatsearch/contracts'
import { LAST_DAYS, SINCE_FIRST_DAY, type Queryable } from '@chatsearch/shell'

const SINCE = SINCE_FIRST_DAY

/**
 * The chats that were active since SINCE, test chats left out. A chat's last_updated_at is the time
 * of its last message (store/chats.ts keeps it so), so every chat that started or had a message since
 * SINCE is among them: the condition makes the chats of the range one index range of the project's
 * chats by last_updated_at, whatever the project's history.
 */
const ACTIVE_CHATS = `c.project_id = $1 AND NOT c.is_test AND c.last_updated_at >= ${SINCE}`

/**
 * The project's chat analytics over the last `days` UTC days; test chats are left out (decision 5).
 * A chat counts on the UTC day it started, a message on the UTC day it was sent. Each read is an
 * index range of the days asked for, so its cost follows the activity of those days, not the
 * project's history. The statements are not named, so each call is planned for its own number of
 * days: a named statement's plan, once PostgreSQL settles on a generic one, is the same for 1 day
 * as for 365.
 */
export async function chatAnalytics (db: Queryable, projectId: string, days: number): Promise<ChatAnalyticsResponse> {
  const [perDay, byClass, handoff, feedback] = await Promise.all([
    db.query<{ day: string, chats: number, messages: number }>({
      text: `WITH ${LAST_DAYS},
        started AS (
          SELECT (c.created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS chats FROM chats c
          WHERE ${ACTIVE_CHATS} AND c.created_at >= ${SINCE} GROUP BY 1
        ),
        sent AS (
          SELECT (m.created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS messages
          FROM messages m JOIN chats c ON c.id = m.chat_id
          WHERE m.project_id = $1 AND m.created_at >= ${SINCE} AND ${ACTIVE_CHATS} GROUP BY 1
        )
        SELECT to_char(span.day, 'YYYY-MM-DD') AS day, coalesce(started.chats, 0)::int AS chats, coalesce(sent.messages, 0)::int AS messages
        FROM span LEFT JOIN started USING (day) LEFT JOIN sent USING (day) ORDER BY span.day`,
      values: [projectId, days]
    }),
    db.query<{ classification: Classification, count: number }>({
      text: `SELECT m.classification, count(*)::int AS count
        FROM messages m JOIN chats c ON c.id = m.chat_id
        WHERE m.project_id = $1 AND m.role = 'user' AND m.created_at >= ${SINCE} AND ${ACTIVE_CHATS}
        GROUP BY m.classification`,
      values: [projectId, days]
    }),
    db.query<{ chats: number, handed_off: number }>({
      // A handed-off turn of a chat that started since SINCE was itself since SINCE: the turns
      // handed off in the range (messages_handed_off) are all the candidates.
      text: `SELECT (SELECT count(*) FROM chats c WHERE ${ACTIVE_CHATS} AND c.created_at >= ${SINCE})::int AS chats,
          (SELECT count(DISTINCT m.chat_id) FROM messages m JOIN chats c ON c.id = m.chat_id
           WHERE m.project_id = $1 AND m.handoff AND m.created_at >= ${SINCE} AND ${ACTIVE_CHATS} AND c.created_at >= ${SINCE})::int AS handed_off`,
      values: [projectId, days]
    }),
    db.query<{ up: number, down: number }>({
      // The rated replies of the range (messages_rated): a rating counts with its reply's day.
      text: `SELECT count(*) FILTER (WHERE m.feedback_rating = 'up')::int AS up, count(*) FILTER (WHERE m.feedback_rating = 'down')::int AS down
        FROM messages m JOIN chats c ON c.id = m.chat_id
        WHERE m.project_id = $1 AND m.feedback_rating IS NOT NULL AND m.created_at >= ${SINCE} AND ${ACTIVE_CHATS}`,
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
    handoff: { chats, handed_off: handedOff, rate: chats === 0 ? 0 : handedOff / chats },
    feedback: feedback.rows[0] ?? { up: 0, down: 0 }
  }
}
