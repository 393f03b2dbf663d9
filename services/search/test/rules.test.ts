// Search rules (GET and PUT /rules, applied by POST /search), the same on every engine: pinned items
// at 1-based positions of the whole list across pages, hidden items left out, exact and contains
// matching of folded words, active windows, precedence between rules, the response cache following
// a PUT, and what PUT refuses.
import t, { type Test } from 'tap'
import { limits, type SearchRule } from '@chatsearch/contracts'
import { searchKey } from '../src/response-cache.js'
import { applicableRules, compileRule } from '../src/rules/match.js'
import { placePins, ruleEffect } from '../src/rules/apply.js'
import { rulesProblem, storedRule } from '../src/rules/rule.js'
import { ENGINES, ids, searchHarness, send, type EngineKind } from './helpers.js'

/** Only titles are searched: "lamp" finds the four lamps and nothing else. */
const ITEMS = [
  { id: 'lamp-1', title: 'Arc Floor Lamp', category: 'Lighting', in_stock: true },
  { id: 'lamp-2', title: 'Brass Desk Lamp', category: 'Lighting', in_stock: false },
  { id: 'lamp-3', title: 'Bedside Lamp', category: 'Lighting', in_stock: true },
  { id: 'lamp-4', title: 'Paper Lamp', category: 'Lighting', in_stock: true },
  { id: 'sofa-1', title: 'Linen Sofa Grey', category: 'Sofas', in_stock: true },
  { id: 'sofa-2', title: 'Linen Sofa Blue', category: 'Sofas', in_stock: false },
  { id: 'cushion-1', title: 'Linen Cushion', category: 'Textiles', in_stock: true },
  { id: 'rug-1', title: 'Wool Rug', category: 'Textiles', in_stock: false }
]
const SETTINGS = { searchableAttributes: ['title'], filterableAttributes: ['category', 'in_stock'], facetableAttributes: ['category'] }

// Windows far from any day the tests run: no waiting, no clock to set.
const FAR_PAST = '2000-01-01T00:00:00.000Z'
const FAR_FUTURE = '2999-01-01T00:00:00.000Z'

