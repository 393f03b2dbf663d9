import t from 'tap'
import { existsSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import pg from 'pg'
import { testDatabase } from '../src/testing.js'

async function query (url: string, sql: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(sql)).rows
  } finally {
    await client.end()
  }
}

const templates = () => readdirSync(tmpdir()).filter((name) => /^chatsearch-pg-template-[0-9a-f]{16}$/.test(name))

t.test('each test database is a cluster of its own, copied from one template that stays as made', { skip: process.env.DATABASE_URL ? 'DATABASE_URL names a server' : false }, async (t) => {
  const urls: string[] = []
  // Two at once, as two test files side by side would ask.
  await Promise.all([0, 1].map(async () => {
    await t.test('a database', async (t) => {
      const url = await testDatabase(t)
      urls.push(url)
      await query(url, 'CREATE TABLE written (n int)')
      await query(url, 'INSERT INTO written VALUES (1)')
      t.same(await query(url, 'SELECT n FROM written'), [{ n: 1 }])
      t.same(await query(url, 'SELECT current_database() AS name'), [{ name: 'chatsearch' }])
    })
  }))
  t.equal(new Set(urls).size, 2, 'two clusters, on two ports')
  t.ok(templates().length >= 1, 'the template is kept for later databases')

  const url = await testDatabase(t)
  t.same(await query(url, "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'written'"), [{ n: 0 }], 'what an earlier test wrote is not in the template')
  for (const earlier of urls) {
    const dir = decodeURIComponent(new URL(earlier).searchParams.get('host') ?? '')
    t.notOk(dir !== '' && existsSync(dir), 'an ended test\'s cluster is removed')
  }
})
