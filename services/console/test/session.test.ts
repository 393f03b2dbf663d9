import t from 'tap'
import { harness, PASSWORD, signIn } from './helpers.js'

t.test('signing in and out', async (t) => {
  const h = await harness(t)
  await h.user('alice')
  const app = await h.app()

  const res = await app.inject({ method: 'POST', url: '/api/session', payload: { username: 'alice', password: PASSWORD } })
  t.equal(res.statusCode, 200)
  const body = res.json() as { username: string, csrf_token: string }
  t.equal(body.username, 'alice')
  t.match(body.csrf_token, /^[\w-]{40,}$/)
  const setCookie = String(res.headers['set-cookie'])
  t.match(setCookie, /^console_session=[\w-]{40,};/)
  t.match(setCookie, /; HttpOnly/)
  t.match(setCookie, /; SameSite=Strict/)
  t.match(setCookie, /; Path=\//)
  t.match(setCookie, /; Max-Age=3600/)
  t.notMatch(setCookie, /Secure/, 'plain HTTP without a trusted proxy: not Secure')

  const sessionId = /console_session=([^;]+)/.exec(setCookie)![1]!
  const { rows } = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM console_sessions WHERE id_hash = sha256(convert_to($1, \'UTF8\'))', [sessionId])
  t.equal(rows[0]!.n, 1, 'the table holds the hash of the session id')
  const plain = await h.db.query('SELECT 1 FROM console_sessions WHERE encode(id_hash, \'escape\') LIKE $1', [`%${sessionId}%`])
  t.equal(plain.rowCount, 0, 'and never the id itself')

  const cookie = `console_session=${sessionId}`
  const who = await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })
  t.same(who.json(), body, 'GET /api/session tells who is signed in, with the same CSRF token')

  const noCsrf = await app.inject({ method: 'DELETE', url: '/api/session', headers: { cookie } })
  t.equal(noCsrf.statusCode, 403)
  t.equal(noCsrf.json().code, 'csrf_failed')

  const out = await app.inject({ method: 'DELETE', url: '/api/session', headers: { cookie, 'x-csrf-token': body.csrf_token } })
  t.equal(out.statusCode, 204)
  t.match(String(out.headers['set-cookie']), /console_session=;.*Expires=Thu, 01 Jan 1970/, 'the cookie is cleared')
  const after = await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })
  t.equal(after.statusCode, 401)
  t.equal(after.json().code, 'unauthorized')
  t.equal((await app.inject({ method: 'GET', url: '/api/session' })).statusCode, 401, 'no cookie: 401')
  t.equal((await app.inject({ method: 'GET', url: '/api/projects', headers: { cookie: 'console_session=forged' } })).statusCode, 401, 'a made-up session id: 401')
})

t.test('a wrong password or an unknown user is 401 invalid_credentials, alike', async (t) => {
  const h = await harness(t)
  await h.user('bob')
  const app = await h.app()
  for (const payload of [{ username: 'bob', password: 'wrong password!' }, { username: 'nobody', password: PASSWORD }]) {
    const res = await app.inject({ method: 'POST', url: '/api/session', payload })
    t.equal(res.statusCode, 401)
    t.same(res.json(), { statusCode: 401, error: 'Unauthorized', code: 'invalid_credentials', message: 'the username or the password is wrong' })
    t.equal(res.headers['set-cookie'], undefined, 'no cookie')
  }
  const missing = await app.inject({ method: 'POST', url: '/api/session', payload: { username: 'bob' } })
  t.equal(missing.statusCode, 400)
  t.equal(missing.json().code, 'missing_parameters')
})

t.test('sign-in attempts are throttled per username and address, with Retry-After', async (t) => {
  const h = await harness(t)
  await h.user('carol')
  await h.user('dave')
  const app = await h.app({ signInFailures: 3 })
  const attempt = (username: string, password: string, ip = '127.0.0.1') =>
    app.inject({ method: 'POST', url: '/api/session', payload: { username, password }, remoteAddress: ip })
  for (let i = 0; i < 3; i++) t.equal((await attempt('carol', 'not the password')).statusCode, 401)
  const throttled = await attempt('carol', PASSWORD)
  t.equal(throttled.statusCode, 429, 'even the right password waits once the failures are used up')
  t.equal(throttled.json().code, 'authentication_throttled')
  const retry = Number(throttled.headers['retry-after'])
  t.ok(retry > 0 && retry <= 900, `Retry-After ${retry} s within the 15-minute window`)
  t.equal((await attempt('dave', PASSWORD)).statusCode, 200, 'another username from the same address is not held up')
  t.equal((await attempt('carol', PASSWORD, '10.0.0.9')).statusCode, 200, 'nor the same username from another address')
  for (let i = 0; i < 5; i++) t.equal((await attempt('dave', PASSWORD)).statusCode, 200, 'a sign-in that succeeds is not counted')
  t.equal((await attempt('dave', 'not the password')).statusCode, 401, 'so the failures of that window are still all to come')
})

