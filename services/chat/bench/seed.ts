import type pg from 'pg'
import { createKey, createProject } from '@chatsearch/auth'
import { assistantReplies, shopperMessages } from './messages.js'

/** The shape of one project's seeded history. */
interface ProjectPlan {
  name: string
  chats: number
  messages: number
  consumers: number
  /** Every `longEvery`-th chat (0: none) holds exactly `longMessages` messages. */
  longEvery: number
  longMessages: number
  /** Turns (user + assistant message) of the other chats, cycled; its sum is fixed by the totals. */
  turnPattern: number[]
}

export const plans = {
  a: {
    name: 'bench-shop-a',
    chats: 100_000,
    messages: 500_000,
    consumers: 10_000,
    longEvery: 50,
    longMessages: 20,
    // 49 chats between two long ones, 115 turns among them: 98,000 chats × 2.35 turns = 460,000 messages.
    turnPattern: [1, 2, 1, 3, 1, 5, 2, 1, 4, 1, 2, 3, 1, 2, 2, 7, 1, 3, 2, 1, 5, 1, 2, 4, 1, 3, 2, 1, 1, 4, 2, 3, 1, 5, 2, 1, 2, 3, 1, 4, 2, 1, 5, 2, 3, 1, 2, 4, 2]
  },
  b: {
    name: 'bench-shop-b',
    chats: 20_000,
    messages: 100_000,
    consumers: 2_000,
    longEvery: 0,
    longMessages: 0,
    turnPattern: [2, 4, 1, 3]
  }
} satisfies Record<string, ProjectPlan>

/** Message count of every chat of a plan, in chat order; checked against the plan's totals. */
function messageCounts (plan: ProjectPlan): number[] {
  const counts: number[] = []
  let other = 0
  for (let c = 0; c < plan.chats; c++) {
    if (plan.longEvery > 0 && c % plan.longEvery === 0) {
      counts.push(plan.longMessages)
    } else {
      counts.push(2 * plan.turnPattern[other++ % plan.turnPattern.length]!)
    }
  }
  const total = counts.reduce((a, b) => a + b, 0)
  if (total !== plan.messages) throw new Error(`plan ${plan.name} makes ${total} messages, not ${plan.messages}`)
  return counts
}

/** Consumer ids look alike in every project, so project B's consumers are some of project A's. */
const consumerId = (n: number) => `shopper-${String(n).padStart(6, '0')}`

/**
 * Chats get a deterministic uuid, consumer `c % consumers` (each consumer's chats are spread over
 * the whole period) and a start time 150 s after the previous chat's, plus up to an hour of jitter.
 * A turn takes 90 s: the user writes at created_at + 90 s × turn, the assistant answers 1.5 s later,
 * so message times increase with seq and last_updated_at is the last message's time.
 */
const INSERT_CHATS = `
INSERT INTO chats (project_id, id, consumer_id, is_test, message_count, created_at, last_updated_at)
SELECT $1, md5($1 || ':' || g.c)::uuid::text, 'shopper-' || lpad((g.c % $2)::text, 6, '0'), false, g.n, g.at,
       g.at + ((g.n - 1) / 2) * interval '90 seconds' + ((g.n - 1) % 2) * interval '1500 milliseconds'
FROM (
  SELECT t.ord - 1 AS c, t.n,
         now() - interval '200 days' + (t.ord - 1) * interval '150 seconds' + (abs(hashtext(t.ord::text)) % 3600) * interval '1 second' AS at
  FROM unnest($3::int[]) WITH ORDINALITY AS t (n, ord)
) g`

const INSERT_MESSAGES = `
INSERT INTO messages (project_id, chat_id, seq, id, role, content, classification, citations, created_at)
SELECT c.project_id, c.id, s, gen_random_uuid()::text,
       CASE WHEN s % 2 = 0 THEN 'user' ELSE 'assistant' END,
       CASE WHEN s % 2 = 0 THEN ($2::text[])[1 + (h + s) % cardinality($2::text[])]
            ELSE ($4::text[])[1 + (h + s) % cardinality($4::text[])] END,
       CASE WHEN s % 2 = 0 THEN ($3::text[])[1 + (h + s) % cardinality($3::text[])] END,
       CASE WHEN s % 2 = 1 THEN '[]'::jsonb END,
       c.created_at + (s / 2) * interval '90 seconds' + (s % 2) * interval '1500 milliseconds'
FROM (SELECT project_id, id, message_count, created_at, abs(hashtext(id)) AS h FROM chats WHERE project_id = $1) c
CROSS JOIN LATERAL generate_series(0, c.message_count - 1) AS s`

async function seedProject (pool: pg.Pool, projectId: string, plan: ProjectPlan) {
  await pool.query(INSERT_CHATS, [projectId, plan.consumers, messageCounts(plan)])
  await pool.query(INSERT_MESSAGES, [projectId, shopperMessages.map((m) => m.text), shopperMessages.map((m) => m.label), assistantReplies])
}

