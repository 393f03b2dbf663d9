import t, { type Test } from 'tap'
import Fastify from 'fastify'
import { Redis } from 'ioredis'
import type { FastifyBaseLogger } from 'fastify'
import { createPool, databasePlugin, installErrorHandler, migrate, redisPlugin } from '@chatsearch/shell'
import { startRedis, testDatabase } from '@chatsearch/testkit'
import { authMigrations, authPlugin, createKey, createProject, publishRevocation, revokeKey } from '../src/index.js'
import { listenThroughPostgres, REVOCATION_NOTIFY } from '../src/revocation.js'

/**
 * A replica: the auth plugin on a bare app, its cache trusting a key for the longest time allowed
 * (5 s), so only the revocation feed can explain a revoked key failing sooner.
 */
async function replica (t: Test, databaseUrl: string, redisUrl?: string) {
  const app = Fastify()
  installErrorHandler(app)
  await app.register(databasePlugin, { databaseUrl })
  await migrate(app.pg, 'auth', authMigrations)
  await app.register(redisPlugin, { url: redisUrl, name: 'test' })
  await app.register(authPlugin, { service: 'chat', cacheTtlMs: 5000, redis: app.redis })
  await app.register(async (api) => {
    api.addHook('onRequest', api.authenticate)
    api.get('/whoami', async (request) => request.principal)
  })
  t.teardown(() => app.close())
  return app
}

const status = async (app: Awaited<ReturnType<typeof replica>>, key: string) =>
  (await app.inject({ url: '/whoami', headers: { authorization: `Bearer ${key}` } })).statusCode

/** Milliseconds until every replica refuses the key (polled every 10 ms, at most 3 s). */
async function untilRefusedEverywhere (apps: Array<Awaited<ReturnType<typeof replica>>>, key: string, since: number) {
  while (performance.now() - since < 3000) {
    const statuses = await Promise.all(apps.map((app) => status(app, key)))
    if (statuses.every((s) => s === 401)) return performance.now() - since
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return Number.POSITIVE_INFINITY
}

t.test('with Redis: a revocation reaches every replica within a second', async (t) => {
  const databaseUrl = await testDatabase(t)
  const redis = await startRedis(t)
  const replicas = [await replica(t, databaseUrl, redis.url), await replica(t, databaseUrl, redis.url)]
  const project = await createProject(replicas[0]!.pg, 'Shop')
  const key = await createKey(replicas[0]!.pg, project.id, 'chat', 'alice')
  t.same(await Promise.all(replicas.map((app) => status(app, key.key))), [200, 200], 'both replicas cached the key')

  // Revoked without revokeKey's NOTIFY, so only the Redis message can tell the replicas.
  const admin = new Redis(redis.url)
  t.teardown(() => admin.disconnect())
  const since = performance.now()
  await replicas[0]!.pg.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.id])
  t.equal(await publishRevocation(admin, key.id), 2, 'both replicas are subscribed')
  const ms = await untilRefusedEverywhere(replicas, key.key, since)
  t.ok(ms < 1000, `refused everywhere after ${Math.round(ms)} ms`)
  t.equal(replicas[0]!.revocationFeed.revocations, 1)

  t.test('a feed that was down empties the cache when it is back', async (t) => {
    const other = await createKey(replicas[0]!.pg, project.id, 'chat', 'bob')
    t.equal(await status(replicas[0]!, other.key), 200)
    await redis.restart()
    // Revoked while the feed is down: no message can arrive.
    await replicas[0]!.pg.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [other.id])
    const since = performance.now()
    const ms = await untilRefusedEverywhere([replicas[0]!], other.key, since)
    t.ok(ms < 3000, `refused after ${Math.round(ms)} ms, when the feed came back`)
    t.ok(replicas[0]!.revocationFeed.gaps >= 1)
  })
})

t.test('without Redis: PostgreSQL NOTIFY carries the revocation, from any process', async (t) => {
  const databaseUrl = await testDatabase(t)
  const replicas = [await replica(t, databaseUrl), await replica(t, databaseUrl)]
  const project = await createProject(replicas[0]!.pg, 'Shop')
  const key = await createKey(replicas[0]!.pg, project.id, 'chat', 'alice')
  t.same(await Promise.all(replicas.map((app) => status(app, key.key))), [200, 200])
  // A connection of its own, as the CLI in another process would have.
  const cli = Fastify()
  await cli.register(databasePlugin, { databaseUrl })
  t.teardown(() => cli.close())
  const since = performance.now()
  t.equal(await revokeKey(cli.pg, key.id), true)
  const ms = await untilRefusedEverywhere(replicas, key.key, since)
  t.ok(ms < 1000, `refused everywhere after ${Math.round(ms)} ms`)
})

t.test('without Redis: a lost PostgreSQL feed reconnects and says so, unless the process stops meanwhile', async (t) => {
  const databaseUrl = await testDatabase(t)
  // createPool, as the services do: an idle client can hear the database's shutdown at teardown
  // before its own end is through, and a pool without an 'error' listener would throw it.
  const pool = createPool(databaseUrl, 2)
  t.teardown(() => pool.end())
  const listening = async () => (await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()', [`LISTEN ${REVOCATION_NOTIFY}`])).rows.map((r) => r.pid)
  const listen = async (graceMs: number) => {
    const said: string[] = []
    const record = (msg: unknown, text?: string) => { said.push(typeof msg === 'string' ? msg : text ?? '') }
    const log = { warn: record, info: record, error: record, debug: record } as unknown as FastifyBaseLogger
    const heard = { revoked: [] as string[], gaps: 0 }
    const stop = await listenThroughPostgres(pool, { revoked: (id) => heard.revoked.push(id), gap: () => { heard.gaps++ } }, log, graceMs)
    return { said, heard, stop }
  }
  const settle = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms))
  const until = async (ok: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 300 && !await ok(); i++) await settle(10)
  }

  const kept = await listen(200)
  t.teardown(kept.stop)
  await until(async () => (await listening()).length === 1)
  const [first] = await listening()
  await pool.query('SELECT pg_terminate_backend($1)', [first])
  await until(() => kept.heard.gaps > 0)
  t.match(kept.said, [/revocation feed lost; reconnecting/, /revocation feed back/], 'an outage is told, then the way back')
  t.equal(kept.heard.gaps, 1, 'what was missed meanwhile empties the cache')
  await pool.query(`NOTIFY ${REVOCATION_NOTIFY}, 'key-1'`)
  await until(() => kept.heard.revoked.length > 0)
  t.same(kept.heard.revoked, ['key-1'], 'the new connection hears revocations')
  await kept.stop()

  const stopping = await listen(200)
  await until(async () => (await listening()).length === 1)
  await pool.query('SELECT pg_terminate_backend($1)', await listening())
  // Stopped after the connection is gone, as when the database stops first.
  await until(async () => (await listening()).length === 0)
  await settle(20)
  await stopping.stop()
  await settle(400)
  t.same(stopping.said, [], 'lost as the process stops (Ctrl-C reached the embedded PostgreSQL first): nothing to warn about')
  t.equal(stopping.heard.gaps, 0)
  t.same(await listening(), [], 'and no connection opened again')
})
