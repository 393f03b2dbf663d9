import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { apiVersion } from '@chatsearch/contracts'
import { buildOnServiceBase, type CredentialCheck, type ServiceBaseOptions } from '../src/service-base.js'
import type { ServiceConfig } from '../src/config.js'
import { testDatabase } from '@chatsearch/testkit'

const databaseUrl = await testDatabase(t)
const config: ServiceConfig = { databaseUrl, logLevel: 'silent', dbPoolSize: 2, authCacheTtlMs: 1234 }
const openApi = { title: 'Test API', description: 'A service on the base' }

/** A folder with one numbered migration. */
async function migrationDir (sql: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-migrations-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await writeFile(join(dir, '001_tables.sql'), sql)
  return dir
}

/** Every request is one caller; what the base hands the check is kept in `given`. */
function oneCaller (given: ServiceConfig[]): CredentialCheck {
  return { register: async (_app, config) => { given.push(config) }, identify: () => 'caller' }
}

async function build (opts: Omit<ServiceBaseOptions, 'config' | 'openApi'>) {
  const app = await buildOnServiceBase({ config, openApi, ...opts }, async (app) => {
    app.get('/hello', { schema: { summary: 'A route of the service', security: [] }, config: { rateLimit: 'search' } }, async () => ({ hello: 'world' }))
  })
  t.teardown(() => app.close())
  return app
}

t.test('migrations run in the order given, before the service\'s own routes, which the OpenAPI document lists', async (t) => {
  const projects = await migrationDir('CREATE TABLE base_projects (id text PRIMARY KEY)')
  // Refers to the first scope's table: in the other order it would fail.
  const members = await migrationDir('CREATE TABLE base_members (project text NOT NULL REFERENCES base_projects (id))')
  const app = await build({ service: 'test', migrations: { projects, members } })
  const { rows } = await app.pg.query<{ scope: string }>('SELECT scope FROM schema_migrations ORDER BY applied_at, scope')
  t.same(rows.map((r) => r.scope), ['projects', 'members'])
  t.equal((await app.inject('/hello')).statusCode, 200)
  const document = (await app.inject('/openapi.json')).json()
  t.equal(document.info.version, apiVersion, 'the API\'s version')
  t.ok(document.paths['/hello'], 'the service\'s route is documented')
  t.ok(document.paths['/readyz'], 'and the health routes')
})

t.test('/readyz asks the database, then the service\'s own checks', async (t) => {
  const app = await build({ service: 'test', migrations: {}, checks: (app) => ({ engine: async () => { if (!app.hasDecorator('pg')) throw new Error('no pool') } }) })
  const ready = await app.inject('/readyz')
  t.equal(ready.statusCode, 200)
  t.same(Object.keys(ready.json().checks), ['database', 'engine'])
})

t.test('with credentials, requests are counted per credential against the rate limits; without, nothing is', async (t) => {
  const given: ServiceConfig[] = []
  const limited = await build({ service: 'test', migrations: {}, credentials: { check: oneCaller(given), rateLimits: { search: 1 } } })
  t.equal(given[0]?.authCacheTtlMs, 1234, 'the check is given the config')
  t.equal((await limited.inject('/hello')).statusCode, 200)
  t.equal((await limited.inject('/hello')).statusCode, 429, 'the second request of the minute')
  t.ok(limited.hasDecorator('idempotency'), 'Idempotency-Key is kept per credential')

  const open = await build({ service: 'test', migrations: {} })
  t.equal((await open.inject('/hello')).statusCode, 200)
  t.equal((await open.inject('/hello')).statusCode, 200, 'no rate limit without credentials')
  t.notOk(open.hasDecorator('idempotency'))
})
