import { readFileSync } from 'node:fs'
import t, { type Test } from 'tap'
import { extractConstraints, planSearch, toFilter } from '../src/assistant/constraints/index.js'
import type { CatalogShape, Constraints } from '../src/assistant/constraints/index.js'
import { CHEAPER_TERMS, CHEAPEST_TERMS, PRICIER_TERMS } from '../src/assistant/lexicon.js'
import { resolveReference } from '../src/assistant/references.js'
import type { Message } from '@chatsearch/contracts'
// the parser the search service uses, so a plan's filter is one the search service accepts
import { checkFilterable, parseFilter } from '@chatsearch/filter'
import { demoCatalogFile } from '@chatsearch/search'
import { assistantSetFile, compileFilter } from '@chatsearch/search/catalog'

type Product = Record<string, unknown> & { id: string }
const catalog = JSON.parse(readFileSync(demoCatalogFile, 'utf8')) as Product[]
const assistantSet = JSON.parse(readFileSync(assistantSetFile, 'utf8')) as Array<{ message: string, expected: string[] }>
const byId = new Map(catalog.map((p) => [p.id, p]))
const facet = (attribute: string) =>
  [...new Set(catalog.map((p) => p[attribute]).filter((v): v is string => typeof v === 'string'))].sort()

/** The demo project as the retriever would see it. */
const shape: CatalogShape = {
  filterable: ['brand', 'category', 'price', 'in_stock', 'rating', 'color', 'tags'],
  values: { brand: facet('brand'), category: facet('category'), color: facet('color') }
}

/** Full constraints from the fields a row cares about. */
const c = (fields: Partial<Constraints> = {}): Constraints => ({ brands: [], categories: [], colors: [], ...fields })

/** [message, what it states about the fields under test, rest (checked when given)] */
type Row = [string, Partial<Constraints>, string?]
type Field = keyof Constraints

/** Compares only `fields` (absent from a row = undefined or empty), so each table tests one rule. */
function runRows (t: Test, fields: Field[], rows: Row[], on: CatalogShape = shape): void {
  const only = (x: Constraints) => Object.fromEntries(fields.map((f) => [f, x[f]]))
  for (const [message, expected, rest] of rows) {
    const got = extractConstraints(message, on)
    t.same(only(got.constraints), only(c(expected)), `${fields.join(', ')} of ${JSON.stringify(message)}`)
    if (rest !== undefined) t.equal(got.rest, rest, `rest of ${JSON.stringify(message)}`)
  }
}

const PRICE: Field[] = ['priceMin', 'priceMax']
const ALL: Field[] = ['priceMin', 'priceMax', 'brands', 'categories', 'colors', 'inStock', 'minRating']

t.test('price: upper bounds', async (t) => {
  runRows(t, PRICE, [
    ['waterproof boots under $100', { priceMax: 100 }, 'waterproof boots'],
    ['a tent below 100 dollars', { priceMax: 100 }, 'tent'],
    ['less than $99.99', { priceMax: 99.99 }, ''],
    ['earbuds cheaper than 50', { priceMax: 50 }, 'earbuds'],
    ['earbuds more affordable than $50', { priceMax: 50 }, 'earbuds'],
    ['a kettle lower-priced than 80 dollars', { priceMax: 80 }, 'kettle'],
    ['a kettle for no more than 80 bucks please', { priceMax: 80 }, 'kettle'],
    ['max $80', { priceMax: 80 }, ''],
    ['headlamp at most €40', { priceMax: 40 }, 'headlamp'],
    ['a Chromebook, nothing over $250.', { priceMax: 250 }, 'Chromebook'],
    ['desk lamp up to $300', { priceMax: 300 }, 'desk lamp'],
    ['$100 or less', { priceMax: 100 }, ''],
    ['a laptop under $1,299', { priceMax: 1299 }, 'laptop'],
    ['a laptop for 1299.99 or less', { priceMax: 1299.99 }, 'laptop'],
    ['an e-bike under $2k', { priceMax: 2000 }, 'e-bike'],
    ['speaker under 60 usd', { priceMax: 60 }, 'speaker'],
    ['a jacket under £120', { priceMax: 120 }, 'jacket'],
    ['my budget is $500', { priceMax: 500 }, '']
  ])
})

