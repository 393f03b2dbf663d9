import { stat } from 'node:fs/promises'
import t from 'tap'
import { createPool, databasePlugin } from '../src/database.js'
import { jsonForDatabase } from '../src/json-body.js'
import { buildService } from '../src/server.js'
import { metricSample as sample, testDatabase } from '@chatsearch/testkit'

const databaseUrl = await testDatabase(t)

t.test('the embedded cluster is reached over its Unix socket, in a directory any user may enter', { skip: process.env.DATABASE_URL ? 'DATABASE_URL is a server of its own' : false }, async (t) => {
  const socketDir = new URL(databaseUrl).searchParams.get('host')
  t.match(socketDir, /\/postgres-socket$/, 'the URL names the socket directory')
  t.equal((await stat(socketDir!)).mode & 0o777, 0o755)
  const pool = createPool(databaseUrl, 1)
  t.teardown(() => pool.end())
  const { rows } = await pool.query<{ address: string | null }>('SELECT inet_server_addr() AS address')
  t.equal(rows[0]!.address, null, 'no TCP address: the connection is the socket')
})

t.test('a checked-out client whose connection dies does not crash the process', async (t) => {
  const pool = createPool(databaseUrl, 2)
  t.teardown(() => pool.end())
  const client = await pool.connect()
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
  // the server ends the connection under the client while a handler holds it (a transaction, say)
  await pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid])
  await new Promise((resolve) => setTimeout(resolve, 300))
  await t.rejects(client.query('SELECT 1'), 'the holder learns it from its next query')
  client.release(true)
  const again = await pool.query<{ one: number }>('SELECT 1 AS one')
  t.equal(again.rows[0]!.one, 1, 'the pool serves on with a new connection')
})

t.test('GET /metrics: the pool\'s connections in use and idle, and the requests waiting for one', async (t) => {
  const app = await buildService({ name: 'test', logLevel: 'silent' }, async (app) => {
    await app.register(databasePlugin, { databaseUrl, poolSize: 2 })
  })
  t.teardown(() => app.close())
  const scrape = async () => (await app.inject('/metrics')).body

  const first = await app.pg.connect()
  const second = await app.pg.connect()
  const queued = app.pg.query('SELECT 1')
  let text = await scrape()
  t.equal(sample(text, 'db_pool_connections', { service: 'test', state: 'in_use' }), 2, 'both connections held')
  t.equal(sample(text, 'db_pool_connections', { state: 'idle' }), 0)
  t.equal(sample(text, 'db_pool_waiting_requests'), 1, 'a query waits for one')
  t.equal(sample(text, 'db_pool_max_connections'), 2)

  first.release()
  await queued
  second.release()
  text = await scrape()
  t.equal(sample(text, 'db_pool_connections', { state: 'in_use' }), 0, 'values are read at each scrape')
  t.equal(sample(text, 'db_pool_connections', { state: 'idle' }), 2)
  t.equal(sample(text, 'db_pool_waiting_requests'), 0)
})

t.test('jsonForDatabase writes what jsonb refuses from JSON.stringify (a lone surrogate) as U+FFFD, and nothing else changes', async (t) => {
  const pool = createPool(databaseUrl, 1)
  t.teardown(() => pool.end())
  const value = { title: 'Lantern \ud800 camping', pair: 'tent 😀', nested: [{ escaped: 'a\\ud800b' }] }
  await t.rejects(pool.query('SELECT $1::jsonb AS v', [JSON.stringify(value)]), /surrogate|Unicode|invalid input syntax for type json/i, 'what a stored item held before requests refused it')
  const { rows } = await pool.query<{ v: unknown }>('SELECT $1::jsonb AS v', [jsonForDatabase(value)])
  t.same(rows[0]!.v, { title: 'Lantern \ufffd camping', pair: 'tent 😀', nested: [{ escaped: 'a\\ud800b' }] }, 'a pair and a backslash written out stay as they were')
})