const suite = (engine: EngineKind) => async (t: Test) => {
  // The response cache on: an answer kept across a PUT, or a key without the rules, would show.
  const h = await searchHarness(t, false, { cacheTtlS: 60 }, engine)
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'PUT', '/settings', SETTINGS)).statusCode, 200)
  t.equal((await send(h.app, shop.key, 'POST', '/documents', ITEMS)).statusCode, 200)
  const search = async (body: Record<string, unknown>, key = shop.key, app = h.app) => {
    const res = await send(app, key, 'POST', '/search', body)
    t.equal(res.statusCode, 200, JSON.stringify(body))
    return res.json()
  }
  const found = async (searchTerm: string, extra: Record<string, unknown> = {}) => ids(await search({ search_term: searchTerm, limit: 50, ...extra }))
  const putRules = async (rules: unknown[]): Promise<SearchRule[]> => {
    const res = await send(h.app, shop.key, 'PUT', '/rules', rules)
    t.equal(res.statusCode, 200, res.body)
    return res.json().rules
  }
  const storedIds = async () => ((await send(h.app, shop.key, 'GET', '/rules')).json().rules as SearchRule[]).map((r) => r.id)

  // The engine's own order, whatever its tie-breaks: what the rules change is measured against it.
  const lamps = await found('lamp')
  const lampsInStock = await found('lamp', { filters: 'in_stock = true' })
  t.equal(lamps.length, 4)
  t.same([...lampsInStock].sort(), ['lamp-1', 'lamp-3', 'lamp-4'])
  const lamp = (position: number) => lamps[position - 1]!

  t.test('without rules: an empty list, and searches as the engine ranks', async (t) => {
    t.same((await send(h.app, shop.key, 'GET', '/rules')).json(), { rules: [] })
    t.same(await found('lamp'), lamps)
  })

  t.test('a pinned item shows at its position of the whole list, on the first page and on later ones', async (t) => {
    await putRules([{ id: 'sofa-among-lamps', query: 'lamp', match: 'exact', pin: [{ item_id: 'sofa-1', position: 3 }] }])
    const whole = [lamp(1), lamp(2), 'sofa-1', lamp(3), lamp(4)]
    t.same(await found('lamp'), whole, 'third, the hits after it one place further down')
    t.same(await found('lamp', { limit: 2 }), whole.slice(0, 2), 'pages of two: the first ends before it')
    const second = await search({ search_term: 'lamp', limit: 2, offset: 2 })
    t.same(ids(second), whole.slice(2, 4), 'the second starts with it')
    t.match(second, { limit: 2, offset: 2, estimatedTotalHits: 5 }, 'the page as asked; the total counts it')
    t.same(await found('lamp', { limit: 2, offset: 4 }), whole.slice(4), 'the third holds the last lamp')
    t.same(await found('rug'), ['rug-1'], 'another search: the rule does not apply')
  })

  t.test('a pinned item the search finds anyway moves to its position and shows once', async (t) => {
    await putRules([{ id: 'last-first', query: 'lamp', match: 'exact', pin: [{ item_id: lamp(4), position: 1 }] }])
    const answer = await search({ search_term: 'lamp', limit: 50 })
    t.same(ids(answer), [lamp(4), lamp(1), lamp(2), lamp(3)])
    t.equal(answer.estimatedTotalHits, 4)
  })

  t.test('a position beyond the last hit: the pinned item follows it', async (t) => {
    await putRules([{ id: 'far', query: 'lamp', match: 'exact', pin: [{ item_id: 'sofa-1', position: 10 }] }])
    t.same(await found('lamp'), [...lamps, 'sofa-1'])
    t.same(await found('lamp', { limit: 2, offset: 4 }), ['sofa-1'], 'on the page that holds the end of the list')
    t.equal((await search({ search_term: 'lamp', limit: 2 })).estimatedTotalHits, 5)
    t.same(await found('lamp', { filters: 'category = Sofas' }), ['sofa-1'], 'no hit at all (the filter keeps no lamp): it comes first')
  })

  t.test('a pinned item that does not exist, or that the filters exclude, is left out and takes no position', async (t) => {
    await putRules([
      { id: 'pins', query: 'lamp', match: 'exact', pin: [{ item_id: 'nope', position: 1 }, { item_id: 'sofa-2', position: 2 }, { item_id: 'sofa-1', position: 3 }] }
    ])
    t.same(await found('lamp'), [lamp(1), 'sofa-2', 'sofa-1', lamp(2), lamp(3), lamp(4)], 'no item "nope": lamp 1 keeps the first position')
    const inStock = await search({ search_term: 'lamp', limit: 50, filters: 'in_stock = true' })
    t.same(ids(inStock), [lampsInStock[0], lampsInStock[1], 'sofa-1', lampsInStock[2]], 'sofa-2 is out of stock: left out; sofa-1 is in stock: third')
    t.equal(inStock.estimatedTotalHits, 4)
    t.same(await found('lamp', { filters: 'category = Lighting' }), lamps, 'neither sofa is lighting')
  })

  t.test('a hidden item never shows for the search; pages close up over it', async (t) => {
    await putRules([{ id: 'hide-first', query: 'lamp', match: 'exact', hide: [lamp(1)] }])
    const answer = await search({ search_term: 'lamp', limit: 50, facets: ['category'] })
    t.same(ids(answer), lamps.slice(1))
    t.equal(answer.estimatedTotalHits, 3)
    t.same(answer.facetDistribution, { category: { Lighting: 4 } }, 'facet counts are the engine\'s: the hidden item is still counted (README)')
    const first = await search({ search_term: 'lamp', limit: 1 })
    t.same(ids(first), [lamp(2)], 'the first page starts after it')
    t.equal(first.estimatedTotalHits, 3, 'the total leaves it out on a page that did not read every hit too')
    t.same(await found('lamp', { limit: 2, offset: 1 }), [lamp(3), lamp(4)])
    t.ok((await found('')).includes(lamp(1)), 'browsing is another search: it shows there')
  })

  t.test('hiding wins over pinning; a position two rules pin goes to the first, the other item to the next free one', async (t) => {
    await putRules([
      { id: 'a', query: 'lamp', match: 'exact', pin: [{ item_id: 'sofa-1', position: 1 }, { item_id: 'rug-1', position: 2 }] },
      { id: 'b', query: 'lamp', match: 'contains', pin: [{ item_id: 'cushion-1', position: 1 }, { item_id: 'sofa-1', position: 4 }], hide: ['rug-1'] }
    ])
    t.same(await found('lamp'), ['sofa-1', 'cushion-1', ...lamps], 'rug-1 hidden by b; cushion-1 second; sofa-1 first, as rule a pins it')
  })

  t.test('exact and contains compare the words, ignoring case, accents and punctuation', async (t) => {
    const pinsRug = async (searchTerm: string) => (await found(searchTerm))[0] === 'rug-1'
    await putRules([{ id: 'exact', query: 'Linen Sofa', match: 'exact', pin: [{ item_id: 'rug-1', position: 1 }] }])
    for (const q of ['linen sofa', 'LÍNEN  sofá!', 'linen-sofa']) t.ok(await pinsRug(q), `exact: "${q}"`)
    for (const q of ['linen sofa grey', 'sofa linen', 'linen']) t.notOk(await pinsRug(q), `exact, not: "${q}"`)
    await putRules([{ id: 'contains', query: 'linen sofa', match: 'contains', pin: [{ item_id: 'rug-1', position: 1 }] }])
    for (const q of ['linen sofa', 'grey linen sofa', 'Linen Sofa, blue']) t.ok(await pinsRug(q), `contains: "${q}"`)
    for (const q of ['linen grey sofa', 'sofa', 'linens sofa']) t.notOk(await pinsRug(q), `contains, not: "${q}"`)
    await putRules([{ id: 'browse', query: '', match: 'exact', pin: [{ item_id: 'rug-1', position: 1 }] }])
    t.ok(await pinsRug(''), 'exact "": an empty search_term (browsing)')
    t.ok(await pinsRug('🎧'), 'and one without a word')
    t.notOk(await pinsRug('lamp'))
    await putRules([{ id: 'everywhere', query: '', match: 'contains', pin: [{ item_id: 'rug-1', position: 1 }] }])
    for (const q of ['', 'lamp', 'linen sofa']) t.ok(await pinsRug(q), `contains "": every search ("${q}")`)
  })

  t.test('a rule applies between its dates only', async (t) => {
    await putRules([
      { id: 'not-yet', query: 'lamp', match: 'exact', pin: [{ item_id: 'sofa-1', position: 1 }], active_from: FAR_FUTURE },
      { id: 'over', query: 'lamp', match: 'exact', pin: [{ item_id: 'sofa-2', position: 1 }], active_until: FAR_PAST },
      { id: 'now', query: 'lamp', match: 'exact', hide: [lamp(4)], active_from: FAR_PAST, active_until: FAR_FUTURE }
    ])
    t.same(await found('lamp'), lamps.slice(0, 3), 'only the rule whose window holds now')
  })

  t.test('ranking scores and highlights: a pinned item the search did not find scores 0', async (t) => {
    await putRules([{ id: 'r', query: 'lamp', match: 'exact', pin: [{ item_id: 'sofa-1', position: 1 }] }])
    const answer = await search({ search_term: 'lamp', limit: 50, show_ranking_score: true, attributes_to_highlight: ['title'] })
    t.equal(answer.hits[0]._rankingScore, 0)
    t.ok(answer.hits.slice(1).every((hit: { _rankingScore: number }) => hit._rankingScore > 0), 'the lamps keep theirs')
    t.equal(answer.hits[0]._formatted.title, 'Linen Sofa Grey', 'and it is formatted like any hit')
  })

  t.test('PUT replaces the list; GET answers it as stored', async (t) => {
    const stored = await putRules([
      { id: 'one', query: 'lamp', match: 'exact', hide: [lamp(1)], active_from: '2000-01-01T01:00:00+01:00' },
      { id: 'two', query: 'rug', match: 'contains', pin: [{ item_id: 'lamp-1', position: 1 }], active_until: null }
    ])
    t.same(stored, [
      { id: 'one', query: 'lamp', match: 'exact', pin: [], hide: [lamp(1)], active_from: FAR_PAST },
      { id: 'two', query: 'rug', match: 'contains', pin: [{ item_id: 'lamp-1', position: 1 }], hide: [] }
    ], 'pin and hide always there, instants in UTC, a bound left out when there is none')
    const read = (await send(h.app, shop.key, 'GET', '/rules')).json()
    t.same(read, { rules: stored })
    t.same(Object.keys(read.rules[0]), ['id', 'query', 'match', 'pin', 'hide', 'active_from'], 'fields in the documented order')
    t.same(await found('rug'), ['lamp-1', 'rug-1'])
    await putRules([stored[1]])
    t.same(await storedIds(), ['two'], 'the whole list replaced')
    t.same(await found('lamp'), lamps, 'the rule left out no longer applies')
    await putRules([])
    t.same(await storedIds(), [])
    t.same(await found('rug'), ['rug-1'])
  })

  t.test('a PUT ends the cached answers, both ways', async (t) => {
    await putRules([])
    t.same(await found('lamp'), lamps, 'now cached')
    await putRules([{ id: 'hide', query: 'lamp', match: 'exact', hide: [lamp(1)] }])
    t.same(await found('lamp'), lamps.slice(1), 'not the answer cached before the rule')
    t.same(await found('lamp'), lamps.slice(1), 'cached in turn')
    await putRules([])
    t.same(await found('lamp'), lamps, 'nor the one cached under it once it is gone')
  })

  t.test('rules are the project\'s: another project\'s searches ignore them; another replica reads them', async (t) => {
    const other = await h.tenant('other')
    t.equal((await send(h.app, other.key, 'PUT', '/settings', SETTINGS)).statusCode, 200)
    t.equal((await send(h.app, other.key, 'POST', '/documents', ITEMS)).statusCode, 200)
    await putRules([{ id: 'hide', query: 'lamp', match: 'exact', hide: [lamp(1)] }])
    t.same(await found('lamp'), lamps.slice(1))
    t.ok(ids(await search({ search_term: 'lamp', limit: 50 }, other.key)).includes(lamp(1)), 'the other project still finds it')
    t.same((await send(h.app, other.key, 'GET', '/rules')).json(), { rules: [] }, 'and has no rules')
    const replica = await h.replica()
    t.same(ids(await search({ search_term: 'lamp', limit: 50 }, shop.key, replica)), lamps.slice(1), 'a replica reads the rules where they are kept (PostgreSQL)')
  })

  t.test('what PUT refuses, naming the rule; a refused list changes nothing', async (t) => {
    await putRules([{ id: 'keep', query: 'lamp', match: 'exact', hide: [lamp(1)] }])
    const refused = async (body: unknown, code = 'invalid_request') => {
      const res = await send(h.app, shop.key, 'PUT', '/rules', body)
      t.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 100))
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'])
      t.equal(res.json().code, code, JSON.stringify(body).slice(0, 100))
      return res.json().message as string
    }
    const rule = { id: 'r', query: 'lamp', match: 'exact' }
    t.match(await refused([rule, { ...rule, query: 'rug' }]), /^rule 2 \(r\): the id r is used by an earlier rule/)
    t.match(await refused([{ ...rule, pin: [{ item_id: 'a', position: 1 }, { item_id: 'a', position: 2 }] }]), /^rule 1 \(r\): item a is pinned twice/)
    t.match(await refused([{ ...rule, pin: [{ item_id: 'a', position: 1 }, { item_id: 'b', position: 1 }] }]), /two items are pinned at position 1/)
    t.match(await refused([{ ...rule, pin: [{ item_id: 'a', position: 1 }], hide: ['a'] }]), /item a is both pinned and hidden/)
    t.match(await refused([{ ...rule, active_from: FAR_FUTURE, active_until: FAR_PAST }]), /active_until must come after active_from/)
    t.match(await refused([{ ...rule, active_from: FAR_PAST, active_until: FAR_PAST }]), /active_until must come after active_from/, 'an empty window')
    t.match(await refused([{ id: 'r', match: 'exact' }], 'missing_parameters'), /query/)
    for (const body of [
      { rules: [] },
      [{ ...rule, match: 'fuzzy' }],
      [{ ...rule, id: 'not an id' }],
      [{ ...rule, pin: [{ item_id: 'a', position: 0 }] }],
      [{ ...rule, pin: [{ item_id: '../keys', position: 1 }] }],
      [{ ...rule, hide: ['a', 'a'] }],
      [{ ...rule, active_from: 'tomorrow' }],
      [{ ...rule, active_from: '2026-06-01T00:00:00' }],
      [{ ...rule, priority: 1 }],
      Array.from({ length: limits.rulesMax + 1 }, (_, i) => ({ ...rule, id: `r${i}` }))
    ]) await refused(body)
    t.same(await storedIds(), ['keep'])
    t.same(await found('lamp'), lamps.slice(1), 'and still applies')
  })
}

