import t, { type Test } from 'tap'
import Fastify from 'fastify'
import { databasePlugin, installErrorHandler, migrate, redisPlugin } from '@chatsearch/shell'
import { startRedis, testDatabase } from '@chatsearch/testkit'
import { authMigrations, authPlugin, createKey, createProject, listKeys, listProjects, revokeKey, serviceTokenOnly } from '../src/index.js'

/** The plugin on a bare Fastify instance with one dummy route that echoes the principal. */
async function bareApp (t: Test, databaseUrl: string, service: 'chat' | 'search', cacheTtlMs: number, serviceToken?: string, failuresPerMinute?: number, redisUrl?: string) {
  const app = Fastify({ trustProxy: true })
  installErrorHandler(app)
  await app.register(databasePlugin, { databaseUrl })
  await migrate(app.pg, 'auth', authMigrations)
  await app.register(redisPlugin, { url: redisUrl, name: 'test' })
  await app.register(authPlugin, {
    service, cacheTtlMs, redis: app.redis, lastUsedFlushMs: 50, ...(serviceToken === undefined ? {} : { serviceToken }), ...(failuresPerMinute === undefined ? {} : { failuresPerMinute })
  })
  await app.register(async (api) => {
    api.addHook('onRequest', api.authenticate)
    api.get('/whoami', async (request) => request.principal)
  })
  app.get('/open', async () => 'open')
  t.teardown(() => app.close())
  return app
}

t.test('auth plugin', async (t) => {
  const databaseUrl = await testDatabase(t)
  const app = await bareApp(t, databaseUrl, 'chat', 200)
  const shop = await createProject(app.pg, 'Shop')
  const other = await createProject(app.pg, 'Other')
  const key = await createKey(app.pg, shop.id, 'chat', 'alice')
  const whoami = (authorization?: string) => app.inject({ url: '/whoami', headers: authorization === undefined ? {} : { authorization } })

  t.test('a valid key resolves to its project, service and username', async (t) => {
    const res = await whoami(`Bearer ${key.key}`)
    t.equal(res.statusCode, 200)
    t.same(res.json(), { projectId: shop.id, keyId: key.id, service: 'chat', username: 'alice' })
    const theirs = await createKey(app.pg, other.id, 'chat', 'bob')
    t.equal((await whoami(`Bearer ${theirs.key}`)).json().projectId, other.id)
  })

  t.test('a key\'s last use is recorded in a batch, off the request path; an unused key has none', async (t) => {
    const used = await createKey(app.pg, shop.id, 'chat', 'carol')
    const unused = await createKey(app.pg, shop.id, 'chat', 'dave')
    const lastUsed = async (id: string) => (await listKeys(app.pg, shop.id)).find((k) => k.id === id)?.last_used_at
    t.equal(await lastUsed(used.id), null, 'never used yet')
    const before = Date.now()
    t.equal((await whoami(`Bearer ${used.key}`)).statusCode, 200)
    // The batch interval here is 50 ms (bareApp's lastUsedFlushMs).
    let at: string | null | undefined = null
    for (let i = 0; i < 100 && at === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      at = await lastUsed(used.id)
    }
    t.ok(at !== null && at !== undefined && Date.parse(at) >= before - 1000, `recorded: ${String(at)}`)
    t.equal(await lastUsed(unused.id), null, 'the other key stays unused')
  })

  t.test('routes outside the guarded scope stay open', async (t) => {
    t.equal((await app.inject('/open')).statusCode, 200)
  })

  t.test('missing, malformed, unknown and wrong-service credentials get the 401 body', async (t) => {
    const searchKey = await createKey(app.pg, shop.id, 'search', 'alice')
    for (const [name, header] of [
      ['missing', undefined],
      ['empty', ''],
      ['basic', `Basic ${key.key}`],
      ['lowercase scheme and no key', 'bearer'],
      ['malformed', 'Bearer not-a-key'],
      ['unknown', `Bearer csk_chat_${'Z'.repeat(40)}`],
      ['search key on a chat service', `Bearer ${searchKey.key}`]
    ] as const) {
      const res = await whoami(header)
      t.equal(res.statusCode, 401, name)
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'], name)
      t.equal(res.json().code, 'unauthorized', name)
    }
  })

  t.test('a revoked key is refused: the revocation empties the credential cache', async (t) => {
    const temp = await createKey(app.pg, shop.id, 'chat', 'temp')
    t.equal((await whoami(`Bearer ${temp.key}`)).statusCode, 200)
    t.equal(await revokeKey(app.pg, temp.id), true)
    t.equal(await revokeKey(app.pg, 'key_missing'), false)
    await new Promise((resolve) => setTimeout(resolve, 250))
    t.equal((await whoami(`Bearer ${temp.key}`)).statusCode, 401)
    const listed = (await listKeys(app.pg, shop.id)).find((k) => k.id === temp.id)
    t.type(listed?.revoked_at, 'string')
  })

  t.test('listings never hold a secret', async (t) => {
    const keys = await listKeys(app.pg, shop.id)
    t.ok(keys.length >= 3)
    const text = JSON.stringify(keys)
    t.notMatch(text, key.key)
    t.notOk(keys.some((k) => 'key' in k))
    t.same((await listProjects(app.pg)).map((p) => p.name), ['Shop', 'Other'])
    const { rows } = await app.pg.query('SELECT key_hash FROM api_keys WHERE id = $1', [key.id])
    t.equal(rows[0].key_hash.length, 32, 'the database holds a 32-byte hash')
  })

  t.test('the database being down is a 503, not a 401 or a 500', async (t) => {
    const broken = await bareApp(t, 'postgres://nobody:x@127.0.0.1:1/none', 'chat', 200).catch((err: Error) => err)
    t.type(broken, Error, 'migrations fail loudly at start-up')
    const res = await (async () => {
      const app2 = Fastify()
      installErrorHandler(app2)
      await app2.register(databasePlugin, { databaseUrl: 'postgres://nobody:x@127.0.0.1:1/none' })
      await app2.register(authPlugin, { service: 'chat' })
      app2.addHook('onRequest', app2.authenticate)
      app2.get('/x', async () => 'x')
      t.teardown(() => app2.close())
      return await app2.inject({ url: '/x', headers: { authorization: `Bearer ${key.key}` } })
    })()
    t.equal(res.statusCode, 503)
    t.equal(res.json().code, 'service_unavailable')
  })
})