t.test('price: lower bounds, ranges and "around"', async (t) => {
  runRows(t, PRICE, [
    ['over $50', { priceMin: 50 }, ''],
    ['a watch for more than 200', { priceMin: 200 }, 'watch'],
    ['above £30', { priceMin: 30 }, ''],
    ['at least $20', { priceMin: 20 }, ''],
    ['from $20', { priceMin: 20 }, ''],
    ['$50+ headphones', { priceMin: 50 }, 'headphones'],
    ['$500 or more', { priceMin: 500 }, ''],
    ['between $50 and $100', { priceMin: 50, priceMax: 100 }, ''],
    ['between 50 and 100', { priceMin: 50, priceMax: 100 }, ''],
    ['$50-$100', { priceMin: 50, priceMax: 100 }, ''],
    ['$50 to $100', { priceMin: 50, priceMax: 100 }, ''],
    ['rugs 50–100 dollars', { priceMin: 50, priceMax: 100 }, 'rugs'],
    ['from $20 to $50', { priceMin: 20, priceMax: 50 }, ''],
    ['$100 - $50', { priceMin: 50, priceMax: 100 }, ''],
    ['around $100', { priceMin: 80, priceMax: 120 }, ''],
    ['a blender for about $100', { priceMin: 80, priceMax: 120 }, 'blender'],
    ['over $50 but under $100', { priceMin: 50, priceMax: 100 }]
  ])
})

t.test('price: numbers that are not prices', async (t) => {
  runRows(t, PRICE, [
    ['sleeping bag rated to 0°F', {}, 'sleeping bag rated to 0°F'],
    ['12-inch frying pan', {}, '12-inch frying pan'],
    ['a tent for 2 people', {}, 'tent for 2 people'],
    ['trail shoes size 10', {}, 'trail shoes size 10'],
    ['10-cup coffee maker', {}, '10-cup coffee maker'],
    ['4K monitor under 4K', {}, '4K monitor under 4K'],
    ['an e-bike under 2k', {}, 'e-bike under 2k'],
    ['toys for kids under 5', {}, 'toys for kids under 5'],
    ['a tent for more than 2 people', {}],
    ['a lantern with up to 300 lumens', {}],
    ['a kettlebell under 10 kg', {}, 'kettlebell under 10 kg'],
    ['a laptop with 32GB of RAM', {}],
    ['a 1000-piece puzzle', {}, '1000-piece puzzle'],
    ['SPF 50 sunscreen', {}, 'SPF 50 sunscreen'],
    ['a watch from 2019', {}, 'watch from 2019'],
    ['a speaker about 100', {}, 'speaker about 100'],
    ['trail shoes size 10 under 100', { priceMax: 100 }, 'trail shoes size 10']
  ])
})

t.test('rating', async (t) => {
  runRows(t, ['minRating'], [
    ['tents rated 4+', { minRating: 4 }, 'tents'],
    ['at least 4 stars', { minRating: 4 }, ''],
    ['4 stars and up', { minRating: 4 }, ''],
    ['4.5 stars or more', { minRating: 4.5 }, ''],
    ['rated 4.5 or higher', { minRating: 4.5 }, ''],
    ['a rating of 4.5 or better', { minRating: 4.5 }, ''],
    ['highly rated tents', { minRating: 4 }, 'tents'],
    ['best-rated espresso machine', { minRating: 4 }, 'espresso machine'],
    ['top rated', { minRating: 4 }, ''],
    ['a 5-star blender', { minRating: 5 }, 'blender'],
    ['a 4-season tent', {}, '4-season tent']
  ])
})

t.test('order: the cheapest or the best rated among the matches', async (t) => {
  runRows(t, ['order', 'minRating', 'priceMax'], [
    ["What's the cheapest burr coffee grinder you have?", { order: 'price' }, 'burr coffee grinder'],
    ['least expensive tent under $300', { order: 'price', priceMax: 300 }, 'tent'],
    ['the lowest-priced kettle', { order: 'price' }, 'kettle'],
    ["What's your best-rated espresso machine under $500?", { order: 'rating', minRating: 4, priceMax: 500 }, 'espresso machine'],
    ['top rated tents', { order: 'rating', minRating: 4 }, 'tents'],
    ['highly rated tents', { minRating: 4 }, 'tents'],
    ['cheap tents', {}, 'tents'],
    ['a cheaper kettle', {}, 'kettle']
  ])
})

