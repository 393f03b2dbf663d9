// POST /search's sort (Meilisearch's sort) and the sortableAttributes setting, the same on every
// engine: a ranking rule after the words rule (and typos), which orders a browse whole; numbers
// before strings, arrays by their smallest (asc) or largest (desc) value, items without a value last.
import t, { type Test } from 'tap'
import { limits } from '@chatsearch/contracts'
import { searchKey } from '../src/response-cache.js'
import { bySortRanks, sortRanks, UNSORTED } from '../src/engines/embedded/ranking.js'
import { ENGINES, ids, searchHarness, send, type EngineKind } from './helpers.js'

/**
 * Only titles are searched, so that on Meilisearch too (whose sort rule comes after proximity and
 * attribute) the items a query matches equally differ by the sort alone. No two priced items share
 * a price; `label` mixes numbers and strings, `sizes` holds arrays, `brand` case and an accent.
 */
const ITEMS = [
  { id: 'lamp-1', title: 'Arc Floor Lamp', category: 'Lighting', brand: 'Zeta', price: 240, in_stock: true, label: 10, sizes: [38, 44], dimensions: { width: 40 } },
  { id: 'lamp-2', title: 'Brass Desk Lamp', category: 'Lighting', brand: 'acme', price: 45, in_stock: false, label: 'b', sizes: [40], dimensions: { width: 25 } },
  { id: 'lamp-3', title: 'Bedside Lamp', category: 'Lighting', brand: 'Basso', price: 30, in_stock: true, label: 3, sizes: [36, 46], dimensions: { width: 15 } },
  { id: 'lamp-4', title: 'Paper Lamp', category: 'Lighting', brand: 'Émile', in_stock: true, label: 'A' },
  { id: 'sofa-1', title: 'Linen Sofa Grey', category: 'Sofas', brand: 'Harbor', price: 899, in_stock: true, dimensions: { width: 210 } },
  { id: 'sofa-2', title: 'Linen Sofa Blue', category: 'Sofas', brand: 'Harbor', price: 499, in_stock: false },
  { id: 'cushion-1', title: 'Linen Cushion', category: 'Textiles', brand: 'Harbor', price: 29, in_stock: true },
  { id: 'chair-1', title: 'Velvet Armchair', category: 'Chairs', brand: 'Plume', price: 700, in_stock: true },
  { id: 'pouf-1', title: 'Velvit Pouf', category: 'Chairs', brand: 'Plume', price: 50, in_stock: true },
  { id: 'rug-1', title: 'Wool Rug', category: 'Textiles', brand: 'Loomwell', price: null, in_stock: false }
]

const SETTINGS = {
  searchableAttributes: ['title'],
  filterableAttributes: ['category', 'in_stock', 'color'],
  facetableAttributes: ['category'],
  sortableAttributes: ['price', 'category', 'brand', 'label', 'sizes', 'dimensions.width', 'in_stock']
}

/** Without a price: lamp-4 has none, rug-1 has null. Which of the two comes first is a tie. */
const UNPRICED = ['lamp-4', 'rug-1']
const BY_PRICE = ['cushion-1', 'lamp-3', 'lamp-2', 'pouf-1', 'lamp-1', 'sofa-2', 'chair-1', 'sofa-1']

