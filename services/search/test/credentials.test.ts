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

  t.test('a publishable widget key is refused on every route exactly like an unknown key (decision 18)', async (t) => {
    const widget = (await createKey(h.db, shop.projectId, 'widget', 'tester', ['https://shop.example'])).key
    const unknown = `csk_search_${'Z'.repeat(40)}`
    const doc = (await h.app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> }
    let checked = 0
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        if (path === '/healthz' || path === '/readyz') continue
        // Each route from an address of its own: the failed-authentication throttle is not what is tested.
        const opts = { method: method.toUpperCase() as 'GET', url: path.replace(/\{[^}]+\}/g, 'x'), headers: { origin: 'https://shop.example', 'x-project-id': shop.projectId }, remoteAddress: `198.51.100.${checked + 1}` }
        const withWidget = await h.app.inject({ ...opts, headers: { ...opts.headers, authorization: `Bearer ${widget}` } })
        const withUnknown = await h.app.inject({ ...opts, headers: { ...opts.headers, authorization: `Bearer ${unknown}` } })
        t.equal(withWidget.statusCode, 401, `${method} ${path}`)
        t.same(withWidget.json(), withUnknown.json(), `${method} ${path}: the unknown key's body`)
        checked++
      }
    }
    t.ok(checked >= 15, `${checked} routes checked`)
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
