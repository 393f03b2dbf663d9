import { analyticsTopCitedMax, analyticsUnansweredGroupsMax, classifications, type ChatAnalyticsResponse, type Classification, type CitationSource } from '@chatsearch/contracts'
import { LAST_DAYS, SINCE_FIRST_DAY, type Queryable } from '@chatsearch/shell'
import { groupQuestions } from './question-groups.js'
import { isoTimestamps } from './timestamps.js'

const SINCE = SINCE_FIRST_DAY

/**
 * The chats that were active since SINCE, test chats left out. A chat's last_updated_at is the time
 * of its last message (store/chats.ts keeps it so), so every chat that started or had a message since
 * SINCE is among them: the condition makes the chats of the range one index range of the project's
 * chats by last_updated_at, whatever the project's history.
 */
const ACTIVE_CHATS = `c.project_id = $1 AND NOT c.is_test AND c.last_updated_at >= ${SINCE}`

/** The latest questions handed off as unanswered that analytics groups (the newest of the range). */
const UNANSWERED_READ = 500

const HANDOFF_REASONS = ['action', 'person', 'complaint', 'unanswered'] as const

/**
 * The project's chat analytics over the last `days` UTC days; test chats are left out (decision 5).
 * A chat counts on the UTC day it started, a message on the UTC day it was sent. Each read is an
 * index range of the days asked for, so its cost follows the activity of those days, not the
 * project's history. The statements are not named, so each call is planned for its own number of
 * days: a named statement's plan, once PostgreSQL settles on a generic one, is the same for 1 day
 * as for 365.
 */
export async function chatAnalytics (db: Queryable, projectId: string, days: number): Promise<ChatAnalyticsResponse> {
  const [perDay, byClass, handoff, feedback, handoffTurns, unanswered, cited] = await Promise.all([
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
    }),
    db.query<Record<typeof HANDOFF_REASONS[number], number> & { turns: number, answered: number, median_seconds: number | null, unresolved: number }>({
      // The turns handed off in the range (messages_handed_off), each with the team's first answer
      // after it in its chat (the chat's later messages, by the primary key). Unresolved: the chats
      // started in the range with a turn handed off or a reply rated down, both messages of the
      // range (messages_handed_off, messages_rated), since a chat's messages follow its start.
      text: `SELECT count(*)::int AS turns, count(a.at)::int AS answered,
          percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM a.at - m.created_at)::float8) AS median_seconds,
          ${HANDOFF_REASONS.map((r) => `count(*) FILTER (WHERE m.decision->>'handoff_reason' = '${r}')::int AS ${r}`).join(', ')},
          (SELECT count(*) FROM chats c WHERE ${ACTIVE_CHATS} AND c.created_at >= ${SINCE} AND c.id IN (
            SELECT r.chat_id FROM messages r WHERE r.project_id = $1 AND r.created_at >= ${SINCE} AND (r.handoff OR r.feedback_rating = 'down')))::int AS unresolved
        FROM messages m JOIN chats c ON c.id = m.chat_id
        LEFT JOIN LATERAL (SELECT min(t.created_at) AS at FROM messages t
          WHERE t.project_id = m.project_id AND t.chat_id = m.chat_id AND t.seq > m.seq AND t.author_username IS NOT NULL) a ON true
        WHERE m.project_id = $1 AND m.handoff AND m.created_at >= ${SINCE} AND ${ACTIVE_CHATS}`,
      values: [projectId, days]
    }),
    db.query<{ content: string, asked_at: string, chat_id: string }>({
      // The question of each turn handed off as unanswered: the user message just before the reply.
      text: `SELECT u.content, u.created_at AS asked_at, u.chat_id
        FROM messages m JOIN chats c ON c.id = m.chat_id
        JOIN messages u ON u.project_id = m.project_id AND u.chat_id = m.chat_id AND u.seq = m.seq - 1 AND u.role = 'user'
        WHERE m.project_id = $1 AND m.handoff AND m.decision->>'handoff_reason' = 'unanswered' AND m.created_at >= ${SINCE} AND ${ACTIVE_CHATS}
        ORDER BY m.created_at DESC, m.chat_id, m.seq DESC LIMIT ${UNANSWERED_READ}`,
      values: [projectId, days],
      types: isoTimestamps
    }),
    db.query<{ source: CitationSource, reference: string, title: string | null, count: number }>({
      // A knowledge citation names a chunk (`<document id>#<chunk id>`): its document is what is counted.
      text: `SELECT source, reference, title, count FROM (
          SELECT e->>'source' AS source,
            CASE WHEN e->>'source' = 'knowledge' THEN split_part(e->>'reference', '#', 1) ELSE e->>'reference' END AS reference,
            (array_agg(e->>'title' ORDER BY m.created_at DESC) FILTER (WHERE e ? 'title'))[1] AS title,
            count(DISTINCT m.id)::int AS count,
            row_number() OVER (PARTITION BY e->>'source' ORDER BY count(DISTINCT m.id) DESC,
              CASE WHEN e->>'source' = 'knowledge' THEN split_part(e->>'reference', '#', 1) ELSE e->>'reference' END) AS rank
          FROM messages m JOIN chats c ON c.id = m.chat_id CROSS JOIN LATERAL jsonb_array_elements(m.citations) e
          WHERE m.project_id = $1 AND m.role = 'assistant' AND m.created_at >= ${SINCE} AND ${ACTIVE_CHATS}
          GROUP BY 1, 2) ranked
        WHERE rank <= ${analyticsTopCitedMax} ORDER BY source, rank`,
      values: [projectId, days]
    })
  ])
  const counts = Object.fromEntries(classifications.map((c) => [c, 0])) as Record<Classification, number>
  for (const row of byClass.rows) counts[row.classification] = row.count
  const { chats, handed_off: handedOff } = handoff.rows[0] ?? { chats: 0, handed_off: 0 }
  const turns = handoffTurns.rows[0] ?? { turns: 0, answered: 0, median_seconds: null, unresolved: 0, action: 0, person: 0, complaint: 0, unanswered: 0 }
  const resolved = chats - turns.unresolved
  const { up, down } = feedback.rows[0] ?? { up: 0, down: 0 }
  const topCited: ChatAnalyticsResponse['top_cited'] = { knowledge: [], faq: [], catalog: [] }
  for (const { source, reference, title, count } of cited.rows) topCited[source]?.push({ reference, ...(title === null ? {} : { title }), count })
  return {
    days,
    chats_per_day: perDay.rows,
    classifications: counts,
    resolution: { chats, resolved, rate: chats === 0 ? 0 : resolved / chats },
    handoff: {
      chats,
      handed_off: handedOff,
      rate: chats === 0 ? 0 : handedOff / chats,
      reasons: Object.fromEntries(HANDOFF_REASONS.map((r) => [r, turns[r]])) as ChatAnalyticsResponse['handoff']['reasons']
    },
    team_answer: { handoffs: turns.turns, answered: turns.answered, median_seconds: turns.median_seconds },
    feedback: { up, down, ratio: up + down === 0 ? null : up / (up + down) },
    unanswered: groupQuestions(unanswered.rows.map((r) => ({ content: r.content, askedAt: r.asked_at, chatId: r.chat_id })), analyticsUnansweredGroupsMax),
    top_cited: topCited
  }
}
