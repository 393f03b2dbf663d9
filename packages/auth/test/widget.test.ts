import t from 'tap'
import Fastify from 'fastify'
import { databasePlugin, installErrorHandler, migrate, redisPlugin } from '@chatsearch/shell'
import { testDatabase } from '@chatsearch/testkit'
import {
  authMigrations, authPlugin, checkOrigins, createKey, createProject, credentialOf, generateKey, identityHmac, keyHint, keyService, listKeys,
  revokeKey, rotateIdentitySecret, signConsumerToken, verifyConsumerToken, widgetOriginKnown, widgetSecrets
} from '../src/index.js'

t.test('widget keys are csk_pub_ keys of the widget service', async (t) => {
  const key = generateKey('widget')
  t.match(key, /^csk_pub_[0-9A-Za-z]{40}$/)
  t.equal(keyService(key), 'widget')
  t.equal(keyService(`csk_widget_${'a'.repeat(40)}`), undefined, 'the prefix is pub, not the service name')
  t.equal(keyHint(key), `csk_pub_…${key.slice(-4)}`)
})

t.test('origins are exact browser origins', async (t) => {
  t.same(checkOrigins(['https://shop.example', ' http://localhost:8080 ', 'https://shop.example']), ['https://shop.example', 'http://localhost:8080'], 'trimmed, duplicates dropped')
  for (const bad of ['shop.example', 'https://shop.example/', 'https://shop.example/cart', 'HTTPS://Shop.example', 'https://shop.example:443', 'ftp://shop.example', 'https://a@shop.example', 'null', '*', 'https://shop.example?x=1']) {
    t.throws(() => checkOrigins([bad]), { name: 'InvalidOriginsError' }, JSON.stringify(bad))
  }
  t.throws(() => checkOrigins([]), /at least one/)
  t.throws(() => checkOrigins(Array.from({ length: 21 }, (_, i) => `https://s${i}.example`)), /at most 20/)
  t.match(t.throws(() => checkOrigins(['https://shop.example/'])), { message: /did you mean https:\/\/shop\.example\?/ })
})

t.test('consumer tokens: what one project signs, only it verifies, and any change breaks it', async (t) => {
  const secret = Buffer.alloc(32, 1)
  const token = signConsumerToken(secret, 'wc_abc')
  t.match(token, /^v1\.[\w-]+\.[\w-]{43}$/)
  t.equal(verifyConsumerToken(secret, token), 'wc_abc')
  t.equal(verifyConsumerToken(Buffer.alloc(32, 2), token), undefined, 'another project\'s secret')
  const [v, payload, mac] = token.split('.') as [string, string, string]
  const forged = `${v}.${Buffer.from('wc_other').toString('base64url')}.${mac}`
  t.equal(verifyConsumerToken(secret, forged), undefined, 'another consumer with the old signature')
  t.equal(verifyConsumerToken(secret, `${v}.${payload}.${mac.slice(0, -2)}AA`), undefined, 'a changed signature')
  t.equal(verifyConsumerToken(secret, `v2.${payload}.${mac}`), undefined, 'another version')
  t.equal(verifyConsumerToken(secret, 'garbage'), undefined)
})

