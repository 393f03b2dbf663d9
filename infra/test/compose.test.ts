import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'
import { parse } from 'yaml'
import { composeLimits, templateFile } from './support/gateway.js'
import { skipWithout, tool } from './support/tools.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const composeFile = `${root}docker-compose.yml`
const envExample = `${root}.env.example`
const dockerfile = `${root}infra/Dockerfile`

/** Names compose interpolates: ${NAME}, ${NAME:-default}, ${NAME:?error}; `$$` is a literal dollar. */
function interpolated (text: string): Set<string> {
  const names = [...text.replaceAll('$$', '').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:[:?-][^}]*)?\}/g)].map((m) => m[1]!)
  return new Set(names)
}

function envFileNames (text: string): Set<string> {
  return new Set(text.split('\n').map((line) => /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(line)?.[1]).filter((name) => name !== undefined))
}

interface Service {
  image?: string
  build?: { dockerfile?: string, args?: Record<string, string> }
  environment?: Record<string, string>
  depends_on?: Record<string, { condition: string }>
  healthcheck?: { test?: string[], disable?: boolean }
  stop_grace_period?: string
  ports?: unknown[]
  volumes?: Array<string | { source?: string, target: string, type?: string }>
  profiles?: string[]
}

/** docker-compose 1.x prints `source:target:mode`, 2.x the long form: either way {source, target}. */
function mounts (service: Service) {
  return (service.volumes ?? []).map((v) => {
    if (typeof v !== 'string') return { source: v.source ?? '', target: v.target }
    const [source = '', target = ''] = v.split(':')
    return { source, target }
  })
}

t.test('.env.example defines exactly the variables docker-compose.yml uses', async (t) => {
  const used = interpolated(await readFile(composeFile, 'utf8'))
  const defined = envFileNames(await readFile(envExample, 'utf8'))
  t.same([...used].filter((name) => !defined.has(name)), [], 'every variable compose reads has a line in .env.example')
  t.same([...defined].filter((name) => !used.has(name)), [], 'every line of .env.example is used')
})

const secrets = ['POSTGRES_PASSWORD', 'MEILI_MASTER_KEY', 'SERVICE_TOKEN']

t.test('every variable has a default, or is a secret compose asks for by name', async (t) => {
  // Comments aside: they are not interpolated.
  const text = (await readFile(composeFile, 'utf8')).split('\n').filter((line) => !/^\s*#/.test(line)).join('\n').replaceAll('$$', '')
  const uses = [...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[?-])?([^}]*)\}/g)]
  t.same(uses.filter(([, , operator]) => operator === undefined).map(([use]) => use), [], 'no bare variable: each has a default or a message (compose would use an empty string, with a warning)')
  const required = new Set(uses.filter(([, , operator]) => operator === ':?').map(([, name]) => name))
  t.same([...required].sort(), [...secrets].sort(), 'only the secrets are required')
  for (const [use, name, operator, message] of uses) {
    if (operator === ':?') t.match(message, new RegExp(`^${name} is not set \\(copy \\.env\\.example to \\.env`), `${use.slice(0, 40)}…: names the variable and the fix`)
  }
})

const skip = skipWithout(t, ['docker-compose'], 'apt-get install docker-compose')

/** docker-compose with only these variables: no .env, nothing from this process's environment. */
async function composeWith (envFile: string, variables: Record<string, string>, ...args: string[]) {
  return await promisify(execFile)(tool('docker-compose'), ['--env-file', envFile, '-f', composeFile, ...args], {
    cwd: root, timeout: 60_000, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...variables }
  })
}

