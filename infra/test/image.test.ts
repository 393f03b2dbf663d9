import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { chmod, chown, mkdtemp, readFile, rm } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { freePort, testDatabase } from '@chatsearch/shell/testing'
import { findTool } from './support/tools.js'

// What infra/Dockerfile does, minus Docker: `pnpm deploy --prod --legacy` of one service, trimmed by
// infra/trim-deploy.sh, then started as the image starts it (as an unprivileged user when the test
// runs as root). A service that imports a dev dependency, or needs a file the trim removes, fails here.

const root = fileURLToPath(new URL('../../', import.meta.url))
const run = promisify(execFile)
const NOBODY = 65534

/** pnpm as the test was started by it (`pnpm test`), or from PATH. */
function pnpmCommand (): string[] | undefined {
  const execPath = process.env.npm_execpath
  if (execPath !== undefined && /pnpm/.test(execPath)) return [process.execPath, execPath]
  const onPath = findTool('pnpm')
  return onPath === undefined ? undefined : [onPath]
}

const pnpm = pnpmCommand()
const ports = { chat: 'CHAT_PORT', search: 'SEARCH_PORT' } as const

t.test('each image\'s application runs on its production dependencies alone', { skip: pnpm === undefined ? 'pnpm not found' : false }, async (t) => {
  const databaseUrl = await testDatabase(t)
  const asRoot = process.getuid?.() === 0

  for (const service of ['chat', 'search'] as const) {
    t.test(service, async (t) => {
      const out = await mkdtemp(join(tmpdir(), `chatsearch-image-${service}-`))
      t.teardown(() => rm(out, { recursive: true, force: true }))
      const [command, ...args] = pnpm!
      await run(command!, [...args, '--filter', `@chatsearch/${service}`, 'deploy', '--prod', '--legacy', '--offline', out], { cwd: root, timeout: 180_000 })
      await run('sh', [join(root, 'infra/trim-deploy.sh'), out], { timeout: 30_000 })

      t.ok(existsSync(join(out, 'src/server.ts')), 'the service\'s sources')
      t.ok(existsSync(join(out, 'node_modules/tsx')), 'tsx, which runs them')
      t.notOk(existsSync(join(out, 'test')), 'no tests')
      const manifest = JSON.parse(await readFile(join(root, `services/${service}/package.json`), 'utf8')) as { devDependencies: Record<string, string> }
      for (const dev of Object.keys(manifest.devDependencies)) t.notOk(existsSync(join(out, 'node_modules', dev)), `no dev dependency ${dev}`)

      const dataDir = await mkdtemp(join(tmpdir(), `chatsearch-image-data-${service}-`))
      t.teardown(() => rm(dataDir, { recursive: true, force: true }))
      if (asRoot) {
        await chmod(out, 0o755)
        await chown(dataDir, NOBODY, NOBODY)
      }
      const port = await freePort()
      const env = { PATH: process.env.PATH, SERVICE: service, DATABASE_URL: databaseUrl, HOST: '127.0.0.1', [ports[service]]: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' }
      // Through env(1) without NODE_OPTIONS: tap instruments the node processes a test starts, and its
      // hook would write into this checkout's .tap folder, which the unprivileged user cannot.
      const server = spawn('env', ['-u', 'NODE_OPTIONS', process.execPath, '--import', 'tsx', 'src/server.ts'], {
        cwd: out, env, stdio: ['ignore', 'ignore', 'pipe'], ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {})
      })
      let stderr = ''
      server.stderr!.setEncoding('utf8').on('data', (chunk: string) => { stderr = (stderr + chunk).slice(-4000) })
      const exited = once(server, 'exit')
      t.teardown(() => { if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL') })

      // The image's probe, as compose runs it.
      const probe = async () => await run(process.execPath, [join(root, 'infra/healthcheck.mjs'), '/readyz'], { env, timeout: 10_000 }).then(() => true, () => false)
      let ready = false
      for (const deadline = Date.now() + 90_000; !ready && Date.now() < deadline && server.exitCode === null;) {
        ready = await probe()
        if (!ready) await sleep(500)
      }
      t.ok(ready, `ready${asRoot ? ' as an unprivileged user' : ''}${ready ? '' : `: ${stderr}`}`)

      server.kill('SIGTERM')
      const [code] = await Promise.race([exited, sleep(15_000).then(() => ['timeout'])])
      t.equal(code, 0, `a graceful stop on SIGTERM${code === 0 ? '' : `: ${stderr}`}`)
    })
  }
})
