// Embedded engine only: after a write, an index whose derived data (vocabulary, facet postings,
// filter index, vector codes) were in memory patches them from the change log instead of dropping
// them. Whatever path it takes, it must answer exactly as an index opened afresh on the same file.
import t, { type Test } from 'tap'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { mulberry32, productsOf } from '../catalog/generate.js'
import type { Document, EngineIndex, PreparedDocument, SearchQuery } from '../src/engine/port.js'
import { EmbeddedEngine } from '../src/engines/embedded/engine.js'
import { EmbeddedIndex } from '../src/engines/embedded/index.js'
import { Vocabulary } from '../src/engines/embedded/typo.js'
import { parseFilter } from '@chatsearch/filter'

const DIMENSIONS = 16
const embedder = { id: 'test:16', dimensions: DIMENSIONS }
const settings = {
  searchableAttributes: ['title', 'brand', 'category', 'description', 'tags'],
  filterableAttributes: ['price', 'brand', 'in_stock', 'tags', 'color', 'category'],
  facetableAttributes: ['brand', 'category', 'color', 'tags', 'in_stock']
}
const FACETS = settings.facetableAttributes
const random = mulberry32(5)
function unitVector (): Float32Array {
  const v = Float32Array.from({ length: DIMENSIONS }, () => random() * 2 - 1)
  const norm = Math.hypot(...v)
  return v.map((x) => x / norm)
}
const queryVector = unitVector()
/** With a random vector, except 'new-2', which gets the query's own: the semantic side must find it first. */
const prepared = (documents: Document[]): PreparedDocument[] => documents.map((document) => ({ document, vector: document.id === 'new-2' ? queryVector : unitVector() }))
const products = [...productsOf(300, 42)] as unknown as Document[]

/** What the checks ask: keyword, typos (of words that come and go), filters, facets, browsing, hybrid, suggestions. */
const searches: SearchQuery[] = [
  { q: 'hiking boot', filter: null, facets: [], limit: 10, offset: 0 },
  { q: 'zephyrwool', filter: null, facets: FACETS, limit: 10, offset: 0 },
  { q: 'zephyrwol', filter: null, facets: [], limit: 10, offset: 0, rankingScore: true },
  { q: 'quixotronic', filter: null, facets: [], limit: 10, offset: 0 },
  { q: 'quixotronik', filter: null, facets: FACETS, limit: 10, offset: 0 },
  { q: 'waterproof', filter: parseFilter('price < 120 AND in_stock = true'), facets: FACETS, limit: 20, offset: 0 },
  { q: '', filter: parseFilter('brand = Glimmerfold OR tags = limited OR price 10 TO 40'), facets: FACETS, limit: 20, offset: 5 },
  { q: '', filter: parseFilter('NOT color EXISTS'), facets: FACETS, limit: 50, offset: 0 },
  { q: '', filter: null, facets: FACETS, limit: 30, offset: 280 },
  { q: 'jacket', filter: parseFilter('price >= 50'), facets: ['brand'], limit: 10, offset: 0, hybrid: { semanticRatio: 0.6, vector: queryVector }, rankingScore: true },
  { q: 'lamp', filter: null, facets: FACETS, limit: 10, offset: 0, hybrid: { semanticRatio: 1, vector: queryVector } }
]

async function answers (index: EngineIndex) {
  const results = []
  for (const query of searches) results.push(await index.search(query))
  return {
    results,
    suggest: await index.suggest('zeph', 10, 0),
    suggestGone: await index.suggest('quix', 10, 0),
    correct: await index.correct('zephyrwol quixotronik hikng')
  }
}

/** The writes, one after the other: new items, items edited (new words, other facet values, a vector dropped), items removed. */
async function changeCatalog (index: EngineIndex) {
  const steps: Array<{ what: string, run: () => Promise<unknown> }> = [
    { what: 'new items, one with a new word', run: () => index.upsert(prepared([{ id: 'new-1', title: 'Zephyrwool Hiking Boot', brand: 'Glimmerfold', price: 35, in_stock: true, tags: ['limited'], category: 'Outdoor' }, { id: 'new-2', title: 'Quixotronic Lamp', brand: 'Lumen', price: 15, in_stock: false, color: 'Teal' }])) },
    { what: 'existing items edited', run: () => index.upsert([{ document: { ...products[3]!, brand: 'Glimmerfold', price: 12, tags: ['limited'], title: 'Zephyrwool Waterproof Jacket' }, vector: null }, ...prepared([{ ...products[7]!, color: 'Teal', in_stock: false }])]) },
    { what: 'an item with the only occurrence of a word removed', run: () => index.remove('new-2') },
    { what: 'the newest item removed', run: () => index.remove('new-1') },
    { what: 'a removed id written again', run: () => index.upsert(prepared([{ id: 'new-2', title: 'Quixotronic Desk Lamp', brand: 'Lumen', price: 22, in_stock: true }])) },
    { what: 'an item removed', run: () => index.remove(String(products[10]!.id)) }
  ]
  return steps
}

async function tempDir (t: Test) {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-changes-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}