t.test('without a .env, compose stops and names the missing secret; the rest has defaults', { skip }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-compose-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const empty = join(dir, 'empty.env')
  await writeFile(empty, '')
  const failure = async (variables: Record<string, string>) => await composeWith(empty, variables, 'config', '-q').then(() => 'valid', (err: { code?: number, stderr?: string }) => `exit ${err.code}: ${err.stderr}`)

  const none = await failure({})
  t.match(none, /^exit 1: .*(POSTGRES_PASSWORD|MEILI_MASTER_KEY|SERVICE_TOKEN) is not set \(copy \.env\.example to \.env and replace its change-me values\)/s, 'nothing set: a clear stop')
  for (const missing of secrets) {
    const others = Object.fromEntries(secrets.filter((name) => name !== missing).map((name) => [name, `${name.toLowerCase()}-0123456789abcdef0123456789abcdef`]))
    t.match(await failure(others), new RegExp(`^exit 1: .*${missing} is not set \\(copy`, 's'), `${missing} missing: named`)
  }

  const given = Object.fromEntries(secrets.map((name) => [name, `${name.toLowerCase()}0123456789abcdef0123456789abcdef`]))
  const quiet = await composeWith(empty, given, 'config', '-q')
  t.equal(quiet.stderr.trim(), '', 'the secrets alone: valid, no warning')
  const config = parse((await composeWith(empty, given, 'config')).stdout) as { services: Record<string, Service> }
  const chat = config.services.chat!.environment!
  t.equal(chat.DATABASE_URL, `postgres://chatsearch:${given.POSTGRES_PASSWORD}@postgres:5432/chatsearch`)
  t.equal(chat.LOG_LEVEL, 'info')
  t.equal(chat.LLM_BASE_URL, '', 'optional settings empty: not set, to the services')
  t.match(JSON.stringify(config.services.gateway!.ports), /8080/, 'the gateway on 8080')
})

