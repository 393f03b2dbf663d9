import { readFileSync } from 'node:fs'
import t from 'tap'
import { categories } from '../catalog/data.js'
import { DEMO_COUNT, demoCatalogFile, demoCatalogJson } from '../catalog/build-demo.js'
import { categoryNames, generateCatalog, productAt, productsOf } from '../catalog/generate.js'
import type { Product } from '../catalog/generate.js'
import { compileFilter } from '../catalog/mini-filter.js'

const readJson = (name: string): unknown => JSON.parse(readFileSync(new URL(`../catalog/${name}`, import.meta.url), 'utf8'))

const FIELDS = new Set(['id', 'title', 'description', 'price', 'category', 'brand', 'in_stock', 'rating', 'tags', 'color', 'sizes', 'created_at'])
const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim() !== ''
const twoDecimals = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6
const oneDecimal = (n: number) => Math.abs(n * 10 - Math.round(n * 10)) < 1e-6

/** Every way a product can break its declared shape or ranges, as messages (empty when fine). */
function problemsOf (p: Record<string, unknown>): string[] {
  const problems: string[] = []
  const bad = (what: string) => problems.push(`${String(p.id)}: ${what}`)
  for (const key of Object.keys(p)) if (!FIELDS.has(key)) bad(`unexpected field ${key}`)
  if (typeof p.id !== 'string' || !/^sku-\d{6,}$/.test(p.id)) bad('id')
  if (!nonEmptyString(p.title) || p.title.length > 120) bad('title')
  if (!nonEmptyString(p.description)) {
    bad('description')
  } else {
    const sentences = p.description.split(/(?<=[.!?]) (?=[A-Z0-9])/).length
    if (sentences < 1 || sentences > 3 || !/[.!?]$/.test(p.description)) bad(`description has ${sentences} sentences`)
  }
  if (typeof p.price !== 'number' || !Number.isFinite(p.price) || p.price <= 0 || p.price > 10000 || !twoDecimals(p.price)) bad(`price ${String(p.price)}`)
  if (typeof p.category !== 'string' || !categoryNames.includes(p.category)) bad(`category ${String(p.category)}`)
  if (!nonEmptyString(p.brand)) bad('brand')
  if (typeof p.in_stock !== 'boolean') bad('in_stock')
  if (typeof p.rating !== 'number' || p.rating < 1 || p.rating > 5 || !oneDecimal(p.rating)) bad(`rating ${String(p.rating)}`)
  if (!Array.isArray(p.tags) || p.tags.length === 0 || !p.tags.every((tag) => nonEmptyString(tag) && tag === tag.toLowerCase()) || new Set(p.tags).size !== p.tags.length) bad('tags')
  if (p.color !== undefined && !nonEmptyString(p.color)) bad('color')
  if (p.sizes !== undefined && (!Array.isArray(p.sizes) || p.sizes.length === 0 || !p.sizes.every(nonEmptyString))) bad('sizes')
  if (p.created_at !== undefined && (typeof p.created_at !== 'string' || Number.isNaN(Date.parse(p.created_at)) || new Date(p.created_at).toISOString() !== p.created_at)) bad('created_at')
  return problems
}

t.test('the generator is deterministic and streams the same items', async (t) => {
  const a = generateCatalog(500, 7)
  t.same(generateCatalog(500, 7), a, 'same seed, same items')
  t.same([...productsOf(500, 7)], a, 'productsOf streams what generateCatalog returns')
  t.same(generateCatalog(120, 7), a.slice(0, 120), 'a smaller catalog is a prefix of a larger one')
  t.same(productAt(321, 7), a[321], 'any item can be made on its own')
  const b = generateCatalog(500, 8)
  t.ok(a.filter((p, i) => p.title !== b[i]?.title).length > 450, 'another seed gives other items')
  t.equal(a[0]?.id, 'sku-000001')
  t.equal(a[122]?.id, 'sku-000123')
  t.equal(generateCatalog(0, 7).length, 0)
})

t.test('every field is typed as declared and in range', async (t) => {
  const sample = generateCatalog(20000, 3)
  const problems = sample.flatMap((p) => problemsOf(p as unknown as Record<string, unknown>))
  t.same(problems.slice(0, 10), [], `no problems in ${sample.length} items`)
  t.equal(new Set(sample.map((p) => p.id)).size, sample.length, 'ids are unique')
  t.ok(sample.some((p) => p.color !== undefined) && sample.some((p) => p.color === undefined), 'colour is set where it makes sense')
  t.ok(sample.some((p) => p.sizes !== undefined) && sample.some((p) => p.sizes === undefined), 'sizes are set where they make sense')
})

