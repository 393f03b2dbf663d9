import t, { type Test } from 'tap'
import { readFile } from 'node:fs/promises'
import { demoCatalogFile } from '../src/index.js'
import { ENGINES, searchHarness, send, type EngineKind } from './helpers.js'

/** Catalog management through the API, the same on every engine (see ENGINES). */
const catalogSuite = (engine: EngineKind) => async (t: Test) => {
  const h = await searchHarness(t, false, {}, engine)
  const shop = await h.tenant()
  const items = await h.catalog()

  t.test('a JSON array is indexed; unchanged items cost nothing on re-import', async (t) => {
    const first = await send(h.app, shop.key, 'POST', '/documents', items)
    t.equal(first.statusCode, 200)
    t.same(first.json(), { received: 12, indexed: 12, unchanged: 0, total: 12 })
    const again = await send(h.app, shop.key, 'POST', '/documents', items)
    t.same(again.json(), { received: 12, indexed: 0, unchanged: 12, total: 12 })
    const changed = items.map((item) => item.id === 'pan-1' ? { ...item, price: 59 } : item)
    t.same((await send(h.app, shop.key, 'POST', '/documents', changed)).json(), { received: 12, indexed: 1, unchanged: 11, total: 12 })
    t.equal((await send(h.app, shop.key, 'GET', '/documents/pan-1')).json().price, 59, 'upsert by id')
  })

  t.test('settings are inferred from the first documents', async (t) => {
    const settings = (await send(h.app, shop.key, 'GET', '/settings')).json()
    t.equal(settings.searchableAttributes[0], 'title', 'titles first')
    t.ok(settings.searchableAttributes.includes('description'))
    t.ok(settings.filterableAttributes.includes('price'))
    t.ok(settings.filterableAttributes.includes('in_stock'))
    t.ok(settings.facetableAttributes.includes('brand'))
    t.notOk(settings.filterableAttributes.includes('description'), 'long text is not filterable')
    t.same(settings.sortableAttributes, [], 'nothing is sortable until asked for, as in Meilisearch')
    t.same([settings.synonyms, settings.stopWords], [{}, []], 'no synonyms nor stop words: Meilisearch\'s defaults')
    t.same([settings.suggestionsMinSearchers, settings.suggestionsExcluded], [3, []], 'autocomplete suggests searches of three shoppers, none excluded')
  })

  t.test('NDJSON and integer ids', async (t) => {
    const ndjson = '{"id": 7, "title": "Numbered Lamp", "price": 12}\n\n{"id": "lamp-2", "title": "Desk Lamp", "price": 30}\n'
    const res = await send(h.app, shop.key, 'POST', '/documents', ndjson, { 'content-type': 'application/x-ndjson' })
    t.equal(res.statusCode, 200)
    t.equal(res.json().indexed, 2)
    t.equal((await send(h.app, shop.key, 'GET', '/documents/7')).json().id, '7', 'integer ids come back as strings')
    const bad = await send(h.app, shop.key, 'POST', '/documents', '{"id": 8}\n{"id": 9,,}\n', { 'content-type': 'application/x-ndjson' })
    t.equal(bad.statusCode, 400)
    t.match(bad.json().message, /line 2/)
  })

  t.test('a bad item rejects the whole batch, naming the item and field', async (t) => {
    const before = (await send(h.app, shop.key, 'POST', '/documents', [])).json().total
    const cases: Array<[unknown[], RegExp]> = [
      [[{ id: 'ok-1', title: 'fine' }, { title: 'no id' }], /document 1: missing field "id"/],
      [[{ id: 'has space' }], /document 0 .*"id"/],
      [[{ id: -3 }], /non-negative integer/],
      [[{ id: 1.5 }], /non-negative integer/],
      [[{ id: null }], /string or an integer, not null/],
      [[{ id: { a: 1 } }], /not object/],
      [['just a string'], /document 0: must be a JSON object/],
      [[{ id: 'x'.repeat(512) }], /511/],
      [[{ id: 'v-1', _vectors: { default: [1, 2] } }], /"_vectors" is reserved/],
      [[{ id: 'g-1', _geo: { lat: 1, lng: 2 } }], /"_geo" is reserved/],
      [[{ id: 'c-1', _chatsearch: {} }], /"_chatsearch" is reserved/]
    ]
    for (const [batch, message] of cases) {
      const res = await send(h.app, shop.key, 'POST', '/documents', batch)
      t.equal(res.statusCode, 400, String(message))
      t.equal(res.json().code, 'invalid_document')
      t.match(res.json().message, message)
    }
    t.equal((await send(h.app, shop.key, 'POST', '/documents', [])).json().total, before, 'nothing half-applied')
    t.equal((await send(h.app, shop.key, 'GET', '/documents/ok-1')).statusCode, 404)
    t.equal((await send(h.app, shop.key, 'POST', '/documents', { id: 'not-an-array' })).statusCode, 400)
    // A lone surrogate was stored, and every chat turn citing the item then failed writing its citation (jsonb).
    const surrogates: Array<[string, string]> = [['[{"id": "s-1", "title": "Lantern \\ud800"}]', 'application/json'], ['{"id": "s-2", "title": "Lantern \\udfff"}\n', 'application/x-ndjson']]
    for (const [body, type] of surrogates) {
      const res = await send(h.app, shop.key, 'POST', '/documents', body, { 'content-type': type })
      t.equal(res.statusCode, 400, `${type}: a lone surrogate`)
      t.match(res.json(), { code: 'invalid_request', message: /lone surrogate/ })
    }
    t.equal((await send(h.app, shop.key, 'POST', '/documents', '[{"id": "i-1", "title": "Lamp", "price": 1e309}]', { 'content-type': 'application/json' })).statusCode, 400, 'a price of 1e309 (stored as null before)')
    const latin1 = Buffer.from('[{"id": "l-1", "title": "Caf\u00e9 table"}]', 'latin1')
    t.equal((await send(h.app, shop.key, 'POST', '/documents', latin1, { 'content-type': 'application/json' })).statusCode, 400, 'bytes that are not UTF-8')
    t.equal((await send(h.app, shop.key, 'POST', '/documents', latin1, { 'content-type': 'application/json; charset=iso-8859-1' })).statusCode, 415, 'another charset')
    const proto = await send(h.app, shop.key, 'POST', '/documents', '{"id": "p-1", "__proto__": {"x": 1}}\n', { 'content-type': 'application/x-ndjson' })
    t.equal(proto.statusCode, 400, 'NDJSON refuses a prototype key as a JSON body does')
    t.equal((await send(h.app, shop.key, 'POST', '/documents', [])).json().total, before, 'none of them stored')
  })

  t.test('get and delete', async (t) => {
    t.same((await send(h.app, shop.key, 'GET', '/documents/boot-1')).json(), items.find((item) => item.id === 'boot-1'), 'the item exactly as sent: nothing added, nothing lost')
    t.same((await send(h.app, shop.key, 'DELETE', '/documents/lamp-2')).json(), { id: 'lamp-2', deleted: true })
    const gone = await send(h.app, shop.key, 'GET', '/documents/lamp-2')
    t.equal(gone.statusCode, 404)
    t.equal(gone.json().code, 'document_not_found')
    t.equal((await send(h.app, shop.key, 'DELETE', '/documents/lamp-2')).statusCode, 404)
    for (const odd of ['..%2F..%2Fkeys', '..%2F..%2F..%2Fversion', 'boot-1%3Ffields%3Did', 'boot-1%2F', '%2E%2E']) {
      t.equal((await send(h.app, shop.key, 'GET', `/documents/${odd}`)).statusCode, 404, `GET ${odd}: no such item, nothing else read`)
      t.equal((await send(h.app, shop.key, 'DELETE', `/documents/${odd}`)).statusCode, 404, `DELETE ${odd}`)
    }
    const search = (await send(h.app, shop.key, 'POST', '/search', { search_term: 'desk lamp' })).json()
    t.equal(search.estimatedTotalHits, 0, 'a deleted item is no longer found')
    // Ids of 101–511 characters were accepted but could not be read or deleted (the router's 100 by default).
    const longId = 'x'.repeat(511)
    t.equal((await send(h.app, shop.key, 'POST', '/documents', [{ id: longId, title: 'Long id lamp' }])).statusCode, 200)
    t.equal((await send(h.app, shop.key, 'GET', `/documents/${longId}`)).json().id, longId, 'the longest id reads')
    t.same((await send(h.app, shop.key, 'DELETE', `/documents/${longId}`)).json(), { id: longId, deleted: true }, 'and deletes')
  })

  t.test('PUT /settings re-indexes', async (t) => {
    const settings = { searchableAttributes: ['title'], filterableAttributes: ['price', 'brand'], facetableAttributes: ['brand'] }
    const none = { sortableAttributes: [], synonyms: {}, stopWords: [], suggestionsMinSearchers: 3, suggestionsExcluded: [] }
    t.same((await send(h.app, shop.key, 'PUT', '/settings', settings)).json(), { ...settings, ...none },
      'sent without sortable attributes, synonyms or stop words: none; autocomplete\'s rules: their defaults')
    t.same((await send(h.app, shop.key, 'GET', '/settings')).json(), { ...settings, ...none })
    const byDescription = (await send(h.app, shop.key, 'POST', '/search', { search_term: 'gooseneck' })).json()
    t.equal(byDescription.estimatedTotalHits, 0, 'description is no longer searchable')
    const notFilterable = await send(h.app, shop.key, 'POST', '/search', { search_term: '', filters: 'in_stock = true' })
    t.equal(notFilterable.statusCode, 400)
    t.equal(notFilterable.json().code, 'invalid_filter')
    t.equal((await send(h.app, shop.key, 'PUT', '/settings', { searchableAttributes: ['title'] })).statusCode, 400)
  })

  t.test('catalogs are isolated between projects', async (t) => {
    const other = await h.tenant('other')
    t.equal((await send(h.app, other.key, 'GET', '/documents/boot-1')).statusCode, 404)
    t.equal((await send(h.app, other.key, 'POST', '/search', { search_term: 'boot' })).json().estimatedTotalHits, 0)
    t.equal((await send(h.app, other.key, 'DELETE', '/documents/boot-1')).statusCode, 404)
    t.equal((await send(h.app, shop.key, 'GET', '/documents/boot-1')).statusCode, 200, 'still there for its owner')
  })
}