t.test('docker-compose.yml validates and wires the services as documented', { skip }, async (t) => {
  const compose = async (...args: string[]) => await composeWith(envExample, {}, ...args)

  const quiet = await compose('config', '-q')
  t.equal(quiet.stderr.trim(), '', 'no warnings (an unset variable would be one)')

  const config = parse((await compose('config')).stdout) as { services: Record<string, Service>, volumes: Record<string, unknown> }
  const s = config.services
  t.same(Object.keys(s).sort(), ['chat', 'cli', 'console', 'gateway', 'meilisearch', 'postgres', 'redis', 'search'])
  t.equal(s.meilisearch!.image, 'getmeili/meilisearch:v1.53.1', 'Meilisearch pinned to the version the adapter targets')
  for (const [name, service] of Object.entries(s)) {
    if (service.image !== undefined && service.build === undefined) t.match(service.image, /:[\w.-]+$/, `${name}: a pinned tag`)
    t.notMatch(service.image ?? '', /:latest$/, `${name}: not latest`)
    if (name !== 'cli') t.ok(service.healthcheck?.test?.length, `${name} has a health check`)
  }

  t.test('start order follows health, not just start', async (t) => {
    const healthy = (service: Service, needs: string[]) => needs.every((n) => service.depends_on?.[n]?.condition === 'service_healthy')
    t.ok(healthy(s.gateway!, ['chat', 'search', 'console']), 'the gateway waits for the services to be ready')
    t.ok(healthy(s.search!, ['postgres', 'meilisearch', 'redis']))
    t.ok(healthy(s.chat!, ['postgres', 'redis']))
    t.notOk(s.chat!.depends_on?.search, 'chat works (uncited) without search')
    t.ok(healthy(s.console!, ['postgres', 'redis']))
    t.notOk(s.console!.depends_on?.chat ?? s.console!.depends_on?.search, 'the console starts without them (its forwards answer 503 meanwhile)')
    for (const [name, service] of Object.entries(s)) {
      for (const [needed, { condition }] of Object.entries(service.depends_on ?? {})) t.equal(condition, 'service_healthy', `${name} waits for ${needed} to be healthy`)
    }
    // docker-compose 1.x prints `disable: true` as the test NONE.
    t.ok(s.cli!.healthcheck?.disable === true || s.cli!.healthcheck?.test?.[0] === 'NONE', 'the CLI is a one-off command: no health check')
    t.ok(healthy(s.cli!, ['postgres', 'meilisearch', 'redis']), 'the CLI tells the services of revocations and imports through Redis')
    for (const name of ['chat', 'search', 'console']) t.match(s[name]!.healthcheck!.test, ['CMD', 'node', String, '/readyz'], `${name} is healthy when ready`)
  })

  t.test('a stop leaves the services their own grace period (SHUTDOWN_GRACE_MS, 10 s) to drain', async (t) => {
    for (const name of ['chat', 'search', 'console']) {
      const seconds = Number(/^(\d+)s$/.exec(s[name]!.stop_grace_period ?? '')?.[1] ?? 10)
      t.ok(seconds > 10, `${name}: ${s[name]!.stop_grace_period ?? 'Docker\'s default 10s'}`)
    }
  })

  t.test('the services get what they need from the others', async (t) => {
    const chat = s.chat!.environment!
    const search = s.search!.environment!
    for (const env of [chat, search]) {
      t.match(env.DATABASE_URL, /^postgres:\/\/[^:]+:[^@]+@postgres:5432\/\w+$/)
      t.equal(env.REDIS_URL, 'redis://redis:6379')
      t.ok(env.SERVICE_TOKEN!.length >= 32, 'a service token the services accept')
    }
    t.equal(chat.SERVICE_TOKEN, search.SERVICE_TOKEN)
    t.equal(chat.SEARCH_URL, 'http://search:3002', 'chat asks search directly, not through the gateway')
    const consoleEnv = s.console!.environment!
    t.same([consoleEnv.CHAT_URL, consoleEnv.SEARCH_URL], ['http://chat:3001', 'http://search:3002'], 'the console asks both directly')
    t.equal(consoleEnv.SERVICE_TOKEN, chat.SERVICE_TOKEN)
    t.equal(consoleEnv.DATABASE_URL, chat.DATABASE_URL, 'one database: the console\'s users refer to the projects')
    t.equal(search.SEARCH_ENGINE, 'meilisearch')
    t.equal(search.MEILI_URL, 'http://meilisearch:7700')
    t.equal(search.MEILI_API_KEY, s.meilisearch!.environment!.MEILI_MASTER_KEY)
    t.equal(s.postgres!.environment!.POSTGRES_PASSWORD, new URL(chat.DATABASE_URL!).password)
  })

  t.test('the gateway runs infra/gateway/nginx.conf as its template, and only it is published', async (t) => {
    const gateway = s.gateway!
    t.ok(mounts(gateway).some((m) => m.source.endsWith('/infra/gateway/nginx.conf') && m.target === '/etc/nginx/templates/nginx.conf.template'))
    t.equal(gateway.environment!.NGINX_ENVSUBST_OUTPUT_DIR, '/etc/nginx', 'rendered as the main nginx.conf')
    const templateVariables = [...(await readFile(templateFile, 'utf8')).matchAll(/\$\{(GATEWAY_[A-Z_]+)\}/g)].map((m) => m[1])
    const given = Object.keys(gateway.environment!).filter((name) => new RegExp(gateway.environment!.NGINX_ENVSUBST_FILTER!).test(name))
    t.same(given.sort(), [...new Set(templateVariables)].sort(), 'the envsubst filter passes exactly the template\'s variables')
    t.same(Object.entries(s).filter(([, service]) => (service.ports ?? []).length > 0).map(([name]) => name), ['gateway'])
    t.match(gateway.environment, composeLimits, 'the limits the gateway test runs nginx with')
  })

  t.test('state lives on named volumes', async (t) => {
    const volume = (service: string, target: string) => mounts(s[service]!).find((m) => m.target === target)?.source
    t.equal(volume('postgres', '/var/lib/postgresql'), 'postgres-data', 'PostgreSQL 18 images keep data below /var/lib/postgresql')
    t.equal(volume('meilisearch', '/meili_data'), 'meili-data')
    t.equal(volume('redis', '/data'), 'redis-data')
    t.equal(volume('search', '/data'), 'search-data', 'the embedded engine\'s DATA_DIR')
    t.match(await readFile(dockerfile, 'utf8'), /DATA_DIR=\/data/, 'the image puts DATA_DIR there')
    t.same(Object.keys(config.volumes).sort(), ['meili-data', 'postgres-data', 'redis-data', 'search-data'])
  })

  t.test('the images are built from infra/Dockerfile, and their probe is where compose calls it', async (t) => {
    const text = await readFile(dockerfile, 'utf8')
    const copied = /COPY infra\/healthcheck\.mjs (\S+)/.exec(text)?.[1]
    t.ok(copied, 'the Dockerfile copies the probe')
    for (const name of ['chat', 'search', 'console', 'cli']) {
      t.equal(s[name]!.build?.dockerfile, 'infra/Dockerfile')
      t.equal(s[name]!.build?.args?.SERVICE, name)
    }
    for (const name of ['chat', 'search', 'console']) t.equal(s[name]!.healthcheck!.test![2], copied)
    // The HEALTHCHECK instruction, continuation lines included.
    const healthcheck = /^HEALTHCHECK(?:.*\\\n)*.*$/m.exec(text)?.[0]
    t.match(healthcheck, `"${copied}", "/healthz"`, 'the image\'s own HEALTHCHECK uses it too')
  })
})
