import t from 'tap'
import fc from 'fast-check'
import { filterExpression, fuzzRoutes } from '@chatsearch/testkit/fuzz'
import { searchHarness, send } from './helpers.js'
import { faqs, pages } from './fixtures/knowledge.js'

// Arbitrary requests at every route of the search service (its OpenAPI document), against a real
// catalog in the embedded engine: no answer is a 5xx, and every error is the documented body.
// FUZZ_RUNS=10000 for a long run.

t.test('hostile requests at every search route: no 5xx, only conforming error bodies', async (t) => {
  // The failed-authentication throttle off: otherwise the fuzzer's own bad keys soon lock its address out.
  const h = await searchHarness(t, true, { authFailuresPerMinute: 0 })
  const shop = await h.tenant()
  const other = await h.tenant('other')
  const catalog = await h.catalog()
  t.equal((await send(h.app, shop.key, 'POST', '/documents', catalog)).statusCode, 200)
  t.equal((await send(h.app, shop.key, 'POST', '/knowledge/documents', [...pages, ...faqs])).statusCode, 200)
  const ids = [...catalog, ...pages, ...faqs].map((item) => String(item.id))
  const someText = fc.constantFrom('', ' ', '# Title\n\ntext', '<h1>x</h1><p>y</p>', '<div></div>', '🎧', 'a'.repeat(3000), 'Returns within 30 days.')
  const result = await fuzzRoutes(h.app, {
    authorizations: [`Bearer ${shop.key}`, `Bearer ${other.key}`, 'Bearer csk_search_' + 'A'.repeat(40), 'Bearer csk_chat_' + 'A'.repeat(40)],
    fields: {
      filters: filterExpression,
      facets: fc.array(fc.constantFrom('brand', 'category', 'price', 'in_stock', 'tags', 'nope', '', '*'), { maxLength: 4 }),
      facet_name: fc.constantFrom('brand', 'category', 'price', 'in_stock', 'tags', 'nope', '', '*', 'brand.name'),
      facet_query: fc.constantFrom('', ' ', 'tr', 'TRAIL', 'trailmrk', 'é', '🎧', '-', 'x'.repeat(300), null),
      search_type: fc.constantFrom('keyword', 'hybrid', 'semantic', ''),
      id: fc.constantFrom(...ids, '..%2F..%2Fkeys', '', '-1', 'x'.repeat(200)),
      // Events (POST /events) and tasks' type filter. No query_id of a search: an unknown UUID is
      // looked for twice, a second apart (see clicks.ts), which would slow the run to a crawl.
      type: fc.constantFrom('click', 'conversion', 'view', 'crawl', 'files', 'catalog_import', ''),
      item_id: fc.constantFrom(...ids, '../keys', ''),
      item: fc.record({
        id: fc.oneof(fc.constantFrom(...ids), fc.string({ maxLength: 10 }), fc.integer()),
        title: fc.constantFrom('X5', '4K', '🎧', '12345', '', 'Trail boot'),
        // knowledge pages and pairs (catalog items may have these fields too)
        content: someText,
        format: fc.constantFrom('markdown', 'html', 'text', 'pdf'),
        question: someText,
        answer: someText,
        url: fc.constantFrom('https://shop.example/a#b', 'ftp://x', 'http://', '')
      }, { requiredKeys: [] }),
      // Crawl start URLs: refused before any connection (internal addresses, private networks off) or 400,
      // so the crawl tasks the fuzzer enqueues never reach beyond this machine.
      url: fc.constantFrom('http://127.0.0.1:9/', 'http://[::1]/help', 'http://10.0.0.1/', 'ftp://x', 'http://', ''),
      query: fc.constantFrom('how long does delivery take', 'warrenty', '', '🎧', 'c++ "(', 'NOT a OR b*', 'x'.repeat(1000)),
      kind: fc.constantFrom('page', 'faq', 'web', 'file', 'pdf', ''),
      limit: fc.constantFrom(0, 1, 5, 50, 51, 1000, '20', '1001', '-1', 'x')
    },
    runs: 600
  })
  t.ok(result.requests > 0, `${result.requests} requests; statuses ${JSON.stringify(result.statuses)}`)
  t.ok((result.statuses[200] ?? 0) > result.requests / 10, 'a good share got past validation into the engine')
  t.equal((await send(h.app, shop.key, 'POST', '/search', { search_term: 'boot' })).statusCode, 200, 'and the service still answers')
})
