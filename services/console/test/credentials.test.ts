import t from 'tap'
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
})
