import type { FastifyInstance, InjectOptions } from 'fastify'
import type pg from 'pg'
import { createPool } from '@chatsearch/shell'
import { testDatabase } from '@chatsearch/testkit'
import { createKey, createProject } from '@chatsearch/auth'
import { buildApp, type ChatParts } from '../src/app.js'
import type { ChatConfig } from '../src/config.js'
import { promisedActions } from '../src/assistant/promises.js'

interface TestLike {
  teardown: (fn: () => unknown) => void
}

export interface Tenant { projectId: string, key: string, keyId: string }

export interface Harness {
  databaseUrl: string
  /** A pool of the test's own, for setting up data and looking at what the service stored. */
  db: pg.Pool
  tenant: (name?: string) => Promise<Tenant>
  app: (overrides?: Partial<ChatConfig>, parts?: ChatParts) => Promise<FastifyInstance>
}

/** A fresh database for the test file and a way to build fresh apps on it. */
export async function harness (t: TestLike): Promise<Harness> {
  const databaseUrl = await testDatabase(t)
  const db = createPool(databaseUrl, 4)
  t.teardown(() => db.end())
  const build = async (overrides: Partial<ChatConfig> = {}, parts: ChatParts = {}) => {
    const app = await buildApp({
      databaseUrl, logLevel: 'silent', dbPoolSize: 10, authCacheTtlMs: 5000, historyTurns: 6, ...overrides
    }, parts)
    t.teardown(() => app.close())
    return app
  }
  // Migrations run when an app is built: one is built before creating tenants, and closed. Left
  // running, its background work (a webhook delivery worker with the default settings, which refuse
  // loopback addresses and retry after 30 s) took deliveries meant for the test's own app.
  await (await buildApp({ databaseUrl, logLevel: 'silent', dbPoolSize: 2, authCacheTtlMs: 5000, historyTurns: 6 })).close()
  return {
    databaseUrl,
    db,
    app: build,
    tenant: async (name = 'shop') => {
      const project = await createProject(db, name)
      const created = await createKey(db, project.id, 'chat', 'tester')
      return { projectId: project.id, key: created.key, keyId: created.id }
    }
  }
}

/**
 * A request to the app. Every reply of the assistant that passes here, in every suite, is checked
 * against the promise phrases (spec/knowledge.md: no reply promises an action nothing takes): one
 * that promises fails the test that produced it.
 */
export async function call (app: FastifyInstance, key: string | undefined, opts: InjectOptions) {
  const response = await app.inject({ ...opts, headers: { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...opts.headers } })
  if (String(opts.url).startsWith('/newUserMessage') && response.statusCode === 200 && /json/.test(String(response.headers['content-type']))) {
    const reply = (response.json() as { assistant_response?: unknown }).assistant_response
    const promised = typeof reply === 'string' ? promisedActions(reply) : []
    if (promised.length > 0) throw new Error(`the assistant promised an action nothing takes ("${promised.join('", "')}") in: ${String(reply)}`)
  }
  return response
}

export const post = (app: FastifyInstance, key: string | undefined, url: string, payload: unknown) =>
  call(app, key, { method: 'POST', url, payload: payload as InjectOptions['payload'] })

export const get = (app: FastifyInstance, key: string | undefined, url: string, query: Record<string, string> = {}) =>
  call(app, key, { method: 'GET', url, query })
