import type pg from 'pg'
import Cursor from 'pg-cursor'

export interface RowBatches<R> {
  /** The first batch, already read: a failing query fails here, before any response is sent. */
  first: R[]
  /** The batches after the first; the connection returns to the pool when it ends or is abandoned. */
  rest: () => AsyncGenerator<R[]>
}

/** Reads a query's rows a batch at a time so memory stays flat however many rows match. */
export async function readInBatches<R extends pg.QueryResultRow> (pool: pg.Pool, query: { text: string, values: unknown[] }, batchSize = 1000): Promise<RowBatches<R>> {
  const client = await pool.connect()
  const cursor = client.query(new Cursor<R>(query.text, query.values))
  const release = async () => {
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
      if (first.length < batchSize) return
      for (;;) {
        const rows = await cursor.read(batchSize)
        if (rows.length === 0) return
        yield rows
      }
    } finally {
      await release()
    }
  }
  return { first, rest }
}
