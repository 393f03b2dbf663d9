// The catalog's synonyms and stop words (Meilisearch's settings of those names), the same on every
// engine: a synonym is one-way, folded like query words, a key may be several words next to each
// other and an alternative a phrase; what it finds counts as its key's words for the words rule.
// Stop words are left out of queries, except a last word still being typed. They apply to keyword
// search, the keyword side of hybrid search, autocomplete and highlighting; absent, nothing changes.
// Then the embedded engine's own parts: the keyword plan, the readings of an autocomplete term, and a
// change of them while searches go on.
import t, { type Test } from 'tap'
import Database from 'better-sqlite3'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { limits } from '@chatsearch/contracts'
import { NO_RULES, queryRules, queryTerms, wordSettingsProblem } from '../src/engine/query-terms.js'
import { planKeyword, planLevels } from '../src/engines/embedded/keyword.js'
import { typedVariants } from '../src/engines/embedded/suggestions.js'
import { Vocabulary } from '../src/engines/embedded/typo.js'
import { ENGINES, ids, searchHarness, send, type EngineKind } from './helpers.js'

/** Only titles are searched. No title holds the word "the" but the lamp's; "thermal" begins with it. */
const ITEMS = [
  { id: 'phone-1', title: 'Smartphone Pro', category: 'Phones' },
  { id: 'phone-2', title: 'Zeta Mobile', category: 'Phones' },
  { id: 'phone-3', title: 'Desk Phone', category: 'Phones' },
  { id: 'phone-4', title: 'Flip Phone', category: 'Phones' },
  { id: 'shoe-1', title: 'Rubber Flip Flops', category: 'Shoes' },
  { id: 'shoe-2', title: 'Beach Sandals', category: 'Shoes' },
  { id: 'hood-1', title: 'Grey Hooded Sweatshirt', category: 'Tops' },
  { id: 'hood-2', title: 'Hooded Rain Jacket with Sweatshirt Lining', category: 'Tops' },
  { id: 'hood-3', title: 'Zip Hoodie', category: 'Tops' },
  { id: 'sofa-1', title: 'Leather Sofa', category: 'Sofas' },
  { id: 'sofa-2', title: 'Linen Couch', category: 'Sofas' },
  { id: 'lamp-1', title: 'The Reading Lamp', category: 'Lighting' },
  { id: 'mug-1', title: 'Thermal Mug', category: 'Kitchen' }
]

const SETTINGS = { searchableAttributes: ['title'], filterableAttributes: ['category'], facetableAttributes: ['category'] }
const WORDS = {
  synonyms: { phone: ['smartphone', 'mobile'], 'flip flops': ['sandals'], hoodie: ['hooded sweatshirt'], Canapé: ['Sofa', 'COUCH'] },
  stopWords: ['the', 'for', 'a']
}
const PHONES = ['phone-1', 'phone-2', 'phone-3', 'phone-4']
/** The semantic side weighs as much as the keyword side; the filter keeps both sides to the phones. */
const HYBRID = { search_term: 'phone', search_type: 'hybrid', semantic_ratio: 0.5, show_ranking_score: true, filters: 'category = Phones' }

interface Hit { id: string, _rankingScore?: number, _formatted?: Record<string, unknown> }