const autocompleteSuite = (engine: EngineKind) => async (t: Test) => {
  const h = await searchHarness(t, false, {}, engine)
  const shop = await h.tenant()
  const suggestions = async (term: string) =>
    (await send(h.app, shop.key, 'POST', '/autocomplete', { autocomplete_term: term })).json().suggestions as string[]
  const items = [
    { id: 'a', title: 'Zephyr Kettle', brand: 'Quillon' },
    { id: 'b', title: 'Zephyr Teapot', brand: 'Quillon' },
    { id: 'c', title: 'Marlow Toaster', brand: 'Vantor' }
  ]
  t.equal((await send(h.app, shop.key, 'POST', '/documents', items)).statusCode, 200)
  t.ok((await suggestions('quil')).includes('Quillon'))
  t.equal((await send(h.app, shop.key, 'DELETE', '/documents/a')).statusCode, 200)
  t.notOk((await suggestions('zephyr k')).includes('Zephyr Kettle'), 'the deleted title is gone')
  t.ok((await suggestions('quil')).includes('Quillon'), 'a brand another item still carries stays')
  t.equal((await send(h.app, shop.key, 'POST', '/documents', [{ ...items[1], brand: 'Orsk' }])).statusCode, 200)
  t.same(await suggestions('quil'), [], 'the last item of a brand changed brand')
  t.ok((await suggestions('ors')).includes('Orsk'))
  t.ok((await suggestions('vant')).includes('Vantor'), 'untouched items keep theirs')
}

