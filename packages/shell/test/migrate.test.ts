import t from 'tap'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPool } from '../src/database.js'
import { migrate } from '../src/migrate.js'
import { testDatabase } from '@chatsearch/testkit'

t.test('migrations', async (t) => {
  const pool = createPool(await testDatabase(t), 6)
  t.teardown(() => pool.end())
  const dir = await mkdtemp(join(tmpdir(), 'migrations-'))
  await writeFile(join(dir, '001_things.sql'), 'CREATE TABLE things (id int PRIMARY KEY);')
  await writeFile(join(dir, '002_more.sql'), 'ALTER TABLE things ADD COLUMN name text;')
  await writeFile(join(dir, 'notes.txt'), 'not a migration')

  t.test('apply in order, once, even when replicas start together', async (t) => {
    const runs = await Promise.all([migrate(pool, 'demo', dir), migrate(pool, 'demo', dir), migrate(pool, 'demo', dir)])
    t.same(runs.flat().sort(), ['demo/001_things.sql', 'demo/002_more.sql'], 'each file applied by exactly one run')
    t.same(await migrate(pool, 'demo', dir), [], 'nothing left to apply')
    await pool.query("INSERT INTO things (id, name) VALUES (1, 'a')")
  })

  t.test('scopes are independent', async (t) => {
    const other = await mkdtemp(join(tmpdir(), 'migrations-'))
    await writeFile(join(other, '001_other.sql'), 'CREATE TABLE others (id int);')
    t.same(await migrate(pool, 'other', other), ['other/001_other.sql'])
  })

  t.test('a failing migration rolls back whole and names its file', async (t) => {
    await writeFile(join(dir, '003_broken.sql'), 'CREATE TABLE half (id int); SELECT * FROM no_such_table;')
    await t.rejects(migrate(pool, 'demo', dir), /demo\/003_broken\.sql/)
    const { rows } = await pool.query("SELECT to_regclass('half') AS t")
    t.equal(rows[0].t, null, 'no half-applied migration')
    const { rows: applied } = await pool.query("SELECT count(*)::int AS n FROM schema_migrations WHERE scope = 'demo'")
    t.equal(applied[0].n, 2)
  })
})
