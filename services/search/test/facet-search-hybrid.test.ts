// POST /facet-search with search_type hybrid: the values counted over the items a hybrid search
// matches, exactly as POST /search's facetDistribution counts them: the keyword matches and the items
// the semantic side reads for a first page of the default limit, whatever page the search asked. The
// catalog is larger than that (limit 20 + a margin of 20), so a hybrid count differs from a keyword one.
// The embedded engine over HTTP; Meilisearch's translation is checked in meilisearch-translate.test.ts.
import t from 'tap'
import { limits, type FacetHit } from '@chatsearch/contracts'
import { searchHarness, send } from './helpers.js'

const KINDS = ['lamp', 'chair', 'table', 'rug', 'vase']
const BRANDS = ['Harbor', 'Plume', 'Loomwell', 'Émile']
const ITEMS = Array.from({ length: 120 }, (_, i) => ({
  id: `item-${String(i).padStart(3, '0')}`,
  title: `${KINDS[i % KINDS.length]!} ${i % 7 === 0 ? 'with brass details' : 'in oak'} ${i}`,
  brand: BRANDS[i % BRANDS.length]!,
  in_stock: i % 3 !== 0,
  price: 10 + i
}))

const SETTINGS = { searchableAttributes: ['title'], filterableAttributes: ['in_stock', 'price'], facetableAttributes: ['brand', 'in_stock'] }

const counts = (hits: FacetHit[]) => Object.fromEntries(hits.map((x) => [x.value, x.count]))

t.test('a hybrid facet search counts what a hybrid search\'s facetDistribution counts', async (t) => {
  // The static embedder: no model runs per item; the counts depend on which items each side reads, not on how good the vectors are.
  const h = await searchHarness(t, true, { embedder: 'static', cacheTtlS: 60 })
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'PUT', '/settings', SETTINGS)).statusCode, 200)
  t.equal((await send(h.app, shop.key, 'POST', '/documents', ITEMS)).statusCode, 200)
  const facetHits = async (body: Record<string, unknown>) => {
    const res = await send(h.app, shop.key, 'POST', '/facet-search', body)
    t.equal(res.statusCode, 200, `${JSON.stringify(body)}: ${res.body}`)
    return res.json().facet_hits as FacetHit[]
  }

  const searches: Array<Record<string, unknown>> = [
    { search_term: 'brass', search_type: 'hybrid' },
    { search_term: 'brass', search_type: 'hybrid', semantic_ratio: 0.3 },
    { search_term: 'brass', search_type: 'hybrid', semantic_ratio: 1 },
    { search_term: 'brass', search_type: 'hybrid', semantic_ratio: 0 },
    { search_term: 'oak lamp', search_type: 'hybrid', matching_strategy: 'all' },
    { search_term: 'brass chair', search_type: 'hybrid', filters: 'in_stock = true' },
    { search_term: '', search_type: 'hybrid' },
    { search_term: 'brass', search_type: 'keyword' }
  ]
  for (const search of searches) {
    // No limit: the default page, whose depth a hybrid search's facetDistribution depends on.
    const res = await send(h.app, shop.key, 'POST', '/search', { ...search, facets: ['brand', 'in_stock'] })
    t.equal(res.statusCode, 200)
    const distribution = res.json().facetDistribution as Record<string, Record<string, number>>
    for (const facet of ['brand', 'in_stock']) {
      t.same(counts(await facetHits({ facet_name: facet, ...search })), distribution[facet], `${facet} over ${JSON.stringify(search)}`)
    }
  }

  for (const page of [{ limit: 5 }, { limit: 10 }, { limit: 100 }, { offset: 60, limit: 20 }]) {
    const search = { search_term: 'brass', search_type: 'hybrid', filters: 'price > 20' }
    const res = await send(h.app, shop.key, 'POST', '/search', { ...search, ...page, facets: ['brand'] })
    t.same(res.json().facetDistribution.brand, counts(await facetHits({ facet_name: 'brand', ...search })),
      `the same counts on a page of ${JSON.stringify(page)}: a hybrid search's facets do not change as a shopper pages`)
  }

  const keyword = counts(await facetHits({ facet_name: 'brand', search_term: 'brass' }))
  const hybrid = counts(await facetHits({ facet_name: 'brand', search_term: 'brass', search_type: 'hybrid' }))
  const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0)
  t.equal(total(keyword), ITEMS.filter((i) => i.title.includes('brass')).length, 'keyword: the items holding the word')
  t.ok(total(hybrid) > total(keyword), `hybrid counts the semantic side's items too (${total(hybrid)} > ${total(keyword)}), from the cache or not`)
  t.ok(total(hybrid) < ITEMS.length, `but not every item: the semantic side reads ${limits.searchLimitDefault} + a margin`)
  t.same(counts(await facetHits({ facet_name: 'brand', search_term: 'brass', search_type: 'hybrid', semantic_ratio: 0 })), keyword,
    'a ratio of 0 is the keyword search')
  t.same(counts(await facetHits({ facet_name: 'brand', search_term: 'brass' })), keyword, 'the keyword answer cached apart from the hybrid one')
  t.same((await facetHits({ facet_name: 'brand', facet_query: 'har', search_term: 'brass', search_type: 'hybrid' })).map((x) => x.value), ['Harbor'],
    'facet_query narrows the values as before')
})

t.test('search_type hybrid on a server without embeddings: 400 hybrid_search_disabled', async (t) => {
  const h = await searchHarness(t, false)
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'PUT', '/settings', SETTINGS)).statusCode, 200)
  t.equal((await send(h.app, shop.key, 'POST', '/documents', ITEMS.slice(0, 5))).statusCode, 200)
  const res = await send(h.app, shop.key, 'POST', '/facet-search', { facet_name: 'brand', search_term: 'brass', search_type: 'hybrid' })
  t.equal(res.statusCode, 400)
  t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'], 'the documented error body')
  t.equal(res.json().code, 'hybrid_search_disabled')
  t.equal((await send(h.app, shop.key, 'POST', '/facet-search', { facet_name: 'brand', search_term: 'brass', search_type: 'keyword' })).statusCode, 200)
  for (const bad of [{ search_type: 'semantic' }, { semantic_ratio: 1.5 }, { semantic_ratio: 'high' }]) {
    const refused = await send(h.app, shop.key, 'POST', '/facet-search', { facet_name: 'brand', ...bad })
    t.equal(refused.statusCode, 400, JSON.stringify(bad))
    t.equal(refused.json().code, 'invalid_request', JSON.stringify(bad))
  }
})
