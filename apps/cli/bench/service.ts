// The whole service as `pnpm start` runs it (apps/cli/src/start.ts: chat, search and console in one
// process, embedded PostgreSQL, demo project and catalog), in a child process on free ports.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { freePort } from '@chatsearch/testkit'

const cliDir = fileURLToPath(new URL('..', import.meta.url))
/** Per credential and minute: high enough that the load never meets a limit, which stays in force. */
const RATE_LIMIT = '1000000'
const BANNER_END = 'Press Ctrl-C to stop.'
/**
 * Asks for a heap snapshot (`--heapsnapshot-signal`). Not SIGUSR2, as Node's documentation has it:
 * close-with-grace, which stops the service gracefully, takes SIGUSR2 as a request to stop (nodemon's
 * restart signal). SIGWINCH is ignored by default and used by nothing in a process without a terminal.
 */
const SNAPSHOT_SIGNAL = 'SIGWINCH'
/** Service log lines (warnings and errors) echoed; the others are only counted. */
const LOG_LINES_SHOWN = 20

export interface Service {
  pid: number
  chatUrl: string
  searchUrl: string
  consoleUrl: string
  chatKey: string
  searchKey: string
  metricsToken: string
  /** Lines the service logged after its start (LOG_LEVEL=warn: warnings and errors). */
  logLines: () => number
  stop: () => Promise<void>
}

export interface ServiceOptions {
  dataDir: string
  /** Where `--heapsnapshot-signal` snapshots go; none are possible without it. */
  heapDir?: string
  /**
   * Where `--cpu-prof` writes a CPU profile of each thread (main, reader, writer, embedder) when the
   * service exits; none without it. Sampling every thread slows the service by about a third.
   */
  cpuDir?: string
  log: (line: string) => void
  /** Called with the process once it is spawned, so that the caller can stop it whatever happens next. */
  started: (stop: () => Promise<void>) => void
  /** Called when the service exits once it is ready, other than by `stop`. */
  exited: (how: string) => void
}

async function stopChild (child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  process.kill(child.pid, 'SIGTERM')
  // The service drains its three apps and stops PostgreSQL: give it its grace periods and more.
  const timer = setTimeout(() => { if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL') }, 60_000)
  await exited
  clearTimeout(timer)
}

export async function startService (opts: ServiceOptions): Promise<Service> {
  const ports = { CHAT_PORT: await freePort(), SEARCH_PORT: await freePort(), CONSOLE_PORT: await freePort(), PG_PORT: await freePort() }
  const metricsToken = randomBytes(18).toString('base64url')
  const env = {
    ...process.env,
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
    DATA_DIR: opts.dataDir,
    HOST: '127.0.0.1',
    DEMO: 'true',
    METRICS_TOKEN: metricsToken,
    LOG_LEVEL: 'warn',
    // Embedded defaults, whatever the shell says: a fresh PostgreSQL, this process's own services.
    DATABASE_URL: '',
    SEARCH_URL: '',
    CHAT_URL: '',
    RATE_LIMIT_CHAT_WRITE: RATE_LIMIT,
    RATE_LIMIT_CHAT_READ: RATE_LIMIT,
    RATE_LIMIT_SEARCH: RATE_LIMIT,
    RATE_LIMIT_CATALOG: RATE_LIMIT
  }
  const heapFlags = opts.heapDir === undefined ? [] : [`--heapsnapshot-signal=${SNAPSHOT_SIGNAL}`, `--diagnostic-dir=${opts.heapDir}`]
  const cpuFlags = opts.cpuDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${opts.cpuDir}`]
  // Its own process group: a Ctrl-C in the terminal reaches the benchmark alone, which stops the
  // service with one SIGTERM (a second signal would end it before PostgreSQL is stopped).
  const child = spawn(process.execPath, [...heapFlags, ...cpuFlags, '--import', import.meta.resolve('tsx'), 'src/start.ts'], {
    cwd: cliDir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true
  })
  let stopping = false
  const stop = () => { stopping = true; return stopChild(child) }
  opts.started(stop)

  let logLines = 0
  let banner = ''
  let ready = false
  const lines = (stream: NodeJS.ReadableStream, onLine: (line: string) => void) => {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n')
      rest = parts.pop()!
      for (const line of parts) onLine(line)
    })
  }
  const serviceLine = (line: string) => {
    if (line.trim() === '') return
    if (++logLines <= LOG_LINES_SHOWN) opts.log(`service: ${line.slice(0, 500)}`)
    else if (logLines === LOG_LINES_SHOWN + 1) opts.log('service: (further lines are counted, not shown)')
  }
  const bannerSeen = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not print its banner within 10 min:\n${banner}`)), 600_000)
    lines(child.stdout, (line) => {
      if (ready) { serviceLine(line); return }
      banner += line + '\n'
      if (line.includes(BANNER_END)) {
        ready = true
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`the service exited (${signal ?? code}) before it was ready:\n${banner}`))
    })
  })
  // Before the banner: the start's progress (PostgreSQL, the demo import), worth showing as it comes.
  lines(child.stderr, (line) => { if (ready) serviceLine(line); else if (line.trim() !== '') opts.log(`service: ${line}`) })
  await bannerSeen
  child.once('exit', (code, signal) => { if (!stopping) opts.exited(signal ?? `exit code ${code}`) })

  const credentials = JSON.parse(await readFile(join(opts.dataDir, 'demo-credentials.json'), 'utf8')) as { chatKey: string, searchKey: string }
  return {
    pid: child.pid!,
    chatUrl: `http://127.0.0.1:${ports.CHAT_PORT}`,
    searchUrl: `http://127.0.0.1:${ports.SEARCH_PORT}`,
    consoleUrl: `http://127.0.0.1:${ports.CONSOLE_PORT}`,
    chatKey: credentials.chatKey,
    searchKey: credentials.searchKey,
    metricsToken,
    logLines: () => logLines,
    stop
  }
}

/**
 * Asks the service for a heap snapshot (see `heapDir`) and resolves with its file once
 * written. V8 writes it on the service's main thread, which answers no request meanwhile: once the
 * file exists, the next answer of `/healthz` means it is complete.
 */
export async function heapSnapshot (service: Service, heapDir: string): Promise<string> {
  const before = new Set(await readdir(heapDir))
  const deadline = Date.now() + 300_000
  process.kill(service.pid, SNAPSHOT_SIGNAL)
  for (;;) {
    const file = (await readdir(heapDir)).find((f) => f.endsWith('.heapsnapshot') && !before.has(f))
    if (file !== undefined) {
      const res = await fetch(`${service.chatUrl}/healthz`, { signal: AbortSignal.timeout(Math.max(1000, deadline - Date.now())) })
      await res.arrayBuffer()
      return join(heapDir, file)
    }
    if (Date.now() > deadline) throw new Error(`no heap snapshot within 5 min of ${SNAPSHOT_SIGNAL}`)
    await sleep(200)
  }
}