t.test('distributions are sane', async (t) => {
  const sample = generateCatalog(20000, 11)
  const perCategory = new Map<string, number>()
  for (const p of sample) perCategory.set(p.category, (perCategory.get(p.category) ?? 0) + 1)
  t.ok(categoryNames.length >= 12, `${categoryNames.length} categories`)
  t.same([...perCategory.keys()].sort(), [...categoryNames].sort(), 'every category is present')
  for (const [name, n] of perCategory) t.ok(n / sample.length > 0.03 && n / sample.length < 0.12, `${name}: ${(100 * n / sample.length).toFixed(1)}%`)

  const inStock = sample.filter((p) => p.in_stock).length / sample.length
  t.ok(inStock >= 0.75 && inStock <= 0.95, `in stock ${(100 * inStock).toFixed(1)}%`)

  const ratings = sample.map((p) => p.rating).sort((a, b) => a - b)
  const mean = ratings.reduce((s, r) => s + r, 0) / ratings.length
  const median = ratings[Math.floor(ratings.length / 2)] ?? 0
  t.ok(mean > 3.9 && mean < 4.6 && median >= 4.2, `ratings skew high: mean ${mean.toFixed(2)}, median ${median}`)
  t.ok(ratings[0] === 1 || (ratings[0] ?? 5) < 2, 'some products are poorly rated')

  const prices = sample.map((p) => p.price).sort((a, b) => a - b)
  t.ok((prices[0] ?? 0) < 10 && (prices[prices.length - 1] ?? 0) > 2000, `prices span ${prices[0]}–${prices[prices.length - 1]}`)

  const types = categories.flatMap((c) => c.types.map((type) => type.name))
  const titled = new Set(types.filter((type) => sample.some((p) => p.title.replace(/ \([^)]*\)$/, '').endsWith(' ' + type))))
  t.same(types.filter((type) => !titled.has(type)), [], 'every product type occurs')
  t.ok(new Set(sample.map((p) => p.title)).size > sample.length * 0.8, 'titles are varied')
  t.ok(new Set(sample.map((p) => p.description)).size > sample.length * 0.9, 'descriptions are varied')
})

t.test('every feature a product type uses is defined by its category', async (t) => {
  const missing = categories.flatMap((c) => c.types.flatMap((type) => type.features.filter((f) => c.features[f] === undefined).map((f) => `${type.name}: ${f}`)))
  t.same(missing, [])
})

const demo = readJson('demo-catalog.json') as Product[]
const demoIds = new Set(demo.map((p) => p.id))

t.test('the demo catalog is what build-demo writes', async (t) => {
  t.equal(readFileSync(demoCatalogFile, 'utf8'), demoCatalogJson(), 'run: node --import tsx services/search/catalog/build-demo.ts')
  t.equal(demo.length, DEMO_COUNT)
  t.equal(demoIds.size, demo.length, 'ids are unique')
  t.same(demo.flatMap((p) => problemsOf(p as unknown as Record<string, unknown>)).slice(0, 10), [])
  t.same([...new Set(demo.map((p) => p.category))].sort(), [...categoryNames].sort(), 'every category is in the demo')
})

