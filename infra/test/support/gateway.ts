import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { chmod, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { freePort } from '@chatsearch/testkit'
import { tool } from './tools.js'

export const templateFile = fileURLToPath(new URL('../../gateway/nginx.conf', import.meta.url))

/** The template's variables: what compose sets (and NGINX_ENVSUBST_FILTER=^GATEWAY_ lets through). */
export interface GatewayVariables extends GatewayLimits {
  GATEWAY_LISTEN: string
  GATEWAY_CHAT_UPSTREAM: string
  GATEWAY_SEARCH_UPSTREAM: string
  GATEWAY_CONSOLE_UPSTREAM: string
}

/** Per client address: requests per second, the burst over it, connections at once. */
export interface GatewayLimits {
  GATEWAY_RATE_LIMIT: string
  GATEWAY_RATE_BURST: string
  GATEWAY_CONN_LIMIT: string
}

/** docker-compose.yml's defaults (compose.test.ts checks they are the same). */
export const composeLimits: GatewayLimits = { GATEWAY_RATE_LIMIT: '50', GATEWAY_RATE_BURST: '100', GATEWAY_CONN_LIMIT: '200' }

/** The template rendered as the nginx image renders it: envsubst, restricted to these variables. */
export async function renderTemplate (values: GatewayVariables): Promise<string> {
  const shellFormat = Object.keys(values).map((name) => '${' + name + '}').join(' ')
  const result = spawnSync(tool('envsubst'), [shellFormat], {
    input: await readFile(templateFile, 'utf8'),
    env: { ...values },
    encoding: 'utf8'
  })
  if (result.status !== 0) throw new Error(`envsubst failed: ${result.stderr}`)
  return result.stdout
}

export interface Gateway {
  url: string
  /** The lines of nginx's JSON access log, as written so far. */
  accessLog: () => Promise<string[]>
  /** What nginx wrote to its error log (stderr). */
  errors: string[]
}

interface Teardown { teardown: (fn: () => unknown) => void }

/**
 * Debian's nginx on a free loopback port, running infra/gateway/nginx.conf rendered for these
 * upstreams (no console unless given) and limits (compose's unless given), with its pid and temporary files in a directory of its own. Stopped at teardown.
 */
/** Where no console listens (port 9, discard): the gateway answers 503 for the console's paths. */
export const NO_CONSOLE = '127.0.0.1:9'

export async function startGateway (t: Teardown, upstreams: { chat: string, search: string, console?: string }, limits: GatewayLimits = composeLimits): Promise<Gateway> {
  const prefix = await mkdtemp(join(tmpdir(), 'chatsearch-gateway-'))
  let stop = async () => {}
  t.teardown(async () => {
    await stop()
    await rm(prefix, { recursive: true, force: true })
  })
  // Started as root, nginx runs its workers as an unprivileged user: they must reach the temp folders.
  await chmod(prefix, 0o755)
  const port = await freePort()
  const config = join(prefix, 'nginx.conf')
  await writeFile(config, await renderTemplate({
    GATEWAY_LISTEN: `127.0.0.1:${port}`,
    GATEWAY_CHAT_UPSTREAM: upstreams.chat,
    GATEWAY_SEARCH_UPSTREAM: upstreams.search,
    GATEWAY_CONSOLE_UPSTREAM: upstreams.console ?? NO_CONSOLE,
    ...limits
  }))
  const args = ['-p', prefix, '-c', config, '-g', 'daemon off;']
  // The config logs to /dev/stdout, which nginx opens by name: that works for a file or a pipe (as in a
  // container), not for the socket Node would give a child, so stdout is a file in the prefix.
  const accessLogFile = join(prefix, 'access.log')
  const accessLog = await open(accessLogFile, 'a')
  const check = spawnSync(tool('nginx'), ['-t', '-q', ...args], { encoding: 'utf8', stdio: ['ignore', accessLog.fd, 'pipe'] })
  if (check.status !== 0) throw new Error(`nginx rejects the rendered config: ${check.stderr}`)

  // Its own process group (the master and its workers): a forced stop kills them all, where killing the
  // master alone would leave workers holding the port. Also forced if this process exits (a tap timeout)
  // before the teardown ran.
  const nginx = spawn(tool('nginx'), args, { stdio: ['ignore', accessLog.fd, 'pipe'], detached: true })
  await accessLog.close()
  const kill = () => { try { process.kill(-nginx.pid!, 'SIGKILL') } catch {} }
  process.once('exit', kill)
  const errors: string[] = []
  let partial = ''
  nginx.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n')
    partial = lines.pop() ?? ''
    errors.push(...lines)
  })
  stop = async () => {
    process.off('exit', kill)
    if (nginx.exitCode !== null || nginx.signalCode !== null) return
    const exited = once(nginx, 'exit')
    // SIGTERM: nginx's fast shutdown, the master exits once its workers have.
    nginx.kill('SIGTERM')
    const timer = setTimeout(kill, 5000)
    await exited
    clearTimeout(timer)
  }

  const url = `http://127.0.0.1:${port}`
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited (${nginx.exitCode}): ${errors.join('\n')}`)
    const up = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false)
    if (up) return { url, errors, accessLog: async () => (await readFile(accessLogFile, 'utf8')).split('\n').filter((l) => l !== '') }
    await sleep(50)
  }
  throw new Error(`nginx did not answer within 10 s: ${errors.join('\n')}`)
}
