import t, { type Test } from 'tap'
import { metricSample as sample } from '@chatsearch/testkit'
import { ENGINES, ids, send, withCatalog, type EngineKind } from './helpers.js'

/** The API's search behaviour, the same on every engine (see ENGINES). */
const searchSuite = (engine: EngineKind) => async (t: Test) => {
  const { h, shop, search } = await withCatalog(t, engine)

  t.test('response fields per spec', async (t) => {
    const body = await search({ search_term: '  Hiking   boot ' })
    t.same(Object.keys(body).sort(), ['estimatedTotalHits', 'hits', 'limit', 'offset', 'processingTimeMs', 'query', 'query_id'])
    t.equal(body.query, 'Hiking boot', 'processed: trimmed, white space collapsed')
    t.equal(body.limit, 20)
    t.equal(body.offset, 0)
    t.type(body.processingTimeMs, 'number')
    t.same(Object.keys(body.hits[0]).sort(), ['brand', 'category', 'color', 'description', 'id', 'in_stock', 'price', 'rating', 'tags', 'title'])
  })

  t.test('matching_strategy all: every word must match, the last one also as a prefix', async (t) => {
    const all = async (q: string) => ids(await search({ search_term: q, matching_strategy: 'all' }))
    t.same((await all('trailmark boot')).sort(), ['boot-1', 'boot-3'])
    t.same(await all('noise canc'), ['audio-1'], 'prefix on the last word')
    t.same(await all('noise cancelling kettle'), [], 'every word must match')
    t.same(ids(await search({ search_term: 'noise cancelling kettle' })), ['audio-1'], 'the default (last) drops "kettle" (matching-strategy.test.ts)')
    t.equal((await search({ search_term: 'usb-c' })).estimatedTotalHits, 1, 'punctuation in a query is safe')
    for (const odd of ['c++', '50%', 'NOT', '(laptop', 'brand:x', 'a OR b', '"quoted', '*', '-', 'NEAR(a b)']) {
      await search({ search_term: odd })
    }
  })

  t.test('typo tolerance follows word length', async (t) => {
    t.same(ids(await search({ search_term: 'hikng boots' })).length, 3, 'one typo from 5 letters')
    t.same(ids(await search({ search_term: 'hikign' })).length, 3, 'a swap of two letters is one typo')
    t.same(ids(await search({ search_term: 'headphnoes' })).length, 3)
    t.same(ids(await search({ search_term: 'tnet' })), [], 'no typo under 5 letters')
    t.same(ids(await search({ search_term: 'grnider coffee' })), ['coffee-1'])
    const exactFirst = ids(await search({ search_term: 'pacer trail' }))
    t.equal(exactFirst[0], 'shoe-2', 'an exact match ranks before a typo match')
  })

  t.test('attribute ranking: a title match before a description match', async (t) => {
    const hits = ids(await search({ search_term: 'waterproof' }))
    t.equal(hits[0], 'boot-1', 'waterproof in the title')
    t.ok(hits.includes('boot-2'), 'waterproof in the description only')
  })

  t.test('empty term browses, totals are exact, pagination works', async (t) => {
    const all = await search({ search_term: '', limit: 5 })
    t.equal(all.estimatedTotalHits, 12)
    t.equal(all.hits.length, 5)
    const next = await search({ search_term: '', limit: 5, offset: 5 })
    t.equal(next.hits.length, 5)
    t.same(ids(all).filter((id: string) => ids(next).includes(id)), [], 'pages do not overlap')
    t.equal((await search({ search_term: '', offset: 10, limit: 5 })).hits.length, 2)
    t.equal((await search({ search_term: '', limit: 0 })).hits.length, 0)
    const tooFar = await send(h.app, shop.key, 'POST', '/search', { search_term: '', offset: 9990, limit: 20 })
    t.equal(tooFar.statusCode, 400)
  })

  t.test('filters', async (t) => {
    const cases: Array<[string, string[]]> = [
      ['brand = trailmark', ['boot-1', 'boot-3']],
      ['price < 60', ['audio-2', 'coffee-2']],
      ['price 60 TO 80', ['boot-3', 'pan-1']],
      ['in_stock = false', ['audio-2', 'boot-2']],
      ['tags = "stainless steel"', ['pan-1']],
      ['brand IN [Sonora, Basswave] AND NOT in_stock = false', ['audio-1', 'audio-3']],
      ['(brand = pacer OR brand = ferro) AND price > 90', ['shoe-1', 'shoe-2']],
      ['category = "Hiking Boots" AND rating >= 4.6', ['boot-1', 'boot-2']],
      ['brand STARTS WITH trail', ['boot-1', 'boot-3']],
      ['tags CONTAINS steel OR brand CONTAINS WAVE', ['audio-3', 'pan-1']],
      ['brand NOT STARTS WITH b AND price <= 60', ['audio-2']],
      ['color IN [silver, green] AND NOT price 20 TO 100', ['tent-1']],
      ['tags NOT IN [wireless, waterproof, trail] AND in_stock != true', []],
      ['color EXISTS AND tags IS NOT EMPTY AND brand IS NOT NULL AND brand != sonora AND price > 200', ['tent-1']]
    ]
    for (const [filters, expected] of cases) {
      t.same(ids(await search({ search_term: '', filters, limit: 50 })).sort(), expected.sort(), filters)
    }
    t.same(ids(await search({ search_term: 'boot', filters: 'price < 150' })).sort(), ['boot-1', 'boot-3'], 'keyword + filter')
    const bad = await send(h.app, shop.key, 'POST', '/search', { search_term: '', filters: 'price >' })
    t.equal(bad.statusCode, 400)
    t.equal(bad.json().code, 'invalid_filter')
    t.match(bad.json().message, /position/)
    const notFilterable = await send(h.app, shop.key, 'POST', '/search', { search_term: '', filters: 'description = x' })
    t.equal(notFilterable.json().code, 'invalid_filter')
    t.match(notFilterable.json().message, /description/)
  })

  t.test('facets count over all matches', async (t) => {
    const body = await search({ search_term: '', facets: ['brand', 'in_stock'], limit: 1 })
    t.same(body.facetDistribution.brand, { Trailmark: 2, Summitline: 1, Pacer: 2, Sonora: 2, Basswave: 1, Brewmaster: 2, Ferro: 1, Northwind: 1 })
    t.same(body.facetDistribution.in_stock, { true: 10, false: 2 })
    const narrowed = await search({ search_term: 'headphones', facets: ['brand'], filters: 'in_stock = true' })
    t.same(narrowed.facetDistribution, { brand: { Sonora: 1, Basswave: 1 } })
    t.notOk('facetDistribution' in (await search({ search_term: 'x' })), 'absent unless asked')
    const unknown = await send(h.app, shop.key, 'POST', '/search', { search_term: '', facets: ['description'] })
    t.equal(unknown.statusCode, 400)
    t.equal(unknown.json().code, 'invalid_facet')
  })

  t.test('hybrid search', async (t) => {
    const paraphrase = 'something to grind beans in my kitchen'
    t.equal((await search({ search_term: paraphrase })).estimatedTotalHits, 0, 'keyword alone finds nothing')
    const semantic = await search({ search_term: paraphrase, search_type: 'hybrid', semantic_ratio: 1, limit: 3 })
    t.ok(ids(semantic).slice(0, 2).includes('coffee-1'), 'the meaning is found')
    const keyword = await search({ search_term: 'pacer shoe', limit: 10 })
    const ratioZero = await search({ search_term: 'pacer shoe', search_type: 'hybrid', semantic_ratio: 0, limit: 10 })
    t.same(ids(ratioZero), ids(keyword), 'ratio 0 is the keyword result exactly')
    t.equal(ratioZero.estimatedTotalHits, keyword.estimatedTotalHits)
    const mixed = await search({ search_term: 'quiet headphones for flights', search_type: 'hybrid', limit: 3 })
    t.equal(mixed.hits[0].id, 'audio-1')
    const filtered = await search({ search_term: paraphrase, search_type: 'hybrid', semantic_ratio: 1, filters: 'brand = ferro' })
    t.same(ids(filtered), ['pan-1'], 'filters apply to the semantic side')
  })

  t.test('a hybrid search without a word browses, as an empty keyword search does', async (t) => {
    const embeddings = async () => sample((await h.app.inject('/metrics')).body, 'embedding_duration_seconds_count')
    const embeddedBefore = await embeddings()
    const browse = await search({ search_term: '', limit: 50 })
    for (const term of ['', '🎧', '?!', '   ', '🎧 ?! …']) {
      for (const extra of [{}, { semantic_ratio: 1 }, { filters: 'in_stock = true', facets: ['brand', 'in_stock'], limit: 3, offset: 2 }]) {
        const keyword = await search({ search_term: term, ...extra })
        const hybrid = await search({ search_term: term, search_type: 'hybrid', ...extra })
        const what = `${JSON.stringify(term)} ${JSON.stringify(extra)}`
        t.same(ids(hybrid), ids(keyword), `${what}: the same hits as keyword`)
        t.equal(hybrid.estimatedTotalHits, keyword.estimatedTotalHits, what)
        t.same(hybrid.facetDistribution, keyword.facetDistribution, what)
      }
      t.same(ids(await search({ search_term: term, limit: 50 })), ids(browse), `${JSON.stringify(term)}: no word, so a browse of the catalog`)
    }
    const filtered = await search({ search_term: '🎧', search_type: 'hybrid', filters: 'in_stock = true', facets: ['in_stock'], limit: 3, offset: 2 })
    t.equal(filtered.estimatedTotalHits, 10, 'filters apply')
    t.same(filtered.facetDistribution, { in_stock: { true: 10 } }, 'facets count')
    t.equal(filtered.hits.length, 3, 'paging applies')
    t.same(ids(filtered), ids(browse).filter((id: string) => !['audio-2', 'boot-2'].includes(id)).slice(2, 5))
    t.equal(filtered.query, '🎧')
    t.equal(await embeddings(), embeddedBefore, 'nothing was embedded: the query has no meaning to embed')
  })

  t.test('show_ranking_score adds _rankingScore in [0, 1], best first', async (t) => {
    const scoresOf = (body: { hits: Array<{ _rankingScore: number }> }) => body.hits.map((h) => h._rankingScore)
    const plain = await search({ search_term: 'hiking boot' })
    t.notOk('_rankingScore' in plain.hits[0], 'only when asked')
    const exact = scoresOf(await search({ search_term: 'hiking boot', show_ranking_score: true }))
    const typo = scoresOf(await search({ search_term: 'hikng boot', show_ranking_score: true }))
    for (const s of [...exact, ...typo]) t.ok(s > 0 && s <= 1, `${s} in (0, 1]`)
    t.same(exact, [...exact].sort((a, b) => b - a), 'keyword order is score order')
    t.ok(Math.max(...typo) < Math.max(...exact), 'a typo costs')
    const hybrid = await search({ search_term: 'something to grind beans in my kitchen', search_type: 'hybrid', semantic_ratio: 1, show_ranking_score: true, limit: 5 })
    const scores = scoresOf(hybrid)
    t.ok(scores.every((s: number) => s >= 0 && s <= 1), JSON.stringify(scores))
    t.same(scores, [...scores].sort((a: number, b: number) => b - a), 'semantic order is score order')
    t.ok(scores[0]! > scores.at(-1)!, 'scores tell hits apart')
    if (engine === 'embedded') {
      // The embedded engine's own scale (Meilisearch weighs every ranking rule into its scores).
      t.ok(exact.every((s) => s === 1), 'keyword matches without typos score 1')
      const browse = await search({ search_term: '', show_ranking_score: true, limit: 2 })
      t.same(scoresOf(browse), [1, 1], 'browsing scores every item 1')
    }
    t.equal((await send(h.app, shop.key, 'POST', '/search', { search_term: 'x', show_ranking_score: 'yes' })).statusCode, 400)
  })

  t.test('autocomplete', async (t) => {
    const complete = async (body: Record<string, unknown>) => {
      const res = await send(h.app, shop.key, 'POST', '/autocomplete', body)
      t.equal(res.statusCode, 200)
      return res.json()
    }
    const body = await complete({ autocomplete_term: 'Trail' })
    t.same(Object.keys(body).sort(), ['limit', 'offset', 'processingTimeMs', 'query', 'suggestions'])
    t.equal(body.limit, 10)
    t.ok(body.suggestions.includes('Trailmark'), 'brands complete')
    t.ok(body.suggestions.length <= 10)
    t.ok((await complete({ autocomplete_term: 'hedph' })).suggestions.some((s: string) => /headphones/i.test(s)), 'typo-tolerant')
    const paged = await complete({ autocomplete_term: 'b', limit: 2, offset: 1 })
    t.equal(paged.suggestions.length, 2)
    t.same((await complete({ autocomplete_term: 'zzzzqx' })).suggestions, [])
    // Three shoppers: fewer are not suggested (settings suggestionsMinSearchers, see query-suggestions.test.ts).
    for (const fan of ['fan-1', 'fan-2', 'fan-3']) await search({ search_term: 'sonora quiet', consumer_id: fan })
    await h.app.analytics.flush()
    t.equal((await complete({ autocomplete_term: 'sono' })).suggestions[0], 'sonora quiet', 'popular searches rank first')
  })

  t.test('searches are recorded for analytics', async (t) => {
    await search({ search_term: 'tent', consumer_id: 'camper-1' })
    await h.app.analytics.flush()
    const { rows } = await h.db.query("SELECT kind, consumer_id, query, hits, latency_ms FROM search_events WHERE consumer_id = 'camper-1'")
    t.equal(rows.length, 1)
    t.same({ ...rows[0], latency_ms: undefined }, { kind: 'search', consumer_id: 'camper-1', query: 'tent', hits: 1, latency_ms: undefined })
  })

  t.test('hostile input', async (t) => {
    const cases: Array<[unknown, number]> = [
      [{}, 400],
      [{ search_term: 5 }, 400],
      [{ search_term: 'x', limit: -1 }, 400],
      [{ search_term: 'x', limit: '5' }, 400],
      [{ search_term: 'x', facets: 'brand' }, 400],
      [{ search_term: 'x', filters: '('.repeat(500) }, 400],
      [{ search_term: 'x', filters: "brand = '" }, 400],
      [{ search_term: 'x'.repeat(1001) }, 400],
      [{ search_term: 'é'.repeat(1000) }, 200],
      [{ search_term: "' OR 1=1 --", filters: "brand = \"' OR 1=1 --\"" }, 200]
    ]
    for (const [body, status] of cases) {
      const res = await send(h.app, shop.key, 'POST', '/search', body)
      t.equal(res.statusCode, status, JSON.stringify(body).slice(0, 60))
      if (status === 400) t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'])
    }
    t.equal((await send(h.app, shop.key, 'POST', '/autocomplete', { autocomplete_term: 'x', limit: 101 })).statusCode, 400)
  })
}