t.test('stock: requirements, questions and negatives', async (t) => {
  runRows(t, ['inStock', 'brands'], [
    ['only in-stock tents', { inStock: true }, 'tents'],
    ['tents that are in stock', { inStock: true }, 'tents'],
    ['in stock ones?', { inStock: true }, ''],
    ['rain jackets, in stock only', { inStock: true }, 'rain jackets'],
    ['are there any tents in stock?', { inStock: true }, 'tents'],
    ['a kettle available now', { inStock: true }, 'kettle'],
    ['blenders available today', { inStock: true }, 'blenders'],
    ['a lamp that ships now', { inStock: true }, 'lamp'],
    ['which smartwatches can I order right now?', { inStock: true }, 'smartwatches'],
    ['Is the Kettleby espresso machine in stock?', { brands: ['Kettleby'] }, 'espresso machine'],
    ['are they in stock?', {}, ''],
    ['do you have the Trailmark boots in stock?', { brands: ['Trailmark'] }, 'boots'],
    ['is it available now?', {}, ''],
    ['when will the Burrwell grinder be back in stock?', { brands: ['Burrwell'] }],
    ['out of stock tents', {}, 'tents'],
    ['tents not in stock', {}, 'tents']
  ])
})

t.test('brands: word boundaries, case, "&", apostrophes, several', async (t) => {
  runRows(t, ['brands'], [
    ['recommend a carbon-plated racing shoe from Velora', { brands: ['Velora'] }, 'carbon-plated racing shoe'],
    ["Trailmark's hiking boots", { brands: ['Trailmark'] }, 'hiking boots'],
    ['KETTLEBY grinder', { brands: ['Kettleby'] }, 'grinder'],
    ['a Linden and Co sofa', { brands: ['Linden & Co'] }, 'sofa'],
    ['Marlow & Finch candles', { brands: ['Marlow & Finch'] }, 'candles'],
    ['a Crema Forge espresso machine', { brands: ['Crema Forge'] }, 'espresso machine'],
    ['Trailmark or Kettleby', { brands: ['Trailmark', 'Kettleby'] }, ''],
    ['trailmarker pens', {}, 'trailmarker pens']
  ])
  const own: CatalogShape = { filterable: ['brand'], values: { brand: ['Arc', "Dwyer's", 'Bean & Co', '', ' '] } }
  runRows(t, ['brands'], [
    ['an architect lamp', {}, 'architect lamp'],
    ['an Arc lamp', { brands: ['Arc'] }, 'lamp'],
    ['Dwyers boots', { brands: ["Dwyer's"] }, 'boots'],
    ["Dwyer's boots", { brands: ["Dwyer's"] }, 'boots'],
    ['coffee from bean and co', { brands: ['Bean & Co'] }, 'coffee']
  ], own)
})

t.test('colours: plain words anywhere, material words only as a colour', async (t) => {
  runRows(t, ['colors'], [
    ["a women's rain jacket in red", { colors: ['Red'], categories: ['Jackets & Outerwear'] }, "women's rain jacket"],
    ['black running shoes', { colors: ['Black'], categories: ['Running Shoes'] }, 'running shoes'],
    ['a gray fleece', { colors: ['Grey'] }, 'fleece'],
    ['a jacket in navy or black', { colors: ['Navy', 'Black'], categories: ['Jackets & Outerwear'] }, 'jacket'],
    ['a kettle for green tea', { categories: ['Coffee & Tea'] }, 'kettle for green tea'],
    ['copper frying pan', {}, 'copper frying pan'],
    ['a frying pan in copper', { colors: ['Copper'] }, 'frying pan'],
    ['a rose gold colour hair dryer', { colors: ['Rose Gold'] }, 'hair dryer'],
    ['a moisturizing face cream', {}, 'moisturizing face cream']
  ])
})

t.test('categories: full names, and parts only when clear', async (t) => {
  runRows(t, ['categories', 'brands'], [
    ['Show me Stormcrest rain jackets', { brands: ['Stormcrest'], categories: ['Jackets & Outerwear'] }, 'rain jackets'],
    ['men\'s trail running shoes', { categories: ['Running Shoes'] }, "men's trail running shoes"],
    ['a running shoe', { categories: ['Running Shoes'] }, 'running shoe'],
    ['anything in Kitchen and Cookware', { categories: ['Kitchen & Cookware'] }, 'Kitchen and Cookware'],
    ['Any Zentel tablets under $400?', { brands: ['Zentel'], categories: ['Smartphones & Tablets'], priceMax: 400 }, 'tablets'],
    ['I need a sleeping bag', {}, 'sleeping bag'],
    ['a backpack that protects my laptop', { categories: ['Backpacks & Bags'] }],
    ['a laptop with 32GB', { categories: ['Laptops & Computers'] }],
    // an -ing word before a part makes a compound of another kind; "gaming laptop" is the price of "sleeping bag"
    ['a gaming laptop with 32GB', {}],
    ['noise-cancelling headphones', { categories: ['Headphones & Audio'] }],
    ['tent stakes', {}, 'tent stakes'],
    ['a hydration pack for cycling', {}],
    ['hiking shoes', {}, 'hiking shoes'],
    ['a laptop or a tablet', {}],
    ['a bag of coffee beans', {}]
  ])
})

