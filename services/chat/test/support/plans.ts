import type pg from 'pg'

/** A statement as the store sends it. */
export interface Statement { text: string, values: unknown[] }

/**
 * The statements a store function sends, without running them: it gets a stand-in for the pool
 * that records each query and answers no rows.
 */
export async function statementsOf (run: (db: pg.Pool) => Promise<unknown>): Promise<Statement[]> {
  const sent: Statement[] = []
  const recorder = {
    query: async (query: Statement) => {
      sent.push({ text: query.text, values: query.values })
      return { rows: [], rowCount: 0 }
    }
  }
  await run(recorder as unknown as pg.Pool)
  return sent
}

interface PlanNode {
  'Relation Name'?: string
  'Actual Rows'?: number
  'Actual Loops'?: number
  'Rows Removed by Filter'?: number
  'Rows Removed by Index Recheck'?: number
  Plans?: PlanNode[]
}

/**
 * How many rows of `table` the statement read when run (EXPLAIN ANALYZE, with its values, planned
 * for them as an unnamed statement is): the rows its scans of the table returned plus those they
 * read and filtered out, over every loop. A plan that reads a table's whole history shows here as
 * the table's size, one that reads an index range as the range's rows. EXPLAIN gives the rows
 * filtered out per loop rounded to a whole number, so over many loops the sum can be off by a few
 * percent either way.
 */
export async function rowsRead (db: pg.Pool, statement: Statement, table: string): Promise<number> {
  const { rows } = await db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values)
  const read = (node: PlanNode): number => {
    const own = node['Relation Name'] === table
      ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * (node['Actual Loops'] ?? 1)
      : 0
    return own + (node.Plans ?? []).reduce((sum, child) => sum + read(child), 0)
  }
  return Math.round(read(rows[0]!['QUERY PLAN'][0]!.Plan))
}