const suite = (engine: EngineKind) => async (t: Test) => {
  // The response cache on: an answer cached before a change of the settings must not be served after it.
  const h = await searchHarness(t, true, { cacheTtlS: 60 }, engine)
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'PUT', '/settings', SETTINGS)).statusCode, 200)
  t.equal((await send(h.app, shop.key, 'POST', '/documents', ITEMS)).statusCode, 200)
  const search = async (body: Record<string, unknown>): Promise<{ hits: Hit[], processingTimeMs: number }> => {
    const res = await send(h.app, shop.key, 'POST', '/search', { limit: 50, ...body })
    t.equal(res.statusCode, 200, JSON.stringify(body))
    return res.json()
  }
  const found = async (q: string, extra: Record<string, unknown> = {}) => ids(await search({ search_term: q, ...extra }))
  const set = async (q: string, extra: Record<string, unknown> = {}) => (await found(q, extra)).sort()
  const scores = async (body: Record<string, unknown>) => Object.fromEntries((await search(body)).hits.map((hit): [string, number] => [hit.id, hit._rankingScore!]))
  const suggestions = async (term: string): Promise<string[]> => {
    const res = await send(h.app, shop.key, 'POST', '/autocomplete', { autocomplete_term: term, limit: 20 })
    t.equal(res.statusCode, 200, term)
    return res.json().suggestions
  }
  const put = (settings: Record<string, unknown>) => send(h.app, shop.key, 'PUT', '/settings', settings)

  await t.test('empty synonyms and stop words answer exactly as none', async (t) => {
    const requests = [
      { search_term: 'phone', show_ranking_score: true, facets: ['category'] },
      { search_term: 'the sofa', matching_strategy: 'all' },
      { search_term: 'the sofa' },
      { search_term: 'flip flops', matching_strategy: 'frequency' },
      { search_term: 'hoodie', attributes_to_highlight: ['title'] },
      { search_term: 'the', attributes_to_crop: ['title:1'] },
      HYBRID
    ]
    const answers = async () => {
      const out = []
      for (const body of requests) out.push({ ...await search(body), processingTimeMs: 0, query_id: '' })
      return out
    }
    const completions = async () => {
      const out = []
      for (const term of ['phone', 'th', 'the sma']) out.push(await suggestions(term))
      return out
    }
    const without = await answers()
    // Searches feed autocomplete's popular searches: none may land between the two rounds of completions.
    await h.app.analytics.flush()
    const completedWithout = await completions()
    const empty = await put({ ...SETTINGS, synonyms: {}, stopWords: [] })
    t.equal(empty.statusCode, 200)
    t.same(empty.json(), { ...SETTINGS, sortableAttributes: [], synonyms: {}, stopWords: [], suggestionsMinSearchers: 3, suggestionsExcluded: [] })
    t.same(await completions(), completedWithout, 'the same completions, computed again after the change')
    t.same(await answers(), without, 'the same answers')
  })

  // What the catalog answers without synonyms or stop words, for the tests after to compare with.
  t.same(await set('phone'), ['phone-3', 'phone-4'], 'without synonyms, "phone" finds what says it')
  t.same(await found('zeta phone', { matching_strategy: 'all' }), [])
  t.same(await found('the sofa', { matching_strategy: 'all' }), [], 'without stop words, "the" must match too')
  const hybridBefore = await scores(HYBRID)
  t.same(Object.keys(hybridBefore).sort(), PHONES, 'the semantic side finds every phone')
  const suggestedBefore = { phone: await suggestions('phone'), th: await suggestions('th'), theSma: await suggestions('the sma') }

  const changed = await put({ ...SETTINGS, ...WORDS })
  t.equal(changed.statusCode, 200)
  t.same(changed.json(), { ...SETTINGS, sortableAttributes: [], ...WORDS, suggestionsMinSearchers: 3, suggestionsExcluded: [] }, 'kept as sent: keys and alternatives as written')
  t.same((await send(h.app, shop.key, 'GET', '/settings')).json(), changed.json())

  await t.test('a synonym is one-way, and an answer cached before it is not served', async (t) => {
    t.same(await set('phone'), PHONES, '"phone" also finds smartphones and mobiles: the same request as before the change')
    t.same(await found('smartphone'), ['phone-1'], 'not the other way round')
    t.same(await found('mobile'), ['phone-2'])
  })

  await t.test('an item found through a synonym matches the words of its key', async (t) => {
    t.same(await found('zeta phone', { matching_strategy: 'all' }), ['phone-2'], '"Zeta Mobile" holds every word of "zeta phone"')
    t.same(await set('zeta phone', { matching_strategy: 'frequency' }), ['phone-2'])
  })

  await t.test('keys and alternatives of several words', async (t) => {
    t.same(await set('flip flops', { matching_strategy: 'all' }), ['shoe-1', 'shoe-2'], 'the key "flip flops" finds sandals; "Flip Phone" lacks "flops"')
    const last = await found('flip flops')
    t.same(last.slice(0, 2).sort(), ['shoe-1', 'shoe-2'], 'both match the whole key first')
    t.same(last.slice(2), ['phone-4'], 'then "flip" alone: the key\'s synonyms went with the word dropped')
    t.same(await found('sandals'), ['shoe-2'], 'one-way')
    t.same(await set('hoodie'), ['hood-1', 'hood-3'], 'the alternative "hooded sweatshirt" is a phrase: not the jacket whose words are apart')
    t.same(await set('hooded sweatshirt', { matching_strategy: 'all' }), ['hood-1', 'hood-2'], 'and finds no hoodie itself')
  })

  await t.test('case and accents do not count', async (t) => {
    t.same(await set('CANAPE'), ['sofa-1', 'sofa-2'], 'the key "Canapé", its alternatives "Sofa" and "COUCH"')
    t.same(await set('canapé'), ['sofa-1', 'sofa-2'])
    t.same(await set('Flip FLOPS', { matching_strategy: 'all' }), ['shoe-1', 'shoe-2'])
  })

  await t.test('stop words are left out of queries, but for the last word', async (t) => {
    const sofa = await found('sofa')
    t.same(sofa, ['sofa-1'])
    t.same(await found('the sofa'), sofa)
    t.same(await found('the sofa', { matching_strategy: 'all' }), sofa, 'not required, even when every word is')
    t.same(await found(`${'the '.repeat(12)}sofa`), sofa, 'nor counted among the ten words searched')
    t.same(await found('sofa the'), sofa, 'a last word still being typed is kept, as a prefix, and the default strategy drops it')
    t.same(await found('sofa the', { matching_strategy: 'all' }), [], 'with all, it must match: nothing here says sofa and the…')
  })

  await t.test('a query of stop words only searches its last one', async (t) => {
    const the = await found('the')
    t.ok(the.includes('mug-1'), `"the" as a prefix finds "Thermal Mug": ${the.join(', ')}`)
    t.same(await found('for the'), the, 'the words before it are left out')
    if (engine === 'embedded') t.same([...the].sort(), ['lamp-1', 'mug-1'], 'the embedded index keeps stop words: "The Reading Lamp" too')
  })

  await t.test('highlighting marks what a synonym found, a phrase word by word', async (t) => {
    const titles = async (q: string) => Object.fromEntries((await search({ search_term: q, attributes_to_highlight: ['title'] })).hits.map((hit): [string, unknown] => [hit.id, hit._formatted?.title]))
    const phone = await titles('phone')
    t.same([phone['phone-1'], phone['phone-2'], phone['phone-3']], ['<em>Smartphone</em> Pro', 'Zeta <em>Mobile</em>', 'Desk <em>Phone</em>'])
    const hoodie = await titles('hoodie')
    t.same([hoodie['hood-1'], hoodie['hood-3']], ['Grey <em>Hooded</em> <em>Sweatshirt</em>', 'Zip <em>Hoodie</em>'])
    const flops = await titles('flip flops')
    t.same([flops['shoe-1'], flops['shoe-2']], ['Rubber <em>Flip</em> <em>Flops</em>', 'Beach <em>Sandals</em>'])
    t.equal((await titles('the sofa'))['sofa-1'], 'Leather <em>Sofa</em>')
  })

  await t.test('hybrid search: the keyword side reads the query with them, the semantic side as written', async (t) => {
    t.same((await found('phone', { search_type: 'hybrid', semantic_ratio: 0 })).sort(), PHONES, 'ratio 0: the keyword search')
    const after = await scores(HYBRID)
    t.same(Object.keys(after).sort(), PHONES)
    if (engine === 'embedded') {
      // Half the score is the keyword side's: 0 for a smartphone before, 1 (a match of every word, no typo) now.
      for (const id of ['phone-1', 'phone-2']) t.ok(Math.abs(after[id]! - hybridBefore[id]! - 0.5) < 0.00015, `${id}: ${hybridBefore[id]} → ${after[id]}`)
      for (const id of ['phone-3', 'phone-4']) t.equal(after[id], hybridBefore[id], `${id}: found by its own word before, the same score`)
    } else {
      for (const id of ['phone-1', 'phone-2']) t.ok(after[id]! > hybridBefore[id]!, `${id}: ${hybridBefore[id]} → ${after[id]}`)
    }
  })

  await t.test('autocomplete: synonyms complete the words typed, stop words are never suggested', async (t) => {
    t.notOk(suggestedBefore.phone.includes('Smartphone Pro'))
    t.ok((await suggestions('phone')).includes('Smartphone Pro'), '"phone" also completes as "smartphone"')
    t.same(suggestedBefore.theSma, [], 'before: no completion begins with "the sma"')
    t.ok((await suggestions('the sma')).includes('Smartphone Pro'), 'the stop word among the words typed is left out')
    const th = await suggestions('th')
    t.notOk(th.includes('the'), `no stop word: ${th.join(', ')}`)
    if (engine === 'embedded') {
      t.ok(suggestedBefore.th.includes('the'), 'an indexed word, before it was a stop word')
      t.ok(th.includes('thermal') && th.includes('The Reading Lamp'), 'other completions stay, a phrase beginning with a stop word too')
    }
  })

  await t.test('settings search could not use are refused with invalid_request, and change nothing', async (t) => {
    const many = <T>(n: number, of: (i: number) => T) => Array.from({ length: n }, (_, i) => of(i))
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ synonyms: ['phone'] }, /synonyms/],
      [{ synonyms: { phone: 'smartphone' } }, /synonyms/],
      [{ synonyms: { phone: [1] } }, /synonyms/],
      [{ synonyms: { phone: [''] } }, /synonyms/],
      [{ synonyms: { '': ['x'] } }, /synonyms/],
      [{ synonyms: { phone: ['mobile', 'mobile'] } }, /synonyms/],
      [{ synonyms: { phone: ['x'.repeat(limits.synonymMaxChars + 1)] } }, /synonyms/],
      [{ synonyms: { x: many(limits.synonymAlternativesMax + 1, (i) => `a${i}`) } }, /synonyms/],
      [{ synonyms: Object.fromEntries(many(limits.synonymsMax + 1, (i): [string, string[]] => [`k${i}`, ['v']])) }, /synonyms/],
      [{ stopWords: 'the' }, /stopWords/],
      [{ stopWords: [''] }, /stopWords/],
      [{ stopWords: ['the', 'the'] }, /stopWords/],
      [{ stopWords: many(limits.stopWordsMax + 1, (i) => `w${i}`) }, /stopWords/],
      [{ stopWords: ["don't"] }, /^stopWords: "don't" is 2 words .*a stop word is one word$/],
      [{ stopWords: ['...'] }, /^stopWords: "\.\.\." is no word/],
      [{ synonyms: { '!!!': ['x'] } }, /^synonyms: the key "!!!" has no word/],
      [{ synonyms: { phone: ['???'] } }, /^synonyms: "\?\?\?", an alternative of "phone", has no word/],
      [{ synonyms: { 'big red leather sofa': ['chesterfield'] } }, /^synonyms: the key "big red leather sofa" has 4 words besides stop words; a key has at most 3/],
      [{ synonyms: { 'the a': ['x'] }, stopWords: ['the', 'a'] }, /^synonyms: the key "the a" is made of stop words/]
    ]
    for (const [extra, message] of cases) {
      const res = await put({ ...SETTINGS, ...extra })
      const what = JSON.stringify(extra).slice(0, 60)
      t.equal(res.statusCode, 400, what)
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'], what)
      t.equal(res.json().code, 'invalid_request', what)
      t.match(res.json().message, message, what)
    }
    t.same((await send(h.app, shop.key, 'GET', '/settings')).json(), changed.json(), 'the settings are still those set before')
    t.same(await set('phone'), PHONES)
  })

  await t.test('settings without them answer as before them', async (t) => {
    t.equal((await put(SETTINGS)).statusCode, 200)
    t.same(await set('phone'), ['phone-3', 'phone-4'])
    t.same(await found('the sofa', { matching_strategy: 'all' }), [])
    t.same(await scores(HYBRID), hybridBefore)
  })
}

