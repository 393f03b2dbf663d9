import t from 'tap'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { harness, signIn } from './helpers.js'
import { services } from './support/stack.js'

t.test('catalog, search, settings, knowledge and tasks reach the search service of the project', async (t) => {
  const h = await harness(t)
  const { searchUrl, chatUrl } = await services(t, h)
  await h.user('alice')
  const app = await h.app({ searchUrl, chatUrl })
  const alice = await signIn(app, 'alice')
  const projectId = (await alice.request({ method: 'POST', url: '/api/projects', payload: { name: 'Shop' } })).json().id as string
  const other = (await alice.request({ method: 'POST', url: '/api/projects', payload: { name: 'Other' } })).json().id as string
  const base = `/api/projects/${projectId}`

  const csv = 'id,title,price,in_stock,sku\nb1,"Waterproof hiking boots, leather",129.50,TRUE,00123\nb2,Trail socks,12,No,123\nb3,1984,,,7\n0042,Cork board,3,,\n042,Cork mat,30,,\n'
  const imported = await alice.request({ method: 'POST', url: `${base}/catalog`, payload: csv, headers: { 'content-type': 'text/csv' } })
  t.equal(imported.statusCode, 200, imported.body)
  t.match(imported.json(), { total: 5 }, 'ids 0042 and 042 are two items')
  for (const [bad, reason] of [['id,title,price,price\nx1,Lamp,10,12\n', /"price" appears twice/], ['id,title,__proto__\nx1,Lamp,y\n', /__proto__/]] as const) {
    const refused = await alice.request({ method: 'POST', url: `${base}/catalog`, payload: bad, headers: { 'content-type': 'text/csv' } })
    t.equal(refused.statusCode, 400, 'a CSV whose columns would lose a cell silently')
    t.match(refused.json(), { code: 'invalid_document', message: reason })
  }
  const ndjson = '{"id":"t1","title":"Two-person tent","price":199}\n{"id":"t2","title":"Camping stove","price":49}\n'
  t.equal((await alice.request({ method: 'POST', url: `${base}/catalog`, payload: ndjson, headers: { 'content-type': 'application/x-ndjson' } })).statusCode, 200)
  t.equal((await alice.request({ method: 'POST', url: `${base}/catalog`, payload: [{ id: 'l1', title: 'Head lamp', price: 25 }] })).statusCode, 200)

  const found = await alice.request({ method: 'POST', url: `${base}/search`, payload: { search_term: 'hiking boots' } })
  t.equal(found.statusCode, 200)
  const hit = (found.json() as { hits: Array<{ id: string, price: number, in_stock: boolean, title: string, sku: unknown }> }).hits[0]!
  t.same([hit.id, hit.title, hit.price, hit.in_stock, hit.sku], ['b1', 'Waterproof hiking boots, leather', 129.5, true, '00123'], 'CSV cells became numbers and booleans (TRUE, No); the quoted comma stayed; a SKU with leading zeros stayed text')
  t.equal((await alice.request({ method: 'POST', url: `${base}/search`, payload: { search_term: 'trail socks' } })).json().hits[0].sku, 123, 'a number written as itself became one')
  const book = (await alice.request({ method: 'POST', url: `${base}/search`, payload: { search_term: '1984' } })).json().hits[0]
  t.match(book, { id: 'b3', title: '1984', price: null, in_stock: null }, 'a title that looks like a number stays text; empty typed cells are null')
  t.equal((await alice.request({ method: 'POST', url: `${base}/search`, payload: { search_term: 'tent' } })).json().hits[0].id, 't1', 'NDJSON arrived')
  t.equal((await alice.request({ method: 'POST', url: `${base}/autocomplete`, payload: { autocomplete_term: 'hea' } })).statusCode, 200)
  // in_stock, CSV booleans, is facetable in the settings inferred from the first batch.
  const values = await alice.request({ method: 'POST', url: `${base}/facet-search`, payload: { facet_name: 'in_stock' } })
  t.equal(values.statusCode, 200, values.body)
  t.same(values.json().facet_hits, [{ value: 'false', count: 1 }, { value: 'true', count: 1 }], 'the facet search reaches the project\'s catalog')
  const notFacetable = await alice.request({ method: 'POST', url: `${base}/facet-search`, payload: { facet_name: 'price' } })
  t.equal(notFacetable.json().code, 'invalid_facet', 'and its refusal is passed on')
  const elsewhere = await alice.request({ method: 'POST', url: `/api/projects/${other}/search`, payload: { search_term: 'tent' } })
  t.same(elsewhere.json().hits, [], "another project's search does not see this catalog")

  const badBody = await alice.request({ method: 'POST', url: `${base}/search`, payload: { search_term: 1 } })
  t.equal(badBody.statusCode, 400, "the search service's refusal is passed on")
  t.equal(badBody.json().code, 'invalid_request')
  const missing = await alice.request({ method: 'DELETE', url: `${base}/documents/nope` })
  t.equal(missing.statusCode, 404, 'a 404 of the search service stays a 404')
  t.match(missing.json(), { statusCode: 404, code: 'document_not_found' })
  t.equal((await alice.request({ method: 'DELETE', url: `${base}/documents/t2` })).json().deleted, true)

  const settings = await alice.request({ method: 'GET', url: `${base}/settings` })
  t.equal(settings.statusCode, 200)
  t.equal((await alice.request({ method: 'PUT', url: `${base}/settings`, payload: settings.json() })).statusCode, 200)
  // The console's own searches (the service token) are not counted: none of the searches above is a popular search.
  const candidates = await alice.request({ method: 'GET', url: `${base}/suggestions/candidates?limit=5` })
  t.equal(candidates.statusCode, 200, candidates.body)
  t.same(candidates.json(), { results: [], total: 0, limit: 5, offset: 0 }, 'the popular searches of the project\'s catalog, with the query passed on')
  const excluded = await alice.request({ method: 'PUT', url: `${base}/settings`, payload: { ...(settings.json() as object), suggestionsExcluded: ['Free  Money'] } })
  t.same(excluded.json().suggestionsExcluded, ['free money'], 'an exclusion saved with the settings, folded')

  const rules = [{ id: 'lamps-with-tents', query: 'tent', match: 'contains', pin: [{ item_id: 'l1', position: 1 }] }]
  const saved = await alice.request({ method: 'PUT', url: `${base}/rules`, payload: rules })
  t.equal(saved.statusCode, 200, saved.body)
  t.same(saved.json().rules, [{ ...rules[0], hide: [] }], 'the list as the search service stores it')
  t.same((await alice.request({ method: 'GET', url: `${base}/rules` })).json().rules.map((r: { id: string }) => r.id), ['lamps-with-tents'])
  t.same((await alice.request({ method: 'POST', url: `${base}/search`, payload: { search_term: 'tent' } })).json().hits.map((h: { id: string }) => h.id), ['l1', 't1'],
    'the project\'s search follows its rules')
  const twice = await alice.request({ method: 'PUT', url: `${base}/rules`, payload: [...rules, ...rules] })
  t.equal(twice.statusCode, 400, 'a refusal of the search service is passed on')
  t.equal(twice.json().code, 'invalid_request')
  t.same((await alice.request({ method: 'GET', url: `/api/projects/${other}/rules` })).json().rules, [], 'another project has rules of its own')

  const page = { id: 'returns', title: 'Returns', content: 'You may return any item within 30 days of delivery.' }
  t.equal((await alice.request({ method: 'POST', url: `${base}/knowledge/documents`, payload: [page] })).statusCode, 200)
  const docs = await alice.request({ method: 'GET', url: `${base}/knowledge/documents?limit=5` })
  t.equal(docs.statusCode, 200)
  t.match(docs.json(), { total: 1 })
  t.equal((await alice.request({ method: 'DELETE', url: `${base}/knowledge/documents/returns` })).statusCode, 200)
  t.equal((await alice.request({ method: 'DELETE', url: `${base}/knowledge/documents/returns` })).statusCode, 404)

  const form = new FormData()
  form.append('file', new Blob(['# Shipping\n\nWe ship in 3 to 5 working days.\n'], { type: 'text/markdown' }), 'shipping.md')
  const upload = new Request('http://x/', { method: 'POST', body: form })
  const uploaded = await alice.request({
    method: 'POST', url: `${base}/knowledge/files`, payload: Buffer.from(await upload.arrayBuffer()), headers: { 'content-type': upload.headers.get('content-type')! }
  })
  t.equal(uploaded.statusCode, 202, uploaded.body)
  const taskId = uploaded.json().task_id as string
  t.equal((await alice.request({ method: 'GET', url: `${base}/tasks/${taskId}` })).statusCode, 200)
  const tasks = await alice.request({ method: 'GET', url: `${base}/tasks` })
  t.equal(tasks.statusCode, 200)
  t.match(tasks.body, taskId, 'the upload is one of the project\'s tasks')
  t.equal((await alice.request({ method: 'GET', url: `/api/projects/${other}/tasks/${taskId}` })).statusCode, 404, "not another project's task")
})

