import t, { type Test } from 'tap'
import { createKey, revokeKey } from '@chatsearch/auth'
import { harness, call, get } from './helpers.js'

t.test('credentials', async (t) => {
  const h = await harness(t)
  const app = await h.app({ authCacheTtlMs: 300 })
  const shop = await h.tenant()

  const unauthorizedBody = (t: Test, res: Awaited<ReturnType<typeof get>>, name: string) => {
    t.equal(res.statusCode, 401, name)
    t.equal(res.json().error, 'Unauthorized', name)
    t.equal(res.json().code, 'unauthorized', name)
  }

  t.test('every endpoint needs a credential', async (t) => {
    for (const [method, url] of [['POST', '/newUserMessage'], ['GET', '/readConversation'], ['GET', '/listAllProjectChats'], ['GET', '/listAllProjectConsumerChats'], ['GET', '/latestConsumerChatId'], ['POST', '/feedback']] as const) {
      unauthorizedBody(t, await call(app, undefined, { method, url }), `${method} ${url}`)
    }
  })

  t.test('bad credentials get 401', async (t) => {
    const cases: Array<[string, string]> = [
      ['not bearer', `Basic ${shop.key}`],
      ['bearer without key', 'Bearer '],
      ['malformed key', 'Bearer hunter2'],
      ['unknown key of the right shape', 'Bearer csk_chat_' + 'a'.repeat(40)],
      ['two tokens', `Bearer ${shop.key} extra`]
    ]
    for (const [name, authorization] of cases) {
      unauthorizedBody(t, await call(app, undefined, { method: 'GET', url: '/listAllProjectChats', headers: { authorization } }), name)
    }
  })

  t.test('a search credential does not open the chat service', async (t) => {
    const searchKey = await createKey(h.db, shop.projectId, 'search', 'tester')
    const res = await get(app, searchKey.key, '/listAllProjectChats')
    unauthorizedBody(t, res, 'search key')
    t.match(res.json().message, /chat credential/)
  })

  t.test('a key in the query string is never accepted', async (t) => {
    unauthorizedBody(t, await call(app, undefined, { method: 'GET', url: `/listAllProjectChats?api_key=${shop.key}` }), 'query key')
  })

  t.test('a revoked key stops working within the cache time', async (t) => {
    const key = await createKey(h.db, shop.projectId, 'chat', 'temp')
    t.equal((await get(app, key.key, '/listAllProjectChats')).statusCode, 200)
    await revokeKey(h.db, key.id)
    await new Promise((resolve) => setTimeout(resolve, 350))
    unauthorizedBody(t, await get(app, key.key, '/listAllProjectChats'), 'revoked')
    t.equal((await get(app, shop.key, '/listAllProjectChats')).statusCode, 200, 'other keys keep working')
  })

  t.test('health and docs are public', async (t) => {
    t.same((await call(app, undefined, { method: 'GET', url: '/healthz' })).json(), { status: 'ok', service: 'chat' })
    const doc = (await call(app, undefined, { method: 'GET', url: '/openapi.json' })).json()
    t.same(Object.keys(doc.paths).filter((p) => p !== '/healthz' && p !== '/readyz').sort(),
      [
        '/admin/analytics', '/admin/chats', '/admin/chats/export', '/admin/chats/{chat_id}', '/admin/chats/{chat_id}/answer',
        '/admin/webhooks', '/admin/webhooks/{webhook_id}', '/admin/webhooks/{webhook_id}/deliveries',
        '/admin/webhooks/{webhook_id}/deliveries/{delivery_id}/retry', '/admin/webhooks/{webhook_id}/secret', '/admin/webhooks/{webhook_id}/test',
        '/feedback', '/latestConsumerChatId', '/listAllProjectChats', '/listAllProjectConsumerChats', '/newUserMessage', '/readConversation', '/widget/v1/loader.js', '/widget/v1/panel.js'])
    t.ok(doc.paths['/newUserMessage'].post.requestBody, 'request schemas are documented')
    t.ok(doc.paths['/readConversation'].get.responses['404'], 'error responses are documented')
    const page = await call(app, undefined, { method: 'GET', url: '/docs/' })
    t.equal(page.statusCode, 200)
    t.match(page.headers['content-type'], /html/)
    t.match(page.headers['content-security-policy'], /(^|;)\s*script-src [^;]*'self'/, 'a browser lets the page run its own scripts')
  })
})