t.test('a service credential acts for the project it names', async (t) => {
  const databaseUrl = await testDatabase(t)
  const token = 'st_' + 'k'.repeat(40)
  const app = await bareApp(t, databaseUrl, 'search', 200, token)
  const shop = await createProject(app.pg, 'Shop')
  const whoami = (headers: Record<string, string>) => app.inject({ url: '/whoami', headers })

  const res = await whoami({ authorization: `Bearer ${token}`, 'x-project-id': shop.id })
  t.equal(res.statusCode, 200)
  t.same(res.json(), { projectId: shop.id, keyId: 'service', service: 'search', username: 'service' })
  for (const [name, headers] of [
    ['no project named', { authorization: `Bearer ${token}` }],
    ['an unknown project', { authorization: `Bearer ${token}`, 'x-project-id': 'prj_nope' }],
    ['a wrong token', { authorization: `Bearer ${token}x`, 'x-project-id': shop.id }],
    ['a project header without the token', { 'x-project-id': shop.id }]
  ] as const) {
    const denied = await whoami(headers)
    t.equal(denied.statusCode, 401, name)
    t.equal(denied.json().code, 'unauthorized', name)
  }
  const key = await createKey(app.pg, shop.id, 'search', 'alice')
  t.equal((await whoami({ authorization: `Bearer ${key.key}`, 'x-project-id': 'prj_other' })).json().projectId, shop.id,
    'a project key ignores the header: it cannot reach another project')
})

t.test('serviceTokenOnly lets the service token through and nothing else, before the body is read', async (t) => {
  const databaseUrl = await testDatabase(t)
  const token = 'st_' + 'k'.repeat(40)
  const app = Fastify()
  installErrorHandler(app)
  await app.register(databasePlugin, { databaseUrl })
  await migrate(app.pg, 'auth', authMigrations)
  await app.register(redisPlugin, { url: undefined, name: 'test' })
  await app.register(authPlugin, { service: 'chat', cacheTtlMs: 200, redis: app.redis, serviceToken: token })
  await app.register(async (api) => {
    api.addHook('onRequest', api.authenticate)
    await api.register(async (admin) => {
      admin.addHook('onRequest', serviceTokenOnly)
      admin.post('/admin/echo', { schema: { body: { type: 'object', required: ['content'] } } }, async (request) => request.principal)
    })
    api.get('/public', async (request) => request.principal)
  })
  t.teardown(() => app.close())
  const shop = await createProject(app.pg, 'Shop')
  const key = await createKey(app.pg, shop.id, 'chat', 'alice')

  const ok = await app.inject({ method: 'POST', url: '/admin/echo', headers: { authorization: `Bearer ${token}`, 'x-project-id': shop.id }, payload: { content: 'x' } })
  t.equal(ok.statusCode, 200)
  t.equal(ok.json().projectId, shop.id)
  const refused = await app.inject({ method: 'POST', url: '/admin/echo', headers: { authorization: `Bearer ${key.key}` }, payload: {} })
  t.equal(refused.statusCode, 401, 'a project key, even with a body the route would refuse')
  t.equal(refused.json().code, 'unauthorized')
  t.match(refused.json().message, /service token/)
  t.equal((await app.inject({ url: '/public', headers: { authorization: `Bearer ${key.key}` } })).statusCode, 200, 'routes outside its scope keep taking project keys')
})