t.test('a service that is down is 503', async (t) => {
  const h = await harness(t)
  await h.user('alice')
  const app = await h.app()
  const alice = await signIn(app, 'alice')
  const projectId = (await alice.request({ method: 'POST', url: '/api/projects', payload: { name: 'Shop' } })).json().id as string
  for (const [method, url] of [['POST', 'search'], ['GET', 'chats'], ['GET', 'analytics'], ['GET', 'tasks']] as const) {
    const res = await alice.request({ method, url: `/api/projects/${projectId}/${url}`, ...(method === 'POST' ? { payload: { search_term: 'x' } } : {}) })
    t.equal(res.statusCode, 503, `${method} ${url}`)
    t.equal(res.json().code, 'service_unavailable')
    t.notMatch(res.body, /127\.0\.0\.1|ECONNREFUSED/, 'nothing internal leaks')
  }
})

t.test('an id that is a dot segment is refused before anything is sent', async (t) => {
  const h = await harness(t)
  await h.user('alice')
  const app = await h.app() // no service runs: a call that went out would be 503
  const alice = await signIn(app, 'alice')
  const base = `/api/projects/${(await alice.request({ method: 'POST', url: '/api/projects', payload: { name: 'Shop' } })).json().id as string}`
  await app.listen({ host: '127.0.0.1', port: 0 })
  const port = (app.server.address() as AddressInfo).port
  // Over a socket, path as written: inject() would resolve the dot segments itself, as fetch() did
  // for the console's call (GET …/chats/%2e%2e reached the chat service as GET /admin/).
  const send = (method: string, path: string) => new Promise<{ status: number, body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { cookie: alice.cookie, 'x-csrf-token': alice.csrf, 'content-type': 'application/json' } }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk }).on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject).end(method === 'POST' ? '{"content":"hi"}' : undefined)
  })
  for (const [method, url] of [['GET', 'chats/%2e%2e'], ['DELETE', 'chats/%2E'], ['POST', 'chats/%2e%2e/answer'], ['DELETE', 'documents/%2e%2e'],
    ['GET', 'knowledge/documents/.%2e'], ['GET', 'tasks/%2e'], ['GET', 'webhooks/%2e%2e/deliveries'], ['POST', 'webhooks/w/deliveries/%2e%2e/retry']] as const) {
    const res = await send(method, `${base}/${url}`)
    t.equal(res.status, 400, `${method} ${url}: ${res.body}`)
    t.equal(JSON.parse(res.body).code, 'invalid_request')
  }
})

