import t from 'tap'
import fc from 'fast-check'
import { fuzzRoutes } from '@chatsearch/testkit/fuzz'
import { harness, signIn } from './helpers.js'
import { services } from './support/stack.js'

// Arbitrary requests at every route of the console's OpenAPI document, signed in, with real chat and
// search services behind it: no answer is a 5xx, and every error is the documented body.
// FUZZ_RUNS=10000 for a long run.
t.test('hostile requests at every console route: no 5xx, only conforming error bodies', async (t) => {
  const h = await harness(t)
  const stack = await services(t, h)
  const app = await h.app({ chatUrl: stack.chatUrl, searchUrl: stack.searchUrl, signInFailures: 0 })
  await h.user('alice')
  let alice = await signIn(app, 'alice')
  const own = (await alice.request({ method: 'POST', url: '/api/projects', payload: { name: 'Shop' } })).json().id as string
  const theirs = await h.project('Not hers', {})
  // Found by this test: a NUL in the project id reached PostgreSQL, which refuses it (500).
  const nul = await alice.request({ method: 'GET', url: '/api/projects/%00/knowledge/documents/x' })
  t.equal(nul.statusCode, 404, nul.body)
  t.equal(nul.json().code, 'project_not_found')
  const result = await fuzzRoutes(app, {
    authorizations: ['Bearer not-used-by-the-console'],
    // DELETE /api/session is among the routes: signed in again whenever a request signed her out.
    headers: async () => {
      if ((await app.inject({ url: '/api/session', headers: { cookie: alice.cookie } })).statusCode === 401) alice = await signIn(app, 'alice')
      return { cookie: alice.cookie, 'x-csrf-token': alice.csrf }
    },
    fields: {
      project_id: fc.constantFrom(own, own, theirs, 'prj_nope', '', 'x'.repeat(300)),
      service: fc.constantFrom('chat', 'search', 'other'),
      name: fc.constantFrom('Shop', '', 'x'.repeat(300)),
      username: fc.constantFrom('alice', 'bob', '', '\u0000')
    },
    runs: 300
  })
  t.ok(result.requests > 0, `${result.requests} requests; statuses ${JSON.stringify(result.statuses)}`)
  // Signed in and holding the CSRF token, a share of the requests succeed (signed out, none would).
  const succeeded = Object.entries(result.statuses).filter(([status]) => Number(status) < 300).reduce((sum, [, n]) => sum + n, 0)
  t.ok(succeeded > result.requests / 20, `${succeeded} of ${result.requests} succeeded`)
})