t.test('no service token configured: a bearer that looks like one is just an invalid key', async (t) => {
  const databaseUrl = await testDatabase(t)
  const app = await bareApp(t, databaseUrl, 'search', 200)
  const shop = await createProject(app.pg, 'Shop')
  const res = await app.inject({ url: '/whoami', headers: { authorization: `Bearer st_${'k'.repeat(40)}`, 'x-project-id': shop.id } })
  t.equal(res.statusCode, 401)
})

t.test('a short service token is refused at start-up', async (t) => {
  const databaseUrl = await testDatabase(t)
  await t.rejects(bareApp(t, databaseUrl, 'search', 200, 'too-short'), /at least 32 characters/)
})

t.test('failed authentications are throttled per client address', async (t) => {
  const databaseUrl = await testDatabase(t)
  const app = await bareApp(t, databaseUrl, 'chat', 200, undefined, 5)
  const shop = await createProject(app.pg, 'Shop')
  const key = await createKey(app.pg, shop.id, 'chat', 'alice')
  const from = (address: string, authorization: string) => app.inject({ url: '/whoami', headers: { authorization, 'x-forwarded-for': address } })
  const wrong = `Bearer csk_chat_${'Z'.repeat(40)}`

  for (let i = 0; i < 5; i++) t.equal((await from('203.0.113.7', wrong)).statusCode, 401, `failure ${i + 1} is a 401`)
  const blocked = await from('203.0.113.7', wrong)
  t.equal(blocked.statusCode, 429, 'past the limit the address is refused')
  t.same(blocked.json(), {
    statusCode: 429, error: 'Too Many Requests', code: 'authentication_throttled', message: blocked.json().message
  }, 'with the documented body')
  t.match(blocked.headers['retry-after'], /^\d+$/, 'and Retry-After')
  t.ok(Number(blocked.headers['retry-after']) >= 1 && Number(blocked.headers['retry-after']) <= 60, 'within the minute')
  t.equal((await from('203.0.113.7', `Bearer ${key.key}`)).statusCode, 429, 'even a valid key from that address waits: guessing gains nothing')
  t.equal((await from('198.51.100.9', `Bearer ${key.key}`)).statusCode, 200, 'another address is served')
  t.equal((await from('198.51.100.9', wrong)).statusCode, 401, 'and has its own count')
  t.equal((await app.inject({ url: '/whoami', headers: { authorization: `Bearer ${key.key}` } })).statusCode, 200, 'successes are never counted')
})

t.test('with Redis, failures on one replica count on every replica', async (t) => {
  const databaseUrl = await testDatabase(t)
  const redis = await startRedis(t)
  const one = await bareApp(t, databaseUrl, 'search', 200, undefined, 4, redis.url)
  const two = await bareApp(t, databaseUrl, 'search', 200, undefined, 4, redis.url)
  const from = (app: typeof one) => app.inject({ url: '/whoami', headers: { authorization: 'Bearer nope', 'x-forwarded-for': '192.0.2.1' } })
  for (const app of [one, two, one, two]) t.equal((await from(app)).statusCode, 401)
  const blocked = await from(one)
  t.equal(blocked.statusCode, 429, 'the fifth try is refused, though each replica saw only two')
  t.equal(blocked.json().code, 'authentication_throttled')
  t.equal((await from(two)).statusCode, 429, 'on both replicas')
})

t.test('a throttle of 0 never refuses', async (t) => {
  const databaseUrl = await testDatabase(t)
  const app = await bareApp(t, databaseUrl, 'chat', 200, undefined, 0)
  for (let i = 0; i < 40; i++) {
    const res = await app.inject({ url: '/whoami', headers: { authorization: 'Bearer nope' } })
    if (res.statusCode !== 401) return t.fail(`attempt ${i + 1} answered ${res.statusCode}`)
  }
  t.pass('40 failures, 40 401s')
})