t.test('a wrong SERVICE_TOKEN is 503, not the browser\'s 401', async (t) => {
  const h = await harness(t)
  const { searchUrl, chatUrl } = await services(t, h)
  await h.user('alice')
  const app = await h.app({ searchUrl, chatUrl, serviceToken: 'another-token-'.padEnd(40, 'y') })
  const alice = await signIn(app, 'alice')
  const projectId = (await alice.request({ method: 'POST', url: '/api/projects', payload: { name: 'Shop' } })).json().id as string
  const res = await alice.request({ method: 'GET', url: `/api/projects/${projectId}/settings` })
  t.equal(res.statusCode, 503)
  t.equal(res.json().code, 'service_unavailable')
})

t.test('the playground talks to the chat service as a test chat of console:<username>', async (t) => {
  const h = await harness(t)
  const { searchUrl, chatUrl } = await services(t, h)
  await h.user('alice')
  const app = await h.app({ searchUrl, chatUrl })
  const alice = await signIn(app, 'alice')
  const projectId = (await alice.request({ method: 'POST', url: '/api/projects', payload: { name: 'Shop' } })).json().id as string
  const base = `/api/projects/${projectId}/playground/chat`

  const first = await alice.request({ method: 'POST', url: base, payload: { user_message: 'Hello there!' } })
  t.equal(first.statusCode, 200, first.body)
  const chatId = first.json().chat_id as string
  t.type(first.json().assistant_response, 'string')
  const { rows } = await h.db.query<{ consumer_id: string, is_test: boolean }>('SELECT consumer_id, is_test FROM chats WHERE id = $1', [chatId])
  t.same(rows, [{ consumer_id: 'console:alice', is_test: true }])

  const streamed = await alice.request({ method: 'POST', url: base, payload: { user_message: 'Thanks!', chat_id: chatId, stream: true } })
  t.equal(streamed.statusCode, 200)
  t.match(String(streamed.headers['content-type']), /^text\/event-stream/)
  t.match(streamed.body, /event: done\ndata: \{.*"chat_id":"/)
  t.equal((await alice.request({ method: 'POST', url: base, payload: { user_message: '   ' } })).statusCode, 400)
})
