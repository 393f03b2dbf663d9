import t, { type Test } from 'tap'
import { metricSample as sample } from '@chatsearch/testkit'
import { ENGINES, searchHarness, send, type EngineKind } from './helpers.js'
import { faqs, pages, shipping } from './fixtures/knowledge.js'

interface Hit { document_id: string, chunk_id: string, kind: string, title: string, section: string, url: string | null, text: string, score: number }

/** The knowledge API (spec/knowledge.md), the same on every engine (see ENGINES), with embeddings on. */
const knowledgeSuite = (engine: EngineKind) => async (t: Test) => {
  const h = await searchHarness(t, true, {}, engine)
  const shop = await h.tenant()
  const search = async (body: Record<string, unknown>): Promise<Hit[]> => {
    const res = await send(h.app, shop.key, 'POST', '/knowledge/search', body)
    t.equal(res.statusCode, 200, JSON.stringify(body))
    const answer = res.json()
    t.equal(answer.query, String(body.query).trim().replace(/\s+/g, ' '), 'the processed query')
    t.ok(Number.isInteger(answer.processingTimeMs))
    return answer.hits
  }
  const metric = async (name: string, labels: Record<string, string> = {}) => sample((await h.app.inject('/metrics')).body, name, labels) ?? 0

  t.test('pages and question-and-answer pairs are indexed; an unchanged document is neither embedded nor written again', async (t) => {
    const first = await send(h.app, shop.key, 'POST', '/knowledge/documents', [...pages, ...faqs])
    t.equal(first.statusCode, 200)
    t.same(first.json(), { received: 6, indexed: 6, unchanged: 0, total: 6 })
    const before = (await send(h.app, shop.key, 'GET', '/knowledge/documents/shipping')).json()
    const embeddings = await metric('embedding_duration_seconds_count')
    const upserts = await metric('search_engine_duration_seconds_count', { operation: 'knowledge_upsert' })
    const again = await send(h.app, shop.key, 'POST', '/knowledge/documents', [...pages, ...faqs])
    t.same(again.json(), { received: 6, indexed: 0, unchanged: 6, total: 6 })
    t.equal(await metric('embedding_duration_seconds_count'), embeddings, 'nothing embedded')
    t.equal(await metric('search_engine_duration_seconds_count', { operation: 'knowledge_upsert' }), upserts, 'nothing written')
    t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents/shipping')).json().updated_at, before.updated_at)

    const changed = { ...shipping, content: shipping.content.replace('3 to 5 working days', '2 to 4 working days') }
    t.same((await send(h.app, shop.key, 'POST', '/knowledge/documents', [changed, ...faqs])).json(), { received: 3, indexed: 1, unchanged: 2, total: 6 })
    t.equal(await metric('embedding_duration_seconds_count'), embeddings + 1, 'one batch: the changed document\'s chunks')
    const after = (await send(h.app, shop.key, 'GET', '/knowledge/documents/shipping')).json()
    t.match(after.chunks[1].text, /2 to 4 working days/, 'replaced by id')
    t.ok(after.updated_at > before.updated_at)
  })

  t.test('NDJSON, the last of repeated ids wins', async (t) => {
    const ndjson = [
      { id: 'faq-hours', question: 'When is support open?', answer: 'Monday to Friday.' },
      { id: 'faq-hours', question: 'When is customer support open?', answer: 'Monday to Friday, 9 am to 6 pm.' }
    ].map((d) => JSON.stringify(d)).join('\n') + '\n\n'
    const res = await send(h.app, shop.key, 'POST', '/knowledge/documents', ndjson, { 'content-type': 'application/x-ndjson' })
    t.equal(res.statusCode, 200)
    t.same(res.json(), { received: 2, indexed: 1, unchanged: 0, total: 7 })
    t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents/faq-hours')).json().content, 'Monday to Friday, 9 am to 6 pm.')
    const bad = await send(h.app, shop.key, 'POST', '/knowledge/documents', '{"id":"x","question":"q","answer":"a"}\n{"id": 9,,}\n', { 'content-type': 'application/x-ndjson' })
    t.equal(bad.statusCode, 400)
    t.equal(bad.json().code, 'invalid_document')
    t.match(bad.json().message, /line 2/)
    t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents/x')).statusCode, 404)
  })

  t.test('a document is read with its chunks, their heading paths and anchored URLs', async (t) => {
    const doc = (await send(h.app, shop.key, 'GET', '/knowledge/documents/warranty')).json()
    t.match(doc, { id: 'warranty', kind: 'page', title: 'Warranty', url: 'https://shop.example/help/warranty' })
    t.match(doc.content, /^<h1>Warranty<\/h1>/, 'the content as sent')
    t.same(doc.chunks.map((c: { id: string, section: string, url: string }) => [c.id, c.section, c.url]), [
      // The h1 has no id in the page: a link to it would have no anchor to land on.
      ['0', 'Warranty', 'https://shop.example/help/warranty'],
      ['1', 'Warranty › Claims', 'https://shop.example/help/warranty#claims']
    ])
    t.match(doc.chunks[0].text, /two-year warranty/)
    t.notMatch(doc.chunks[0].text, /<b>/, 'chunks hold text, not markup')
    t.ok(!Number.isNaN(Date.parse(doc.updated_at)))
    const faq = (await send(h.app, shop.key, 'GET', '/knowledge/documents/faq-gift')).json()
    t.same(faq, { id: 'faq-gift', kind: 'faq', title: 'Do you offer gift wrapping?', url: 'https://shop.example/faq#gift', content: faqs[0]!.answer, chunks: [{ id: '0', section: '', text: `${faqs[0]!.question}\n${faqs[0]!.answer}`, url: 'https://shop.example/faq#gift' }], updated_at: faq.updated_at })
    const numbered = (await send(h.app, shop.key, 'GET', '/knowledge/documents/42')).json()
    t.match(numbered, { id: '42', url: null }, 'an integer id comes back as a string; no URL, null')
    t.equal(numbered.chunks.length, 1, 'plain text: its paragraphs together, being short and under no heading')
    t.match(numbered.chunks[0].text, /PayPal and bank transfer\.\nInvoices/)
    t.equal(numbered.chunks[0].url, null)
  })

  t.test('lists: by id, by kind, paged', async (t) => {
    const all = (await send(h.app, shop.key, 'GET', '/knowledge/documents')).json()
    t.equal(all.total, 7)
    t.same(all.results.map((r: { id: string }) => r.id), ['42', 'faq-gift', 'faq-hours', 'faq-store', 'returns', 'shipping', 'warranty'])
    t.same(all.results.find((r: { id: string }) => r.id === 'shipping'), { id: 'shipping', kind: 'page', title: 'Shipping', url: 'https://shop.example/help/shipping', chunks: 3, updated_at: all.results.find((r: { id: string }) => r.id === 'shipping').updated_at })
    t.same([all.limit, all.offset], [20, 0])
    const faqList = (await send(h.app, shop.key, 'GET', '/knowledge/documents?kind=faq')).json()
    t.same([faqList.total, faqList.results.map((r: { id: string }) => r.id)], [3, ['faq-gift', 'faq-hours', 'faq-store']])
    const page = (await send(h.app, shop.key, 'GET', '/knowledge/documents?limit=2&offset=3')).json()
    t.same([page.total, page.limit, page.offset, page.results.map((r: { id: string }) => r.id)], [7, 2, 3, ['faq-store', 'returns']])
    t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents?kind=web')).json().total, 0)
    for (const query of ['limit=1001', 'limit=-1', 'offset=-1', 'kind=pdf', 'limit=abc']) {
      const res = await send(h.app, shop.key, 'GET', `/knowledge/documents?${query}`)
      t.equal(res.statusCode, 400, query)
      t.equal(res.json().code, 'invalid_request', query)
    }
  })

  t.test('search finds the right section and its link, best first, scores in [0, 1]', async (t) => {
    for (const searchType of ['keyword', 'hybrid']) {
      const delivery = await search({ query: '  how long does delivery   take? ', search_type: searchType })
      t.match(delivery[0], { document_id: 'shipping', chunk_id: '1', kind: 'page', title: 'Shipping', section: 'Shipping › Delivery times', url: 'https://shop.example/help/shipping#delivery-times' }, searchType)
      t.match(delivery[0]!.text, /working days/)
      for (const hit of delivery) t.ok(hit.score >= 0 && hit.score <= 1, `${searchType}: score ${hit.score}`)
      t.same(delivery.map((hit) => hit.score), [...delivery.map((hit) => hit.score)].sort((a, b) => b - a), `${searchType}: best first`)
      const costs = await search({ query: 'what does express shipping cost', search_type: searchType })
      t.match(costs[0], { document_id: 'shipping', section: 'Shipping › Shipping costs' }, searchType)
      const gift = await search({ query: 'gift wrapping', search_type: searchType })
      t.match(gift[0], { document_id: 'faq-gift', chunk_id: '0', kind: 'faq', title: 'Do you offer gift wrapping?', url: 'https://shop.example/faq#gift' }, `${searchType}: a pair is found by its question`)
      t.match((await search({ query: 'warrenty', search_type: searchType }))[0], { document_id: 'warranty' }, `${searchType}: a typo is forgiven`)
    }
    const keyword = await search({ query: 'delivery', search_type: 'keyword', limit: 50 })
    t.ok(keyword.every((hit) => /deliver/i.test(`${hit.title} ${hit.section} ${hit.text}`)), 'keyword search finds only chunks with the words')
    t.equal((await search({ query: 'shipping' })).length, 5, 'limit 5 by default (hybrid, so chunks near in meaning fill it)')
    t.equal((await search({ query: 'shipping', limit: 1 })).length, 1)
    t.same(await search({ query: '🎧 ?!' }), [], 'no word, nothing found')
    t.same(await search({ query: '' }), [])
    for (const body of [{ query: 'x', limit: 51 }, { query: 'x', limit: -1 }, { query: 1 }, { query: 'x', search_type: 'semantic' }, { query: 'x', semantic_ratio: 2 }, { query: 'x', extra: 1 }]) {
      const res = await send(h.app, shop.key, 'POST', '/knowledge/search', body)
      t.equal(res.statusCode, 400, JSON.stringify(body))
    }
    const missing = await send(h.app, shop.key, 'POST', '/knowledge/search', { limit: 3 })
    t.equal(missing.json().code, 'missing_parameters')
  })

  t.test('hybrid search finds by meaning what keywords miss', async (t) => {
    const query = 'is there a place in town where I can look at your products'
    const semantic = await search({ query, semantic_ratio: 1 })
    t.equal(semantic[0]?.document_id, 'faq-store', JSON.stringify(semantic.map((hit) => [hit.document_id, hit.score])))
    const hybrid = await search({ query })
    t.equal(hybrid[0]?.document_id, 'faq-store', 'the default mix (0.5) too')
  })

  t.test('a bad document rejects the whole batch, naming it and its field', async (t) => {
    const cases: Array<[unknown[], RegExp]> = [
      [[{ id: 'ok-1', question: 'q?', answer: 'a' }, { title: 'no id', content: 'x' }], /document 1: missing field "id"/],
      [[{ id: 'has space', title: 't', content: 'c' }], /document 0 .*"id"/],
      [[{ id: -1, title: 't', content: 'c' }], /non-negative integer/],
      [[{ id: 'p', content: 'c' }], /document 0 \(id p\): missing field "title"/],
      [[{ id: 'p', title: 't' }], /missing field "content"/],
      [[{ id: 'p', title: 't', content: '   ' }], /"content" is empty/],
      [[{ id: 'p', title: 't', content: 'c', format: 'pdf' }], /"format" must be one of markdown, html, text/],
      [[{ id: 'p', title: 't', content: 'c', url: 'javascript:alert(1)' }], /http or https/],
      [[{ id: 'p', title: 't', content: 'c', url: 'not a url' }], /"url" must be an http or https URL that parses/],
      [[{ id: 'p', title: 't', content: 'c', url: 'https://' }], /"url" must be an http or https URL that parses/],
      [[{ id: 'p', title: 't', content: 'c', url: 'https://shop.example:70000/help' }], /"url" must be an http or https URL that parses/],
      [[{ id: 'p', title: 't', content: 'c', price: 3 }], /unknown field "price"/],
      [[{ id: 'f', question: 'q?' }], /missing field "answer"/],
      [[{ id: 'f', question: 'q?', answer: 'a', title: 't' }], /unknown field "title"/],
      [[{ id: 'f', question: 'q?', answer: 7 }], /"answer" must be a string/],
      [[{ id: 'f', question: 'q\u0007?', answer: 'a' }], /control characters/],
      [[{ id: 'f', question: 'q'.repeat(1001), answer: 'a' }], /longer than 1000/],
      [[{ id: 'h', title: 't', content: '<div><img src="x"></div>', format: 'html' }], /no text to index/],
      [['a string'], /document 0: must be a JSON object/]
    ]
    for (const [batch, message] of cases) {
      const res = await send(h.app, shop.key, 'POST', '/knowledge/documents', batch)
      t.equal(res.statusCode, 400, String(message))
      t.equal(res.json().code, 'invalid_document')
      t.match(res.json().message, message)
    }
    t.equal((await send(h.app, shop.key, 'POST', '/knowledge/documents', { id: 'not-an-array' })).statusCode, 400)
    t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents')).json().total, 7, 'nothing written')
    t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents/ok-1')).statusCode, 404)
  })

  t.test('delete', async (t) => {
    t.same((await send(h.app, shop.key, 'DELETE', '/knowledge/documents/faq-gift')).json(), { id: 'faq-gift', deleted: true })
    const gone = await send(h.app, shop.key, 'GET', '/knowledge/documents/faq-gift')
    t.equal(gone.statusCode, 404)
    t.equal(gone.json().code, 'document_not_found')
    t.equal((await send(h.app, shop.key, 'DELETE', '/knowledge/documents/faq-gift')).statusCode, 404)
    t.notOk((await search({ query: 'gift wrapping', search_type: 'keyword' })).some((hit) => hit.document_id === 'faq-gift'), 'no longer found')
    t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents')).json().total, 6)
    for (const odd of ['..%2F..%2Fkeys', 'shipping%3Ffields%3Did', '%2E%2E', 'x'.repeat(600)]) {
      t.equal((await send(h.app, shop.key, 'GET', `/knowledge/documents/${odd}`)).statusCode, odd.length > 511 ? 400 : 404, `GET ${odd.slice(0, 20)}`)
      t.equal((await send(h.app, shop.key, 'DELETE', `/knowledge/documents/${odd}`)).statusCode, odd.length > 511 ? 400 : 404, `DELETE ${odd.slice(0, 20)}`)
    }
  })
}

