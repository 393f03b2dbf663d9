// Engine-independent (credentials are checked before any engine is asked): run on the embedded engine.
import t from 'tap'
import { createKey } from '@chatsearch/auth'
import { searchHarness } from './helpers.js'

t.test('search credentials', async (t) => {
  const h = await searchHarness(t, false)
  const shop = await h.tenant()
  const chatKey = (await createKey(h.db, shop.projectId, 'chat', 'tester')).key
  const search = (key: string | undefined, payload: unknown) => h.app.inject({
    method: 'POST',
    url: '/search',
    payload: payload as object,
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` }
  })

  t.test('health and docs are public', async (t) => {
    t.same((await h.app.inject('/healthz')).json(), { status: 'ok', service: 'search' })
    const doc = (await h.app.inject('/openapi.json')).json()
    for (const path of ['/search', '/autocomplete', '/facet-search', '/events', '/documents', '/documents/{id}', '/settings', '/rules']) t.ok(doc.paths[path], path)
  })

  t.test('every endpoint needs a search credential', async (t) => {
    t.equal((await search(undefined, { search_term: 'boots' })).statusCode, 401)
    const wrong = await search(chatKey, { search_term: 'boots' })
    t.equal(wrong.statusCode, 401)
    t.match(wrong.json().message, /search credential/)
    for (const [method, url] of [
      ['POST', '/autocomplete'], ['POST', '/facet-search'], ['GET', '/suggestions/candidates'], ['POST', '/events'], ['POST', '/documents'], ['GET', '/documents/x'], ['DELETE', '/documents/x'],
      ['GET', '/settings'], ['PUT', '/settings'], ['GET', '/rules'], ['PUT', '/rules']
    ] as const) {
      t.equal((await h.app.inject({ method, url })).statusCode, 401, `${method} ${url}`)
    }
    t.equal((await search(shop.key, { search_term: 'boots' })).statusCode, 200)
  })

  t.test('an empty catalog answers with no hits', async (t) => {
    const body = (await search(shop.key, { search_term: 'boots' })).json()
    t.equal(body.estimatedTotalHits, 0)
    t.same(body.hits, [])
    const facets = await search(shop.key, { search_term: 'boots', facets: ['brand'] })
    t.equal(facets.statusCode, 400, 'no attribute is facetable before the first documents')
    t.match(facets.json().message, /\(none\)/)
  })
})
