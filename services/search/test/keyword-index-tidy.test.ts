// Embedded engine only: the keyword index (FTS5) is merged into one segment every FTS_TIDY_WRITES
// writes, so that a catalog written to in small batches all day is not searched through a growing
// pile of segments and tombstones (issue 31: searches ran slower as the soak went on).
import t from 'tap'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { mulberry32, productsOf } from '../catalog/generate.js'
import type { Document } from '../src/engine/port.js'
import { EmbeddedIndex } from '../src/engines/embedded/index.js'
import { FTS_TIDY_WRITES } from '../src/engines/embedded/writes.js'

const embedder = { id: 'test:4', dimensions: 4 }
const settings = { searchableAttributes: ['title', 'brand', 'description'], filterableAttributes: ['brand'], facetableAttributes: [] }

t.test('small writes are merged into one segment every FTS_TIDY_WRITES writes, and searches answer as before', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-tidy-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'catalog.db')
  const index = new EmbeddedIndex(file, embedder)
  t.teardown(() => index.close())
  await index.updateSettings(settings)
  const products = [...productsOf(300, 7)] as unknown as Document[]
  await index.upsert(products.slice(0, 200).map((document) => ({ document, vector: null })))

  const probe = new Database(file, { readonly: true })
  t.teardown(() => probe.close())
  const meta = (key: string) => probe.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined
  const structureRows = () => probe.prepare('SELECT count(*) FROM fts_data').pluck().get() as number
  const generation = () => Number(meta('generation'))

  // One item replaced or removed per write, as a shop's day of edits.
  const random = mulberry32(11)
  const compactRows = () => {
    const db = new Database(file)
    try {
      db.exec("INSERT INTO fts(fts) VALUES('optimize')")
      return db.prepare('SELECT count(*) FROM fts_data').pluck().get() as number
    } finally { db.close() }
  }
  const tidiedAt: number[] = []
  let writes = 0
  while (generation() < 2 * FTS_TIDY_WRITES + 20) {
    const item = products[Math.floor(random() * 200)]!
    if (writes % 5 === 4) await index.remove(item.id as string)
    else await index.upsert([{ document: { ...item, description: `${String(item.description)} revised ${writes}` }, vector: null }])
    writes++
    if (meta('fts_tidied') !== undefined && Number(meta('fts_tidied')) === generation() && !tidiedAt.includes(generation())) {
      tidiedAt.push(generation())
      const rows = structureRows()
      t.equal(compactRows(), rows, `right after the merge at write ${generation()}, the index is as compact as an 'optimize' makes it`)
    }
  }
  const first = tidiedAt[0]!
  t.ok(first <= FTS_TIDY_WRITES + 2, `the first merge came with the catalog's first FTS_TIDY_WRITES writes (at ${first})`)
  t.same(tidiedAt.slice(1).map((g, i) => g - tidiedAt[i]!), [FTS_TIDY_WRITES], 'then every FTS_TIDY_WRITES writes')
  const pile = structureRows()
  t.ok(pile > compactRows(), 'the writes since the last merge left segments an optimize compacts')

  const revised = await index.search({ q: 'revised', filter: null, facets: [], limit: 1, offset: 0 })
  t.ok(revised.estimatedTotalHits > 0, 'the revised items are found')
  const fresh = new EmbeddedIndex(file, embedder)
  t.teardown(() => fresh.close())
  t.same(await fresh.search({ q: 'revised jacket', filter: null, facets: [], limit: 50, offset: 0 }),
    await index.search({ q: 'revised jacket', filter: null, facets: [], limit: 50, offset: 0 }), 'an index opened afresh answers the same')
})
