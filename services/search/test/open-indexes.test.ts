// Embedded engine only: the cap on index files open at once (SEARCH_OPEN_INDEXES), on real SQLite
// files, with reader and writer threads (as the service runs) and without.
import t, { type Test } from 'tap'
import { chmod, mkdir, mkdtemp, readdir, readlink, realpath, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setImmediate as turn } from 'node:timers/promises'
import { metricSample as sample } from '@chatsearch/testkit'
import type { EngineIndex, IndexSettings, KnowledgeIndex, SearchQuery, SearchResult } from '../src/engine/port.js'
import { EmbeddedEngine } from '../src/engines/embedded/engine.js'
import { parseFilter } from '@chatsearch/filter'
import { ingestDocuments } from '../src/ingest/documents.js'
import { ingestKnowledge } from '../src/knowledge/ingest.js'
import { searchHarness, send, until } from './helpers.js'

const EMBEDDER = { id: 'none', dimensions: 8 }
const WORDS = ['amber', 'birch', 'cedar', 'dune', 'ember']
const PROJECTS = WORDS.map((word) => `shop-${word}`)

/** A project's items: its own word in every title, `lamp` in every project's. */
const items = (word: string) => Array.from({ length: 4 }, (_, i) => ({ id: `${word}-${i}`, title: `${word} lamp ${i}`, brand: `${word}co`, price: 10 * (i + 1) }))
const itemIds = (word: string) => items(word).map((item) => item.id)
const hitIds = async (index: EngineIndex, q: string) =>
  (await index.search({ q, filter: null, facets: [], limit: 20, offset: 0 })).hits.map((hit) => hit.id).sort()

/** A project's knowledge: one pair, with its own word and `lamps`. */
const faq = (word: string) => ({ id: `${word}-faq`, question: `Do you sell ${word} lamps?`, answer: `Yes: ${word} lamps leave in two days.` })
const knowledgeIds = async (index: KnowledgeIndex, q: string) => (await index.search({ q, limit: 10 })).map((hit) => hit.documentId)

const TITLE_ONLY: IndexSettings = { searchableAttributes: ['title'], filterableAttributes: ['price'], facetableAttributes: [] }
const WITH_BRAND: IndexSettings = { searchableAttributes: ['title', 'brand'], filterableAttributes: ['price'], facetableAttributes: ['brand'] }

async function tempDir (t: Test): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'chatsearch-open-indexes-')))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** The files under `dir` this process holds open, on any thread (Linux lists every descriptor), -wal and -shm as their database. */
async function heldFiles (dir: string): Promise<string[]> {
  const held = new Set<string>()
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '')
    if (target.startsWith(`${dir}/`)) held.add(target.replace(/ \(deleted\)$/, '').replace(/-(wal|shm)$/, ''))
  }
  return [...held].sort()
}

/** The largest number of open files seen at each call of `watch`. */
function gauge (engine: EmbeddedEngine) {
  const seen = { most: 0, watch: () => { seen.most = Math.max(seen.most, engine.openIndexes) } }
  return seen
}

/** Resolves with `promise`, noting in `settled` under `name` when it has settled. */
function tracked<T> (settled: Set<string>, name: string, promise: Promise<T>): Promise<T> {
  promise.then(() => settled.add(name), () => settled.add(name))
  return promise
}

