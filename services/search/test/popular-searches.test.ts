import t, { type Test } from 'tap'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, statementCache } from '../src/engines/embedded/database.js'
import { EmbeddedEngine } from '../src/engines/embedded/engine.js'
import { forgetLeastSearched, popularSearches, recordSearch, searcherKey } from '../src/engines/embedded/searches.js'

// The embedded engine's popular searches: the `searches` table, one row per distinct search, with the
// keyed hashes of its first searchers in `search_searchers`. Autocomplete reads a prefix many
// searches begin with through searches_top (most searched first, stopping at the page), one few
// begin with through the query's index; both give what sorting every suggested search would.

const EMBEDDER = { id: 'none', dimensions: 4 }

async function tempDir (t: Test) {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-searches-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}

t.test('popular searches: the most searched suggested ones first, whether many or few searches begin with the prefix', async (t) => {
  const dir = await tempDir(t)
  const rows: Array<[string, number, number, number]> = []
  // 30,000 searches begin with "s" (past MANY), 40 with "q": counts spread so that ties occur; every
  // fifth found nothing and every seventh had one searcher (neither is suggested).
  for (let i = 0; i < 30_000; i++) rows.push([`s${i.toString(36)} shoe`, 1 + ((i * 7919) % 997), i % 5 === 0 ? 0 : 3, i % 7 === 0 ? 1 : 3])
  for (let i = 0; i < 40; i++) rows.push([`q${i} quilt`, 1 + ((i * 31) % 13), i % 5 === 0 ? 0 : 2, i % 7 === 0 ? 1 : 3])
  const db = openDatabase(join(dir, 'p.sqlite'))
  const insert = db.prepare('INSERT INTO searches (query, count, hits, searchers, last) VALUES (?, ?, ?, ?, 0)')
  db.transaction(() => { for (const row of rows) insert.run(...row) })()
  db.close()

  const engine = new EmbeddedEngine(dir, EMBEDDER, 0)
  t.teardown(() => engine.close())
  const index = await engine.index('p')
  const expected = (prefix: string, limit: number) => rows.filter(([q, , hits, searchers]) => q.startsWith(prefix) && hits > 0 && searchers >= 3)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, limit).map(([q]) => q)

  t.same(await index.suggest('s', 10, 0), expected('s', 10), 'a prefix 30,000 searches begin with: the 10 most searched')
  t.same(await index.suggest('s', 5, 20), expected('s', 25).slice(20), 'a later page')
  t.same(await index.suggest('q', 10, 0), expected('q', 10), 'a prefix 40 searches begin with')
  t.same(await index.suggest('q1', 3, 0), expected('q1', 3))
  t.same(await index.suggest('zz', 10, 0), [], 'a prefix nobody searched')

  const settings = await index.settings()
  await index.updateSettings({ ...settings, suggestionsMinSearchers: 1, suggestionsExcluded: ['Q10  Quilt'] })
  const byOne = rows.filter(([q, , hits]) => q.startsWith('q1') && hits > 0 && q !== 'q10 quilt')
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([q]) => q)
  t.same(await index.suggest('q1', 20, 0), byOne, 'a threshold of 1: one searcher is enough; an excluded search is not suggested')
})

t.test('recording: each searcher counted once, up to the threshold, as a keyed hash; the least searched forgotten past the bound', async (t) => {
  const dir = await tempDir(t)
  const db = openDatabase(join(dir, 'p.sqlite'))
  t.teardown(() => db.close())
  const prepare = statementCache(db)
  const record = (query: string, searcher: string, keywordHits: number | null = 2, now = 1) =>
    db.transaction(() => recordSearch(prepare, searcherKey(db), query, { keywordHits, searcher }, 3, now)).immediate()

  for (let i = 0; i < 50; i++) record('free money', 'c:mallory')
  t.same(popularSearches(prepare, 10, 0), { searches: [{ query: 'free money', count: 50, searchers: 1, hits: 2 }], total: 1 }, 'fifty searches, one searcher')
  for (const address of ['a:10.0.0.1', 'a:10.0.0.2', 'a:10.0.0.3', 'a:10.0.0.4']) record('free money', address, null)
  t.same(popularSearches(prepare, 10, 0).searches[0], { query: 'free money', count: 54, searchers: 3, hits: 2 },
    'counted up to the threshold (3), no further; searches whose hits are not known keep the last known')
  const stored = db.prepare('SELECT searcher FROM search_searchers').pluck().all() as Buffer[]
  t.equal(stored.length, 3, 'three hashes kept')
  t.ok(stored.every((hash) => hash.length === 8), 'eight bytes each')
  t.notOk(stored.some((hash) => hash.toString('latin1').includes('10.0.0') || hash.toString('latin1').includes('mallory')), 'no address, no consumer id')
  t.equal(searcherKey(db).toString('hex'), searcherKey(db).toString('hex'), 'one key per catalog, kept')
  record('fresh', 'c:ann', null)
  t.same(popularSearches(prepare, 10, 0).searches[1], { query: 'fresh', count: 1, searchers: 1, hits: null }, 'hits not known yet')

  // The bound: the most searched kept, the least recently searched forgotten first among equals, their searchers with them.
  record('old', 'c:bob', 1, 0)
  record('older', 'c:bob', 1, -1)
  forgetLeastSearched(prepare, 2)
  t.same(popularSearches(prepare, 10, 0), {
    searches: [{ query: 'free money', count: 54, searchers: 3, hits: 2 }, { query: 'fresh', count: 1, searchers: 1, hits: null }],
    total: 2
  })
  t.equal(db.prepare('SELECT count(*) FROM search_searchers').pluck().get(), 4, 'the forgotten searches\' searchers are gone too')
})

t.test('a file written before searchers were counted: its popular searches are dropped, none suggested', async (t) => {
  const dir = await tempDir(t)
  const file = join(dir, 'p.sqlite')
  const legacy = openDatabase(file)
  legacy.exec("CREATE TABLE queries (query TEXT PRIMARY KEY, count INTEGER NOT NULL, hits INTEGER NOT NULL); INSERT INTO queries VALUES ('zqlhaaboie free money', 50, 9)")
  legacy.close()
  const engine = new EmbeddedEngine(dir, EMBEDDER, 0)
  t.teardown(() => engine.close())
  const index = await engine.index('p')
  t.same(await index.suggest('zqlhaaboie', 10, 0), [])
  t.same(await index.popularSearches(10, 0), { searches: [], total: 0 })
})