t.test('matching: words folded as the engines fold them, windows from included to until excluded', async (t) => {
  const rule = (query: string, match: 'exact' | 'contains', window: Partial<SearchRule> = {}, id = 'r') => compileRule({ id, query, match, ...window })
  const applies = (r: ReturnType<typeof compileRule>, query: string, now = Date.parse('2026-07-01T00:00:00Z')) => applicableRules([r], query, now).length === 1
  t.ok(applies(rule('Linen Sofa', 'exact'), 'linen  SOFÁ'))
  t.notOk(applies(rule('linen sofa', 'exact'), 'linen sofa grey'))
  t.ok(applies(rule('linen sofa', 'contains'), 'grey linen sofa blue'))
  t.notOk(applies(rule('linen sofa', 'contains'), 'linen grey sofa'))
  t.notOk(applies(rule('sofa', 'contains'), 'sofas'), 'whole words: no prefixes, no typos')
  t.ok(applies(rule('', 'exact'), ''))
  t.notOk(applies(rule('', 'exact'), 'lamp'))
  t.ok(applies(rule('', 'contains'), 'lamp'))
  const windowed = rule('lamp', 'exact', { active_from: '2026-07-01T00:00:00.000Z', active_until: '2026-07-02T00:00:00.000Z' })
  t.ok(applies(windowed, 'lamp', Date.parse('2026-07-01T00:00:00Z')), 'from: included')
  t.notOk(applies(windowed, 'lamp', Date.parse('2026-07-01T00:00:00Z') - 1))
  t.notOk(applies(windowed, 'lamp', Date.parse('2026-07-02T00:00:00Z')), 'until: excluded')
  t.same(applicableRules([rule('b', 'exact', {}, 'r0'), rule('a b', 'contains', {}, 'r1'), rule('', 'contains', {}, 'r2'), rule('c', 'exact', {}, 'r3')], 'a b', 0).map((r) => r.id),
    ['r1', 'r2'], 'only those that apply, in their order')
})