export interface Seeded {
  projectId: string
  /** A chat key of project A. */
  key: string
  /** Project A's consumer ids (project B's are the first 2,000 of them). */
  consumers: string[]
  /** Project A's chats of exactly 20 messages. */
  longChats: string[]
  /** Some other chats of project A, to continue with newUserMessage. */
  shortChats: Array<{ id: string, consumer_id: string }>
  /** Seeding time: the bulk inserts, and the VACUUM ANALYZE after them. */
  insertMs: number
  analyzeMs: number
}

/** Fills an empty (migrated) database with projects A and B; throws if the result is off plan. */
export async function seed (pool: pg.Pool, log: (line: string) => void, onProject?: (projectId: string) => void): Promise<Seeded> {
  const a = await createProject(pool, plans.a.name)
  const b = await createProject(pool, plans.b.name)
  // What needs only project A to exist (the search service's indexing) may start now, beside the inserts.
  onProject?.(a.id)
  const key = await createKey(pool, a.id, 'chat', 'bench')
  await createKey(pool, b.id, 'chat', 'bench')

  const started = performance.now()
  // Two connections, one project each: the two cores insert side by side.
  await Promise.all([seedProject(pool, a.id, plans.a), seedProject(pool, b.id, plans.b)])
  const insertMs = performance.now() - started
  log(`seeded ${plans.a.chats + plans.b.chats} chats and ${plans.a.messages + plans.b.messages} messages in ${(insertMs / 1000).toFixed(1)} s`)

  // VACUUM as well: autovacuum would otherwise wake up for the fresh rows in the middle of a run.
  const analyzeStarted = performance.now()
  await pool.query('VACUUM (ANALYZE) chats, messages')
  const analyzeMs = performance.now() - analyzeStarted
  log(`VACUUM (ANALYZE) in ${(analyzeMs / 1000).toFixed(1)} s`)

  await check(pool, a.id, plans.a)
  await check(pool, b.id, plans.b)

  const long = await pool.query<{ id: string }>(
    'SELECT id FROM chats WHERE project_id = $1 AND message_count = $2', [a.id, plans.a.longMessages])
  const short = await pool.query<{ id: string, consumer_id: string }>(
    'SELECT id, consumer_id FROM chats WHERE project_id = $1 AND message_count < $2 ORDER BY random() LIMIT 5000',
    [a.id, plans.a.longMessages])
  return {
    projectId: a.id,
    key: key.key,
    consumers: Array.from({ length: plans.a.consumers }, (_, n) => consumerId(n)),
    longChats: long.rows.map((r) => r.id),
    shortChats: short.rows,
    insertMs,
    analyzeMs
  }
}

/** The seeded data against the plan and the invariants the service keeps. */
async function check (pool: pg.Pool, projectId: string, plan: ProjectPlan) {
  const { rows: [chats] } = await pool.query<{ chats: number, consumers: number, messages: number, long: number }>(
    `SELECT count(*)::int AS chats, count(DISTINCT consumer_id)::int AS consumers,
            coalesce(sum(message_count), 0)::int AS messages,
            count(*) FILTER (WHERE message_count = $2)::int AS long
     FROM chats WHERE project_id = $1`, [projectId, plan.longMessages])
  const { rows: [messages] } = await pool.query<{ messages: number, mismatched: number }>(
    `SELECT coalesce(sum(m.n), 0)::int AS messages,
            count(*) FILTER (WHERE (c.message_count, c.created_at, c.last_updated_at) IS DISTINCT FROM (m.n, m.first, m.last))::int AS mismatched
     FROM chats c
     LEFT JOIN (SELECT chat_id, count(*)::int AS n, min(created_at) AS first, max(created_at) AS last
                FROM messages WHERE project_id = $1 GROUP BY chat_id) m ON m.chat_id = c.id
     WHERE c.project_id = $1`, [projectId])
  const expectedLong = plan.longEvery > 0 ? Math.ceil(plan.chats / plan.longEvery) : 0
  const problems = [
    chats?.chats !== plan.chats && `${chats?.chats} chats, expected ${plan.chats}`,
    chats?.consumers !== plan.consumers && `${chats?.consumers} consumers, expected ${plan.consumers}`,
    chats?.messages !== plan.messages && `message_count sums to ${chats?.messages}, expected ${plan.messages}`,
    messages?.messages !== plan.messages && `${messages?.messages} messages, expected ${plan.messages}`,
    plan.longEvery > 0 && chats?.long !== expectedLong && `${chats?.long} chats of ${plan.longMessages} messages, expected ${expectedLong}`,
    messages?.mismatched !== 0 && `${messages?.mismatched} chats whose counts or times disagree with their messages`
  ].filter((p) => typeof p === 'string')
  if (problems.length > 0) throw new Error(`seeded ${plan.name} is off plan: ${problems.join('; ')}`)
}