/** Items whose text has no word (a model number, digits, an emoji, an empty description). */
const wordlessSuite = (engine: EngineKind) => async (t: Test) => {
  const { h, shop, search } = await withCatalog(t, engine)
  // The emoji item sits in the middle of the batch and another item with nothing to embed ends it.
  const wordless = [
    { id: 'cam-x5', title: 'X5', description: '', price: 499 },
    { id: 'hp-emoji', title: '🎧', description: '', price: 57 },
    { id: 'tv-4k', title: '4K', description: '', price: 899 },
    { id: 'code-12345', title: '12345', description: '', price: 5 },
    { id: 'blank', title: '  ', description: '', price: 1 }
  ]
  const imported = await send(h.app, shop.key, 'POST', '/documents', wordless)
  t.equal(imported.statusCode, 200, 'the batch is accepted')
  t.same(imported.json(), { received: 5, indexed: 5, unchanged: 0, total: 17 })
  const alone = await send(h.app, shop.key, 'POST', '/documents', [{ id: 'only-emoji', title: '🎧🎧', price: 2 }])
  t.equal(alone.statusCode, 200, 'alone in its batch too')

  t.same(ids(await search({ search_term: 'x5' })), ['cam-x5'], 'found by keyword')
  t.same(ids(await search({ search_term: '4K' })), ['tv-4k'])
  t.same(ids(await search({ search_term: '12345' })), ['code-12345'])
  t.same(ids(await search({ search_term: '', filters: 'price = 57' })), ['hp-emoji'], 'and by a filter')
  t.equal((await search({ search_term: '', limit: 0 })).estimatedTotalHits, 18, 'every item is in the catalog')

  const bySemantics = await search({ search_term: 'x5', search_type: 'hybrid', semantic_ratio: 1, limit: 3 })
  t.equal(ids(bySemantics)[0], 'cam-x5', 'found by its vector where the embedder gives one')
  const coffee = ids(await search({ search_term: 'something to grind beans in my kitchen', search_type: 'hybrid', semantic_ratio: 1, limit: 50 }))
  t.ok(coffee.slice(0, 2).includes('coffee-1'), 'the meaning is still found first')
  for (const id of ['hp-emoji', 'blank', 'only-emoji']) t.notOk(coffee.includes(id), `${id} has no vector, so no semantic rank`)
  t.equal(ids(await search({ search_term: '4k', search_type: 'hybrid', limit: 3 }))[0], 'tv-4k', 'hybrid: keyword and vector agree')

  const again = await send(h.app, shop.key, 'POST', '/documents', wordless)
  t.same(again.json(), { received: 5, indexed: 0, unchanged: 5, total: 18 }, 'a re-import embeds nothing again')
}

for (const engine of ENGINES) {
  t.test(`search (${engine} engine)`, searchSuite(engine))
  t.test(`items with no word are indexed and found (${engine} engine)`, wordlessSuite(engine))
}