const suite = (engine: EngineKind) => async (t: Test) => {
  // The response cache on: a sort missing from its key would answer one order for another.
  const h = await searchHarness(t, true, { cacheTtlS: 60 }, engine)
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'PUT', '/settings', SETTINGS)).statusCode, 200)
  t.equal((await send(h.app, shop.key, 'POST', '/documents', ITEMS)).statusCode, 200)
  const search = async (body: Record<string, unknown>) => {
    const res = await send(h.app, shop.key, 'POST', '/search', body)
    t.equal(res.statusCode, 200, JSON.stringify(body))
    return res.json()
  }
  const refused = async (body: Record<string, unknown>, code: string) => {
    const res = await send(h.app, shop.key, 'POST', '/search', body)
    t.equal(res.statusCode, 400, JSON.stringify(body))
    t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'])
    t.equal(res.json().code, code, JSON.stringify(body))
    return res.json().message as string
  }
  const browse = async (sort: string[] | null, extra: Record<string, unknown> = {}) => ids(await search({ search_term: '', sort, limit: 50, ...extra }))

  t.test('settings keep the sortable attributes', async (t) => {
    t.same((await send(h.app, shop.key, 'GET', '/settings')).json().sortableAttributes, SETTINGS.sortableAttributes)
    const { sortableAttributes, ...three } = SETTINGS
    const without = await send(h.app, shop.key, 'PUT', '/settings', three)
    t.equal(without.statusCode, 200)
    t.same(without.json().sortableAttributes, [], 'left out: none, as in Meilisearch')
    t.match(await refused({ search_term: '', sort: ['price:asc'] }, 'invalid_sort'), /does not have configured sortable attributes/, 'and the sort is refused at once')
    t.same((await send(h.app, shop.key, 'PUT', '/settings', { ...three, sortableAttributes })).json().sortableAttributes, sortableAttributes)
    t.same((await browse(['price:asc'])).slice(0, BY_PRICE.length), BY_PRICE, 'sortable again')
  })

  t.test('an empty search_term is ordered whole by the sort, items without a value last', async (t) => {
    const asc = await browse(['price:asc'])
    t.same(asc.slice(0, BY_PRICE.length), BY_PRICE, 'cheapest first')
    t.same(asc.slice(BY_PRICE.length).sort(), UNPRICED, 'no price (absent or null) last')
    const desc = await browse(['price:desc'])
    t.same(desc.slice(0, BY_PRICE.length), [...BY_PRICE].reverse(), 'dearest first: not the cached ascending answer')
    t.same(desc.slice(BY_PRICE.length).sort(), UNPRICED, 'last in both directions')
    t.same(await browse([]), await browse(null), 'no sort: an empty list and null are the same')
    t.same(await browse([]), ids(await search({ search_term: '', limit: 50 })), 'and the same as leaving it out')
  })

  t.test('the next criterion orders what the one before leaves equal', async (t) => {
    t.same(await browse(['category:asc', 'price:desc']), [
      'chair-1', 'pouf-1', // Chairs
      'lamp-1', 'lamp-2', 'lamp-3', 'lamp-4', // Lighting, the one without a price last
      'sofa-1', 'sofa-2', // Sofas
      'cushion-1', 'rug-1' // Textiles
    ], 'categories A to Z ignoring case, the dearest first within each')
    t.same(await browse(['in_stock:asc', 'price:asc']), ['lamp-2', 'sofa-2', 'rug-1', 'cushion-1', 'lamp-3', 'pouf-1', 'lamp-1', 'chair-1', 'sofa-1', 'lamp-4'],
      'booleans as the strings "false" and "true"')
  })

  t.test('values sort as in Meilisearch', async (t) => {
    const lighting = { filters: 'category = Lighting' }
    t.same(await browse(['brand:asc'], lighting), ['lamp-2', 'lamp-3', 'lamp-1', 'lamp-4'], 'strings ignore case and go by bytes: acme, Basso, Zeta, Émile (é after z)')
    t.same(await browse(['brand:desc'], lighting), ['lamp-4', 'lamp-1', 'lamp-3', 'lamp-2'])
    t.same(await browse(['label:asc'], lighting), ['lamp-3', 'lamp-1', 'lamp-4', 'lamp-2'], 'numbers first (3, 10), then strings (A, b)')
    t.same(await browse(['label:desc'], lighting), ['lamp-1', 'lamp-3', 'lamp-2', 'lamp-4'], 'numbers first descending too (10, 3), then strings (b, A)')
    const labelled = await browse(['label:asc'])
    t.same(labelled.slice(0, 4), ['lamp-3', 'lamp-1', 'lamp-4', 'lamp-2'], 'the items without a label after them')
    t.equal(labelled.length, ITEMS.length, 'and none left out')
    t.same(await browse(['sizes:asc'], lighting), ['lamp-3', 'lamp-1', 'lamp-2', 'lamp-4'], 'an array by its smallest value: 36, 38, 40')
    t.same(await browse(['sizes:desc'], lighting), ['lamp-3', 'lamp-1', 'lamp-2', 'lamp-4'], 'by its largest descending: 46, 44, 40')
    t.same((await browse(['dimensions.width:asc'])).slice(0, 4), ['lamp-3', 'lamp-2', 'lamp-1', 'sofa-1'], 'a nested attribute by its dot path')
  })

  t.test('sort applies after the words rule: items matching more query words come first', async (t) => {
    t.same(ids(await search({ search_term: 'linen sofa', sort: ['price:asc'] })), ['sofa-2', 'sofa-1', 'cushion-1'],
      'the sofas (both words) by price, then the cheaper cushion ("linen" alone)')
    t.same(ids(await search({ search_term: 'linen sofa', sort: ['price:desc'] })), ['sofa-1', 'sofa-2', 'cushion-1'])
    t.same(ids(await search({ search_term: 'linen sofa', sort: ['price:asc'], matching_strategy: 'all' })), ['sofa-2', 'sofa-1'])
    t.same(ids(await search({ search_term: 'lamp', sort: ['price:asc'] })), ['lamp-3', 'lamp-2', 'lamp-1', 'lamp-4'], 'one word: the sort alone orders what it matches')
    t.same(ids(await search({ search_term: 'lamp', sort: ['price:desc'] })), ['lamp-1', 'lamp-2', 'lamp-3', 'lamp-4'], 'the one without a price last')
  })

  t.test('and after the typo rule: an exact match before a cheaper one with a typo', async (t) => {
    t.same(ids(await search({ search_term: 'velvet', sort: ['price:asc'] })), ['chair-1', 'pouf-1'], '"Velvit" is one typo away')
    t.same(ids(await search({ search_term: 'velvet', sort: ['price:desc'] })), ['chair-1', 'pouf-1'])
  })

  t.test('pages, totals, facets and scores are those of the same search unsorted', async (t) => {
    const whole = await browse(['price:desc'])
    const pages = [
      ...await browse(['price:desc'], { limit: 3 }),
      ...await browse(['price:desc'], { limit: 3, offset: 3 }),
      ...await browse(['price:desc'], { limit: 50, offset: 6 })
    ]
    t.same(pages, whole, 'pages in the same order')
    for (const q of ['', 'lamp', 'linen sofa']) {
      const body = { search_term: q, filters: 'in_stock = true', facets: ['category'], limit: 50 }
      const sorted = await search({ ...body, sort: ['price:desc'] })
      const plain = await search(body)
      t.equal(sorted.estimatedTotalHits, plain.estimatedTotalHits, `"${q}": total`)
      t.same(sorted.facetDistribution, plain.facetDistribution, `"${q}": facets`)
      t.same(ids(sorted).sort(), ids(plain).sort(), `"${q}": the same items`)
    }
    const scores = async (sort?: string[]) => Object.fromEntries((await search({ search_term: 'velvet', show_ranking_score: true, ...(sort === undefined ? {} : { sort }) }))
      .hits.map((hit: { id: string, _rankingScore: number }) => [hit.id, hit._rankingScore]))
    const plain = await scores()
    t.ok(plain['chair-1'] > plain['pouf-1'], 'the typo costs')
    t.same(await scores(['price:asc']), plain, 'a sort says nothing about relevance: the same scores')
  })

  t.test('hybrid search: ratio 0 is the sorted keyword result, and totals still count every hit', async (t) => {
    const keyword = ids(await search({ search_term: 'linen sofa', sort: ['price:asc'] }))
    t.same(ids(await search({ search_term: 'linen sofa', search_type: 'hybrid', semantic_ratio: 0, sort: ['price:asc'] })), keyword)
    const mixed = await search({ search_term: 'linen sofa', search_type: 'hybrid', semantic_ratio: 0.5, sort: ['price:asc'], facets: ['category'], limit: 50 })
    t.equal(mixed.estimatedTotalHits, mixed.hits.length)
    t.equal(Object.values(mixed.facetDistribution.category as Record<string, number>).reduce((a, b) => a + b, 0), mixed.hits.length)
  })

  t.test('the order follows the catalog: items added, changed and removed', async (t) => {
    const tiny = { id: 'lamp-5', title: 'Tiny Lamp', category: 'Lighting', price: 5, in_stock: true }
    t.equal((await send(h.app, shop.key, 'POST', '/documents', [tiny])).statusCode, 200)
    t.equal((await browse(['price:asc']))[0], 'lamp-5', 'the cheapest now')
    t.equal(ids(await search({ search_term: 'lamp', sort: ['price:asc'] }))[0], 'lamp-5', 'in a keyword search too')
    t.equal((await send(h.app, shop.key, 'POST', '/documents', [{ ...tiny, price: 5000 }])).statusCode, 200)
    t.equal((await browse(['price:desc']))[0], 'lamp-5', 'the dearest once its price changed')
    t.equal((await browse(['price:asc'])).indexOf('lamp-5'), BY_PRICE.length, 'and after every other priced item ascending')
    t.equal((await send(h.app, shop.key, 'DELETE', '/documents/lamp-5')).statusCode, 200)
    t.same((await browse(['price:asc'])).slice(0, BY_PRICE.length), BY_PRICE, 'gone')
  })

  t.test('a sort that cannot be followed is refused with invalid_sort', async (t) => {
    t.match(await refused({ search_term: 'lamp', sort: ['price:asc', 'color:desc'] }, 'invalid_sort'),
      /^Attribute `color` is not sortable\. Available sortable attributes are: `brand`, `category`, .*`price`/, 'filterable is not sortable')
    t.match(await refused({ search_term: '', sort: ['title:asc'] }, 'invalid_sort'), /`title` is not sortable/)
    t.match(await refused({ search_term: '', sort: ['dimensions:asc'] }, 'invalid_sort'), /`dimensions` is not sortable/, 'a sortable path does not make its parent sortable')
    for (const criterion of ['price', 'price:up', 'price:ASC', ':asc', 'price: asc', 'price:asc:']) {
      t.match(await refused({ search_term: 'lamp', sort: [criterion] }, 'invalid_sort'), /attribute:asc or attribute:desc/, criterion)
    }
    for (const sort of ['price:asc', [1], [''], { price: 'asc' }, Array.from({ length: limits.sortCriteriaMax + 1 }, () => 'price:asc')]) {
      t.match(await refused({ search_term: 'lamp', sort }, 'invalid_request'), /sort/, `${JSON.stringify(sort).slice(0, 30)}: not a list of strings`)
    }
    const other = await h.tenant('other')
    const res = await send(h.app, other.key, 'POST', '/search', { search_term: '', sort: ['price:asc'] })
    t.equal(res.statusCode, 400, 'a catalog without settings has nothing sortable')
    t.equal(res.json().code, 'invalid_sort')
    t.match(res.json().message, /This index does not have configured sortable attributes\./)
  })
}