t.test('the words a query searches: stop words left out, synonyms found', async (t) => {
  const rules = queryRules({
    synonyms: { 'Flip Flops': ['Sandals'], phone: ['smartphone', 'Mobile  Phone', 'PHONE', 'smartphone'], 'the north face': ['TNF'], lonely: [] },
    stopWords: ['the', 'The', 'of']
  })
  t.same([...rules.stopWords], ['the', 'of'], 'folded, each once')
  t.same([...rules.synonyms], [['flip flops', [['sandals']]], ['phone', [['smartphone'], ['mobile', 'phone']]], ['north face', [['tnf']]]],
    'keys folded without their stop words; alternatives folded, each once, none the key itself; a key without alternatives left out')
  t.equal(rules.longestKey, 2)
  const word = (w: string, isLast = false) => ({ word: w, isLast })
  t.same(queryTerms('the Flip flops', rules), { words: [word('flip'), word('flops', true)], synonyms: [{ first: 0, last: 1, alternatives: [['sandals']] }] })
  t.same(queryTerms('The North Face jacket', rules).synonyms, [{ first: 0, last: 1, alternatives: [['tnf']] }])
  t.same(queryTerms('phone', rules), { words: [word('phone', true)], synonyms: [{ first: 0, last: 0, alternatives: [['smartphone'], ['mobile', 'phone']] }] })
  t.same(queryTerms('sofa the', rules).words, [word('sofa'), word('the', true)], 'the last word stays')
  t.same(queryTerms('the of', rules).words, [word('of', true)])
  t.same(queryTerms(`${'the '.repeat(12)}a b c d e f g h i j k`, rules).words.length, 10, 'ten words, counted without stop words')
  t.same(queryTerms('flip flops phone', rules).synonyms.map(({ first, last }) => [first, last]), [[0, 1], [2, 2]])
  const settings = { synonyms: { phone: ['mobile'] }, stopWords: ['the'] }
  t.equal(queryRules(settings), queryRules(settings), 'compiled once per settings')
  t.equal(queryRules({}), NO_RULES, 'none: nothing to do for a query')
  t.equal(queryRules({ synonyms: {}, stopWords: [] }), NO_RULES)
  t.same(queryTerms('the sofa', queryRules({})), { words: [word('the'), word('sofa', true)], synonyms: [] })
})

