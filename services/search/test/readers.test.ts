// Embedded engine only: reader threads over the SQLite files (Meilisearch answers its own searches).
import t from 'tap'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EmbeddedEngine } from '../src/engines/embedded/engine.js'
import { ingestDocuments } from '../src/ingest/documents.js'
import { parseFilter } from '@chatsearch/filter'

t.test('reader threads answer exactly as the event loop would, and see new writes', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-readers-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const embedder = { id: 'none', dimensions: 512 }
  const pooled = new EmbeddedEngine(dir, embedder, 2)
  t.teardown(() => pooled.close())
  const items = JSON.parse(await readFile(new URL('./fixtures/mini-catalog.json', import.meta.url), 'utf8')) as unknown[]
  const writer = await pooled.index('shop')
  await ingestDocuments(writer, items, undefined)

  const direct = new EmbeddedEngine(dir, embedder, 0)
  t.teardown(() => direct.close())
  const query = { q: 'hiking boot', filter: parseFilter('price < 150'), facets: ['brand'], limit: 5, offset: 0 }
  const fromThread = await writer.search(query)
  t.same(fromThread, await (await direct.index('shop')).search(query))
  t.equal(fromThread.estimatedTotalHits, 2)
  t.same(await writer.suggest('trail', 5, 0), await (await direct.index('shop')).suggest('trail', 5, 0))

  await ingestDocuments(writer, [{ id: 'boot-9', title: 'Budget Hiking Boot', price: 49, brand: 'Cheapo' }], undefined)
  t.equal((await writer.search(query)).estimatedTotalHits, 3, 'a reader sees a write made on the main thread')

  const terms = Array.from({ length: 20 }, (_, i) => ['boot', 'headphones', 'coffee', 'pacer'][i % 4]!)
  const parallel = await Promise.all(terms.map((q) => writer.search({ ...query, q })))
  const expected = await Promise.all(terms.map(async (q) => await (await direct.index('shop')).search({ ...query, q })))
  t.same(parallel, expected, 'concurrent searches on two readers each get their own answer')
  t.ok(new Set(parallel.map((r) => r.estimatedTotalHits)).size > 1, 'the queries differ')
})

/** The nice value of each thread of this process, by thread id (Linux keeps one per thread). */
async function threadNices (): Promise<Map<number, number>> {
  const nices = new Map<number, number>()
  for (const tid of await readdir('/proc/self/task')) {
    // Field 19 of stat; the name before it, in parentheses, may hold spaces.
    const fields = (await readFile(`/proc/self/task/${tid}/stat`, 'utf8')).split(') ')[1]!.split(' ')
    nices.set(Number(tid), Number(fields[16]))
  }
  return nices
}

t.test('the reader and writer threads run SEARCH_THREAD_NICE steps below the event loop', { skip: process.platform === 'linux' ? false : 'nice is per thread on Linux only' }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-readers-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const before = await threadNices()
  const loop = before.get(process.pid)!
  const engine = new EmbeddedEngine(dir, { id: 'none', dimensions: 512 }, 2, 5)
  t.teardown(() => engine.close())
  const index = await engine.index('shop')
  // A write and searches: the writer thread and both readers are started by then.
  await ingestDocuments(index, [{ id: 'a', title: 'Trail Shoe' }], undefined)
  await Promise.all(Array.from({ length: 8 }, () => index.search({ q: 'shoe', filter: parseFilter('price < 150'), facets: ['brand'], limit: 5, offset: 0 })))
  const after = await threadNices()
  const lowered = [...after].filter(([tid, nice]) => !before.has(tid) && nice === Math.min(19, loop + 5))
  t.equal(after.get(process.pid), loop, 'the event loop keeps its priority')
  t.equal(lowered.length, 3, `two readers and the writer, ${Math.min(19, loop + 5)} (new threads: ${JSON.stringify([...after].filter(([tid]) => !before.has(tid)))})`)
})

t.test('a search on a reader never sees a document that a concurrent write removed', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-readers-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const dimensions = 8
  const engine = new EmbeddedEngine(dir, { id: 'test:8', dimensions }, 2)
  t.teardown(() => engine.close())
  const index = await engine.index('shop')
  const vector = (i: number) => Float32Array.from({ length: dimensions }, (_, d) => Math.cos(i + d))
  const item = (i: number) => ({ document: { id: `boot-${i}`, title: `Trail boot ${i}`, price: 40 + i, brand: i % 2 === 0 ? 'Even' : 'Odd' }, vector: vector(i) })
  await index.upsert(Array.from({ length: 40 }, (_, i) => item(i)))

  // A search reads postings or vector codes held in memory, then the rows they point to; a write
  // committed between the two used to leave a removed row to load ("undefined" is not valid JSON).
  const state = { writing: true }
  const writes = (async () => {
    for (let round = 0; round < 200; round++) {
      const i = round % 40
      await index.remove(`boot-${i}`)
      await index.upsert([item(i)])
    }
    state.writing = false
  })()
  const failures: string[] = []
  let searches = 0
  const searcher = async (filter: string | null, semanticRatio: number) => {
    while (state.writing) {
      searches++
      await index.search({ q: 'trail boot', filter: filter === null ? null : parseFilter(filter), facets: ['brand'], limit: 40, offset: 0, hybrid: { semanticRatio, vector: vector(3) } })
        .catch((err: Error) => { failures.push(err.message) })
    }
  }
  await Promise.all([writes, searcher(null, 0.5), searcher('price > 45', 1), searcher(null, 1), searcher('brand = Even', 0.5)])
  t.ok(searches > 200, `searches ran beside the writes (${searches})`)
  t.same(failures.slice(0, 3), [], `no search failed (${failures.length} of ${searches})`)
})
