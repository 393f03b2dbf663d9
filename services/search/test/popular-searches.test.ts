import t from 'tap'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../src/engines/embedded/database.js'
import { EmbeddedEngine } from '../src/engines/embedded/engine.js'

// Autocomplete's popular searches come from the `queries` table, one row per distinct search, which
// only grows. A prefix many searches begin with is read through queries_top (most searched first,
// stopping at the page); one few begin with through the primary key's range. Both give what sorting
// every matching search would.

const EMBEDDER = { id: 'none', dimensions: 4 }

t.test('popular searches: the most searched first, whether many or few searches begin with the prefix', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-queries-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const rows: Array<[string, number, number]> = []
  // 30,000 searches begin with "s" (past MANY), 40 with "q": counts spread so that ties occur, and
  // every fifth found nothing (never suggested).
  for (let i = 0; i < 30_000; i++) rows.push([`s${i.toString(36)} shoe`, 1 + ((i * 7919) % 997), i % 5 === 0 ? 0 : 3])
  for (let i = 0; i < 40; i++) rows.push([`q${i} quilt`, 1 + ((i * 31) % 13), i % 5 === 0 ? 0 : 2])
  const db = openDatabase(join(dir, 'p.sqlite'))
  const insert = db.prepare('INSERT INTO queries (query, count, hits) VALUES (?, ?, ?)')
  db.transaction(() => { for (const row of rows) insert.run(...row) })()
  db.close()

  const engine = new EmbeddedEngine(dir, EMBEDDER, 0)
  t.teardown(() => engine.close())
  const index = await engine.index('p')
  const expected = (prefix: string, limit: number) => rows.filter(([q, , hits]) => q.startsWith(prefix) && hits > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, limit).map(([q]) => q)

  t.same(await index.suggest('s', 10, 0), expected('s', 10), 'a prefix 30,000 searches begin with: the 10 most searched')
  t.same(await index.suggest('s', 5, 20), expected('s', 25).slice(20), 'a later page')
  t.same(await index.suggest('q', 10, 0), expected('q', 10), 'a prefix 40 searches begin with')
  t.same(await index.suggest('q1', 3, 0), expected('q1', 3))
  t.same(await index.suggest('zz', 10, 0), [], 'a prefix nobody searched')
})
