// Embedded engine only: facet counts come from three places (SQL over the matches' rows while an
// attribute is cold, the matches' own values once its postings are in memory, or the postings against
// a bitmap when the matches are many); each must give the counts a plain count over the documents gives.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { EmbeddedIndex } from '../src/engines/embedded/index.js'
import type { Document } from '../src/engine/port.js'
import { parseFilter } from '../src/filter/index.js'

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
