import { Type } from 'typebox'
import pg from 'pg'
import type { Redis } from 'ioredis'
import { authMigrations, getProject, publishRevocation } from '@chatsearch/auth'
import { closeRedis, commonEnv, connectRedis, createPool, loadConfig, migrate, RedisCacheStore, resolveDatabase } from '@chatsearch/shell'
import { SEARCH_CACHE_PREFIX } from '@chatsearch/search/tools'
import { CommandError } from './errors.js'

export const CliEnvSchema = Type.Object({
  DATABASE_URL: commonEnv.DATABASE_URL,
  DATA_DIR: commonEnv.DATA_DIR,
  PG_PORT: commonEnv.PG_PORT,
  REDIS_URL: commonEnv.REDIS_URL
})

/**
 * Runs `work` against the same data the services use: `DATABASE_URL`, or the embedded cluster
 * under `DATA_DIR` (joined when the services run, started for the command otherwise).
 */
export async function withDatabase<T> (env: NodeJS.ProcessEnv, work: (db: pg.Pool) => Promise<T>, poolSize = 2): Promise<T> {
  const config = loadConfig(CliEnvSchema, env)
  const database = await resolveDatabase(config)
  const pool = createPool(database.url, poolSize)
  try {
    await migrate(pool, 'auth', authMigrations)
    return await work(pool)
  } finally {
    await pool.end()
    await database.stop()
  }
}

export async function requireProject (db: pg.Pool, projectId: string): Promise<void> {
  if (await getProject(db, projectId) === undefined) throw new CommandError(`no project ${projectId}`)
}

/** requireProject, for a command that needs the database for nothing else. */
export const ensureProject = (env: NodeJS.ProcessEnv, projectId: string) => withDatabase(env, (db) => requireProject(db, projectId))

/**
 * Tells the services a key was revoked. Without REDIS_URL, `revokeKey`'s PostgreSQL NOTIFY already
 * did; with it, the services listen on Redis and are told there. False when Redis cannot be reached:
 * the services' cache time then bounds the delay.
 */
export async function announceRevocation (env: NodeJS.ProcessEnv, keyId: string): Promise<boolean> {
  return await withRedis(env, async (redis) => { await publishRevocation(redis, keyId) })
}

/**
 * Makes the search services' cached responses of a project stale after the CLI changed its
 * catalog. With REDIS_URL the version they read is bumped; without it the running service's own
 * cache cannot be reached from here, and its entries end with SEARCH_CACHE_TTL_S.
 */
export async function bumpSearchCache (env: NodeJS.ProcessEnv, projectId: string): Promise<boolean> {
  return await withRedis(env, async (redis) => { await new RedisCacheStore(redis, SEARCH_CACHE_PREFIX).bump(projectId) })
}

/** Runs `work` on REDIS_URL when set (true without it); false when Redis cannot be reached. */
async function withRedis (env: NodeJS.ProcessEnv, work: (redis: Redis) => Promise<void>): Promise<boolean> {
  const config = loadConfig(CliEnvSchema, env)
  if (config.REDIS_URL === undefined) return true
  try {
    const redis = await connectRedis(config.REDIS_URL, { name: 'chatsearch-cli', connectTimeoutMs: 3000 })
    try {
      await work(redis)
    } finally {
      await closeRedis(redis)
    }
    return true
  } catch {
    return false
  }
}
