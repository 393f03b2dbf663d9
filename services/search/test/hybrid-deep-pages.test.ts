// A hybrid search reads each side only so deep (hybridDepth: about a thousand ranks). Its total counts
// every keyword match, so the pages past what the two sides merge into must hold the rest: walking
// those pages gives each hit once, as many as the total says. The embedded engine's concern: Meilisearch
// pages its own hybrid results.
//
// Every page here ends past the depth's cap, so each reads both sides equally deep. Pages ending
// sooner read less deep (as Meilisearch's hybrid search does: offset + limit on each side), and a hit
// near a page's edge can then move between neighbouring pages.
import t from 'tap'
import { ids, searchHarness, send } from './helpers.js'

const COUNT = 1150
const COLOURS = ['red', 'blue', 'green', 'black', 'white']
const ITEMS = Array.from({ length: COUNT }, (_, i) => ({
  id: `lamp-${String(i).padStart(4, '0')}`,
  title: `${COLOURS[i % COLOURS.length]!} lamp model ${i}${i % 3 === 0 ? ' with brass shade' : ''}`,
  price: 10 + (i % 97)
}))

t.test('every page of a deep hybrid search holds hits until the total is reached, each hit once', async (t) => {
  // The static embedder: no model runs per item, and the merge's depth does not depend on the vectors.
  const h = await searchHarness(t, true, { embedder: 'static' })
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'PUT', '/settings', { searchableAttributes: ['title'], filterableAttributes: ['price'], facetableAttributes: [] })).statusCode, 200)
  t.equal((await send(h.app, shop.key, 'POST', '/documents', ITEMS)).statusCode, 200)

  for (const [name, body] of [
    ['every lamp', { search_term: 'lamp', search_type: 'hybrid', semantic_ratio: 0.5 }],
    ['filtered', { search_term: 'lamp', search_type: 'hybrid', semantic_ratio: 0.5, filters: 'price >= 12' }],
    ['words dropped by the matching strategy', { search_term: 'lamp brass', search_type: 'hybrid', semantic_ratio: 0.3 }]
  ] as const) {
    t.test(name, async (t) => {
      const seen: string[] = []
      let total = -1
      const limit = 100
      const first = await send(h.app, shop.key, 'POST', '/search', { ...body, offset: 0, limit: 1000 })
      t.equal(ids(first.json()).length, 1000)
      seen.push(...ids(first.json()))
      for (let offset = 1000; offset < 2000; offset += limit) {
        const res = await send(h.app, shop.key, 'POST', '/search', { ...body, offset, limit })
        t.equal(res.statusCode, 200)
        const page = res.json()
        total = page.estimatedTotalHits
        const hits = ids(page)
        t.equal(hits.length, Math.max(0, Math.min(limit, total - offset)), `offset ${offset}: a full page until the total (${total})`)
        seen.push(...hits)
        if (hits.length < limit) break
      }
      t.ok(total > 1030, `more matches (${total}) than one side reads`)
      t.equal(seen.length, total, 'as many hits as the total')
      t.equal(new Set(seen).size, seen.length, 'each hit once')
      const deep = await send(h.app, shop.key, 'POST', '/search', { ...body, offset: total - 30, limit: 50 })
      t.same(ids(deep.json()), seen.slice(total - 30), 'a page starting anywhere agrees with the walk')
    })
  }
})
