import t from 'tap'
import fc from 'fast-check'
import { filterExpression, fuzzRoutes } from '@chatsearch/shell/fuzz'
import { searchHarness, send } from './helpers.js'

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
  const ids = catalog.map((item) => String(item.id))
  const result = await fuzzRoutes(h.app, {
    authorizations: [`Bearer ${shop.key}`, `Bearer ${other.key}`, 'Bearer csk_search_' + 'A'.repeat(40), 'Bearer csk_chat_' + 'A'.repeat(40)],
    fields: {
      filters: filterExpression,
      facets: fc.array(fc.constantFrom('brand', 'category', 'price', 'in_stock', 'tags', 'nope', '', '*'), { maxLength: 4 }),
      search_type: fc.constantFrom('keyword', 'hybrid', 'semantic', ''),
      id: fc.constantFrom(...ids, '..%2F..%2Fkeys', '', '-1', 'x'.repeat(200)),
      item: fc.record({ id: fc.oneof(fc.constantFrom(...ids), fc.string({ maxLength: 10 }), fc.integer()), title: fc.constantFrom('X5', '4K', '🎧', '12345', '', 'Trail boot') }, { requiredKeys: [] })
    },
    runs: 600
  })
  t.ok(result.requests > 0, `${result.requests} requests; statuses ${JSON.stringify(result.statuses)}`)
  t.ok((result.statuses[200] ?? 0) > result.requests / 10, 'a good share got past validation into the engine')
  t.equal((await send(h.app, shop.key, 'POST', '/search', { search_term: 'boot' })).statusCode, 200, 'and the service still answers')
})