t.test('what PUT /settings refuses of them', async (t) => {
  t.equal(wordSettingsProblem({ synonyms: { 'The North Face': ['tnf'], 'san francisco bay': ['sf'] }, stopWords: ['the', 'À'] }), undefined)
  t.equal(wordSettingsProblem({}), undefined)
  t.match(wordSettingsProblem({ stopWords: ['t-shirt'] }), /"t-shirt" is 2 words/)
  t.match(wordSettingsProblem({ synonyms: { 'the big red leather sofa': ['x'] }, stopWords: ['the'] }), /4 words besides stop words/)
  t.equal(wordSettingsProblem({ synonyms: { 'the big red sofa': ['x'] }, stopWords: ['the'] }), undefined, 'stop words do not count')
  t.match(wordSettingsProblem({ synonyms: { the: ['x'] }, stopWords: ['The'] }), /made of stop words/)
})

t.test('embedded engine only: the keyword plan of a query with synonyms', async (t) => {
  const vocabulary = new Vocabulary(['flip', 'flops', 'flaps', 'sandals', 'phone', 'smartphone', 'mobile', 'case', 'sofa'])
  const rules = queryRules({ synonyms: { 'flip flops': ['sandals'], phone: ['smartphone', 'mobile phone'] } })
  t.same(planKeyword('flip flops', vocabulary), {
    tiers: ['("flip") AND ("flops" *)', '("flip") AND ("flops" * OR "flaps")'],
    first: 0,
    beyond: ['(("flaps") NOT ("flops" *))']
  }, 'without synonyms, as before them')
  t.same(planKeyword('flip flops', vocabulary, rules), {
    tiers: ['((("flip") AND ("flops" *)) OR "sandals")', '((("flip") AND ("flops" * OR "flaps")) OR "sandals")'],
    first: 0,
    beyond: ['((("flip") AND ("flops" * OR "flaps")) NOT ((("flip") AND ("flops" *)) OR "sandals"))']
  }, 'a key of several words: its words, or any alternative; beyond a tier, its words with typos and no alternative')
  t.same(planKeyword('phone case', vocabulary, rules), {
    tiers: ['("phone" OR "smartphone" OR "mobile phone") AND ("case" *)'],
    first: 0,
    beyond: []
  }, 'a one-word key: its alternatives are terms of the word, without typos, a phrase as an FTS5 phrase')
  t.same(planLevels('flip flops', vocabulary, 'last', () => 0, rules)!.map((plan) => plan.tiers.at(-1)), [
    '((("flip") AND ("flops" * OR "flaps")) OR "sandals")',
    '("flip")'
  ], 'a level that drops a word of a key drops its alternatives')
  t.same(planKeyword('canape', vocabulary, queryRules({ synonyms: { Canapé: ['Sofa'] } })), { tiers: ['("canape" * OR "sofa")'], first: 0, beyond: [] })
  t.same(planKeyword('the phone case', vocabulary, queryRules({ stopWords: ['the'] })), planKeyword('phone case', vocabulary), 'a stop word is no term')
  const empty = queryRules({ synonyms: {}, stopWords: [] })
  for (const q of ['flip flops', 'phone case', 'the sofa', 'flaps', 'x']) t.same(planKeyword(q, vocabulary, empty), planKeyword(q, vocabulary), `"${q}" unchanged by empty settings`)
})