const suite = (readers: number) => async (t: Test) => {
  t.test('more projects than the cap: never more files open, every project answers with its own items after being closed', async (t) => {
    const dir = await tempDir(t)
    const engine = new EmbeddedEngine(dir, EMBEDDER, readers, 0, 3)
    t.teardown(() => engine.close())
    const open = gauge(engine)
    // Filtered and faceted: the filter index and the facet postings are built again after a close.
    const query = (word: string): SearchQuery => ({ q: word, filter: parseFilter('price < 30'), facets: ['brand'], limit: 10, offset: 0 })
    const first = new Map<string, SearchResult>()
    for (const [i, word] of WORDS.entries()) {
      const index = await engine.index(PROJECTS[i]!)
      open.watch()
      await ingestDocuments(index, items(word), undefined)
      const result = await index.search(query(word))
      t.same(result.hits.map((hit) => hit.id).sort(), itemIds(word).slice(0, 2), `${word}: its items under 30`)
      t.same(result.facetDistribution, { brand: { [`${word}co`]: 2 } })
      first.set(word, result)
      open.watch()
    }
    for (let round = 1; round <= 2; round++) {
      for (const [i, word] of WORDS.entries()) {
        const index = await engine.index(PROJECTS[i]!)
        t.same(await index.search(query(word)), first.get(word), `round ${round}: ${word}'s search answers exactly as when first open`)
        t.same(await hitIds(index, 'lamp'), itemIds(word), `round ${round}: a word of every project finds ${word}'s items only`)
        open.watch()
      }
    }
    t.equal(open.most, 3, 'the cap is reached and never passed')
    t.equal(engine.openIndexes, 3)
    if (process.platform !== 'linux') return
    // The threads close theirs when told; the event loop's files are the three used last.
    const lastThree = PROJECTS.slice(2).map((p) => join(dir, `${p}.sqlite`))
    const held = await until('the process to hold only the files open on the event loop', async () => {
      const files = await heldFiles(dir)
      return files.length <= 3 ? files : undefined
    })
    t.same(held, lastThree, readers > 0 ? 'the reader and writer threads hold no other file' : 'no other file is held')
  })

  t.test('a call running on the least recently used file keeps it open: the next free file is closed, or the open waits', async (t) => {
    const dir = await tempDir(t)
    const engine = new EmbeddedEngine(dir, EMBEDDER, readers, 0, 2)
    t.teardown(() => engine.close())
    const open = gauge(engine)
    const [a, b, c] = [await engine.index(PROJECTS[0]!), await engine.index(PROJECTS[1]!), await engine.index(PROJECTS[2]!)]
    // Settings inferred from the items: brands are searched.
    for (const [index, word] of [[a, 'amber'], [b, 'birch'], [c, 'cedar']] as const) await ingestDocuments(index, items(word), undefined)
    t.same(await hitIds(a, 'amberco'), itemIds('amber'), 'inferred settings: brands are searched')
    const settled = new Set<string>()
    // Re-indexing runs on a thread of its own; a write behind it waits for it (with reader threads,
    // on the writer thread), and so does a search on a reader thread.
    const rebuilt = tracked(settled, 'rebuild', a.updateSettings(TITLE_ONLY))
    const written = tracked(settled, 'write', ingestDocuments(a, [{ id: 'amber-new', title: 'late arrival' }], undefined))
    const searched = readers > 0 ? a.search({ q: 'amber', filter: null, facets: [], limit: 20, offset: 0 }) : undefined
    open.watch()
    // amber is now the least recently used file, and in use: the others take turns.
    t.same(await hitIds(b, 'birch'), itemIds('birch'))
    open.watch()
    t.same(await hitIds(c, 'cedar'), itemIds('cedar'))
    open.watch()
    t.same(await hitIds(b, 'birch'), itemIds('birch'))
    open.watch()
    t.notOk(settled.has('rebuild') || settled.has('write'), 'the re-indexing and the write were still running meanwhile')
    t.has(await rebuilt, TITLE_ONLY, 'the re-indexing ends as if nothing had happened around it')
    t.same(await written, { received: 1, indexed: 1, unchanged: 0, total: 5 }, 'the write behind it too')
    if (searched !== undefined) t.same((await searched).hits.map((hit) => hit.id).sort(), itemIds('amber'), 'the search on a reader thread too')
    t.same(await hitIds(a, 'amberco'), [], 'the new settings hold: brands are no longer searched')
    t.same(await hitIds(a, 'arrival'), ['amber-new'], 'the write is kept')

    // Both open files in use: an open of a third waits until one is free.
    const both = [tracked(settled, 'a', a.updateSettings(WITH_BRAND)), tracked(settled, 'b', b.updateSettings(TITLE_ONLY))]
    const waiting = tracked(settled, 'c', hitIds(c, 'cedar'))
    await turn()
    await turn()
    t.notOk(settled.has('a') || settled.has('b'), 'both re-indexings still running')
    t.equal(engine.openIndexes, 2, 'no third file opened')
    t.notOk(settled.has('c'), 'the search of a third project waits')
    open.watch()
    t.same(await waiting, itemIds('cedar'), 'then it is answered')
    await Promise.all(both)
    t.same(await hitIds(a, 'amberco'), itemIds('amber'), 'each re-indexing applied: amber\'s brands searched again')
    t.same(await hitIds(b, 'birchco'), [], 'birch\'s no longer')
    open.watch()
    t.equal(open.most, 2, 'the cap is reached and never passed')
  })

  t.test('knowledge files count toward the cap and answer the same after being closed', async (t) => {
    const dir = await tempDir(t)
    const engine = new EmbeddedEngine(dir, EMBEDDER, readers, 0, 2)
    t.teardown(() => engine.close())
    const open = gauge(engine)
    const projects = WORDS.slice(0, 3)
    for (const [i, word] of projects.entries()) {
      await ingestDocuments(await engine.index(PROJECTS[i]!), items(word), undefined)
      open.watch()
      await ingestKnowledge(await engine.knowledge(PROJECTS[i]!), [faq(word)], undefined)
      open.watch()
    }
    for (let round = 1; round <= 2; round++) {
      for (const [i, word] of projects.entries()) {
        const knowledge = await engine.knowledge(PROJECTS[i]!)
        t.same(await knowledgeIds(knowledge, 'lamps'), [`${word}-faq`], `round ${round}: ${word}'s knowledge only`)
        t.same(await knowledgeIds(knowledge, word), [`${word}-faq`], `round ${round}: found by its own word`)
        open.watch()
        t.same(await hitIds(await engine.index(PROJECTS[i]!), 'lamp'), itemIds(word), `round ${round}: ${word}'s catalog`)
        open.watch()
      }
    }
    t.equal(open.most, 2, 'catalogs and knowledge together: the cap is reached and never passed')
    await knowledgeIds(await engine.knowledge(PROJECTS[0]!), 'lamps')
    t.ok(engine.keptKnowledgeWords > 0, 'a knowledge index searched keeps its chunks\' words')
    for (const project of PROJECTS.slice(1, 3)) await engine.index(project)
    t.equal(engine.keptKnowledgeWords, 0, 'closed, it keeps none')
  })
}

