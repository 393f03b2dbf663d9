import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type pg from 'pg'

/** Any fixed number: replicas starting together take turns applying migrations. */
const MIGRATION_LOCK = 7_431_902

/**
 * Applies the numbered SQL files of `dir` (`001_name.sql`, …) not yet applied for `scope`,
 * each in its own transaction, under an advisory lock.
 */
export async function migrate (pool: pg.Pool, scope: string, dir: string): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => /^\d+_.+\.sql$/.test(f)).sort()
  const client = await pool.connect()
  const applied: string[] = []
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      scope text NOT NULL, version integer NOT NULL, name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (scope, version))`)
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations WHERE scope = $1', [scope])
    const done = new Set(rows.map((r) => r.version))
    for (const file of files) {
      const version = Number.parseInt(file, 10)
      if (done.has(version)) continue
      const sql = await readFile(join(dir, file), 'utf8')
      await client.query('BEGIN')
      try {
        await client.query(sql)
        await client.query('INSERT INTO schema_migrations (scope, version, name) VALUES ($1, $2, $3)', [scope, version, file])
        await client.query('COMMIT')
      } catch (err) {
        await client.query('ROLLBACK')
        throw new Error(`migration ${scope}/${file} failed: ${(err as Error).message}`, { cause: err })
      }
      applied.push(`${scope}/${file}`)
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {})
    client.release()
  }
  return applied
}