t.test('filler is removed, product words and attributes stay', async (t) => {
  runRows(t, ['categories'], [
    ['Can you show me waterproof tents please?', { categories: ['Tents & Camping'] }, 'waterproof tents'],
    ["I'm looking for a 2-person tent", { categories: ['Tents & Camping'] }, '2-person tent'],
    ['do you have any 0°F sleeping bags?', {}, '0°F sleeping bags'],
    ['I need a coding robot for my son', {}, 'coding robot'],
    ['find me noise-cancelling headphones', { categories: ['Headphones & Audio'] }, 'noise-cancelling headphones'],
    ["What's the cheapest burr coffee grinder you have?", {}, 'burr coffee grinder'],
    ["What's a good carry-on backpack for one-bag travel?", { categories: ['Backpacks & Bags'] }, 'carry-on backpack for one-bag travel']
  ])
})

t.test('only filterable attributes become constraints', async (t) => {
  const priceOnly: CatalogShape = { filterable: ['price'], values: shape.values }
  // the brand and colour stay keywords, as nothing else would carry them; the stock phrase goes anyway
  runRows(t, ALL, [['Trailmark boots in red under $100, in stock, rated 4+', { priceMax: 100 }, 'Trailmark boots in red']], priceOnly)
  const none: CatalogShape = { filterable: [], values: shape.values }
  runRows(t, ALL, [['tents under $300', {}, 'tents']], none)
  t.equal(toFilter(c({ priceMax: 100, brands: ['Trailmark'], inStock: true }), priceOnly), 'price <= 100')
})

t.test('toFilter writes Meilisearch syntax', async (t) => {
  const rows: Array<[Partial<Constraints>, string | undefined]> = [
    [{}, undefined],
    [{ priceMax: 100, priceMin: 50, brands: ['Trailmark'], inStock: true, minRating: 4 },
      'price <= 100 AND price >= 50 AND brand IN ["Trailmark"] AND in_stock = true AND rating >= 4'],
    [{ brands: ['Trailmark', 'Kettleby'] }, 'brand IN ["Trailmark", "Kettleby"]'],
    [{ categories: ['Tents & Camping'], colors: ['Rose Gold'] }, 'category IN ["Tents & Camping"] AND color IN ["Rose Gold"]'],
    [{ priceMax: 99.999 }, 'price <= 100'],
    [{ priceMin: 1299.5 }, 'price >= 1299.5'],
    [{ inStock: false }, 'in_stock = false'],
    [{ brands: ['Say "Hi"', 'Back\\slash'] }, 'brand IN ["Say \\"Hi\\"", "Back\\\\slash"]']
  ]
  for (const [constraints, expected] of rows) t.equal(toFilter(c(constraints), shape), expected, JSON.stringify(constraints))

  const tricky = ['Say "Hi"', 'Back\\slash', 'end\\', '"', 'AND OR', 'Kitchen & Cookware']
  const node = parseFilter(toFilter(c({ brands: tricky }), shape) ?? '')
  t.same(node, { type: 'in', attribute: 'brand', values: tricky }, 'quoted values parse back to themselves')
})

/** [earlier user messages, new message, query, filter] */
type FollowUp = [string[], string, string, string | undefined]

