// POST /facet-search (Meilisearch's facet search), the same on every engine: the values of one
// facetable attribute that begin with facet_query (folded, typos by length), counted over the items a
// keyword search and its filters match exactly as POST /search's facetDistribution counts them; the
// most frequent first, at most 100; string and boolean values only.
import t, { type Test } from 'tap'
import { limits, type FacetHit } from '@chatsearch/contracts'
import { facetSearchKey, type FacetSearchRequestKey } from '../src/response-cache.js'
import { ENGINES, searchHarness, send, type EngineKind } from './helpers.js'

/**
 * Brands share beginnings (Harbor, Harbour Home) and carry accents (Émile, Lumière); colours hold
 * words after the first ("Navy Blue") and punctuation ("Navy-Blue"); `label` mixes numbers and
 * strings; `price` is numbers only.
 */
const ITEMS = [
  { id: 'sofa-1', title: 'Linen Sofa Grey', category: 'Sofas', brand: 'Harbor', color: 'Navy Blue', in_stock: true, price: 899, label: 10 },
  { id: 'sofa-2', title: 'Linen Sofa Blue', category: 'Sofas', brand: 'Harbor', color: 'Sky Blue', in_stock: false, price: 499, label: 'ten' },
  { id: 'cushion-1', title: 'Linen Cushion', category: 'Textiles', brand: 'Harbor', color: 'Navy Blue', in_stock: true, price: 29, label: 'tenth' },
  { id: 'chair-1', title: 'Velvet Armchair', category: 'Chairs', brand: 'Plume', color: 'Bluebell', in_stock: true, price: 700, label: 12 },
  { id: 'pouf-1', title: 'Velvet Pouf', category: 'Chairs', brand: 'Plume', color: 'Navy-Blue', in_stock: true, price: 50 },
  { id: 'lamp-1', title: 'Paper Lamp', category: 'Lighting', brand: 'Émile', color: 'White', in_stock: true, price: 45 },
  { id: 'lamp-2', title: 'Brass Lamp', category: 'Lighting', brand: 'Lumière', color: 'Gold', in_stock: false, price: 120 },
  { id: 'rug-1', title: 'Wool Rug', category: 'Textiles', brand: 'Loomwell', color: 'Blue', in_stock: false, price: 300 },
  { id: 'rug-2', title: 'Jute Rug', category: 'Textiles', brand: 'Loomwell', color: 'Natural', in_stock: true, price: 150 },
  { id: 'throw-1', title: 'Linen Throw', category: 'Textiles', brand: 'Harbour Home', color: 'Blue', in_stock: true, price: 60 }
]

const SETTINGS = {
  searchableAttributes: ['title'],
  filterableAttributes: ['in_stock', 'price', 'category'],
  facetableAttributes: ['brand', 'category', 'color', 'in_stock', 'label', 'price']
}

const hit = (value: string, count: number): FacetHit => ({ value, count })

