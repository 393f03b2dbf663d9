import t from 'tap'
import { existsSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rm } from 'node:fs/promises'
import pg from 'pg'
import { clusterTemplate, testDatabase } from '../src/testing.js'

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

// No other test file of this package asks for a test database, so damaging the template here
// disturbs nobody.
t.test('a template damaged since it was made (a cleaner of old temporary files) is made again', { skip: process.env.DATABASE_URL ? 'DATABASE_URL names a server' : false }, async (t) => {
  const template = await clusterTemplate()
  // Part of the cluster gone, its version file left: the copy does not start.
  await rm(join(template, 'postgres', 'global'), { recursive: true, force: true })
  const url = await testDatabase(t)
  t.same(await query(url, 'SELECT 1 AS one'), [{ one: 1 }], 'the database works')
  t.ok(existsSync(join(template, 'postgres', 'global')), 'the template is whole again')

  // Its version file gone as well: what is left is no cluster.
  await rm(join(await clusterTemplate(), 'postgres', 'PG_VERSION'))
  const again = await testDatabase(t)
  t.same(await query(again, 'SELECT 1 AS one'), [{ one: 1 }], 'the database works')
  t.ok(existsSync(join(template, 'postgres', 'PG_VERSION')), 'the template is whole again')
})
