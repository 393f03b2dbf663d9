import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import type pg from 'pg'
import { createPool } from '@chatsearch/shell'
import { freePort, testDatabase } from '@chatsearch/testkit'
import { buildApp } from '../src/app.js'
import type { ConsoleConfig } from '../src/config.js'
import { createUser } from '../src/store/users.js'
import { addMember } from '../src/store/memberships.js'
import { createProject } from '@chatsearch/auth'

interface TestLike { teardown: (fn: () => unknown) => void }

/** The secret shared by the console and the chat and search apps of these tests. */
export const TOKEN = 'console-test-service-token-' + 'x'.repeat(32)
export const PASSWORD = 'correct horse battery staple'

export interface Harness {
  databaseUrl: string
  db: pg.Pool
  app: (overrides?: Partial<ConsoleConfig>) => Promise<FastifyInstance>
  /** A console user with PASSWORD. */
  user: (username: string) => Promise<void>
  /** A project, created outside the console, with members by username and role. */
  project: (name: string, members: Record<string, 'owner' | 'member'>) => Promise<string>
}

/** A fresh database, and console apps on it whose chat and search services are down unless given. */
export async function harness (t: TestLike): Promise<Harness> {
  const databaseUrl = await testDatabase(t)
  const db = createPool(databaseUrl, 4)
  t.teardown(() => db.end())
  const down = `http://127.0.0.1:${await freePort()}`
  const build = async (overrides: Partial<ConsoleConfig> = {}) => {
    const app = await buildApp({
      databaseUrl,
      logLevel: 'silent',
      dbPoolSize: 4,
      chatUrl: down,
      searchUrl: down,
      serviceToken: TOKEN,
      sessionTtlMs: 3_600_000,
      signInFailures: 5,
      upstreamTimeoutMs: 10_000,
      ...overrides
    })
    t.teardown(() => app.close())
    return app
  }
  await build()
  return {
    databaseUrl,
    db,
    app: build,
    user: async (username) => { await createUser(db, username, PASSWORD) },
    project: async (name, members) => {
      const project = await createProject(db, name)
      for (const [username, role] of Object.entries(members)) await addMember(db, project.id, username, role)
      return project.id
    }
  }
}

/** A signed-in browser: its cookie and CSRF token sent with every request. */
export interface Browser {
  cookie: string
  csrf: string
  request: (opts: InjectOptions) => Promise<LightMyRequestResponse>
}

export async function signIn (app: FastifyInstance, username: string, password = PASSWORD): Promise<Browser> {
  const res = await app.inject({ method: 'POST', url: '/api/session', payload: { username, password } })
  if (res.statusCode !== 200) throw new Error(`sign-in of ${username} answered ${res.statusCode}: ${res.body}`)
  const cookie = res.cookies.find((c) => c.name === 'console_session')!
  const csrf = (res.json() as { csrf_token: string }).csrf_token
  const header = `console_session=${cookie.value}`
  return {
    cookie: header,
    csrf,
    request: (opts) => app.inject({ ...opts, headers: { cookie: header, 'x-csrf-token': csrf, ...opts.headers } })
  }
}