const autocompletePagingSuite = (engine: EngineKind) => async (t: Test) => {
  const h = await searchHarness(t, false, {}, engine)
  const shop = await h.tenant()
  const demo = JSON.parse(await readFile(demoCatalogFile, 'utf8')) as unknown[]
  t.equal((await send(h.app, shop.key, 'POST', '/documents', demo)).statusCode, 200)
  // Each by three shoppers, so that they are suggested (settings suggestionsMinSearchers).
  for (const q of ['trail running shoes', 'trail running shoes', 'waterproof jacket', 'stainless steel', 'coffee grinder']) {
    for (const consumer of ['a', 'b', 'c']) t.equal((await send(h.app, shop.key, 'POST', '/search', { search_term: q, consumer_id: consumer })).statusCode, 200)
  }
  // Popular searches feed the list: counted now, and none while it is read.
  await h.app.analytics.flush()
  const complete = async (body: Record<string, unknown>) => {
    const res = await send(h.app, shop.key, 'POST', '/autocomplete', body)
    t.equal(res.statusCode, 200)
    return res.json().suggestions as string[]
  }
  let longest = 0
  for (const term of ['b', 'c', 'w', 'p', 'k', 'st', 'wa', 'trail', 'coffee', 'hedph']) {
    const all = await complete({ autocomplete_term: term, limit: 40 })
    longest = Math.max(longest, all.length)
    t.ok(all.length > 1, `${term}: ${all.length} suggestions`)
    t.equal(new Set(all).size, all.length, `${term}: no suggestion twice`)
    for (const size of [1, 3, 7]) {
      const pages: string[] = []
      for (let offset = 0; offset < all.length; offset += size) pages.push(...await complete({ autocomplete_term: term, limit: Math.min(size, all.length - offset), offset }))
      t.same(pages, all, `${term}: pages of ${size} put together are the whole list`)
    }
    t.same([...await complete({ autocomplete_term: term, limit: 3 }), ...await complete({ autocomplete_term: term, limit: 3, offset: 3 })],
      await complete({ autocomplete_term: term, limit: 6 }), `${term}: limit 3, then offset 3 limit 3, is limit 6`)
  }
  t.equal(longest, 40, 'some lists fill several pages')
}

for (const engine of ENGINES) {
  t.test(`catalog management (${engine} engine)`, catalogSuite(engine))
  t.test(`autocomplete pages are slices of one ordered list (${engine} engine)`, autocompletePagingSuite(engine))
  t.test(`autocomplete follows catalog changes: deleted and replaced items leave no suggestion behind (${engine} engine)`, autocompleteSuite(engine))
}
