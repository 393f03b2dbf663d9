import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { createPool } from '@chatsearch/shell'
import { testDatabase } from '@chatsearch/shell/testing'
import { createKey, createProject } from '@chatsearch/auth'
import { buildApp } from '../src/app.js'
import type { SearchConfig } from '../src/config.js'

interface TestLike { teardown: (fn: () => unknown) => void }

export interface SearchHarness {
  app: FastifyInstance
  /** Another app on the same database and data directory, as a restart with other settings. */
  restart: (extra: Partial<SearchConfig>) => Promise<FastifyInstance>
  /** Another app on the same database and data directory, running beside the first: a replica. */
  replica: (extra?: Partial<SearchConfig>) => Promise<FastifyInstance>
  db: pg.Pool
  tenant: (name?: string) => Promise<{ projectId: string, key: string }>
  catalog: () => Promise<Array<Record<string, unknown>>>
}

/** A search app on a fresh PostgreSQL database and a fresh data directory for its SQLite indexes. */
export async function searchHarness (t: TestLike, embeddings = true, extra: Partial<SearchConfig> = {}): Promise<SearchHarness> {
  const databaseUrl = await testDatabase(t)
  const dataDir = extra.dataDir ?? await mkdtemp(join(tmpdir(), 'chatsearch-search-'))
  t.teardown(() => rm(dataDir, { recursive: true, force: true }))
  const logLevel = (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent'
  // One reader thread: searches in tests go through the pool as in production.
  const config: SearchConfig = { databaseUrl, dataDir, embeddings, readers: 1, logLevel, dbPoolSize: 4, authCacheTtlMs: 5000, ...extra }
  const app = await buildApp(config)
  t.teardown(() => app.close())
  const restart = async (changes: Partial<SearchConfig>) => {
    await app.close()
    const next = await buildApp({ ...config, ...changes })
    t.teardown(() => next.close())
    return next
  }
  const replica = async (changes: Partial<SearchConfig> = {}) => {
    const next = await buildApp({ ...config, ...changes })
    t.teardown(() => next.close())
    return next
  }
  const db = createPool(databaseUrl, 2)
  t.teardown(() => db.end())
  return {
    app,
    restart,
    replica,
    db,
    tenant: async (name = 'shop') => {
      const project = await createProject(db, name)
      return { projectId: project.id, key: (await createKey(db, project.id, 'search', 'tester')).key }
    },
    catalog: async () => JSON.parse(await readFile(new URL('./fixtures/mini-catalog.json', import.meta.url), 'utf8'))
  }
}

export function send (app: FastifyInstance, key: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method, url, headers: { authorization: `Bearer ${key}`, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) })
}

export const ids = (body: { hits: Array<{ id: string }> }) => body.hits.map((h) => h.id)
