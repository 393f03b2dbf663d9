import t, { type Test } from 'tap'
import type { InjectOptions } from 'fastify'
import { createKey, identityHmac, revokeKey, widgetSecrets } from '@chatsearch/auth'
import { harness, call, get, post } from './helpers.js'
import { TOKEN } from './support/search-stack.js'

const SHOP = 'https://shop.example'
type Response = Awaited<ReturnType<typeof call>>

t.test('publishable widget keys on the chat service', async (t) => {
  const h = await harness(t)
  const app = await h.app({ serviceToken: TOKEN, authCacheTtlMs: 300 })
  const shop = await h.tenant()
  const other = await h.tenant('other shop')
  const widget = await createKey(h.db, shop.projectId, 'widget', 'tester', [SHOP, 'http://localhost:8080'])
  const theirWidget = await createKey(h.db, other.projectId, 'widget', 'tester', [SHOP])

  /** A request as the widget on the shop's page makes it: its key, its Origin, its consumer token if any. */
  const browser = (opts: InjectOptions, token?: string, headers: Record<string, string> = {}, key = widget.key, on = app) =>
    call(on, key, { ...opts, headers: { origin: SHOP, ...(token === undefined ? {} : { 'x-consumer-token': token }), ...headers, ...opts.headers } })
  const send = (body: Record<string, unknown>, token?: string, headers: Record<string, string> = {}, on = app) =>
    browser({ method: 'POST', url: '/newUserMessage', payload: body }, token, headers, widget.key, on)
  const read = (chatId: string, token?: string) => browser({ method: 'GET', url: '/readConversation', query: { chat_id: chatId } }, token)
  const consumerOf = async (chatId: string) => (await h.db.query('SELECT consumer_id FROM chats WHERE id = $1', [chatId])).rows[0]?.consumer_id as string | undefined
  const refusedAs = (t: Test, res: Response, status: number, code: string, name: string) => {
    t.equal(res.statusCode, status, `${name}: ${status}`)
    t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'], `${name}: the error body`)
    t.equal(res.json().code, code, `${name}: ${code}`)
  }

  // A browser's first message, with a consumer_id it should not be able to choose.
  const first = await send({ user_message: 'hello', consumer_id: 'ann' })
  const token = first.json().consumer_token as string
  const chatId = first.json().chat_id as string

  t.test('the first reply carries the consumer token; the consumer is the token\'s, not the body\'s', async (t) => {
    t.equal(first.statusCode, 200)
    t.match(token, /^v1\.[\w-]+\.[\w-]+$/)
    t.match(await consumerOf(chatId), /^wc_\w{24}$/, 'a consumer made by the service')
    t.equal(first.headers['access-control-allow-origin'], SHOP, 'the browser may read the reply')
    t.match(first.headers.vary, /Origin/)
    t.match(first.headers['access-control-expose-headers'], /ratelimit-remaining/)
    const again = await send({ user_message: 'and tents?', chat_id: chatId, consumer_id: 'ann', test: true }, token)
    t.equal(again.statusCode, 200, 'the token continues its chat, whatever consumer_id says')
    t.equal(again.json().consumer_token, token, 'the same token')
    t.equal((await h.db.query('SELECT is_test FROM chats WHERE id = $1', [chatId])).rows[0].is_test, false, 'a browser cannot make its chat a test chat, left out of analytics')
    t.same((await read(chatId, token)).json().map((m: { role: string }) => m.role), ['user', 'assistant', 'user', 'assistant'])
    const latest = await browser({ method: 'GET', url: '/latestConsumerChatId' }, token)
    t.equal(latest.json().chat_id, chatId, 'latestConsumerChatId needs no consumer_id: the token\'s')
    const ignored = await browser({ method: 'GET', url: '/latestConsumerChatId', query: { consumer_id: 'ann' } }, token)
    t.equal(ignored.json().chat_id, chatId, 'and ignores one')
    const [, reply] = (await read(chatId, token)).json() as Array<{ msg_id: string }>
    const rated = await browser({ method: 'POST', url: '/feedback', payload: { chat_id: chatId, msg_id: reply!.msg_id, rating: 'up' } }, token)
    t.equal(rated.statusCode, 200, 'the browser rates its own replies')
  })

  t.test('no browser reaches another consumer\'s chats: guessing a chat_id or a consumer_id is 404', async (t) => {
    const annsChat = (await post(app, shop.key, '/newUserMessage', { user_message: 'hello', consumer_id: 'ann' })).json().chat_id as string
    const [, annsReply] = (await get(app, shop.key, '/readConversation', { chat_id: annsChat })).json() as Array<{ msg_id: string }>
    const stranger = (await send({ user_message: 'hi' })).json().consumer_token as string
    for (const [name, who] of [['a browser with its own token', token], ['another browser', stranger], ['a browser without a token', undefined]] as const) {
      refusedAs(t, await read(annsChat, who), 404, 'chat_not_found', `${name} reads ann's chat`)
      refusedAs(t, await send({ user_message: 'hi', chat_id: annsChat, consumer_id: 'ann' }, who), 404, 'chat_not_found', `${name} writes to ann's chat`)
      refusedAs(t, await browser({ method: 'POST', url: '/feedback', payload: { chat_id: annsChat, msg_id: annsReply!.msg_id, rating: 'down' } }, who), 404, 'chat_not_found', `${name} rates ann's reply`)
    }
    refusedAs(t, await read(chatId, stranger), 404, 'chat_not_found', 'another browser reads the first browser\'s chat')
    const latest = await browser({ method: 'GET', url: '/latestConsumerChatId', query: { consumer_id: 'ann' } }, stranger)
    t.not(latest.json().chat_id, annsChat, 'latestConsumerChatId?consumer_id=ann is not ann\'s')
    t.equal(await consumerOf(annsChat), 'ann')
    t.equal((await h.db.query('SELECT count(*)::int AS n FROM messages WHERE chat_id = $1', [annsChat])).rows[0].n, 2, 'nothing was written to ann\'s chat')
  })

  t.test('a token altered, or of another project, is 401 invalid_consumer_token', async (t) => {
    const [v, , mac] = token.split('.')
    const forged = `${v}.${Buffer.from('ann').toString('base64url')}.${mac}`
    const theirs = (await send({ user_message: 'hello' }, undefined, {}, app)).json().consumer_token as string
    t.ok(theirs)
    const foreign = (await browser({ method: 'POST', url: '/newUserMessage', payload: { user_message: 'hello' } }, undefined, {}, theirWidget.key)).json().consumer_token as string
    for (const [name, bad] of [['ann with the first browser\'s signature', forged], ['another project\'s token', foreign], ['a truncated token', token.slice(0, -3)]] as const) {
      refusedAs(t, await read(chatId, bad), 401, 'invalid_consumer_token', name)
      refusedAs(t, await send({ user_message: 'hi', consumer_id: 'ann' }, bad), 401, 'invalid_consumer_token', `${name}, sending`)
    }
  })

  t.test('another or no Origin is 403 origin_not_allowed on each of its routes', async (t) => {
    const routes: InjectOptions[] = [
      { method: 'POST', url: '/newUserMessage', payload: { user_message: 'hi' } },
      { method: 'GET', url: '/readConversation', query: { chat_id: chatId } },
      { method: 'GET', url: '/latestConsumerChatId' },
      { method: 'POST', url: '/feedback', payload: { chat_id: chatId, msg_id: 'x', rating: 'up' } }
    ]
    for (const route of routes) {
      const name = `${route.method} ${route.url}`
      const evil = await browser(route, token, { origin: 'https://evil.example' })
      refusedAs(t, evil, 403, 'origin_not_allowed', `${name} from another origin`)
      t.notOk('access-control-allow-origin' in evil.headers, `${name}: the other origin's page cannot read it`)
      refusedAs(t, await call(app, widget.key, { ...route, headers: { 'x-consumer-token': token } }), 403, 'origin_not_allowed', `${name} without Origin`)
      refusedAs(t, await browser(route, token, { origin: 'https://shop.example:8443' }), 403, 'origin_not_allowed', `${name} from another port`)
    }
    t.equal((await browser({ method: 'GET', url: '/latestConsumerChatId' }, undefined, { origin: 'http://localhost:8080' })).statusCode, 200, 'each allowed origin is')
    t.equal((await browser({ method: 'GET', url: '/latestConsumerChatId' }, undefined, { origin: SHOP }, theirWidget.key)).statusCode, 200)
  })

  t.test('CORS preflight: answered on its routes for the origins of live widget keys', async (t) => {
    const preflight = (url: string, origin?: string) => app.inject({
      method: 'OPTIONS', url, headers: { ...(origin === undefined ? {} : { origin }), 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-consumer-token' }
    })
    const routes: Array<[string, string]> = [['POST', '/newUserMessage'], ['GET', '/readConversation'], ['GET', '/latestConsumerChatId'], ['POST', '/feedback']]
    for (const [method, url] of routes) {
      const ok = await preflight(url, SHOP)
      t.equal(ok.statusCode, 204, `${url}: 204`)
      t.equal(ok.headers['access-control-allow-origin'], SHOP, url)
      t.equal(ok.headers['access-control-allow-methods'], method, url)
      for (const header of ['authorization', 'content-type', 'x-consumer-token', 'x-consumer-id', 'x-consumer-hmac', 'idempotency-key']) t.match(ok.headers['access-control-allow-headers'], header, `${url} allows ${header}`)
      t.match(ok.headers['access-control-max-age'], /^\d+$/)
      t.match(ok.headers.vary, /Origin/)
      for (const [name, origin] of [['another origin', 'https://evil.example'], ['no origin', undefined]] as const) {
        const refused = await preflight(url, origin)
        refusedAs(t, refused, 403, 'origin_not_allowed', `${url}, ${name}`)
        t.notOk('access-control-allow-origin' in refused.headers, `${url}, ${name}: no Access-Control-Allow-Origin`)
      }
    }
    for (const url of ['/listAllProjectChats', '/listAllProjectConsumerChats', '/admin/chats']) {
      const res = await preflight(url, SHOP)
      t.not(res.statusCode, 204, `${url}: not a widget route`)
      t.notOk('access-control-allow-origin' in res.headers, `${url}: no Access-Control-Allow-Origin`)
    }
  })

  t.test('anywhere else a widget key is refused exactly like an unknown key', async (t) => {
    const unknown = `csk_chat_${'Z'.repeat(40)}`
    const doc = (await app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, { security?: unknown[] }>> }
    const widgetRoutes = ['post /newUserMessage', 'get /readConversation', 'get /latestConsumerChatId', 'post /feedback']
    let checked = 0
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        // The public routes (health, the widget's own scripts) take no credential at all.
        if (widgetRoutes.includes(`${method} ${path}`) || method === 'options' || methods[method]?.security?.length === 0) continue
        const url = path.replace('{chat_id}', chatId)
        // Each route from an address of its own: the failed-authentication throttle is not what is tested.
        const opts = { method: method.toUpperCase() as 'GET', url, query: { consumer_id: 'ann' }, headers: { 'x-project-id': shop.projectId }, remoteAddress: `198.51.100.${checked + 1}` }
        const withWidget = await browser(opts, token)
        const withUnknown = await call(app, unknown, { ...opts, headers: { ...opts.headers, origin: SHOP } })
        t.equal(withWidget.statusCode, 401, `${method} ${path}`)
        t.same(withWidget.json(), withUnknown.json(), `${method} ${path}: the unknown key's body`)
        checked++
      }
    }
    t.ok(checked >= 8, `${checked} routes checked`)
  })

  t.test('identity verification: the shop\'s signed customer id is the consumer', async (t) => {
    const { identitySecret } = await widgetSecrets(h.db, shop.projectId)
    const as = (customer: string, hmac = identityHmac(identitySecret, customer)) => ({ 'x-consumer-id': customer, 'x-consumer-hmac': hmac })
    const res = await send({ user_message: 'hello', consumer_id: 'ann' }, token, as('customer-7'))
    t.equal(res.statusCode, 200)
    const customersChat = res.json().chat_id as string
    t.equal(await consumerOf(customersChat), 'customer-7', 'the verified customer, over the token and the body')
    const listed = await get(app, shop.key, '/listAllProjectConsumerChats', { consumer_id: 'customer-7' })
    t.same(listed.json().chats.map((c: { id: string }) => c.id), [customersChat], 'the shop\'s server finds it under its customer id')
    t.equal((await browser({ method: 'GET', url: '/readConversation', query: { chat_id: customersChat } }, undefined, as('customer-7'))).statusCode, 200, 'on another device too')
    refusedAs(t, await browser({ method: 'GET', url: '/readConversation', query: { chat_id: customersChat } }, undefined, as('customer-8')), 404, 'chat_not_found', 'another customer')
    refusedAs(t, await send({ user_message: 'hi' }, undefined, as('customer-7', identityHmac('not the secret', 'customer-7'))), 403, 'invalid_consumer_hmac', 'an HMAC under another secret')
    refusedAs(t, await send({ user_message: 'hi' }, undefined, { 'x-consumer-id': 'customer-7' }), 403, 'invalid_consumer_hmac', 'the id without its HMAC')
  })

  t.test('a streamed reply to a browser carries the CORS headers and the token', async (t) => {
    const res = await send({ user_message: 'hello' }, token, { accept: 'text/event-stream' })
    t.equal(res.statusCode, 200)
    t.equal(res.headers['access-control-allow-origin'], SHOP)
    const done = /event: done\ndata: (.+)\n/.exec(res.body)
    t.equal(JSON.parse(done![1]!).consumer_token, token)
  })

  t.test('browsers sharing the key never share an Idempotency-Key\'s stored reply', async (t) => {
    const body = { user_message: 'hello there' }
    const one = await send(body, token, { 'idempotency-key': 'same-key' })
    const two = await send(body, undefined, { 'idempotency-key': 'same-key' })
    t.equal(two.headers['idempotent-replayed'], undefined, 'not replayed')
    t.not(two.json().chat_id, one.json().chat_id)
    t.not(two.json().consumer_token, token)
    t.equal((await send(body, token, { 'idempotency-key': 'same-key' })).headers['idempotent-replayed'], 'true', 'the same browser\'s retry is')
  })

  t.test('own limits: per client address and per consumer, not the key\'s', async (t) => {
    const limited = await h.app({ rateLimits: { chatWrite: 1000, chatRead: 1000, widgetAddress: 4, widgetConsumer: 2 } })
    const latest = (who?: string, address = '203.0.113.1') =>
      browser({ method: 'GET', url: '/latestConsumerChatId', remoteAddress: address }, who, {}, widget.key, limited)
    t.equal((await latest(token)).headers['ratelimit-limit'], '2', 'the consumer\'s limit, the nearer')
    t.equal((await latest(token)).statusCode, 200)
    const third = await latest(token)
    refusedAs(t, third, 429, 'rate_limited', 'the consumer\'s third request')
    t.match(third.headers['retry-after'], /^\d+$/)
    t.equal(third.headers['access-control-allow-origin'], SHOP, 'the widget can read why')
    t.equal((await latest()).statusCode, 200, 'a new consumer from the same address: the address\'s 4th')
    refusedAs(t, await latest(), 429, 'rate_limited', 'the address\'s 5th, with yet another consumer')
    t.equal((await latest(undefined, '203.0.113.2')).statusCode, 200, 'another address')
    t.equal((await call(limited, shop.key, { method: 'GET', url: '/latestConsumerChatId', query: { consumer_id: 'ann' }, remoteAddress: '203.0.113.1' })).statusCode, 200, 'the API key counts apart')
  })

  t.test('a revoked widget key is refused like an unknown one, and its origins are no longer preflighted', async (t) => {
    const temp = await createKey(h.db, shop.projectId, 'widget', 'temp', ['https://temp.example'])
    const from = { origin: 'https://temp.example' }
    t.equal((await browser({ method: 'GET', url: '/latestConsumerChatId' }, undefined, from, temp.key)).statusCode, 200)
    await revokeKey(h.db, temp.id)
    await new Promise((resolve) => setTimeout(resolve, 400))
    refusedAs(t, await browser({ method: 'GET', url: '/latestConsumerChatId' }, undefined, from, temp.key), 401, 'unauthorized', 'revoked')
    t.equal((await app.inject({ method: 'OPTIONS', url: '/newUserMessage', headers: from })).statusCode, 403, 'its origin is no longer preflighted')
  })

  t.test('the OpenAPI document lists the widget headers, errors and preflights', async (t) => {
    const doc = (await app.inject('/openapi.json')).json()
    const op = doc.paths['/newUserMessage'].post
    const headers = op.parameters.filter((p: { in: string }) => p.in === 'header').map((p: { name: string }) => p.name.toLowerCase())
    for (const name of ['origin', 'x-consumer-token', 'x-consumer-id', 'x-consumer-hmac']) t.ok(headers.includes(name), name)
    t.same(op.responses['403'].content['application/json'].schema.properties.code.enum, ['origin_not_allowed', 'invalid_consumer_hmac'])
    t.ok(op.responses['401'].content['application/json'].schema.properties.code.enum.includes('invalid_consumer_token'))
    t.ok(op.responses['200'].content['application/json'].schema.properties.consumer_token)
    t.notOk(doc.paths['/latestConsumerChatId'].get.parameters.find((p: { name: string }) => p.name === 'consumer_id').required, 'consumer_id optional')
    t.ok(doc.paths['/feedback'].options, 'the preflight is documented')
  })
})