for (const engine of ENGINES) t.test(`knowledge API (${engine} engine)`, knowledgeSuite(engine))

t.test('without embeddings: keyword search, hybrid refused as for the catalog, documents embedded once embeddings are on', async (t) => {
  const h = await searchHarness(t, false)
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'POST', '/knowledge/documents', [...pages, ...faqs])).statusCode, 200)
  const res = await send(h.app, shop.key, 'POST', '/knowledge/search', { query: 'how long does delivery take' })
  t.equal(res.statusCode, 200)
  t.match(res.json().hits[0], { document_id: 'shipping', section: 'Shipping › Delivery times' }, 'keyword by default')
  const hybrid = await send(h.app, shop.key, 'POST', '/knowledge/search', { query: 'delivery', search_type: 'hybrid' })
  t.equal(hybrid.statusCode, 400)
  t.equal(hybrid.json().code, 'hybrid_search_disabled')
  const app = await h.restart({ embeddings: true })
  t.same((await send(app, shop.key, 'POST', '/knowledge/documents', [...pages, ...faqs])).json(), { received: 6, indexed: 6, unchanged: 0, total: 6 },
    'written without vectors, so embedded now')
  const semantic = (await send(app, shop.key, 'POST', '/knowledge/search', { query: 'is there a place in town where I can look at your products', semantic_ratio: 1 })).json()
  t.equal(semantic.hits[0]?.document_id, 'faq-store')
})