t.test('the judged query set', async (t) => {
  const queries = readJson('relevance.json') as Array<{ query: string, kind: string, filters?: string, relevant: Record<string, number> }>
  const count = (kind: string) => queries.filter((q) => q.kind === kind).length
  t.ok(queries.length >= 48, `${queries.length} queries`)
  t.ok(count('paraphrase') >= 16, `${count('paraphrase')} paraphrase queries`)
  t.ok(count('exact') >= 16, `${count('exact')} exact queries`)
  t.ok(count('typo') >= 4, `${count('typo')} typo queries`)
  t.ok(count('filtered') >= 4, `${count('filtered')} filtered queries`)
  t.equal(new Set(queries.map((q) => q.query + (q.filters ?? ''))).size, queries.length, 'no query is judged twice')
  const byId = new Map(demo.map((p) => [p.id, p]))
  const problems: string[] = []
  for (const q of queries) {
    if (!nonEmptyString(q.query) || !['exact', 'typo', 'paraphrase', 'filtered'].includes(q.kind)) problems.push(`${q.query}: query or kind`)
    const entries = Object.entries(q.relevant)
    if (entries.length < 1 || entries.length > 15) problems.push(`${q.query}: ${entries.length} relevant items`)
    for (const [id, grade] of entries) {
      if (!demoIds.has(id)) problems.push(`${q.query}: ${id} is not in the demo catalog`)
      if (![1, 2, 3].includes(grade)) problems.push(`${q.query}: grade ${grade}`)
    }
    if (!entries.some(([, grade]) => grade === 3)) problems.push(`${q.query}: no perfect match`)
    if ((q.kind === 'filtered') !== (q.filters !== undefined)) problems.push(`${q.query}: filters go with kind "filtered"`)
    if (q.filters !== undefined) {
      const passes = compileFilter(q.filters)
      for (const [id] of entries) if (!passes(byId.get(id) as unknown as Record<string, unknown>)) problems.push(`${q.query}: ${id} fails ${q.filters}`)
    }
  }
  t.same(problems, [])
})

t.test('the assistant check set', async (t) => {
  const cases = readJson('assistant-set.json') as Array<{ message: string, expected: string[], acceptable: string[], classification: string }>
  t.ok(cases.length >= 64, `${cases.length} messages`)
  const problems: string[] = []
  for (const c of cases) {
    if (!nonEmptyString(c.message)) problems.push('empty message')
    if (!['question', 'request'].includes(c.classification)) problems.push(`${c.message}: classification ${c.classification}`)
    if (!Array.isArray(c.expected) || c.expected.length < 1 || c.expected.length > 5) problems.push(`${c.message}: ${c.expected.length} expected items`)
    if (new Set(c.expected).size !== c.expected.length) problems.push(`${c.message}: repeated items`)
    for (const id of c.expected) if (!demoIds.has(id)) problems.push(`${c.message}: ${id} is not in the demo catalog`)
    if (!Array.isArray(c.acceptable) || new Set(c.acceptable).size !== c.acceptable.length) problems.push(`${c.message}: acceptable items missing or repeated`)
    for (const id of c.acceptable ?? []) if (!demoIds.has(id)) problems.push(`${c.message}: acceptable ${id} is not in the demo catalog`)
    for (const id of c.expected) if (!(c.acceptable ?? []).includes(id)) problems.push(`${c.message}: expected ${id} is not acceptable`)
  }
  t.same(problems, [])
  t.equal(new Set(cases.map((c) => c.message)).size, cases.length, 'messages are distinct')
  const brands = new Set(demo.map((p) => p.brand.toLowerCase()))
  const constrained = cases.filter((c) => /\$\d|\bunder\b|less than|in stock|right now|cheapest/i.test(c.message) ||
    c.message.toLowerCase().split(/[^a-z&]+/).some((w) => brands.has(w))).length
  t.ok(constrained >= cases.length * 0.4 && constrained <= cases.length * 0.6, `${constrained} of ${cases.length} state a price, brand or stock constraint`)
  for (const kind of ['question', 'request']) t.ok(cases.filter((c) => c.classification === kind).length >= 16, `enough ${kind}s`)
})

t.test('the mini filter reads the syntax used in relevance.json', async (t) => {
  const doc = { price: 80, in_stock: true, brand: 'Veltone', category: 'Tents & Camping', color: 'Red', tags: ['waterproof', 'men'], rating: 4.5 }
  t.ok(compileFilter('price < 100 AND in_stock = true')(doc))
  t.notOk(compileFilter('price >= 100 OR in_stock = false')(doc))
  t.ok(compileFilter('category = "Tents & Camping" AND brand = veltone')(doc))
  t.ok(compileFilter('color IN [Red, Yellow] AND tags = waterproof')(doc))
  t.ok(compileFilter('price 50 TO 150 AND NOT (rating < 4)')(doc))
  t.notOk(compileFilter('tags != men')(doc))
  t.throws(() => compileFilter('price <'))
})

// How fast it is belongs to the benches (a timed assertion fails on a busy machine, not a slow generator).
t.test('200,000 products generate with unique, sequential ids', async (t) => {
  const big = generateCatalog(200000, 1)
  t.equal(big.length, 200000)
  t.equal(new Set(big.map((p) => p.id)).size, big.length, 'ids are unique')
  t.equal(big[199999]?.id, 'sku-200000')
})