t.test('the cache key tells sorts apart, and their order', async (t) => {
  const key = (sort?: string[] | null) => searchKey({ query: 'lamp', limit: 20, offset: 0, ...(sort === undefined ? {} : { sort }) })
  t.not(key(['price:asc']), key(['price:desc']))
  t.not(key(['price:asc', 'brand:asc']), key(['brand:asc', 'price:asc']), 'the first criterion matters most')
  t.not(key(['price:asc']), key())
  t.equal(key([]), key(), 'an empty sort is no sort')
  t.equal(key(null), key())
})

t.test('embedded engine only: its sort rule (ranking.ts) places documents by their values', async (t) => {
  // Documents 1 to 6: 1 holds 10; 2 holds [3, 20]; 3 "b"; 4 "A" (normalised "a"); 5 nothing; 6 [10, "a"].
  const values = {
    numbers: Float64Array.from([3, 10, 10, 20]),
    numberDocs: Int32Array.from([2, 1, 6, 2]),
    text: new Map([['b', Int32Array.from([3])], ['a', Int32Array.from([4, 6])]])
  }
  const docs = [1, 2, 3, 4, 5, 6]
  const asc = sortRanks(values, 7, false)
  const desc = sortRanks(values, 7, true)
  t.same([...docs].sort(bySortRanks([asc])), [2, 1, 6, 4, 3, 5], 'ascending: 3, 10, 10, then "a", "b", then nothing')
  t.same([...docs].sort(bySortRanks([desc])), [2, 1, 6, 3, 4, 5], 'descending: 20, 10, 10, then "b", "a", then nothing')
  t.equal(asc[1], asc[6], 'equal values share a place: the next criterion (or the rowid) decides')
  t.equal(asc[5], UNSORTED)
  t.equal(desc[5], UNSORTED, 'no value: last both ways')
  const second = sortRanks({ numbers: Float64Array.from([1, 2]), numberDocs: Int32Array.from([6, 1]), text: new Map() }, 7, false)
  t.same([...docs].sort(bySortRanks([asc, second])), [2, 6, 1, 4, 3, 5], 'a second criterion breaks the tie')
  t.same([9, 1].sort(bySortRanks([asc])), [1, 9], 'a document newer than the ranks counts as without a value')
  const accents = sortRanks({ numbers: new Float64Array(0), numberDocs: new Int32Array(0), text: new Map([['é', Int32Array.from([1])], ['z', Int32Array.from([2])], ['a', Int32Array.from([3])]]) }, 4, false)
  t.same([1, 2, 3].sort(bySortRanks([accents])), [3, 2, 1], 'strings by their UTF-8 bytes: "é" after "z"')
})

for (const engine of ENGINES) t.test(`sort (${engine} engine)`, suite(engine))
