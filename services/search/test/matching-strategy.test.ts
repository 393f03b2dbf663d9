// POST /search's matching_strategy (Meilisearch's matchingStrategy), the same on every engine: which
// query words a hit must contain, hits matching more words first, totals and facets over every hit.
import t, { type Test } from 'tap'
import { ENGINES, ids, send, withCatalog, type EngineKind } from './helpers.js'

/** Beside the mini catalog: "linen" in two items (most in the armchair), "rug" in one, "do" in none. */
const FURNITURE = [
  { id: 'sofa-1', title: 'Harbor Linen Sofa', description: 'Three seats with washable covers.', price: 899, category: 'Sofas', brand: 'Harbor', in_stock: true, rating: 4.5, tags: ['washable'], color: 'Grey' },
  { id: 'chair-1', title: 'Harbor Linen Armchair', description: 'Linen covers on linen cushions.', price: 349, category: 'Chairs', brand: 'Harbor', in_stock: true, rating: 4.2, tags: ['linen'], color: 'Beige' },
  { id: 'rug-1', title: 'Loomwell Woven Wool Rug', description: 'A flat woven rug for the living room.', price: 189, category: 'Rugs', brand: 'Loomwell', in_stock: false, rating: 4.0, tags: ['wool'], color: 'Blue' }
]