t.test('effect: hiding wins, an item keeps its first pin, a contested position goes to the next free one', async (t) => {
  const r = (pin: Array<[string, number]>, hide: string[] = []): SearchRule => ({ id: 'r', query: '', match: 'contains', pin: pin.map(([item, position]) => ({ item_id: item, position })), hide })
  t.equal(ruleEffect([]), undefined)
  t.equal(ruleEffect([r([])]), undefined, 'a rule that pins and hides nothing does nothing')
  const effect = ruleEffect([r([['a', 1], ['b', 2]]), r([['c', 1], ['a', 5]], ['b'])])!
  t.same([...effect.hidden], ['b'])
  t.same(effect.pins, [{ id: 'a', position: 1 }, { id: 'c', position: 1 }])
  t.same(placePins(effect.pins), [{ id: 'a', position: 1 }, { id: 'c', position: 2 }])
  t.same(placePins([{ id: 'x', position: 3 }, { id: 'y', position: 2 }, { id: 'z', position: 2 }]), [{ id: 'y', position: 2 }, { id: 'x', position: 3 }, { id: 'z', position: 4 }],
    'the next free position after every taken one, sorted by position')
  const many = placePins(Array.from({ length: 20_000 }, (_, i) => ({ id: `p${i}`, position: 1 })))
  t.same([many[0], many.at(-1)], [{ id: 'p0', position: 1 }, { id: 'p19999', position: 20_000 }], 'twenty thousand pins of one position, in order, at once')
})