const suite = (engine: EngineKind) => async (t: Test) => {
  // The response cache on: a facet query or a search missing from its key would answer one for another.
  const h = await searchHarness(t, false, { cacheTtlS: 60 }, engine)
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'PUT', '/settings', SETTINGS)).statusCode, 200)
  t.equal((await send(h.app, shop.key, 'POST', '/documents', ITEMS)).statusCode, 200)
  const facetSearch = async (body: Record<string, unknown>, key = shop.key) => {
    const res = await send(h.app, key, 'POST', '/facet-search', body)
    t.equal(res.statusCode, 200, `${JSON.stringify(body)}: ${res.body}`)
    return res.json() as { facet_hits: FacetHit[], facet_query: string, processingTimeMs: number }
  }
  const hits = async (facet: string, facetQuery?: string | null, extra: Record<string, unknown> = {}) =>
    (await facetSearch({ facet_name: facet, ...(facetQuery === undefined ? {} : { facet_query: facetQuery }), ...extra })).facet_hits
  const refused = async (body: unknown, status: number, code: string) => {
    const res = await send(h.app, shop.key, 'POST', '/facet-search', body)
    t.equal(res.statusCode, status, JSON.stringify(body))
    t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'], 'the documented error body')
    t.equal(res.json().code, code, JSON.stringify(body))
    return res.json() as { error: string, message: string }
  }

  t.test('the answer: facet_hits, the processed facet_query and the time taken', async (t) => {
    const body = await facetSearch({ facet_name: 'brand', facet_query: '  Har   ' })
    t.same(Object.keys(body).sort(), ['facet_hits', 'facet_query', 'processingTimeMs'])
    t.equal(body.facet_query, 'Har', 'trimmed, white space collapsed')
    t.same(body.facet_hits, [hit('Harbor', 3), hit('Harbour Home', 1)])
    t.equal((await facetSearch({ facet_name: 'brand' })).facet_query, '', 'none given: empty')
  })

  t.test('values beginning with the query, ignoring case and accents', async (t) => {
    t.same(await hits('brand', 'harbo'), [hit('Harbor', 3), hit('Harbour Home', 1)])
    t.same(await hits('brand', 'harbour h'), [hit('Harbour Home', 1)], 'a query of several words is the beginning of the whole value')
    t.same(await hits('brand', 'HARBOR'), [hit('Harbor', 3), hit('Harbour Home', 1)], 'case ignored ("harbour" is one typo from "harbor" too)')
    t.same(await hits('brand', 'emi'), [hit('Émile', 1)], 'the accent of the value ignored')
    t.same(await hits('brand', 'LUMIÈ'), [hit('Lumière', 1)], 'and the query\'s, shown as the item wrote it')
    t.same(await hits('category', 'tex'), [hit('Textiles', 4)])
    t.same(await hits('brand', 'zz'), [], 'nothing begins so')
  })

  t.test('only the beginning of a value, as in Meilisearch: a word further in does not match', async (t) => {
    t.same(await hits('color', 'blue'), [hit('Blue', 2), hit('Bluebell', 1)], '"Navy Blue" and "Sky Blue" do not begin with "blue"')
    t.same(await hits('color', 'navy b'), [hit('Navy Blue', 2), hit('Navy-Blue', 1)], 'both navy blues')
    t.same(await hits('color', 'sky'), [hit('Sky Blue', 1)])
  })

  if (engine === 'embedded') {
    t.test('embedded engine: punctuation is ignored on both sides', async (t) => {
      t.same(await hits('color', 'navy-blue'), [hit('Navy Blue', 2), hit('Navy-Blue', 1)])
      t.same(await hits('color', 'navy   blue'), [hit('Navy Blue', 2), hit('Navy-Blue', 1)])
    })
  }

  t.test('typos, by the length of the query', async (t) => {
    t.same(await hits('brand', 'lomwell'), [hit('Loomwell', 2)], 'one typo from 5 characters')
    t.same(await hits('brand', 'lomwel'), [hit('Loomwell', 2)], 'the query is a beginning with a typo')
    t.same(await hits('brand', 'plum'), [hit('Plume', 2)])
    t.same(await hits('brand', 'plme'), [], 'no typo under 5 characters')
    t.same(await hits('category', 'textlies'), [hit('Textiles', 4)], 'a swap of two neighbours is one typo')
  })

  t.test('no facet_query: every value, the most frequent first, equal counts by value', async (t) => {
    const all = [hit('Textiles', 4), hit('Chairs', 2), hit('Lighting', 2), hit('Sofas', 2)]
    t.same(await hits('category'), all)
    for (const empty of [null, '', '   ', '🎧', '-']) t.same(await hits('category', empty), all, `${JSON.stringify(empty)}: no letter or digit, every value`)
    t.same(await hits('brand'), [hit('Harbor', 3), hit('Loomwell', 2), hit('Plume', 2), hit('Harbour Home', 1), hit('Lumière', 1), hit('Émile', 1)],
      'equal counts in the order of their characters ("É" after "L")')
  })

  t.test('the counts are those of POST /search\'s facetDistribution for the same search', async (t) => {
    const searches: Array<Record<string, unknown>> = [
      { search_term: '' },
      { search_term: 'linen' },
      { search_term: 'linen sofa' },
      { search_term: 'linen sofa', matching_strategy: 'all' },
      { search_term: 'velvit' },
      { search_term: 'sofa rug', matching_strategy: 'frequency' },
      { search_term: '', filters: 'in_stock = true' },
      { search_term: 'lamp', filters: 'price < 100' },
      { search_term: 'rug OR lamp', filters: 'category = Textiles OR price > 100' },
      { search_term: 'nothingmatchesthis' }
    ]
    const facets = ['brand', 'category', 'color', 'in_stock']
    for (const search of searches) {
      const res = await send(h.app, shop.key, 'POST', '/search', { ...search, facets, limit: 1 })
      t.equal(res.statusCode, 200)
      const distribution = res.json().facetDistribution as Record<string, Record<string, number>>
      for (const facet of facets) {
        const found = await hits(facet, null, search)
        t.same(Object.fromEntries(found.map((x) => [x.value, x.count])), distribution[facet], `${facet} over ${JSON.stringify(search)}`)
      }
    }
    t.same(await hits('brand', null, { search_term: 'nothingmatchesthis' }), [], 'no match, no value')
  })

  t.test('search_term and filters narrow the items counted', async (t) => {
    t.same(await hits('brand', '', { filters: 'in_stock = true' }), [hit('Harbor', 2), hit('Plume', 2), hit('Harbour Home', 1), hit('Loomwell', 1), hit('Émile', 1)])
    t.same(await hits('brand', 'har', { filters: 'in_stock = true' }), [hit('Harbor', 2), hit('Harbour Home', 1)])
    t.same(await hits('brand', 'har', { search_term: 'linen' }), [hit('Harbor', 3), hit('Harbour Home', 1)])
    t.same(await hits('brand', 'har', { search_term: 'linen sofa', matching_strategy: 'all' }), [hit('Harbor', 2)], 'a value is a hit only where a matched item holds it')
    t.same(await hits('brand', 'har', { search_term: 'linen', filters: 'in_stock = false' }), [hit('Harbor', 1)])
    t.same(await hits('brand', null, { search_term: 'velvet' }), [hit('Plume', 2)])
    t.same(await hits('brand', 'har', { search_term: 'velvet' }), [], 'the brand exists, but no velvet item has it')
  })

  t.test('booleans are values, numbers are not (as in Meilisearch)', async (t) => {
    t.same(await hits('in_stock'), [hit('true', 7), hit('false', 3)])
    t.same(await hits('in_stock', 'fa'), [hit('false', 3)])
    t.same(await hits('price'), [], 'a facet of numbers has no value to search')
    t.same(await hits('price', '89'), [])
    const distribution = (await send(h.app, shop.key, 'POST', '/search', { search_term: '', facets: ['price', 'label'] })).json().facetDistribution
    t.equal(Object.keys(distribution.price).length, ITEMS.length, 'though POST /search counts them')
    t.same(await hits('label'), [hit('ten', 1), hit('tenth', 1)], 'an attribute mixing both: its strings only')
    t.same(await hits('label', '1'), [], '10 and 12 are numbers')
    t.same(distribution.label, { 10: 1, 12: 1, ten: 1, tenth: 1 })
  })

  t.test('a facet that is not facetable is refused with invalid_facet', async (t) => {
    for (const facet of ['title', 'nope', 'brand.name', '*']) {
      const error = await refused({ facet_name: facet }, 400, 'invalid_facet')
      t.equal(error.error, 'Bad Request')
      t.match(error.message, /not facetable/)
      t.match(error.message, /facetable attributes are: brand, category, color, in_stock, label, price/, 'the message lists what is')
    }
    const other = await h.tenant('fresh')
    const res = await send(h.app, other.key, 'POST', '/facet-search', { facet_name: 'brand' })
    t.equal(res.statusCode, 400, 'a catalog without settings has nothing facetable')
    t.equal(res.json().code, 'invalid_facet')
  })

  t.test('a bad filter is refused with invalid_filter', async (t) => {
    await refused({ facet_name: 'brand', filters: 'price >' }, 400, 'invalid_filter')
    await refused({ facet_name: 'brand', filters: 'color = Blue' }, 400, 'invalid_filter')
  })

  t.test('a malformed request: missing_parameters or invalid_request, with the documented body', async (t) => {
    for (const body of [{}, { facet_query: 'har' }, { search_term: 'linen', filters: 'in_stock = true' }]) {
      const error = await refused(body, 400, 'missing_parameters')
      t.equal(error.error, 'Missing Parameters')
      t.match(error.message, /facet_name/)
    }
    for (const body of [
      { facet_name: 1 },
      { facet_name: '' },
      { facet_name: ['brand'] },
      { facet_name: 'x'.repeat(limits.facetNameMaxChars + 1) },
      { facet_name: 'brand', facet_query: 5 },
      { facet_name: 'brand', facet_query: 'x'.repeat(limits.facetQueryMaxChars + 1) },
      { facet_name: 'brand', search_term: ['linen'] },
      { facet_name: 'brand', search_term: 'x'.repeat(limits.termMaxChars + 1) },
      { facet_name: 'brand', filters: 3 },
      { facet_name: 'brand', matching_strategy: 'any' },
      { facet_name: 'brand', search_type: 'semantic' },
      { facet_name: 'brand', semantic_ratio: 2 },
      { facet_name: 'brand', facets: ['brand'] }
    ]) await refused(body, 400, 'invalid_request')
    await refused([{ facet_name: 'brand' }], 400, 'invalid_request')
    const text = await h.app.inject({ method: 'POST', url: '/facet-search', payload: 'facet_name=brand', headers: { authorization: `Bearer ${shop.key}`, 'content-type': 'text/plain' } })
    t.equal(text.statusCode, 415, 'JSON only')
  })

  t.test('a project sees its own catalog only', async (t) => {
    const other = await h.tenant('other')
    t.equal((await send(h.app, other.key, 'PUT', '/settings', SETTINGS)).statusCode, 200)
    t.equal((await send(h.app, other.key, 'POST', '/documents', [{ id: 'o-1', title: 'Harbor Bench', brand: 'Harbor Works', category: 'Benches' }])).statusCode, 200)
    t.same((await facetSearch({ facet_name: 'brand', facet_query: 'har' }, other.key)).facet_hits, [hit('Harbor Works', 1)], 'not the shop\'s Harbor')
    t.same(await hits('brand', 'har'), [hit('Harbor', 3), hit('Harbour Home', 1)], 'nor the shop the other\'s')
    t.same((await facetSearch({ facet_name: 'category' }, other.key)).facet_hits, [hit('Benches', 1)])
    const wrongKey = await h.app.inject({ method: 'POST', url: '/facet-search', payload: { facet_name: 'brand' }, headers: { authorization: 'Bearer csk_search_' + 'A'.repeat(40) } })
    t.equal(wrongKey.statusCode, 401)
    t.equal((await h.app.inject({ method: 'POST', url: '/facet-search', payload: { facet_name: 'brand' } })).statusCode, 401, 'no credential, no answer')
  })

  t.test('the values follow the catalog: items added, changed and removed', async (t) => {
    const harb = () => hits('brand', 'harb')
    t.same(await harb(), [hit('Harbor', 3), hit('Harbour Home', 1)])
    t.equal((await send(h.app, shop.key, 'POST', '/documents', [{ id: 'bench-1', title: 'Oak Bench', category: 'Benches', brand: 'Harborline', in_stock: true, price: 80 }])).statusCode, 200)
    t.same(await harb(), [hit('Harbor', 3), hit('Harborline', 1), hit('Harbour Home', 1)], 'a new value is found at once (the cached answer ended)')
    t.equal((await send(h.app, shop.key, 'POST', '/documents', [{ id: 'throw-1', title: 'Linen Throw', category: 'Textiles', brand: 'Harbor', color: 'Blue', in_stock: true, price: 60 }])).statusCode, 200)
    t.same(await harb(), [hit('Harbor', 4), hit('Harborline', 1)], 'a value no item holds any more is gone, its items counted where they went')
    t.equal((await send(h.app, shop.key, 'DELETE', '/documents/bench-1')).statusCode, 200)
    t.same(await harb(), [hit('Harbor', 4)])
    t.equal((await send(h.app, shop.key, 'POST', '/documents', [ITEMS.find((item) => item.id === 'throw-1')])).statusCode, 200)
    t.same(await harb(), [hit('Harbor', 3), hit('Harbour Home', 1)], 'as at first')
  })

  t.test('at most 100 values, the most frequent', async (t) => {
    const many = await h.tenant('many')
    const maker = (i: number) => `Maker ${String(i).padStart(3, '0')}`
    // Makers 0 to 99 hold two items each, makers 100 to 119 one: the 100 most frequent are not a matter of ties.
    const items = [
      ...Array.from({ length: 100 }, (_, i) => [{ id: `a-${i}`, title: `Item ${i}`, maker: maker(i) }, { id: `b-${i}`, title: `Item ${i} bis`, maker: maker(i) }]).flat(),
      ...Array.from({ length: 20 }, (_, i) => ({ id: `c-${i}`, title: `Item ${100 + i}`, maker: maker(100 + i) }))
    ]
    t.equal((await send(h.app, many.key, 'PUT', '/settings', { searchableAttributes: ['title'], filterableAttributes: [], facetableAttributes: ['maker'] })).statusCode, 200)
    t.equal((await send(h.app, many.key, 'POST', '/documents', items)).statusCode, 200)
    const all = (await facetSearch({ facet_name: 'maker' }, many.key)).facet_hits
    t.equal(all.length, limits.facetValuesMax)
    t.same(all, Array.from({ length: 100 }, (_, i) => hit(maker(i), 2)), 'the makers of two items, by value')
    // "maker 11" has 8 characters, so one typo: it begins "Maker 010"–"Maker 019" ("maker 01") and
    // "Maker 100"–"Maker 119", and no other ("maker 00", "maker 02"… are two away).
    const eleven = (await facetSearch({ facet_name: 'maker', facet_query: 'maker 11' }, many.key)).facet_hits
    t.same(eleven, [...Array.from({ length: 10 }, (_, i) => hit(maker(10 + i), 2)), ...Array.from({ length: 20 }, (_, i) => hit(maker(100 + i), 1))],
      'one typo: the makers of two items first, the exact beginnings "Maker 110"–"Maker 119" among the rest by value')
    // "maker 119" has 9 characters, so two typos: "Maker 009" (two away) holds two items, "Maker 119" one.
    const nineteen = (await facetSearch({ facet_name: 'maker', facet_query: 'maker 119' }, many.key)).facet_hits
    t.same(nineteen[0], hit('Maker 009', 2), 'typos do not rank, as in Meilisearch: the most frequent first, even before the value typed exactly')
    t.ok(nineteen.some((h) => h.value === 'Maker 119'), 'the value typed exactly is there')
  })
}

t.test('the cache key tells facet searches apart', async (t) => {
  const key = (extra: Partial<FacetSearchRequestKey> = {}) => facetSearchKey({ facet_name: 'brand', facet_query: 'har', query: '', ...extra })
  t.not(key(), key({ facet_name: 'color' }))
  t.not(key(), key({ facet_query: 'harb' }))
  t.not(key(), key({ query: 'linen' }))
  t.not(key(), key({ filters: 'in_stock = true' }))
  t.not(key(), key({ matching_strategy: 'all' }))
  t.equal(key(), key({ matching_strategy: 'last' }), 'the default strategy is the default')
  t.equal(key({ filters: 'in_stock=true' }), key({ filters: ' in_stock = true ' }), 'a filter in any spelling')
  t.equal(key({ filters: null }), key())
})

for (const engine of ENGINES) t.test(`facet search (${engine} engine)`, suite(engine))
