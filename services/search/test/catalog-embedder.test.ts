// CATALOG_EMBEDDER: the catalogs embedded by one bundled embedder (the static one, here) while the
// knowledge keeps EMBEDDER's (USE-lite), each index holding its own embedder's vectors and each
// hybrid search embedding its query with the embedder of the index it searches. Read back from the
// index files themselves: the embedder a catalog's vectors are of, and each knowledge page's.
import t from 'tap'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { searchHarness, send } from './helpers.js'

const ITEMS = [
  { id: 'boot', title: 'Waterproof hiking boot', description: 'Leather boot with a grippy sole for muddy trails' },
  { id: 'mug', title: 'Enamel camping mug', description: 'A mug for coffee at the campsite' },
  { id: 'lamp', title: 'Head torch', description: 'A light worn on the forehead, 300 lumens' }
]
const PAGES = [
  { id: 'returns', title: 'Returns', content: '# Returns\n\nYou can send an item back within 30 days of delivery for a full refund.' },
  { id: 'shipping', title: 'Shipping', content: '# Shipping\n\nStandard delivery takes 3 to 5 working days.' }
]

t.test('catalogs and knowledge embedded by two embedders, each searched with its own', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'catalog-embedder-'))
  const h = await searchHarness(t, true, { dataDir, embedder: 'use-lite', catalogEmbedder: 'static' })
  const shop = await h.tenant()
  // The title alone is searchable, so it is what each item embeds.
  t.equal((await send(h.app, shop.key, 'PUT', '/settings', { searchableAttributes: ['title'], filterableAttributes: [], facetableAttributes: [] })).statusCode, 200)
  t.equal((await send(h.app, shop.key, 'POST', '/documents', ITEMS)).statusCode, 200)
  t.equal((await send(h.app, shop.key, 'POST', '/knowledge/documents', PAGES)).statusCode, 200)

  const dir = join(dataDir, 'search')
  const catalog = new Database(join(dir, `${shop.projectId}.sqlite`), { readonly: true })
  t.teardown(() => catalog.close())
  t.equal((catalog.prepare('SELECT value FROM meta WHERE key = ?').get('embedder') as { value: string }).value, 'use-lite-static-v1:512',
    'the catalog holds the static embedder\'s vectors')
  const knowledge = new Database(join(dir, `${shop.projectId}.knowledge.sqlite`), { readonly: true })
  t.teardown(() => knowledge.close())
  t.same(knowledge.prepare('SELECT DISTINCT embedder FROM documents').all(), [{ embedder: 'use-lite:512' }], 'the knowledge USE-lite\'s')

  // A query that is an item's embedded text exactly (its title) embeds
  // to that item's own vector only with the catalog's embedder: a cosine of 1, where another model's
  // query vector would be unrelated to it.
  const exact = await send(h.app, shop.key, 'POST', '/search', { search_term: 'Enamel camping mug', search_type: 'hybrid', semantic_ratio: 1, limit: 1, show_ranking_score: true })
  const [top] = exact.json().hits as Array<{ id: string, _rankingScore: number }>
  t.equal(top?.id, 'mug')
  t.ok(top!._rankingScore > 0.99, `the query embedded by the catalog's embedder: its own vector (score ${top?._rankingScore})`)
  const passages = await send(h.app, shop.key, 'POST', '/knowledge/search', { query: 'how long until my parcel arrives', search_type: 'hybrid', limit: 1 })
  t.equal(passages.statusCode, 200)
  t.same(passages.json().hits.map((hit: { document_id: string }) => hit.document_id), ['shipping'], 'a knowledge search by meaning')
})