t.test('embedded engine only: the readings of an autocomplete term', async (t) => {
  const rules = queryRules({ synonyms: { phone: ['smartphone', 'mobile phone'], 'flip flops': ['sandals'] }, stopWords: ['the', 'for'] })
  t.same(typedVariants('the phone ca', rules), ['the phone ca', 'phone ca', 'smartphone ca', 'mobile phone ca'])
  t.same(typedVariants('flip flops for', rules), ['flip flops for', 'sandals for'], 'the last word, even a stop word, is being typed: kept')
  t.same(typedVariants('phone', rules), ['phone', 'smartphone', 'mobile phone'], 'a last word typed whole is a key too')
  t.same(typedVariants('phon', rules), ['phon'])
  t.same(typedVariants('the phone', NO_RULES), ['the phone'], 'without stop words or synonyms: as typed only')
  const many = queryRules({ synonyms: { a: Array.from({ length: 20 }, (_, i) => `alt${i}`) } })
  t.equal(typedVariants('a b', many).length, 8, 'at most 8 readings')
})

t.test('embedded engine only: searches answer with the old synonyms while new ones are applied, with the new ones after', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'chatsearch-synonyms-'))
  const h = await searchHarness(t, false, { dataDir, cacheTtlS: 60 })
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'PUT', '/settings', SETTINGS)).statusCode, 200)
  t.equal((await send(h.app, shop.key, 'POST', '/documents', ITEMS)).statusCode, 200)
  const phones = async (limit: number) => {
    const res = await send(h.app, shop.key, 'POST', '/search', { search_term: 'phone', limit })
    t.equal(res.statusCode, 200)
    return ids(res.json()).sort()
  }
  t.same(await phones(20), ['phone-3', 'phone-4'])
  await h.app.analytics.flush()

  // Another writer holds the file: the new settings are under way until it lets go (see settings-rebuild.test.ts).
  const other = new Database(join(dataDir, 'search', `${shop.projectId}.sqlite`))
  t.teardown(() => other.close())
  other.exec('BEGIN IMMEDIATE')
  let settled = false
  const change = send(h.app, shop.key, 'PUT', '/settings', { ...SETTINGS, ...WORDS }).then((res) => { settled = true; return res })
  t.same(await phones(30), ['phone-3', 'phone-4'], 'a search meanwhile (not cached before): the old synonyms')
  const complete = await send(h.app, shop.key, 'POST', '/autocomplete', { autocomplete_term: 'phone' })
  t.equal(complete.statusCode, 200, 'autocomplete meanwhile')
  t.equal(settled, false, 'both answered while the change was under way')

  other.exec('ROLLBACK')
  const changed = await change
  t.equal(changed.statusCode, 200)
  t.same(changed.json().synonyms, WORDS.synonyms)
  t.same(await phones(30), PHONES, 'the new synonyms once applied: the answer cached meanwhile is not served')
  t.same(await phones(20), PHONES)
})

for (const engine of ENGINES) t.test(`synonyms and stop words (${engine} engine)`, suite(engine))