t.test('after each write, an index with its derived data in memory answers as one opened afresh', async (t) => {
  const dir = await tempDir(t)
  const file = join(dir, 'shop.sqlite')
  const writer = new EmbeddedIndex(file, embedder)
  t.teardown(() => writer.close())
  await writer.updateSettings(settings)
  await writer.upsert(prepared(products))
  // Another connection, as a reader thread has: it learns of the writes through data_version.
  const other = new EmbeddedIndex(file, embedder)
  t.teardown(() => other.close())
  t.same(await answers(other), await answers(writer), 'same answers before any change')
  const rows = new Database(file, { readonly: true })
  t.teardown(() => rows.close())

  for (const { what, run } of await changeCatalog(writer)) {
    await run()
    const fresh = new EmbeddedIndex(file, embedder)
    const expected = await answers(fresh)
    fresh.close()
    t.same(await answers(writer), expected, `${what}: the writing index`)
    t.same(await answers(other), expected, `${what}: another connection`)
    t.equal(await other.count(), rows.prepare('SELECT count(*) FROM documents').pluck().get(), `${what}: the count of documents`)
  }
  const last = await answers(writer)
  t.ok(last.results[1]!.estimatedTotalHits > 0, 'the edited item is found by its new word')
  t.equal(last.results[3]!.estimatedTotalHits, 1, 'the item written again is found')
  t.same(last.correct.split(' ').slice(0, 2), ['zephyrwool', 'quixotronic'], 'typos are corrected to words that came later')
  t.equal(last.results[10]!.hits[0]!.id, 'new-2', 'the semantic side finds a vector written later')

  t.equal(rows.prepare('SELECT count(*) FROM changes').pluck().get(), 7, 'every write of documents is in the change log')
})

t.test('reader threads patch their derived data and answer as a fresh index', async (t) => {
  const dir = await tempDir(t)
  const pooled = new EmbeddedEngine(dir, embedder, 2)
  t.teardown(() => pooled.close())
  const writer = await pooled.index('shop')
  await writer.updateSettings(settings)
  await writer.upsert(prepared(products))
  // Both readers load their derived data (requests go to the least busy one).
  await Promise.all([answers(writer), answers(writer)])

  for (const { what, run } of await changeCatalog(writer)) {
    await run()
    const direct = new EmbeddedEngine(dir, embedder, 0)
    const expected = await answers(await direct.index('shop'))
    direct.close()
    const [a, b] = await Promise.all([answers(writer), answers(writer)])
    t.same(a.results, expected.results, `${what}: searches`)
    t.same(b.results, expected.results, `${what}: searches, the other reader`)
    t.same([a.suggest, a.suggestGone], [expected.suggest, expected.suggestGone], `${what}: suggestions`)
  }
})

t.test('a change of settings after patched writes still rebuilds everything derived', async (t) => {
  const dir = await tempDir(t)
  const file = join(dir, 'shop.sqlite')
  const writer = new EmbeddedIndex(file, embedder)
  t.teardown(() => writer.close())
  await writer.updateSettings(settings)
  await writer.upsert(prepared(products))
  const other = new EmbeddedIndex(file, embedder)
  t.teardown(() => other.close())
  await answers(other)
  await writer.upsert(prepared([{ id: 'new-1', title: 'Zephyrwool Hiking Boot', brand: 'Glimmerfold', price: 35 }]))
  await writer.updateSettings({ ...settings, searchableAttributes: ['title'], facetableAttributes: ['brand'], filterableAttributes: ['price'] })
  await writer.upsert(prepared([{ id: 'new-2', title: 'Quixotronic Lamp', brand: 'Lumen', price: 15 }]))
  const fresh = new EmbeddedIndex(file, embedder)
  t.teardown(() => fresh.close())
  const query = { q: 'hiking', filter: parseFilter('price < 40'), facets: ['brand'], limit: 10, offset: 0 }
  t.same(await other.search(query), await fresh.search(query))
  t.same(await other.correct('zephyrwol quixotronik'), await fresh.correct('zephyrwol quixotronik'))
})

t.test('a vocabulary grown term by term lists terms as one loaded sorted', async (t) => {
  const terms = ['boot', 'boots', 'bolt', 'book', 'booth', 'abbot', 'zebra', 'bott', 'bo', 'été', 'böot']
  const sorted = new Vocabulary([...terms].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))))
  const grown = new Vocabulary(['zebra', 'bott'])
  for (const term of ['booth', 'bo', 'böot', 'boots', 'été', 'abbot', 'book', 'bolt', 'boot', 'gone']) grown.add(term)
  grown.remove('gone')
  t.equal(grown.size, sorted.size)
  t.same(grown.fuzzy('boot', 1), sorted.fuzzy('boot', 1), 'fuzzy matches in the same order')
  t.same(grown.withPrefix('bo', 4), sorted.withPrefix('bo', 4), 'a truncated list of completions is the same')
  t.same(grown.fuzzyPrefix('bot', 1, 5), sorted.fuzzyPrefix('bot', 1, 5))
  t.notOk(grown.has('gone'), 'a removed term is gone')
  t.same(grown.fuzzy('gono', 1), [], 'and not found with a typo either')
})
