// Embedded engine only: reader threads over the SQLite files (Meilisearch answers its own searches).
import t from 'tap'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EmbeddedEngine } from '../src/engines/embedded/engine.js'
import { ingestDocuments } from '../src/ingest/documents.js'
import { parseFilter } from '../src/filter/index.js'

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