const suite = (engine: EngineKind) => async (t: Test) => {
  const { h, shop, search } = await withCatalog(t, engine)
  t.equal((await send(h.app, shop.key, 'POST', '/documents', FURNITURE)).statusCode, 200)
  const sentence = 'linen sofa for a small flat'

  t.test('last (the default) drops words from the end of a sentence until items match', async (t) => {
    const found = await search({ search_term: sentence })
    t.same(ids(found), ['sofa-1', 'chair-1'], '"linen sofa" first, then "linen" alone')
    t.same(ids(await search({ search_term: sentence, matching_strategy: 'last' })), ids(found), 'last is the default')
    t.same(ids(await search({ search_term: sentence, matching_strategy: 'all' })), [], 'all: no item holds every word')
    t.same(ids(await search({ search_term: 'linen rug' })), ['chair-1', 'sofa-1'], '"rug" dropped: the linen items, the armchair (more linen) first')
    t.same(ids(await search({ search_term: 'do you sell sofas?' })), [], 'as in Meilisearch, the first word is never dropped, and no item holds "do"')
    t.same(ids(await search({ search_term: 'do you sell sofas?', matching_strategy: 'all' })), [])
  })

  t.test('frequency drops the words in the most items first', async (t) => {
    t.same(ids(await search({ search_term: 'do you sell sofas?', matching_strategy: 'frequency' })), ['sofa-1'],
      '"do", "you" and "sell" are in no item: dropped first; "sofas" finds the sofa')
    t.same(ids(await search({ search_term: 'linen rug', matching_strategy: 'frequency' })), ['rug-1'], '"linen" (two items) before "rug" (one)')
    t.same(ids(await search({ search_term: sentence, matching_strategy: 'frequency' })), [],
      'the rarest words ("sofa", "small" and "flat", in one item each) are never dropped, and no item holds the three')
  })

  t.test('documents matching more query words rank first', async (t) => {
    const scored = await search({ search_term: sentence, show_ranking_score: true })
    t.same(ids(scored), ['sofa-1', 'chair-1'], 'the sofa matches two words, the armchair (with more "linen") one')
    const [sofa, chair] = scored.hits.map((h: { _rankingScore: number }) => h._rankingScore)
    t.ok(sofa > chair && chair > 0, `scores follow: ${sofa} > ${chair}`)
    if (engine === 'embedded') t.same([sofa, chair], [0.2667, 0.1333], 'the embedded scale: 0.8 × two of six words, 0.8 × one of six')
    const boots = ids(await search({ search_term: 'hiking boot waterproof' }))
    t.same(boots.slice(0, 2).sort(), ['boot-1', 'boot-2'], 'every word first')
    t.equal(boots[2], 'boot-3', 'then "hiking boot"')
  })

  t.test('a query whose every word matches answers as before, first: partial matches only follow', async (t) => {
    for (const q of ['trailmark boot', 'hiking boot waterproof', 'wireless headphones', 'noise canc', 'hikng boots']) {
      const all = await search({ search_term: q, matching_strategy: 'all', limit: 50 })
      const last = await search({ search_term: q, limit: 50 })
      t.ok(all.hits.length > 0, `${q}: every word matches`)
      t.same(ids(last).slice(0, all.hits.length), ids(all), `${q}: the same hits in the same order first`)
    }
    for (const q of ['boot', 'headphones', 'linen', 'hikng']) {
      const all = await search({ search_term: q, matching_strategy: 'all', facets: ['brand'] })
      const last = await search({ search_term: q, facets: ['brand'] })
      t.same({ ...last, processingTimeMs: 0, query_id: '' }, { ...all, processingTimeMs: 0, query_id: '' }, `${q}: one word, one answer`)
    }
  })

  t.test('totals and facets count the same items as the hits', async (t) => {
    for (const strategy of ['last', 'frequency', 'all']) {
      for (const q of [sentence, 'linen rug', 'hiking boot waterproof', 'noise cancelling kettle']) {
        const what = `${strategy} "${q}"`
        const whole = await search({ search_term: q, matching_strategy: strategy, facets: ['brand', 'in_stock'], limit: 100 })
        t.equal(whole.estimatedTotalHits, whole.hits.length, `${what}: total`)
        const brands: Record<string, number> = {}
        for (const hit of whole.hits) brands[hit.brand] = (brands[hit.brand] ?? 0) + 1
        t.same(whole.facetDistribution.brand, brands, `${what}: facet counts`)
        const pages = [
          ...ids(await search({ search_term: q, matching_strategy: strategy, limit: 2 })),
          ...ids(await search({ search_term: q, matching_strategy: strategy, limit: 2, offset: 2 })),
          ...ids(await search({ search_term: q, matching_strategy: strategy, limit: 100, offset: 4 }))
        ]
        t.same(pages, ids(whole), `${what}: pages in the same order`)
        t.equal((await search({ search_term: q, matching_strategy: strategy, limit: 0 })).estimatedTotalHits, whole.hits.length, `${what}: total with limit 0`)
        // A page of none still counts (Meilisearch's way to ask for facets only), with and without a filter.
        const counts = await search({ search_term: q, matching_strategy: strategy, facets: ['brand', 'in_stock'], limit: 0 })
        t.same([counts.hits, counts.estimatedTotalHits, counts.facetDistribution], [[], whole.estimatedTotalHits, whole.facetDistribution], `${what}: totals and facets with limit 0`)
        const countsFiltered = await search({ search_term: q, matching_strategy: strategy, filters: 'in_stock = true', facets: ['in_stock'], limit: 0 })
        const inStockCount = whole.hits.filter((hit: { in_stock: boolean }) => hit.in_stock).length
        t.equal(countsFiltered.estimatedTotalHits, inStockCount, `${what}: filtered total with limit 0`)
        t.same(countsFiltered.facetDistribution, inStockCount === 0 ? { in_stock: {} } : { in_stock: { true: inStockCount } }, `${what}: filtered facets with limit 0`)
        const inStock = await search({ search_term: q, matching_strategy: strategy, filters: 'in_stock = true', facets: ['in_stock'] })
        t.same(ids(inStock), whole.hits.filter((hit: { in_stock: boolean }) => hit.in_stock).map((hit: { id: string }) => hit.id), `${what}: a filter narrows the same ranking`)
        t.equal(inStock.estimatedTotalHits, inStock.hits.length)
        t.same(inStock.facetDistribution, inStock.hits.length === 0 ? { in_stock: {} } : { in_stock: { true: inStock.hits.length } })
        // Pages of one, so that a page ends inside a level and the levels after it are counted, not read.
        const filtered: string[] = []
        for (let offset = 0; offset <= inStock.hits.length; offset++) {
          const one = await search({ search_term: q, matching_strategy: strategy, filters: 'in_stock = true', limit: 1, offset })
          t.equal(one.estimatedTotalHits, inStock.hits.length, `${what}: filtered total at offset ${offset}`)
          filtered.push(...ids(one))
        }
        t.same(filtered, ids(inStock), `${what}: filtered pages of one in the same order`)
      }
    }
    t.same(ids(await search({ search_term: 'noise cancelling kettle' })), ['audio-1'], '"noise cancelling" without the kettle')
    for (const [what, query] of [['browse', { search_term: '' }], ['filtered browse', { search_term: '', filters: 'in_stock = true' }], ['hybrid', { search_term: 'linen rug', search_type: 'hybrid', semantic_ratio: 0.5 }]] as const) {
      const whole = await search({ ...query, facets: ['brand'], limit: 100 })
      const counts = await search({ ...query, facets: ['brand'], limit: 0 })
      t.same([counts.hits, counts.estimatedTotalHits, counts.facetDistribution], [[], whole.estimatedTotalHits, whole.facetDistribution], `${what}: totals and facets with limit 0`)
    }
  })

  t.test('hybrid search: the keyword side matches words as asked', async (t) => {
    for (const strategy of ['last', 'all']) {
      const keyword = await search({ search_term: 'linen rug', matching_strategy: strategy, limit: 10 })
      const ratioZero = await search({ search_term: 'linen rug', search_type: 'hybrid', semantic_ratio: 0, matching_strategy: strategy, limit: 10 })
      t.same(ids(ratioZero), ids(keyword), `${strategy}: ratio 0 is the keyword result exactly`)
      const mixed = await search({ search_term: 'linen rug', search_type: 'hybrid', semantic_ratio: 0.5, matching_strategy: strategy, facets: ['brand'], limit: 100 })
      t.equal(mixed.estimatedTotalHits, mixed.hits.length, `${strategy}: total`)
      t.equal(Object.values(mixed.facetDistribution.brand as Record<string, number>).reduce((a, b) => a + b, 0), mixed.hits.length, `${strategy}: facets`)
    }
    const first = async (strategy: string) => ids(await search({ search_term: 'linen rug', search_type: 'hybrid', semantic_ratio: 0.2, matching_strategy: strategy, limit: 3 }))
    t.ok((await first('last')).includes('chair-1'), 'last: the linen items found by keyword count')
  })

  t.test('words after the tenth are ignored, as in Meilisearch', async (t) => {
    const nine = 'hiking '.repeat(9)
    const boots = ['boot-1', 'boot-2', 'boot-3']
    t.same(ids(await search({ search_term: `${nine}boot kettle`, matching_strategy: 'all' })).sort(), boots, 'the eleventh word does not count')
    t.same(ids(await search({ search_term: `${nine}boo`, matching_strategy: 'all' })).sort(), boots, 'the tenth word is a prefix when the query ends with it')
    t.same(ids(await search({ search_term: `${nine}boo kettle`, matching_strategy: 'all' })), [], 'not when a word follows it')
  })

  t.test('totals follow the catalog: an item matching fewer words, added then removed', async (t) => {
    const total = async () => (await search({ search_term: 'hiking boot', limit: 1 })).estimatedTotalHits
    const before = await total()
    t.equal((await send(h.app, shop.key, 'POST', '/documents', [{ id: 'poles-1', title: 'Hiking Poles', description: 'Two poles.', price: 59, category: 'Hiking Gear', brand: 'Trailmark', in_stock: true, rating: 4, tags: [], color: 'Black' }])).statusCode, 200)
    t.equal(await total(), before + 1, 'counted at once, the page being full of every-word matches')
    t.equal((await send(h.app, shop.key, 'DELETE', '/documents/poles-1')).statusCode, 200)
    t.equal(await total(), before)
  })

  t.test('an unknown strategy is refused with the error body', async (t) => {
    for (const strategy of ['any', 'LAST', '', null, 1]) {
      const res = await send(h.app, shop.key, 'POST', '/search', { search_term: 'boot', matching_strategy: strategy })
      t.equal(res.statusCode, 400, JSON.stringify(strategy))
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'])
      t.equal(res.json().code, 'invalid_request')
      t.match(res.json().message, /matching_strategy/)
    }
  })

  t.test('hybrid totals count a semantic hit found by keyword past the keyword side\'s depth once', async (t) => {
    // More "linen" items than the depth a page of one or two reads on each side (the page plus 20).
    const cushions = Array.from({ length: 40 }, (_, i) => ({
      id: `cushion-${i}`, title: `Linen Cushion ${i}`, description: 'A square cushion.', price: 20 + i, category: 'Cushions', brand: 'Harbor', in_stock: true, rating: 4, tags: [], color: 'Grey'
    }))
    t.equal((await send(h.app, shop.key, 'POST', '/documents', cushions)).statusCode, 200)
    for (const strategy of ['last', 'all']) {
      for (const limit of [1, 2]) {
        const query = { search_term: 'linen cushion', search_type: 'hybrid', semantic_ratio: 0.5, matching_strategy: strategy, limit }
        const plain = await search(query)
        const faceted = await search({ ...query, facets: ['brand'] })
        t.ok(plain.estimatedTotalHits >= 40, `${strategy}, limit ${limit}: ${plain.estimatedTotalHits} hits`)
        t.equal(plain.estimatedTotalHits, faceted.estimatedTotalHits, `${strategy}, limit ${limit}: the same total as counted over every match`)
      }
    }
  })
}

for (const engine of ENGINES) t.test(`matching strategy (${engine} engine)`, suite(engine))
