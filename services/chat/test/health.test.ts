import t from 'tap'
import pg from 'pg'
import { harness } from './helpers.js'

/** Runs `fn` connected to the cluster's maintenance database, as the test's database owner. */
async function asAdmin<T> (databaseUrl: string, fn: (client: pg.Client, name: string) => Promise<T>): Promise<T> {
  const url = new URL(databaseUrl)
  const name = decodeURIComponent(url.pathname.slice(1))
  url.pathname = '/postgres'
  const client = new pg.Client({ connectionString: url.toString() })
  await client.connect()
  try {
    return await fn(client, name)
  } finally {
    await client.end()
  }
}

t.test('readyz follows the database; healthz only the process', async (t) => {
  const h = await harness(t)
  const app = await h.app()

  t.same((await app.inject('/healthz')).json(), { status: 'ok', service: 'chat' })
  const ready = await app.inject('/readyz')
  t.equal(ready.statusCode, 200)
  t.same(ready.json(), { status: 'ready', service: 'chat', checks: { database: 'ok' } })

  // The database stops taking connections and the open ones are cut, as in a failover.
  await asAdmin(h.databaseUrl, async (admin, name) => {
    await admin.query(`ALTER DATABASE ${admin.escapeIdentifier(name)} ALLOW_CONNECTIONS false`)
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name])
  })
  t.teardown(() => asAdmin(h.databaseUrl, (admin, name) => admin.query(`ALTER DATABASE ${admin.escapeIdentifier(name)} ALLOW_CONNECTIONS true`)))

  const down = await app.inject('/readyz')
  t.equal(down.statusCode, 503)
  t.match(down.json(), { statusCode: 503, code: 'not_ready', status: 'not_ready', checks: { database: 'failed' } })
  t.notMatch(down.body, /accepting connections|terminat/i, 'the cause is logged, not returned')
  t.equal((await app.inject('/healthz')).statusCode, 200, 'the process itself is fine: no restart needed')

  await asAdmin(h.databaseUrl, (admin, name) => admin.query(`ALTER DATABASE ${admin.escapeIdentifier(name)} ALLOW_CONNECTIONS true`))
  const back = await app.inject('/readyz')
  t.equal(back.statusCode, 200, 'ready again once the database is back, without a restart')
})
