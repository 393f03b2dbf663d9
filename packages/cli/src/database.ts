import { Type } from 'typebox'
import pg from 'pg'
import { authMigrations } from '@chatsearch/auth'
import { commonEnv, createPool, loadConfig, migrate, resolveDatabase } from '@chatsearch/shell'

export const CliEnvSchema = Type.Object({
  DATABASE_URL: commonEnv.DATABASE_URL,
  DATA_DIR: commonEnv.DATA_DIR,
  PG_PORT: commonEnv.PG_PORT
})

/**
 * Runs `work` against the same data the services use: `DATABASE_URL`, or the embedded cluster
 * under `DATA_DIR` (joined when the services run, started for the command otherwise).
 */
export async function withDatabase<T> (env: NodeJS.ProcessEnv, work: (db: pg.Pool) => Promise<T>): Promise<T> {
  const config = loadConfig(CliEnvSchema, env)
  const database = await resolveDatabase(config)
  const pool = createPool(database.url, 2)
  try {
    await migrate(pool, 'auth', authMigrations)
    return await work(pool)
  } finally {
    await pool.end()
    await database.stop()
  }
}
