import fp from 'fastify-plugin'
import pg from 'pg'
import type { Metrics } from './metrics.js'

declare module 'fastify' {
  interface FastifyInstance {
    pg: pg.Pool
  }
}

/** Anything that runs a query: the pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>

export interface DatabaseOptions {
  databaseUrl: string
  poolSize?: number
}

// pg returns timestamptz as Date and bigint (COUNT) as string; counts here stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10))

export function createPool (databaseUrl: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000 })
  // A client losing its connection must not crash the process; the next query reports it. The pool's
  // own listener covers idle clients only: one checked out (a transaction) emits 'error' on itself.
  pool.on('error', () => {})
  pool.on('connect', (client) => { client.on('error', () => {}) })
  return pool
}

/**
 * Runs `work` in a transaction on one client of the pool: all or nothing. A client whose ROLLBACK
 * failed (its connection lost) is not given back to the pool, which would hand it out still inside
 * the transaction: it is closed.
 */
export async function inTransaction<T> (pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    await client.query('BEGIN')
    const result = await work(client)
    await client.query('COMMIT')
    return result
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackFailed: unknown) => { broken = rollbackFailed instanceof Error ? rollbackFailed : new Error('ROLLBACK failed') })
    throw err
  } finally {
    client.release(broken)
  }
}

/** Readiness: the database answers a query (a pool that cannot connect throws or hangs until timed out). */
export async function pingDatabase (pool: pg.Pool): Promise<void> {
  await pool.query('SELECT 1')
}

/** The pool's connections by state, and what waits for one, read when Prometheus scrapes. */
function poolGauges (pool: pg.Pool, metrics: Metrics) {
  metrics.gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL connections of the pool by state (in_use, idle)',
    labelNames: ['state'],
    collect () {
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount)
      this.set({ state: 'idle' }, pool.idleCount)
    }
  })
  metrics.gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries and transactions waiting for a PostgreSQL connection because all are in use',
    collect () { this.set(pool.waitingCount) }
  })
  metrics.gauge({
    name: 'db_pool_max_connections',
    help: 'Most connections the pool opens (DB_POOL_SIZE)',
    // 10 is pg's own default, for a pool made without `max`.
    collect () { this.set(pool.options.max ?? 10) }
  })
}

/**
 * The PostgreSQL pool, shared by every plugin of the app and ended when the app closes; with the
 * app's metrics, its gauges.
 */
export const databasePlugin = fp<DatabaseOptions>(async (app, opts) => {
  const pool = createPool(opts.databaseUrl, opts.poolSize)
  app.decorate('pg', pool)
  if (app.hasDecorator('metrics')) poolGauges(pool, app.metrics)
  app.addHook('onClose', async () => { await pool.end() })
}, { name: '@chatsearch/database', fastify: '5.x' })
