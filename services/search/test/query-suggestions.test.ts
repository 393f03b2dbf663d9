import t, { type Test } from 'tap'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, readMeta } from '../src/engines/embedded/database.js'
import { ENGINES, searchHarness, send, type EngineKind } from './helpers.js'

// Query suggestions (issue 28, item 6): autocomplete suggests a popular search only once its keyword
// results exist and several distinct searchers made it (settings suggestionsMinSearchers, 3 by
// default; a searcher is the consumer_id, or the client address without one), unless the settings'
// suggestionsExcluded lists it; catalog phrases complete as before. GET /suggestions/candidates lists
// the popular searches with why each is or is not suggested. Over HTTP, on every engine in ENGINES.

const SPAM = 'zqlhaaboie free money at evil example'

interface Candidate { query: string, count: number, searchers: number, hits: number | null, status: string }

const suite = (engine: EngineKind) => async (t: Test) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'chatsearch-suggest-'))
  t.teardown(() => rm(dataDir, { recursive: true, force: true }))
  const h = await searchHarness(t, true, { dataDir }, engine)
  const catalog = await h.catalog()
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'POST', '/documents', catalog)).statusCode, 200)

  const searchAs = async (key: string, body: Record<string, unknown>, remoteAddress = '127.0.0.1') => {
    const res = await h.app.inject({ method: 'POST', url: '/search', headers: { authorization: `Bearer ${key}` }, payload: body, remoteAddress })
    t.equal(res.statusCode, 200, JSON.stringify(body))
    return res.json() as { estimatedTotalHits: number }
  }
  // Searches are counted off the request path: each read below first writes what was recorded.
  const complete = async (key: string, term: string) => {
    await h.app.analytics.flush()
    const res = await send(h.app, key, 'POST', '/autocomplete', { autocomplete_term: term, limit: 20 })
    t.equal(res.statusCode, 200)
    return res.json().suggestions as string[]
  }
  const candidates = async (key: string) => {
    await h.app.analytics.flush()
    const res = await send(h.app, key, 'GET', '/suggestions/candidates?limit=50')
    t.equal(res.statusCode, 200, res.body)
    return res.json() as { results: Candidate[], total: number, limit: number, offset: number }
  }
  const candidate = async (key: string, query: string) => (await candidates(key)).results.find((c) => c.query === query)
  // Whether the search is among the completions of the term. Meilisearch also completes catalog
  // phrases holding the words anywhere ("brewmaster k" → "Brewmaster Pour-Over Kettle"), where the
  // embedded engine completes those that begin so: the checks look for the search alone.
  const suggests = async (key: string, term: string, search: string) => (await complete(key, term)).includes(search)

  await t.test('the issue\'s example: a hybrid search whose keyword search finds nothing is never suggested, however many make it', async (t) => {
    const first = await searchAs(shop.key, { search_term: SPAM, search_type: 'hybrid', consumer_id: 'mallory' })
    t.ok(first.estimatedTotalHits > 0, 'the hybrid search has hits: its semantic side')
    for (let i = 1; i < 50; i++) await searchAs(shop.key, { search_term: SPAM, search_type: 'hybrid', consumer_id: 'mallory' })
    t.notOk(await suggests(shop.key, 'zqlhaaboie fr', SPAM), 'one consumer, fifty times: not suggested')
    for (const consumer of ['ann', 'bob', 'cy']) await searchAs(shop.key, { search_term: SPAM, search_type: 'hybrid', consumer_id: consumer })
    t.same(await complete(shop.key, 'zqlhaaboie fr'), [], 'four consumers: still not, its keyword results are empty')
    const page = await candidates(shop.key)
    t.match(page, { total: 1, limit: 50, offset: 0 })
    t.same(page.results, [{ query: SPAM, count: 53, searchers: 3, hits: 0, status: 'no_keyword_results' }],
      'listed with why; searchers counted up to the threshold, no further')
  })

  await t.test('the same search in a catalog where its keyword results exist: suggested from the third distinct consumer on', async (t) => {
    const other = await h.tenant('other')
    const mystery = { id: 'zq-1', title: 'Mystery Gift Box', description: 'Zqlhaaboie: free money at evil example, in a box.', price: 5 }
    t.equal((await send(h.app, other.key, 'POST', '/documents', [...catalog, mystery])).statusCode, 200)
    t.same(await complete(other.key, 'zqlhaaboie fr'), [], 'nothing before the searches (no catalog phrase begins so)')
    for (let i = 0; i < 50; i++) await searchAs(other.key, { search_term: SPAM, search_type: 'hybrid', consumer_id: 'mallory' })
    t.notOk(await suggests(other.key, 'zqlhaaboie fr', SPAM), 'one consumer, fifty times: not suggested')
    t.match(await candidate(other.key, SPAM), { count: 50, searchers: 1, status: 'few_searchers' })
    await searchAs(other.key, { search_term: SPAM, search_type: 'hybrid', consumer_id: 'ann' })
    t.notOk(await suggests(other.key, 'zqlhaaboie fr', SPAM), 'two: not yet')
    await searchAs(other.key, { search_term: SPAM, search_type: 'hybrid', consumer_id: 'bob' })
    t.ok(await suggests(other.key, 'zqlhaaboie fr', SPAM), 'three distinct consumers, keyword results: suggested')
    t.match(await candidate(other.key, SPAM), { count: 52, searchers: 3, status: 'suggested' })
    t.notOk(await suggests(shop.key, 'zqlhaaboie fr', SPAM), 'in that catalog only')
  })

  await t.test('without a consumer_id the client address is the searcher; a consumer is one searcher from any address', async (t) => {
    for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) await searchAs(shop.key, { search_term: 'brewmaster kettle', consumer_id: 'dan' }, address)
    t.notOk(await suggests(shop.key, 'brewmaster k', 'brewmaster kettle'), 'one consumer from three addresses')
    for (let i = 0; i < 5; i++) await searchAs(shop.key, { search_term: 'ferro frying pan' }, '10.0.0.1')
    await searchAs(shop.key, { search_term: 'ferro frying pan' }, '10.0.0.2')
    t.notOk(await suggests(shop.key, 'ferro fr', 'ferro frying pan'), 'two addresses')
    await searchAs(shop.key, { search_term: 'Ferro  Frying Pan' }, '10.0.0.3')
    t.ok(await suggests(shop.key, 'ferro fr', 'ferro frying pan'), 'three addresses: suggested, as counted (folded)')
    t.match(await candidate(shop.key, 'ferro frying pan'), { count: 7, searchers: 3, status: 'suggested' })
    t.match(await candidate(shop.key, 'brewmaster kettle'), { count: 3, searchers: 1, status: 'few_searchers' })
  })

  await t.test('a filtered search that finds nothing tells nothing of the query\'s keyword results', async (t) => {
    for (const consumer of ['eve', 'fay', 'gus']) await searchAs(shop.key, { search_term: 'ferro frying pan', filters: 'price > 100000', consumer_id: consumer })
    t.ok(await suggests(shop.key, 'ferro fr', 'ferro frying pan'), 'still suggested')
  })

  await t.test('excluded searches and the threshold are the catalog\'s settings, changed without a re-index', async (t) => {
    const settings = (await send(h.app, shop.key, 'GET', '/settings')).json()
    t.same([settings.suggestionsMinSearchers, settings.suggestionsExcluded], [3, []], 'the defaults')
    const put = async (changes: Record<string, unknown>) => {
      const res = await send(h.app, shop.key, 'PUT', '/settings', { ...settings, ...changes })
      t.equal(res.statusCode, 200, res.body)
      return res.json()
    }
    const generation = () => {
      const db = openDatabase(join(dataDir, 'search', `${shop.projectId}.sqlite`))
      try { return readMeta(db, 'generation') } finally { db.close() }
    }
    const before = engine === 'embedded' ? generation() : undefined

    t.same((await put({ suggestionsExcluded: ['  Ferro FRYING   pan ', 'ferro frying pan'] })).suggestionsExcluded, ['ferro frying pan'], 'kept folded, once')
    t.notOk(await suggests(shop.key, 'ferro fr', 'ferro frying pan'), 'excluded: not suggested')
    t.match(await candidate(shop.key, 'ferro frying pan'), { searchers: 3, status: 'excluded' })
    t.ok((await complete(shop.key, 'ferro')).includes('Ferro Stainless Steel Frying Pan'), 'the catalog\'s phrase still completes')
    await put({ suggestionsExcluded: [] })
    t.ok(await suggests(shop.key, 'ferro fr', 'ferro frying pan'), 'included again')

    await put({ suggestionsMinSearchers: 1 })
    t.ok(await suggests(shop.key, 'brewmaster k', 'brewmaster kettle'), 'a threshold of one: one consumer\'s search that found something')
    t.notOk(await suggests(shop.key, 'zqlhaaboie fr', SPAM), 'never one that found nothing')
    await put({ suggestionsMinSearchers: 4 })
    t.notOk(await suggests(shop.key, 'ferro fr', 'ferro frying pan'), 'four: three searchers are too few')
    await searchAs(shop.key, { search_term: 'ferro frying pan', consumer_id: 'hal' })
    t.ok(await suggests(shop.key, 'ferro fr', 'ferro frying pan'), 'a fourth searcher, counted now that the threshold asks for one')
    if (before !== undefined) t.equal(generation(), before, 'the catalog was not re-indexed')

    const refused = await send(h.app, shop.key, 'PUT', '/settings', { ...settings, suggestionsMinSearchers: 0 })
    t.equal(refused.statusCode, 400)
    t.equal(refused.json().code, 'invalid_request')
    await put({ suggestionsMinSearchers: 5 })
    const { suggestionsMinSearchers, suggestionsExcluded, ...others } = settings
    const leftOut = await send(h.app, shop.key, 'PUT', '/settings', others)
    t.same([leftOut.json().suggestionsMinSearchers, leftOut.json().suggestionsExcluded], [3, []], 'left out: the defaults again')
  })
}

for (const engine of ENGINES) t.test(`query suggestions: popular searches of several searchers, with keyword results (${engine} engine)`, suite(engine))
