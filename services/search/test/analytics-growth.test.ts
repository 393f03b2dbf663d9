import t from 'tap'
import type pg from 'pg'
import { createPool, migrate } from '@chatsearch/shell'
import { testDatabase } from '@chatsearch/testkit'
import { searchAnalytics } from '../src/analytics.js'
import { searchMigrations } from '../src/migrations.js'

const DAY = 86_400_000
const HISTORY_DAYS = 180
/** rowsRead can be a few percent off (EXPLAIN rounds the rows filtered out per loop). */
const ROUNDING = 1.1

interface Statement { text: string, values: unknown[] }

/** The statements searchAnalytics sends, recorded by a stand-in for the pool that answers no rows. */
async function statementsOf (projectId: string, days: number): Promise<Statement[]> {
  const sent: Statement[] = []
  const recorder = { query: async (q: Statement) => { sent.push({ text: q.text, values: q.values }); return { rows: [] } } }
  await searchAnalytics(recorder as unknown as pg.Pool, projectId, days)
  return sent
}

interface PlanNode {
  'Relation Name'?: string
  'Plan Rows'?: number
  'Actual Rows'?: number
  'Actual Loops'?: number
  'Rows Removed by Filter'?: number
  'Rows Removed by Index Recheck'?: number
  Plans?: PlanNode[]
}

/**
 * The scans of search_events of the statement when run (EXPLAIN ANALYZE, with its values): the rows
 * each read (returned, or read and filtered out) and the rows it returned against those the planner
 * expected, which is what it chose the plan by.
 */
async function eventScans (db: pg.Pool, statement: Statement): Promise<Array<{ read: number, expected: number, returned: number }>> {
  const { rows } = await db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values)
  const scans: Array<{ read: number, expected: number, returned: number }> = []
  const walk = (node: PlanNode) => {
    if (node['Relation Name'] === 'search_events') {
      const loops = node['Actual Loops'] ?? 1
      const returned = (node['Actual Rows'] ?? 0) * loops
      scans.push({ read: returned + ((node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * loops, expected: (node['Plan Rows'] ?? 0) * loops, returned })
    }
    for (const child of node.Plans ?? []) walk(child)
  }
  walk(rows[0]!['QUERY PLAN'][0]!.Plan)
  return scans
}

/** `count` events spread evenly over the last HISTORY_DAYS days, written in time order as the service batches them. */
async function seedEvents (db: pg.Pool, projectId: string, count: number) {
  await db.query(`INSERT INTO search_events (project_id, kind, consumer_id, query, hits, latency_ms, created_at)
    SELECT $1, CASE WHEN g % 4 = 0 THEN 'autocomplete' ELSE 'search' END, 'shopper-' || g % 900,
           CASE WHEN g % 50 = 0 THEN '' ELSE 'boots ' || (g::bigint * 7919) % 3000 END, CASE WHEN g % 13 = 0 THEN 0 ELSE 1 + g % 30 END, 5 + g % 40,
           now() - $3 * interval '1 day' + g * (($3 * interval '1 day' - interval '1 hour') / $2)
    FROM generate_series(1, $2) g ORDER BY g`, [projectId, count, HISTORY_DAYS])
}

t.test('the search analytics of the last days read the events of those days, not the history stored', async (t) => {
  const db = createPool(await testDatabase(t), 2)
  t.teardown(() => db.end())
  await migrate(db, 'search', searchMigrations)
  // Most of what is stored is the shop's own history; another project has some too.
  await seedEvents(db, 'shop', 240_000)
  await seedEvents(db, 'smaller-shop', 60_000)
  await db.query('VACUUM ANALYZE search_events')

  for (const days of [7, 30]) {
    const since = new Date(`${new Date(Date.now() - (days - 1) * DAY).toISOString().slice(0, 10)}T00:00:00Z`)
    const { rows: events } = await db.query<{ kind: string, created_at: Date }>(
      'SELECT kind, created_at FROM search_events WHERE project_id = $1 AND created_at >= $2', ['shop', since])

    t.test(`${days} days`, async (t) => {
      t.ok(events.length * 5 < 300_000, 'the range is a small part of what is stored')
      for (const statement of await statementsOf('shop', days)) {
        const name = statement.text.replace(/\s+/g, ' ').slice(0, 70)
        for (const scan of await eventScans(db, statement)) {
          t.ok(scan.read <= events.length * ROUNDING, `${name}…: read ${Math.round(scan.read)} events; the range has ${events.length}`)
          // An estimate of a third of the project's events, whatever the range, is what once made
          // the planner read every project's events for a week's report.
          t.ok(scan.expected < scan.returned * 3 && scan.returned < scan.expected * 3, `${name}…: expected ${Math.round(scan.expected)} rows, found ${Math.round(scan.returned)}`)
        }
      }
      const report = await searchAnalytics(db, 'shop', days)
      const perDay = new Map(report.searches_per_day.map((d) => [d.day, { searches: 0, autocompletes: 0 }]))
      for (const e of events) perDay.get(e.created_at.toISOString().slice(0, 10))![e.kind === 'search' ? 'searches' : 'autocompletes']++
      t.same(report.searches_per_day.map(({ day, searches, autocompletes }) => ({ day, searches, autocompletes })),
        [...perDay].map(([day, counts]) => ({ day, ...counts })), 'every event of the range counted on its day')
    })
  }
})