t.test('reader and writer threads, as the service runs', suite(2))
t.test('everything on the event loop (SEARCH_READERS=0)', suite(0))

t.test('over HTTP: the gauge stays at the cap while projects take turns, and each gets its own answers', async (t) => {
  const h = await searchHarness(t, false, { openIndexes: 2 })
  let most = 0
  const watch = async () => {
    const open = sample((await h.app.inject('/metrics')).body, 'memory_store_entries', { store: 'search_open_indexes' })
    most = Math.max(most, open ?? Infinity)
  }
  const shops: Array<{ word: string, key: string }> = []
  for (const word of WORDS.slice(0, 3)) {
    const { key } = await h.tenant(word)
    shops.push({ word, key })
    t.equal((await send(h.app, key, 'POST', '/documents', items(word))).statusCode, 200)
    await watch()
    t.equal((await send(h.app, key, 'POST', '/knowledge/documents', [faq(word)])).statusCode, 200)
    await watch()
  }
  for (let round = 1; round <= 2; round++) {
    for (const { word, key } of shops) {
      const found = await send(h.app, key, 'POST', '/search', { search_term: 'lamp', limit: 20 })
      t.same(found.json().hits.map((hit: { id: string }) => hit.id).sort(), itemIds(word), `round ${round}: ${word}'s items`)
      await watch()
      const known = await send(h.app, key, 'POST', '/knowledge/search', { query: 'lamps' })
      t.same(known.json().hits.map((hit: { document_id: string }) => hit.document_id), [`${word}-faq`], `round ${round}: ${word}'s knowledge`)
      await watch()
    }
  }
  t.equal(most, 2, 'memory_store_entries{store="search_open_indexes"} reaches the cap and never passes it')
})

t.test('the index directory is readable by the service\'s user alone, and DATA_DIR keeps its mode', async (t) => {
  const dataDir = await tempDir(t)
  const mode = async (path: string) => (await stat(path)).mode & 0o777
  await chmod(dataDir, 0o755)
  const fresh = new EmbeddedEngine(join(dataDir, 'search'), EMBEDDER)
  t.teardown(() => fresh.close())
  await ingestDocuments(await fresh.index('shop-amber'), items('amber'), undefined)
  t.equal(await mode(join(dataDir, 'search')), 0o700, 'made 0700: the SQLite files in it (0644 by the umask) are out of other users\' reach')
  t.equal(await mode(dataDir), 0o755, 'the parent, which the embedded PostgreSQL\'s user passes through, is left alone')
  const older = join(dataDir, 'older')
  await mkdir(older, { mode: 0o755 })
  await chmod(older, 0o755)
  await new EmbeddedEngine(older, EMBEDDER).close()
  t.equal(await mode(older), 0o700, 'a directory an earlier version made 0755 is tightened')
})
