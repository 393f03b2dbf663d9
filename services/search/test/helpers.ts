import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { Meilisearch } from 'meilisearch'
import { createPool } from '@chatsearch/shell'
import { testDatabase } from '@chatsearch/testkit'
import { createKey, createProject } from '@chatsearch/auth'
import { buildApp } from '../src/app.js'
import type { SearchConfig } from '../src/config.js'
import type { Test } from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Task } from '@chatsearch/contracts'

interface TestLike { teardown: (fn: () => unknown) => void }

export type EngineKind = 'embedded' | 'meilisearch'

/**
 * The engines the contract tests (the API's behaviour) run against: the embedded engine always,
 * Meilisearch as well when MEILI_URL names a server (MEILI_API_KEY its key). Tests about the SQLite
 * engine itself (reader threads, vector codes, files on disk) build it directly and say so.
 */
export const ENGINES: EngineKind[] = process.env.MEILI_URL === undefined || process.env.MEILI_URL === '' ? ['embedded'] : ['embedded', 'meilisearch']

/** Index names of this test process start with this; each harness adds a number. */
const RUN_PREFIX = `test-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}-`
let harnesses = 0

/** Deletes the Meilisearch indexes whose names start with `prefix`, and waits until they are gone. */
async function dropIndexes (client: Meilisearch, prefix: string) {
  const { results } = await client.getIndexes({ limit: 1000 })
  for (const index of results.filter((i) => i.uid.startsWith(prefix))) await client.deleteIndex(index.uid).waitTask({ timeout: 60_000 })
}

/** The Meilisearch options of a harness: indexes of its own, deleted when the test ends. */
function meilisearchFor (t: TestLike, closeApps: () => Promise<void>): SearchConfig['meilisearch'] {
  const url = process.env.MEILI_URL!
  const apiKey = process.env.MEILI_API_KEY
  const indexPrefix = `${RUN_PREFIX}${++harnesses}-`
  t.teardown(async () => {
    // The apps first: closing flushes analytics, which writes to the suggestions index.
    await closeApps()
    await dropIndexes(new Meilisearch({ host: url, ...(apiKey === undefined ? {} : { apiKey }) }), indexPrefix)
  })
  return { url, ...(apiKey === undefined ? {} : { apiKey }), indexPrefix, taskTimeoutMs: 60_000 }
}

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

/**
 * A search app on a fresh PostgreSQL database and, for `engine`, a fresh data directory for its
 * SQLite indexes or indexes of its own on the Meilisearch server of MEILI_URL.
 */
export async function searchHarness (t: TestLike, embeddings = true, extra: Partial<SearchConfig> = {}, engine: EngineKind = 'embedded'): Promise<SearchHarness> {
  const databaseUrl = await testDatabase(t)
  const dataDir = extra.dataDir ?? await mkdtemp(join(tmpdir(), 'chatsearch-search-'))
  t.teardown(() => rm(dataDir, { recursive: true, force: true }))
  const logLevel = (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent'
  const apps: FastifyInstance[] = []
  const closeApps = async () => { for (const a of apps) await a.close() }
  // One reader thread: searches in tests go through the pool as in production.
  const config: SearchConfig = {
    databaseUrl,
    dataDir,
    embeddings,
    readers: 1,
    logLevel,
    dbPoolSize: 4,
    authCacheTtlMs: 5000,
    ...(engine === 'meilisearch' ? { meilisearch: meilisearchFor(t, closeApps) } : {}),
    ...extra
  }
  const app = await buildApp(config)
  apps.push(app)
  t.teardown(() => app.close())
  const restart = async (changes: Partial<SearchConfig>) => {
    await app.close()
    const next = await buildApp({ ...config, ...changes })
    apps.push(next)
    t.teardown(() => next.close())
    return next
  }
  const replica = async (changes: Partial<SearchConfig> = {}) => {
    const next = await buildApp({ ...config, ...changes })
    apps.push(next)
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

/** A search app (see searchHarness) holding the test catalog, and a search that must answer 200. */
export async function withCatalog (t: Test, engine: EngineKind = 'embedded', embeddings = true, extra: Partial<SearchConfig> = {}) {
  const h = await searchHarness(t, embeddings, extra, engine)
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'POST', '/documents', await h.catalog())).statusCode, 200)
  const search = async (body: Record<string, unknown>) => {
    const res = await send(h.app, shop.key, 'POST', '/search', body)
    t.equal(res.statusCode, 200, JSON.stringify(body))
    return res.json()
  }
  return { h, shop, search }
}

/** Resolves once `check` answers something other than undefined; fails the test after `ms`. */
export async function until<T> (what: string, check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

export const getTask = async (app: FastifyInstance, key: string, id: string): Promise<Task> => {
  const res = await send(app, key, 'GET', `/tasks/${id}`)
  if (res.statusCode !== 200) throw new Error(`GET /tasks/${id}: ${res.statusCode} ${res.body}`)
  return res.json()
}

/** The task once its status is one of `statuses`. */
export const taskIn = (app: FastifyInstance, key: string, id: string, statuses: Array<Task['status']>, ms?: number) =>
  until(`task ${id} to be ${statuses.join(' or ')}`, async () => {
    const task = await getTask(app, key, id)
    return statuses.includes(task.status) ? task : undefined
  }, ms)
