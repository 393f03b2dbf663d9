import type pg from 'pg'
import Cursor from 'pg-cursor'

export interface RowBatches<R> {
  /** The first batch, already read: a failing query fails here, before any response is sent. */
  first: R[]
  /** True when the first batch is the whole result. */
  complete: boolean
  /** The batches after the first, read from the same snapshot. */
  rest: () => AsyncGenerator<R[]>
  /**
   * Gives the connection back to the pool. Idempotent; `rest` calls it when it ends, and the caller
   * must call it too when it stops early (a client that disconnects mid-stream).
   */
  release: () => Promise<void>
}

/** Rows per batch of a streamed result, unless a caller says otherwise. */
export const ROWS_PER_BATCH = 1000

/** A named query, as node-postgres takes it. */
export interface NamedQuery { name: string, text: string, values: unknown[], types?: pg.CustomTypesConfig }

/** A result already read whole: one batch, no connection held. */
export function wholeResult<R> (rows: R[]): RowBatches<R> {
  return { first: rows, complete: true, rest: async function * () {}, release: async () => {} }
}

/**
 * Reads a query's rows a batch at a time so memory stays flat however many rows match. Most
 * results fit in one batch: those take one plain query and hold no connection; only a larger result
 * is streamed through a cursor.
 */
export async function readInBatches<R extends pg.QueryResultRow> (pool: pg.Pool, query: NamedQuery, batchSize = ROWS_PER_BATCH): Promise<RowBatches<R>> {
  const probe = await pool.query<R>({ ...query, name: `${query.name}-first`, text: `${query.text} LIMIT ${batchSize + 1}` })
  if (probe.rows.length <= batchSize) return wholeResult(probe.rows)
  return await streamRows<R>(pool, query, batchSize)
}

/**
 * A query's rows through a cursor, a batch at a time, on a connection held until the last batch
 * is read or `release` is called: for a result already known to be larger than one batch.
 */
export async function streamRows<R extends pg.QueryResultRow> (pool: pg.Pool, query: NamedQuery, batchSize = ROWS_PER_BATCH): Promise<RowBatches<R>> {
  const client = await pool.connect()
  const cursor = client.query(new Cursor<R>(query.text, query.values, query.types === undefined ? {} : { types: query.types }))
  let released = false
  const release = async () => {
    if (released) return
    released = true
    await cursor.close().catch(() => {})
    client.release()
  }
  let first: R[]
  try {
    first = await cursor.read(batchSize)
  } catch (err) {
    await release()
    throw err
  }
  async function * rest () {
    try {
      for (;;) {
        const rows = await cursor.read(batchSize)
        if (rows.length === 0) return
        yield rows
      }
    } finally {
      await release()
    }
  }
  return { first, complete: false, rest, release }
}
