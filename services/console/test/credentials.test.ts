import t from 'tap'
import { identityHmac } from '@chatsearch/auth'
import { harness, signIn } from './helpers.js'
import { services } from './support/stack.js'

t.test('credentials issued in the console work on their service until revoked', async (t) => {
  const h = await harness(t)
  const { searchUrl, chatUrl } = await services(t, h)
  await h.user('alice')
  await h.user('bob')
  const app = await h.app({ searchUrl, chatUrl })
  const alice = await signIn(app, 'alice')
  const projectId = (await alice.request({ method: 'POST', url: '/api/projects', payload: { name: 'Shop' } })).json().id as string
  const base = `/api/projects/${projectId}/credentials`

  const issued = await alice.request({ method: 'POST', url: base, payload: { service: 'search' } })
  t.equal(issued.statusCode, 201)
  const searchKey = issued.json() as { id: string, key: string, hint: string, service: string, username: string }
  t.match(searchKey, { service: 'search', username: 'alice' })
  t.match(searchKey.key, /^csk_search_[0-9A-Za-z]{32,}$/)
  t.equal(searchKey.hint, `csk_search_…${searchKey.key.slice(-4)}`)
  const chatKey = (await alice.request({ method: 'POST', url: base, payload: { service: 'chat' } })).json() as { id: string, key: string }

  const searched = await fetch(`${searchUrl}/search`, {
    method: 'POST', headers: { authorization: `Bearer ${searchKey.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ search_term: 'boots' })
  })
  t.equal(searched.status, 200, 'the search key works on the search service')
  const chatWith = (key: string) => fetch(`${chatUrl}/newUserMessage`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ user_message: 'Hello!', consumer_id: 'c1' })
  })
  t.equal((await chatWith(chatKey.key)).status, 200, 'the chat key works on the chat service')
  t.equal((await chatWith(searchKey.key)).status, 401, 'a search key does not open the chat service')

  const listed = await alice.request({ method: 'GET', url: base })
  t.notMatch(listed.body, searchKey.key, 'a listing holds no secret')
  t.same((listed.json() as { credentials: Array<{ id: string }> }).credentials.map((c) => c.id), [searchKey.id, chatKey.id])
  t.same((await alice.request({ method: 'GET', url: `${base}?service=chat` })).json().credentials.map((c: { id: string }) => c.id), [chatKey.id])
  t.equal((await alice.request({ method: 'GET', url: `${base}?service=mail` })).statusCode, 400)

  t.equal((await alice.request({ method: 'DELETE', url: `${base}/${chatKey.id}` })).statusCode, 204)
  let status = 200
  for (let i = 0; i < 50 && status === 200; i++) {
    status = (await chatWith(chatKey.key)).status
    if (status === 200) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  t.equal(status, 401, 'a revoked key is refused')
  const after = (await alice.request({ method: 'GET', url: `${base}?service=chat` })).json().credentials[0] as { revoked_at: string | null }
  t.type(after.revoked_at, 'string')

  // Bob's own project: its credential ids are not Alice's to revoke through hers.
  const bob = await signIn(app, 'bob')
  const bobsProject = (await bob.request({ method: 'POST', url: '/api/projects', payload: { name: 'Bob' } })).json().id as string
  const bobsKey = (await bob.request({ method: 'POST', url: `/api/projects/${bobsProject}/credentials`, payload: { service: 'chat' } })).json() as { id: string, key: string }
  const cross = await alice.request({ method: 'DELETE', url: `${base}/${bobsKey.id}` })
  t.equal(cross.statusCode, 404)
  t.equal(cross.json().code, 'credential_not_found')
  t.equal((await chatWith(bobsKey.key)).status, 200, "Bob's key still works")

  t.test('widget keys: issued with their exact origins, usable from those only, with the identity secret beside them', async (t) => {
    const shop = 'https://shop.example'
    const refused = async (payload: object, pattern: RegExp, name: string) => {
      const res = await alice.request({ method: 'POST', url: base, payload })
      t.equal(res.statusCode, 400, name)
      t.equal(res.json().code, 'invalid_request', name)
      t.match(res.json().message, pattern, name)
    }
    await refused({ service: 'widget' }, /at least one allowed origin/, 'no origins')
    await refused({ service: 'widget', origins: ['https://shop.example/cart'] }, /is not an origin.*did you mean https:\/\/shop\.example\?/, 'a URL with a path')
    await refused({ service: 'widget', origins: ['shop.example'] }, /is not an origin/, 'a bare host')
    await refused({ service: 'chat', origins: [shop] }, /only widget keys/, 'origins on a chat key')
    await refused({ service: 'widget', origins: [] }, /origins/, 'an empty list')

    const issuedWidget = await alice.request({ method: 'POST', url: base, payload: { service: 'widget', origins: [shop] } })
    t.equal(issuedWidget.statusCode, 201)
    const widget = issuedWidget.json() as { id: string, key: string, hint: string, origins: string[] }
    t.match(widget.key, /^csk_pub_[0-9A-Za-z]{40}$/)
    t.equal(widget.hint, `csk_pub_…${widget.key.slice(-4)}`)
    t.same(widget.origins, [shop])
    const widgets = (await alice.request({ method: 'GET', url: `${base}?service=widget` })).json().credentials as Array<{ id: string, origins?: string[] }>
    t.same(widgets.map((c) => [c.id, c.origins]), [[widget.id, [shop]]], 'listed apart, with their origins')
    t.notOk((await alice.request({ method: 'GET', url: `${base}?service=chat` })).json().credentials.some((c: object) => 'origins' in c), 'API keys have none')

    const settings = await alice.request({ method: 'GET', url: `/api/projects/${projectId}/widget` })
    t.equal(settings.statusCode, 200)
    const secret = settings.json().identity_secret as string
    t.match(secret, /^[0-9A-Za-z]{40}$/)
    t.match(settings.json().loader_url, /^http:\/\/127\.0\.0\.1:\d+\/widget\/v1\/loader\.js$/, 'the snippet\'s src: the chat service (CHAT_URL when CHAT_PUBLIC_URL is not set)')
    t.equal((await alice.request({ method: 'GET', url: `/api/projects/${projectId}/widget` })).json().identity_secret, secret, 'the same each time')
    t.equal((await bob.request({ method: 'GET', url: `/api/projects/${projectId}/widget` })).statusCode, 404, 'not another project\'s member\'s')

    const fromShop = (key: string, headers: Record<string, string> = {}) => fetch(`${chatUrl}/newUserMessage`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', origin: shop, ...headers }, body: JSON.stringify({ user_message: 'Hello!' })
    })
    const sent = await fromShop(widget.key)
    t.equal(sent.status, 200, 'the widget key talks to the chat service from its origin')
    t.ok((await sent.json() as { consumer_token?: string }).consumer_token, 'and gets its consumer token')
    t.equal((await fromShop(widget.key, { origin: 'https://evil.example' })).status, 403, 'not from another')
    t.equal((await fromShop(widget.key, { 'x-consumer-id': 'customer-1', 'x-consumer-hmac': identityHmac(secret, 'customer-1') })).status, 200, 'the identity secret signs a customer id')

    const rotated = await alice.request({ method: 'POST', url: `/api/projects/${projectId}/widget/identity-secret` })
    t.equal(rotated.statusCode, 200)
    t.not(rotated.json().identity_secret, secret, 'rotated')

    for (const [method, url] of [['GET', '/api/projects'], ['GET', base], ['GET', `/api/projects/${projectId}/chats`], ['GET', `/api/projects/${projectId}/widget`]] as const) {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${widget.key}`, origin: shop } })
      t.equal(res.statusCode, 401, `the console takes no key: ${method} ${url}`)
    }

    t.equal((await alice.request({ method: 'DELETE', url: `${base}/${widget.id}` })).statusCode, 204)
    let status = 200
    for (let i = 0; i < 50 && status === 200; i++) {
      status = (await fromShop(widget.key)).status
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    t.equal(status, 401, 'a revoked widget key is refused')
  })
})
