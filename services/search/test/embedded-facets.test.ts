// Embedded engine only: facet counts come from three places (SQL over the matches' rows while an
// attribute is cold, the matches' own values once its postings are in memory, or the postings against
// a bitmap when the matches are many); each must give the counts a plain count over the documents gives,
// and a facet search (always from the postings) the counts of the search's facetDistribution.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { EmbeddedIndex } from '../src/engines/embedded/index.js'
import type { Document } from '../src/engine/port.js'
import { parseFilter } from '@chatsearch/filter'

const COLORS = ['Red', 'Blue', 'Green', 'Black']
const BRANDS = ['Trailmark', 'Pacer', 'Sonora']

/** 300 items: a third are boots; colours repeat every 4, brands every 3; every fifth has two tags, one with a mixed-case label. */
function catalog (): Document[] {
  return Array.from({ length: 300 }, (_, i) => ({
    id: `item-${i}`,
    title: `${i % 3 === 0 ? 'hiking boot' : 'rain jacket'} ${i}`,
    color: COLORS[i % 4]!,
    brand: BRANDS[i % 3]!,
    in_stock: i % 2 === 0,
    price: i,
    tags: i % 5 === 0 ? ['Sale', 'new'] : ['new']
  }))
}

/** The counts the facets must show, computed over the documents themselves. */
function expected (documents: Document[], attributes: string[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {}
  for (const attribute of attributes) {
    const counts: Record<string, number> = {}
    for (const d of documents) {
      const value = d[attribute]
      for (const v of Array.isArray(value) ? value : [value]) counts[String(v)] = (counts[String(v)] ?? 0) + 1
    }
    out[attribute] = counts
  }
  return out
}

t.test('facet counts are the same on every path, cold or warm, few matches or many', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-facets-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const index = new EmbeddedIndex(join(dir, 'index.sqlite'), { id: 'none', dimensions: 8 })
  t.teardown(() => index.close())
  const items = catalog()
  await index.updateSettings({ searchableAttributes: ['title'], filterableAttributes: ['in_stock', 'price'], facetableAttributes: ['color', 'brand', 'in_stock', 'tags'] })
  await index.upsert(items.map((document) => ({ document })))
  const facets = ['color', 'brand', 'in_stock', 'tags']
  const boots = items.filter((_, i) => i % 3 === 0)
  const cheapBootsInStock = boots.filter((d) => (d.price as number) < 100 && d.in_stock === true)
  const cases = [
    { name: 'keyword', query: { q: 'boot', filter: null }, matches: boots },
    { name: 'keyword + filter', query: { q: 'boot', filter: parseFilter('price < 100 AND in_stock = true') }, matches: cheapBootsInStock },
    { name: 'keyword matching most items', query: { q: 'jacket', filter: null }, matches: items.filter((_, i) => i % 3 !== 0) },
    { name: 'browse', query: { q: '', filter: null }, matches: items }
  ]
  for (const { name, query, matches } of cases) {
    // Five times: the first ones count cold attributes in SQL, the later ones from memory.
    for (let round = 0; round < 5; round++) {
      const result = await index.search({ ...query, facets, limit: 5, offset: 0 })
      t.same(result.facetDistribution, expected(matches, facets), `${name}, search ${round + 1}`)
      t.equal(result.estimatedTotalHits, matches.length, `${name}: total`)
    }
  }
})

t.test('facet search counts what facetDistribution counts, on every path, and follows writes', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-facets-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // No reader threads: the facet search runs in this thread's read transaction.
  const index = new EmbeddedIndex(join(dir, 'index.sqlite'), { id: 'none', dimensions: 8 })
  t.teardown(() => index.close())
  await index.updateSettings({ searchableAttributes: ['title'], filterableAttributes: ['in_stock', 'price'], facetableAttributes: ['color', 'brand', 'in_stock', 'tags'] })
  await index.upsert(catalog().map((document) => ({ document })))
  const facets = ['color', 'brand', 'in_stock', 'tags']
  const queries = [
    { q: 'boot', filter: null },
    { q: 'boot', filter: parseFilter('price < 100 AND in_stock = true') },
    { q: 'jacket', filter: null },
    { q: 'hiking jacket', filter: null },
    { q: '', filter: parseFilter('in_stock = false') },
    { q: '', filter: null }
  ]
  for (const query of queries) {
    // The distribution first, while the attributes are cold (counted in SQL); the facet search reads the postings.
    const distribution = (await index.search({ ...query, facets, limit: 5, offset: 0 })).facetDistribution!
    for (const facet of facets) {
      const hits = await index.facetSearch({ facet, facetQuery: '', ...query })
      t.same(Object.fromEntries(hits.map((h) => [h.value, h.count])), distribution[facet], `${facet} over "${query.q}"${query.filter === null ? '' : ' and a filter'}`)
    }
  }

  const trail = () => index.facetSearch({ facet: 'brand', facetQuery: 'trail', q: '', filter: null })
  t.same(await trail(), [{ value: 'Trailmark', count: 100 }])
  await index.upsert([{ document: { id: 'new-1', title: 'rain jacket new', color: 'Red', brand: 'Trailhead', in_stock: true, price: 5, tags: ['new'] } }])
  t.same(await trail(), [{ value: 'Trailmark', count: 100 }, { value: 'Trailhead', count: 1 }], 'a value added by a write is found')
  await index.upsert([{ document: { id: 'new-1', title: 'rain jacket new', color: 'Red', brand: 'Pacer', in_stock: true, price: 5, tags: ['new'] } }])
  t.same(await trail(), [{ value: 'Trailmark', count: 100 }], 'and no longer once no item holds it')
  t.same(await index.facetSearch({ facet: 'brand', facetQuery: 'pac', q: '', filter: null }), [{ value: 'Pacer', count: 101 }])
  await index.remove('new-1')
  t.same(await index.facetSearch({ facet: 'brand', facetQuery: 'pac', q: '', filter: null }), [{ value: 'Pacer', count: 100 }], 'a removal counts too')
})