t.test('planSearch: follow-ups refine the previous search, new products start afresh', async (t) => {
  const rows: FollowUp[] = [
    [[], 'Show me rain jackets under $100', 'rain jackets', 'price <= 100 AND category IN ["Jackets & Outerwear"]'],
    [['Show me rain jackets under $100'], 'and in black?', 'rain jackets', 'price <= 100 AND category IN ["Jackets & Outerwear"] AND color IN ["Black"]'],
    [['Show me rain jackets under $100'], 'cheaper ones?', 'rain jackets', 'price <= 99.99 AND category IN ["Jackets & Outerwear"]'],
    [['Show me rain jackets'], 'cheaper ones?', 'rain jackets', 'category IN ["Jackets & Outerwear"]'],
    [['waterproof hiking boots under $150'], 'what about under $50', 'waterproof hiking boots', 'price <= 50'],
    [['waterproof hiking boots between $100 and $200'], 'what about under $50', 'waterproof hiking boots', 'price <= 50'],
    [['waterproof hiking boots under $150'], 'any from Trailmark?', 'waterproof hiking boots', 'price <= 150 AND brand IN ["Trailmark"]'],
    [['Kettleby boots'], 'any from Trailmark?', 'boots', 'brand IN ["Trailmark"]'],
    [['waterproof hiking boots under $150'], 'in stock ones?', 'waterproof hiking boots', 'price <= 150 AND in_stock = true'],
    [['waterproof hiking boots under $150'], 'what about tents?', 'tents', 'category IN ["Tents & Camping"]'],
    [['Trailmark boots under $150'], 'I need a blender', 'blender', undefined],
    [['Kettleby espresso machines'], 'is it in stock?', 'espresso machines', 'brand IN ["Kettleby"]'],
    [['rain jackets in red'], 'waterproof ones?', 'rain jackets waterproof', 'category IN ["Jackets & Outerwear"] AND color IN ["Red"]'],
    [['tents under $300', 'and in black?', 'cheaper ones?'], 'in stock ones?', 'tents',
      'price <= 299.99 AND category IN ["Tents & Camping"] AND color IN ["Black"] AND in_stock = true'],
    [['Show me Trailmark'], 'any from Kettleby?', 'Kettleby', 'brand IN ["Kettleby"]'],
    [[], 'any from Trailmark?', 'Trailmark', 'brand IN ["Trailmark"]'],
    [[], 'in stock ones?', '', 'in_stock = true'],
    [[], 'hi', 'hi', undefined],
    // a keyword search wants every word in an item: function words inside the query are left out
    [[], 'a tent for two people with a porch', 'tent two people porch', 'category IN ["Tents & Camping"]'],
    [[], 'the espresso machine with the built-in grinder', 'espresso machine built-in grinder', undefined],
    [[], 'fries without a deep fryer', 'fries without deep fryer', undefined]
  ]
  for (const [earlier, message, query, filter] of rows) {
    const history = earlier.flatMap((content) => [
      { role: 'user' as const, content },
      { role: 'assistant' as const, content: 'Here are a few from the catalog: tents, boots and jackets.' }
    ])
    const plan = planSearch(message, history, shape)
    const label = [...earlier, message].join(' → ')
    t.equal(plan.query, query, `query of ${label}`)
    t.equal(plan.filter, filter, `filter of ${label}`)
  }
})

t.test('planSearch ignores the new message when the caller already stored it in the history', async (t) => {
  const history = [{ role: 'user' as const, content: 'tents under $300' }, { role: 'user' as const, content: 'and in black?' }]
  t.equal(planSearch('and in black?', history, shape).filter, 'price <= 300 AND category IN ["Tents & Camping"] AND color IN ["Black"]')
})

