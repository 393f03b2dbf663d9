import t, { type Test } from 'tap'
import { ApiError, messageOf, request, setCsrfToken, setUnauthorizedHandler } from '../src/api/client.js'

interface Call { url: string, method: string, headers: Record<string, string>, body: unknown }

/** Replaces fetch with one answering from `answers` in turn, recording each call. */
function stubFetch (t: Test, answers: Array<() => Response>): Call[] {
  const calls: Call[] = []
  const original = globalThis.fetch
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), method: init?.method ?? 'GET', headers: { ...(init?.headers as Record<string, string>) }, body: init?.body })
    const answer = answers.shift()
    if (answer === undefined) throw new Error('unexpected request ' + String(input))
    return answer()
  }
  t.teardown(() => { globalThis.fetch = original })
  return calls
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
const error = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  json(status, { statusCode: status, error: 'x', code, message }, headers)

t.beforeEach(() => {
  setCsrfToken('token-1')
  setUnauthorizedHandler(() => {})
})

t.test('state-changing requests carry the CSRF token, reads do not', async (t) => {
  const calls = stubFetch(t, [json(200, { projects: [] }), json(201, { id: 'p1' }), () => new Response(null, { status: 204 })])
  await request('/api/projects')
  t.same(await request('/api/projects', { method: 'POST', body: { name: 'Shop' } }), { id: 'p1' })
  t.equal(await request('/api/projects/p1/credentials/c1', { method: 'DELETE' }), undefined, '204 answers undefined')
  t.notOk('x-csrf-token' in calls[0]!.headers)
  t.equal(calls[1]!.headers['x-csrf-token'], 'token-1')
  t.equal(calls[1]!.headers['content-type'], 'application/json')
  t.equal(calls[1]!.body, '{"name":"Shop"}')
  t.equal(calls[2]!.headers['x-csrf-token'], 'token-1')
})

t.test('a form or file goes as it is, its content type left to the browser or the caller', async (t) => {
  const calls = stubFetch(t, [json(202, { task_id: 't1' }), json(200, {})])
  const form = new FormData()
  form.append('file', new Blob(['# Hi']), 'hi.md')
  await request('/api/projects/p1/knowledge/files', { method: 'POST', body: form })
  t.equal(calls[0]!.body, form)
  t.notOk('content-type' in calls[0]!.headers)
  const file = new Blob(['id,title\n1,A\n'])
  await request('/api/projects/p1/catalog', { method: 'POST', body: file, headers: { 'content-type': 'text/csv' } })
  t.equal(calls[1]!.headers['content-type'], 'text/csv')
})

t.test('an error body becomes an ApiError with its code, message and Retry-After', async (t) => {
  stubFetch(t, [error(429, 'authentication_throttled', 'Too many attempts.', { 'retry-after': '30' })])
  const err = await request('/api/session', { method: 'POST', body: {}, allowUnauthorized: true }).catch((e: unknown) => e)
  t.ok(err instanceof ApiError)
  t.match(err, { status: 429, code: 'authentication_throttled', message: 'Too many attempts.', retryAfter: 30 })
  t.equal(messageOf(err), 'Too many attempts. Try again in 30 s.')
})

t.test('a proxy page instead of an error body still gives a message', async (t) => {
  stubFetch(t, [() => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })])
  const err = await request('/api/projects').catch((e: unknown) => e)
  t.match(err, { status: 502, code: 'http_502', message: 'The server answered 502 Bad Gateway' })
})

t.test('a lost session sends the user to sign in, except from the sign-in form itself', async (t) => {
  let sent = 0
  setUnauthorizedHandler(() => { sent++ })
  stubFetch(t, [error(401, 'unauthorized', 'Sign in.'), error(401, 'invalid_credentials', 'Wrong.')])
  await t.rejects(request('/api/projects'), { code: 'unauthorized' })
  t.equal(sent, 1)
  await t.rejects(request('/api/session', { method: 'POST', body: {}, allowUnauthorized: true }), { code: 'invalid_credentials' })
  t.equal(sent, 1, 'the sign-in form shows its own error')
})

t.test('a refused CSRF token is read anew from the session and the request sent once more', async (t) => {
  const calls = stubFetch(t, [error(403, 'csrf_failed', 'Bad token.'), json(200, { username: 'ann', csrf_token: 'token-2' }), json(200, { id: 'p1', name: 'New' })])
  t.same(await request('/api/projects/p1', { method: 'PATCH', body: { name: 'New' } }), { id: 'p1', name: 'New' })
  t.same(calls.map((c) => `${c.method} ${c.url} ${c.headers['x-csrf-token'] ?? '-'}`), [
    'PATCH /api/projects/p1 token-1',
    'GET /api/session -',
    'PATCH /api/projects/p1 token-2'
  ])
})

t.test('a CSRF refusal without a session is not retried', async (t) => {
  const calls = stubFetch(t, [error(403, 'csrf_failed', 'Bad token.'), error(401, 'unauthorized', 'Sign in.')])
  await t.rejects(request('/api/projects', { method: 'POST', body: { name: 'x' } }), { status: 403, code: 'csrf_failed' })
  t.equal(calls.length, 2)
})
