import t from 'tap'
import { createPool } from '@chatsearch/shell'
import { testDatabase } from '@chatsearch/testkit'
import { isoTimestamp, isoTimestamps } from '../src/store/timestamps.js'

// Instants a conversation may hold: whole seconds, every precision PostgreSQL prints, the last
// microsecond of a millisecond (truncated, never rounded up), a leap day, years of 3 and 5 digits.
const instants = [
  '2026-11-25 09:30:00+00', '2026-11-25 09:30:00.1+00', '2026-11-25 09:30:00.12+00', '2026-11-25 09:30:00.123+00',
  '2026-11-25 09:30:00.123456+00', '2026-11-25 23:59:59.999999+00', '2028-02-29 12:00:00.000999+00',
  '1970-01-01 00:00:00+00', '0999-06-01 00:00:00.5+00', '12026-01-01 00:00:00.25+00'
]

t.test('timestamps read as ISO strings are exactly what a Date would print, in any session time zone', async (t) => {
  const pool = createPool(await testDatabase(t), 1)
  t.teardown(() => pool.end())
  for (const zone of ['UTC', 'Europe/Paris', 'America/St_Johns', 'Asia/Kolkata']) {
    await pool.query(`SET TIME ZONE '${zone}'`)
    const query = 'SELECT x AS at FROM unnest($1::timestamptz[]) x'
    const dates = await pool.query<{ at: Date }>(query, [instants])
    const strings = await pool.query<{ at: string }>({ text: query, values: [instants], types: isoTimestamps })
    t.same(strings.rows.map((r) => r.at), dates.rows.map((r) => r.at.toISOString()), `session time zone ${zone}`)
  }
})

t.test('PostgreSQL text in UTC is rewritten; anything else still parses', async (t) => {
  t.equal(isoTimestamp('2026-11-25 09:30:00.123456+00'), '2026-11-25T09:30:00.123Z')
  t.equal(isoTimestamp('2026-11-25 09:30:00+00'), '2026-11-25T09:30:00.000Z')
  t.equal(isoTimestamp('2026-11-25 09:30:00.5-03:30'), '2026-11-25T13:00:00.500Z')
  t.equal(isoTimestamp('2026-11-25 09:30:00.5+00 BC'), new Date(Date.UTC(-2025, 10, 25, 9, 30, 0, 500)).toISOString())
})