t.test('guesses sent at once are held to the limit too', async (t) => {
  const h = await harness(t)
  await h.user('erin')
  const app = await h.app({ signInFailures: 3 })
  // Each password check takes a while (scrypt): all ten are in flight before the first is refused.
  const burst = await Promise.all(Array.from({ length: 10 }, () =>
    app.inject({ method: 'POST', url: '/api/session', payload: { username: 'erin', password: 'a guess' }, remoteAddress: '127.0.0.1' })))
  t.same(burst.map((res) => res.statusCode).sort(), [401, 401, 401, 429, 429, 429, 429, 429, 429, 429], 'three guesses checked, the rest refused')
})

t.test('a session ends when it expires', async (t) => {
  const h = await harness(t)
  await h.user('erin')
  const app = await h.app()
  const browser = await signIn(app, 'erin')
  t.equal((await browser.request({ method: 'GET', url: '/api/projects' })).statusCode, 200)
  await h.db.query("UPDATE console_sessions SET expires_at = now() - interval '1 second'")
  const res = await browser.request({ method: 'GET', url: '/api/projects' })
  t.equal(res.statusCode, 401)
  t.equal(res.json().code, 'unauthorized')
  const { rows } = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM console_sessions')
  t.equal(rows[0]!.n, 0, 'the expired session is gone')
})

t.test('the cookie is Secure when the request came over TLS through a trusted proxy', async (t) => {
  const h = await harness(t)
  await h.user('frank')
  const trusting = await h.app({ trustProxy: true })
  const payload = { username: 'frank', password: PASSWORD }
  const proxied = await trusting.inject({ method: 'POST', url: '/api/session', payload, headers: { 'x-forwarded-proto': 'https' } })
  t.match(String(proxied.headers['set-cookie']), /; Secure/)
  const untrusting = await h.app()
  const spoofed = await untrusting.inject({ method: 'POST', url: '/api/session', payload, headers: { 'x-forwarded-proto': 'https' } })
  t.notMatch(String(spoofed.headers['set-cookie']), /Secure/, 'an untrusted X-Forwarded-Proto is ignored')
})

t.test('every state-changing API request needs the CSRF token', async (t) => {
  const h = await harness(t)
  await h.user('gina')
  const app = await h.app()
  const browser = await signIn(app, 'gina')
  const projectId = (await browser.request({ method: 'POST', url: '/api/projects', payload: { name: 'Shop' } })).json().id as string
  const cases = [
    { method: 'POST' as const, url: '/api/projects', payload: { name: 'x' } },
    { method: 'PATCH' as const, url: `/api/projects/${projectId}`, payload: { name: 'y' } },
    { method: 'POST' as const, url: `/api/projects/${projectId}/credentials`, payload: { service: 'chat' } },
    { method: 'DELETE' as const, url: '/api/session' }
  ]
  for (const c of cases) {
    for (const token of [undefined, 'wrong-token']) {
      const res = await app.inject({ ...c, headers: { cookie: browser.cookie, ...(token === undefined ? {} : { 'x-csrf-token': token }) } })
      t.equal(res.statusCode, 403, `${c.method} ${c.url} with ${token ?? 'no token'}`)
      t.equal(res.json().code, 'csrf_failed')
    }
  }
  const projects = (await browser.request({ method: 'GET', url: '/api/projects' })).json().projects as Array<{ name: string }>
  t.same(projects.map((p) => p.name), ['Shop'], 'nothing was changed')
})

t.test('security headers and the content security policy', async (t) => {
  const h = await harness(t)
  const app = await h.app()
  for (const url of ['/', '/projects/abc', '/api/session']) {
    const res = await app.inject({ method: 'GET', url })
    const csp = String(res.headers['content-security-policy'])
    t.match(csp, /default-src 'self'/, url)
    t.match(csp, /script-src 'self'(;|$)/, `${url}: only the app's own scripts`)
    t.match(csp, /style-src 'self'(;|$)/, `${url}: only its own styles`)
    t.match(csp, /frame-ancestors 'none'/)
    t.notMatch(csp, /unsafe-inline|unsafe-eval/)
    t.equal(res.headers['x-content-type-options'], 'nosniff')
    t.equal(res.headers['x-frame-options'], 'SAMEORIGIN')
    t.match(String(res.headers['strict-transport-security']), /max-age=/)
  }
})