t.test('every assistant-set message gets a sensible plan', async (t) => {
  const expectedFilters: Record<string, string | undefined> = {
    'do you have waterproof hiking boots under $150?': 'price <= 150',
    'Is the Kettleby espresso machine with the built-in grinder in stock?': 'brand IN ["Kettleby"]',
    'recommend a carbon-plated racing shoe from Velora': 'brand IN ["Velora"]',
    'find me a sleeping bag rated to 0°F for less than $250': 'price <= 250',
    'Show me rain jackets under $100 that are in stock': 'price <= 100 AND category IN ["Jackets & Outerwear"] AND in_stock = true',
    'Which Corvane smartwatches can I order right now?': 'brand IN ["Corvane"] AND in_stock = true',
    'Do you have 24 kg kettlebells?': undefined,
    'Looking for a women\'s rain jacket in red': 'category IN ["Jackets & Outerwear"] AND color IN ["Red"]',
    'Do you carry ultrabooks with 32GB RAM and a 1TB SSD for under $1,500?': 'price <= 1500',
    "I'm after a coding robot for my 9 year old, less than $60": 'price <= 60',
    "What's your best-rated espresso machine under $500?": 'price <= 500 AND rating >= 4',
    'show me Veltone over-ear headphones under $200': 'price <= 200 AND brand IN ["Veltone"] AND category IN ["Headphones & Audio"]',
    'I need a gaming laptop with 32GB of RAM that is in stock': 'in_stock = true'
  }
  const expectedQueries: Record<string, string> = {
    'do you have waterproof hiking boots under $150?': 'waterproof hiking boots',
    'find me a sleeping bag rated to 0°F for less than $250': 'sleeping bag rated 0°F',
    'Is the Kettleby espresso machine with the built-in grinder in stock?': 'espresso machine built-in grinder',
    'I need a gaming laptop with 32GB of RAM that is in stock': 'gaming laptop 32GB RAM',
    'Do you have 24 kg kettlebells?': '24 kg kettlebells'
  }
  const problems: string[] = []
  let filtered = 0
  for (const { message, expected } of assistantSet) {
    let plan
    try {
      plan = planSearch(message, [], shape)
    } catch (err) {
      problems.push(`${message}: throws ${String(err)}`)
      continue
    }
    if (plan.query.trim() === '') problems.push(`${message}: empty query`)
    if (message in expectedFilters && plan.filter !== expectedFilters[message]) problems.push(`${message}: filter ${String(plan.filter)}`)
    if (message in expectedQueries && plan.query !== expectedQueries[message]) problems.push(`${message}: query ${plan.query}`)
    if (!/\$\d/.test(message) && plan.filter?.includes('price') === true) problems.push(`${message}: a price from no amount`)
    if (plan.filter === undefined) continue
    filtered++
    try {
      const node = parseFilter(plan.filter)
      if (node === null) throw new Error('empty filter')
      checkFilterable(node, shape.filterable)
    } catch (err) {
      problems.push(`${message}: ${plan.filter} does not parse: ${String(err)}`)
      continue
    }
    // a filter that hides the items a good answer cites is worse than no filter
    const passes = compileFilter(plan.filter)
    for (const id of expected) if (!passes(byId.get(id) ?? {})) problems.push(`${message}: ${plan.filter} hides ${id}`)
  }
  t.same(problems, [])
  t.ok(filtered >= 25, `${filtered} of ${assistantSet.length} messages get a filter`)
})

t.test('every "cheaper" and "cheapest" term of the lexicon is read alike by everything that reads one', async (t) => {
  const earlier = [
    { role: 'user' as const, content: 'Show me rain jackets under $100' },
    { role: 'assistant' as const, content: 'Here are a few from the catalog.' }
  ]
  const tents = ['Kestrel Tent', 'Ridge Tent'].map((title, i) => ({ source: 'catalog' as const, reference: `t${i}`, confidence: 0.8, title }))
  const shown: Message[] = [
    { msg_id: 'u0', role: 'user', content: 'tents', timestamp: '2026-01-01T00:00:00.000Z', classification: 'request' },
    { msg_id: 'a0', role: 'assistant', content: 'reply', timestamp: '2026-01-01T00:00:01.000Z', citations: tents }
  ]
  // Each as listed, and written with hyphens or spaces the other way ("less-expensive", "lowest priced").
  const written = [...CHEAPER_TERMS, ...CHEAPEST_TERMS].flatMap((term) => [term, term.includes('-') ? term.replace(/-/g, ' ') : term.replace(/ /g, '-')])
  for (const term of written) {
    const asked = `${term} ones?`
    // The keyword query loses it, and a follow-up lowers the price cap below the last one.
    const plan = planSearch(asked, earlier, shape)
    t.equal(plan.filter, 'price <= 99.99 AND category IN ["Jackets & Outerwear"]', `"${asked}" lowers the cap`)
    t.equal(plan.query, 'rain jackets', `"${asked}" adds no keyword`)
    t.equal(planSearch(`rain jackets ${term}`, [], shape).query, 'rain jackets', `"${term}" is not a keyword`)
    // Asked of the items just shown, it compares their prices, and asks of them nothing else; alone, it is a new search.
    t.match(resolveReference(`which is ${term}?`, shown), { compare: { field: 'price', best: 'lowest' }, features: [] }, `"which is ${term}?" compares prices`)
    t.equal(resolveReference(`${term}?`, shown), undefined, `"${term}?" is a new search`)
  }
  for (const term of CHEAPEST_TERMS) t.equal(extractConstraints(`the ${term} tent`, shape).constraints.order, 'price', `"the ${term}" orders by price`)
  // The other way: a higher price, however its words are joined ("more-expensive" was read as the lower one).
  for (const term of PRICIER_TERMS.flatMap((term) => [term, term.replace(/ /g, '-')])) {
    t.match(resolveReference(`which is ${term}?`, shown), { compare: { field: 'price', best: 'highest' }, features: [] }, `"which is ${term}?" names the dearer`)
    t.equal(resolveReference(`${term}?`, shown), undefined, `"${term}?" is a new search`)
  }
})