t.test('the auth plugin with widget keys', async (t) => {
  const databaseUrl = await testDatabase(t)
  const app = Fastify()
  installErrorHandler(app)
  await app.register(databasePlugin, { databaseUrl })
  await migrate(app.pg, 'auth', authMigrations)
  await app.register(redisPlugin, { url: undefined, name: 'test' })
  await app.register(authPlugin, { service: 'chat', cacheTtlMs: 100, redis: app.redis, lastUsedFlushMs: 50 })
  await app.register(async (api) => {
    api.addHook('onRequest', api.authenticate)
    api.get('/widget', { config: { widgetKey: true } }, async (request) => ({ ...request.principal, credential: credentialOf(request) }))
    api.get('/server', async (request) => request.principal)
  })
  t.teardown(() => app.close())
  const shop = await createProject(app.pg, 'Shop')
  const other = await createProject(app.pg, 'Other')
  const widget = await createKey(app.pg, shop.id, 'widget', 'alice', ['https://shop.example', 'http://localhost:8080'])
  const theirs = await createKey(app.pg, other.id, 'widget', 'bob', ['https://shop.example'])
  const chat = await createKey(app.pg, shop.id, 'chat', 'alice')
  const call = (url: string, key: string, headers: Record<string, string> = {}) =>
    app.inject({ url, headers: { authorization: `Bearer ${key}`, ...headers } })
  const fromShop = { origin: 'https://shop.example' }

  t.test('created with its origins, listed with them; other keys have none and take none', async (t) => {
    t.same(widget.origins, ['https://shop.example', 'http://localhost:8080'])
    const listed = (await listKeys(app.pg, shop.id)).map((k) => [k.service, k.origins])
    t.same(listed, [['widget', ['https://shop.example', 'http://localhost:8080']], ['chat', []]])
    await t.rejects(createKey(app.pg, shop.id, 'chat', 'alice', ['https://shop.example']), /only widget keys/)
    await t.rejects(createKey(app.pg, shop.id, 'widget', 'alice'), /at least one allowed origin/)
    await t.rejects(createKey(app.pg, shop.id, 'widget', 'alice', ['https://shop.example/']), { name: 'InvalidOriginsError' })
  })

  t.test('on a route that takes it, from an allowed origin, a new consumer with its token', async (t) => {
    const res = await call('/widget', widget.key, fromShop)
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.match(body, { projectId: shop.id, keyId: widget.id, service: 'widget', origins: widget.origins })
    t.match(body.consumerId, /^wc_[0-9A-Za-z]{24}$/)
    t.equal(body.credential, `${shop.id}:${widget.id}:${body.consumerId}`, 'counted and replayed per consumer')
    const again = await call('/widget', widget.key, { ...fromShop, 'x-consumer-token': body.consumerToken })
    t.equal(again.json().consumerId, body.consumerId, 'the token names the same consumer')
    t.not((await call('/widget', widget.key, fromShop)).json().consumerId, body.consumerId, 'no token: another consumer')
    const localhost = await call('/widget', widget.key, { origin: 'http://localhost:8080' })
    t.equal(localhost.statusCode, 200, 'any of its origins')
  })

  t.test('another or no Origin is 403 origin_not_allowed', async (t) => {
    for (const [name, headers] of [
      ['no Origin', {}],
      ['another origin', { origin: 'https://evil.example' }],
      ['a path-like variant', { origin: 'https://shop.example.evil.example' }],
      ['http instead of https', { origin: 'http://shop.example' }],
      ['null', { origin: 'null' }]
    ] as const) {
      const res = await call('/widget', widget.key, headers)
      t.equal(res.statusCode, 403, name)
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'], name)
      t.equal(res.json().code, 'origin_not_allowed', name)
    }
  })

  t.test('a request refused for its origin or its consumer does not count as the key\'s last use', async (t) => {
    const fresh = await createKey(app.pg, shop.id, 'widget', 'alice', ['https://shop.example'])
    const lastUsedAt = async () => (await listKeys(app.pg, shop.id)).find((k) => k.id === fresh.id)?.last_used_at
    t.equal((await call('/widget', fresh.key, { origin: 'https://evil.example' })).statusCode, 403)
    t.equal((await call('/widget', fresh.key, { ...fromShop, 'x-consumer-token': 'hello' })).statusCode, 401)
    await new Promise((resolve) => setTimeout(resolve, 300))
    t.equal(await lastUsedAt(), null, 'never used: both requests were refused')
    t.equal((await call('/widget', fresh.key, fromShop)).statusCode, 200)
    const deadline = Date.now() + 5000
    while (await lastUsedAt() === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    t.not(await lastUsedAt(), null, 'an accepted request is its last use')
  })

  t.test('anywhere else it is refused exactly like an unknown key', async (t) => {
    const unknown = await call('/server', `csk_chat_${'Z'.repeat(40)}`)
    const refused = await call('/server', widget.key, fromShop)
    t.equal(refused.statusCode, 401)
    t.same(refused.json(), unknown.json())
    const unknownWidget = await call('/widget', `csk_pub_${'Z'.repeat(40)}`, fromShop)
    t.same(unknownWidget.json(), unknown.json(), 'an unknown widget key on its route too')
    t.equal((await call('/widget', chat.key)).statusCode, 200, 'an API key still works on a widget route, with no Origin')
  })

  t.test('a token altered, or of another project, is 401 invalid_consumer_token', async (t) => {
    const token = (await call('/widget', widget.key, fromShop)).json().consumerToken as string
    const [v, , mac] = token.split('.')
    const forged = `${v}.${Buffer.from('wc_someone_else').toString('base64url')}.${mac}`
    const theirToken = (await call('/widget', theirs.key, fromShop)).json().consumerToken as string
    const cases: Array<[string, string]> = [['another consumer under the same signature', forged], ['another project\'s token', theirToken], ['not a token', 'hello']]
    for (const [name, bad] of cases) {
      const res = await call('/widget', widget.key, { ...fromShop, 'x-consumer-token': bad })
      t.equal(res.statusCode, 401, name)
      t.equal(res.json().code, 'invalid_consumer_token', name)
    }
  })

  t.test('identity verification: the shop\'s HMAC of its customer id makes that customer the consumer', async (t) => {
    const { identitySecret } = await widgetSecrets(app.pg, shop.id)
    const hmac = identityHmac(identitySecret, 'customer-42')
    const res = await call('/widget', widget.key, { ...fromShop, 'x-consumer-id': 'customer-42', 'x-consumer-hmac': hmac })
    t.equal(res.statusCode, 200)
    t.equal(res.json().consumerId, 'customer-42')
    const withToken = await call('/widget', widget.key, { ...fromShop, 'x-consumer-id': 'customer-42', 'x-consumer-hmac': hmac.toUpperCase(), 'x-consumer-token': signConsumerToken(Buffer.alloc(32), 'x') })
    t.equal(withToken.json().consumerId, 'customer-42', 'a verified customer wins over a token')
    for (const [name, headers] of [
      ['another customer\'s id', { 'x-consumer-id': 'customer-43', 'x-consumer-hmac': hmac }],
      ['an HMAC under another secret', { 'x-consumer-id': 'customer-42', 'x-consumer-hmac': identityHmac('wrong', 'customer-42') }],
      ['the id alone', { 'x-consumer-id': 'customer-42' }],
      ['the HMAC alone', { 'x-consumer-hmac': hmac }],
      ['not hex', { 'x-consumer-id': 'customer-42', 'x-consumer-hmac': 'z'.repeat(64) }]
    ] as const) {
      const refused = await call('/widget', widget.key, { ...fromShop, ...headers })
      t.equal(refused.statusCode, 403, name)
      t.equal(refused.json().code, 'invalid_consumer_hmac', name)
    }
    const rotated = await rotateIdentitySecret(app.pg, shop.id)
    t.not(rotated, identitySecret)
    await new Promise((resolve) => setTimeout(resolve, 150))
    t.equal((await call('/widget', widget.key, { ...fromShop, 'x-consumer-id': 'customer-42', 'x-consumer-hmac': hmac })).statusCode, 403, 'the old secret no longer signs')
    t.equal((await call('/widget', widget.key, { ...fromShop, 'x-consumer-id': 'customer-42', 'x-consumer-hmac': identityHmac(rotated, 'customer-42') })).statusCode, 200, 'the new one does')
  })

  t.test('a preflight is answered for the origins of live widget keys', async (t) => {
    t.equal(await widgetOriginKnown(app.pg, 'https://shop.example'), true)
    t.equal(await widgetOriginKnown(app.pg, 'https://evil.example'), false)
    const temp = await createKey(app.pg, other.id, 'widget', 'bob', ['https://temp.example'])
    t.equal(await widgetOriginKnown(app.pg, 'https://temp.example'), true)
    await revokeKey(app.pg, temp.id)
    t.equal(await widgetOriginKnown(app.pg, 'https://temp.example'), false, 'a revoked key\'s origins no longer')
  })

  t.test('a revoked widget key is refused as an unknown one', async (t) => {
    const temp = await createKey(app.pg, shop.id, 'widget', 'temp', ['https://shop.example'])
    t.equal((await call('/widget', temp.key, fromShop)).statusCode, 200)
    await revokeKey(app.pg, temp.id)
    await new Promise((resolve) => setTimeout(resolve, 250))
    const res = await call('/widget', temp.key, fromShop)
    t.equal(res.statusCode, 401)
    t.equal(res.json().code, 'unauthorized')
  })

  t.test('the secrets are made once per project, whoever asks first', async (t) => {
    // Racing first uses: a loser's statement waits on the winner's row, which its snapshot then lacks.
    // Twenty projects, so that the race is run often enough to be lost.
    for (let i = 0; i < 20; i++) {
      const fresh = await createProject(app.pg, `Fresh ${i}`)
      const all = await Promise.all(Array.from({ length: 5 }, () => widgetSecrets(app.pg, fresh.id)))
      t.equal(new Set(all.map((s) => s.identitySecret)).size, 1, `project ${i}: one identity secret`)
      t.equal(new Set(all.map((s) => s.tokenSecret.toString('hex'))).size, 1, `project ${i}: one token secret`)
      t.not(all[0]!.identitySecret, (await widgetSecrets(app.pg, shop.id)).identitySecret, 'each project its own')
    }
  })
})