t.test('what PUT stores: fields in order, instants in UTC; what it refuses beyond the schema', async (t) => {
  t.same(storedRule({ id: 'r', query: 'q', match: 'exact', active_from: '2026-06-01T02:00:00+02:00', active_until: null }),
    { id: 'r', query: 'q', match: 'exact', pin: [], hide: [], active_from: '2026-06-01T00:00:00.000Z' })
  t.equal(rulesProblem([]), undefined)
  t.match(rulesProblem([{ id: 'r', query: '', match: 'exact', active_until: 'tomorrow' }]), /^rule 1 \(r\): active_until "tomorrow" is not an instant/, 'Date is the judge of what an instant is')
  t.equal(rulesProblem([{ id: 'a', query: '', match: 'exact', pin: [{ item_id: 'x', position: 1 }] }, { id: 'b', query: '', match: 'exact', pin: [{ item_id: 'y', position: 1 }], hide: ['x'] }]),
    undefined, 'across rules, a position pinned twice and an item pinned and hidden are allowed')
})

t.test('the cache key holds the rules that apply, whole and in order', async (t) => {
  const key = (rules?: SearchRule[]) => searchKey({ query: 'lamp', limit: 20, offset: 0, ...(rules === undefined ? {} : { rules }) })
  const a: SearchRule = { id: 'a', query: 'lamp', match: 'exact', pin: [], hide: ['x'] }
  const b: SearchRule = { id: 'b', query: 'lamp', match: 'contains', pin: [{ item_id: 'y', position: 1 }], hide: [] }
  t.equal(key([]), key(), 'none: the key of a search before rules existed')
  t.not(key([a]), key())
  t.not(key([a, b]), key([b, a]), 'their order is their precedence')
  t.not(key([a]), key([{ ...a, hide: ['z'] }]), 'a rule changed under the same id')
})

for (const engine of ENGINES) t.test(`search rules (${engine} engine)`, suite(engine))
