import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { chmod, chown, cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { setTimeout as sleep } from 'node:timers/promises'
import t, { type Test } from 'tap'
import dockerignore from '@balena/dockerignore'
import { parse } from 'yaml'
import { createKey, createProject } from '@chatsearch/auth'
import { createPool } from '@chatsearch/shell'
import { freePort, testDatabase } from '@chatsearch/testkit'
import { findTool } from './support/tools.js'

// What infra/Dockerfile does, minus Docker, on a machine whose pnpm store is empty: the build context
// (this checkout less .dockerignore) in a temporary directory, `pnpm fetch` into a new store and
// metadata cache, then infra/build-app.sh for each image. Each application then starts as its image
// starts it (the Dockerfile's CMD, compose's entrypoint for the CLI), as an unprivileged user when the
// test runs as root, with no tsx or TypeScript anywhere, and answers real requests. A service that
// imports a dev dependency or a source file, or needs a file the build leaves out, fails here.
// The first run compiles better-sqlite3 from source (about a minute); the whole test takes a few.

const root = fileURLToPath(new URL('../../', import.meta.url))
const run = promisify(execFile)
const NOBODY = 65534
const MINUTE = 60_000

/** The pnpm running this test (`pnpm test`), else the one on PATH: a directory to put first on PATH. */
async function pnpmOnPath (t: Teardown): Promise<string | undefined> {
  const execPath = process.env.npm_execpath
  if (execPath === undefined || !/pnpm/.test(execPath)) return findTool('pnpm') === undefined ? undefined : ''
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-pnpm-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await writeFile(join(dir, 'pnpm'), `#!/bin/sh\nexec '${process.execPath}' '${execPath}' "$@"\n`, { mode: 0o755 })
  return dir
}
interface Teardown { teardown: (fn: () => unknown) => void }

/** Copies the checkout as `docker build .` sends it: without what .dockerignore names. */
async function copyContext (to: string, only?: string[]) {
  // A CommonJS module whose types declare an ES default export: the function is `.default` here.
  const ignored = dockerignore.default().add((await readFile(join(root, '.dockerignore'), 'utf8')).split('\n'))
  await cp(root, to, {
    recursive: true,
    filter: (src) => {
      const path = relative(root, src)
      if (path === '') return true
      if (ignored.ignores(path)) return false
      return only === undefined || only.includes(path)
    }
  })
}

/**
 * Runs a build step in its own process group, bounded: past `ms` the whole group (pnpm, node-gyp, the
 * compiler) is killed and the step fails. (pnpm exits 0 on a plain SIGTERM, which would pass a step cut
 * short, and would leave the compiler running.)
 */
async function step (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, ms: number): Promise<void> {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const keep = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-6000) }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL') } catch {} }, ms)
  const [code, signal] = await once(child, 'exit') as [number | null, string | null]
  clearTimeout(timer)
  if (code !== 0) throw new Error(`${command} ${args.join(' ')}: ${signal === 'SIGKILL' ? `stopped after ${ms / 1000} s` : `exit ${code}`}\n${output}`)
}

/** Names in a deploy output's virtual store (`name@version…`). */
async function installed (out: string) {
  return (await readdir(join(out, 'node_modules/.pnpm'))).filter((entry) => entry.includes('@'))
}

const images = {
  chat: { port: 'CHAT_PORT', entry: 'dist/server.js' },
  search: { port: 'SEARCH_PORT', entry: 'dist/server.js' },
  console: { port: 'CONSOLE_PORT', entry: 'dist/server.js' },
  cli: { port: undefined, entry: 'dist/cli.js' }
} as const
type Image = keyof typeof images

const pnpmDir = await pnpmOnPath(t)

t.test('each image builds from an empty pnpm store and runs compiled JavaScript alone', { skip: pnpmDir === undefined ? 'pnpm not found' : false }, async (t) => {
  const scratch = await mkdtemp(join(tmpdir(), 'chatsearch-image-'))
  t.teardown(() => rm(scratch, { recursive: true, force: true }))
  const context = join(scratch, 'context')
  // tap's NODE_OPTIONS (its loader and coverage) stay out of the build and of the applications.
  const { NODE_OPTIONS: _, ...inherited } = process.env
  const buildEnv = {
    ...inherited,
    PATH: pnpmDir === '' ? process.env.PATH : `${pnpmDir}:${process.env.PATH}`,
    npm_config_store_dir: join(scratch, 'store'),
    npm_config_cache_dir: join(scratch, 'cache')
  }

  // As the Dockerfile's layers: the lockfile alone, `pnpm fetch`, then the rest of the context.
  await copyContext(context, ['pnpm-lock.yaml', 'pnpm-workspace.yaml'])
  const started = Date.now()
  await step('pnpm', ['fetch'], context, buildEnv, 20 * MINUTE)
  t.pass(`pnpm fetch into an empty store: ${Math.round((Date.now() - started) / 1000)} s`)
  await copyContext(context)

  const outs = {} as Record<Image, string>
  for (const image of Object.keys(images) as Image[]) {
    const out = join(scratch, `out-${image}`)
    const at = Date.now()
    try {
      await step('sh', ['infra/build-app.sh', image, out], context, buildEnv, 10 * MINUTE)
    } catch (err) {
      t.fail(String(err))
      return
    }
    t.pass(`infra/build-app.sh ${image}: ${Math.round((Date.now() - at) / 1000)} s`)
    outs[image] = out
  }

  const dockerfile = await readFile(join(root, 'infra/Dockerfile'), 'utf8')
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[]
  t.same(cmd, ['node', images.chat.entry], 'the images start node on the compiled server')
  const compose = parse(await readFile(join(root, 'docker-compose.yml'), 'utf8')) as { services: { cli: { entrypoint: string[] } } }
  t.same(compose.services.cli.entrypoint, ['node', images.cli.entry], 'compose runs the compiled CLI')

  t.test('only compiled JavaScript and production dependencies', async (t) => {
    for (const [image, out] of Object.entries(outs) as Array<[Image, string]>) {
      t.ok(existsSync(join(out, images[image].entry)), `${image}: ${images[image].entry}`)
      const packages = await installed(out)
      t.same(packages.filter((p) => /^(tsx|typescript|@types\+|tap|eslint)@/.test(p)), [], `${image}: no tsx, TypeScript, types, tap or eslint`)
      const manifest = JSON.parse(await readFile(join(root, image === 'cli' ? 'apps/cli/package.json' : `services/${image}/package.json`), 'utf8')) as { devDependencies: Record<string, string> }
      for (const dev of Object.keys(manifest.devDependencies)) t.notOk(existsSync(join(out, 'node_modules', dev)), `${image}: no dev dependency ${dev}`)
      const workspace = packages.filter((p) => p.startsWith('@chatsearch+'))
      t.ok(workspace.length >= 3, `${image}: its workspace packages are copied in`)
      // `@chatsearch+shell@file+…` holds node_modules/@chatsearch/shell.
      const dirs = workspace.map((p) => join(out, 'node_modules/.pnpm', p, 'node_modules', `@${p.split('@')[1]!.replace('+', '/')}`))
      for (const dir of [out, ...dirs]) {
        const name = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')).name as string
        t.ok(existsSync(join(dir, 'dist')) && !existsSync(join(dir, 'src')) && !existsSync(join(dir, 'test')), `${image}: ${name} compiled, no sources, no tests`)
        // The static embedder's piece table, written by the package's prepare step during the build:
        // without it each start would build it again (the image's files are read-only to the service).
        if (name === '@chatsearch/embeddings') t.equal((await stat(join(dir, 'data/use-lite-pieces-v1.f32'))).size, 8000 * 512 * 4, `${image}: the static embedder's piece table`)
      }
    }
  })

  const databaseUrl = await testDatabase(t)
  const asRoot = process.getuid?.() === 0
  // The unprivileged user reads the applications as the image's `node` user reads /app.
  for (const dir of [scratch, ...Object.values(outs)]) await chmod(dir, 0o755)
  const user = asRoot ? { uid: NOBODY, gid: NOBODY } : {}
  // Through env(1) without NODE_OPTIONS: tap adds its hooks to the node processes a test starts, and
  // they would write into this checkout's .tap folder on exit, which the unprivileged user cannot.
  const withoutTap = ['-u', 'NODE_OPTIONS', process.execPath]
  const who = asRoot ? ' as an unprivileged user' : ''

  /** The application's environment as the image and compose give it (no NODE_OPTIONS: see above). */
  async function appEnv (image: Image, port?: number) {
    const dataDir = await mkdtemp(join(tmpdir(), `chatsearch-image-data-${image}-`))
    t.teardown(() => rm(dataDir, { recursive: true, force: true }))
    if (asRoot) await chown(dataDir, NOBODY, NOBODY)
    const portVar = images[image].port
    return {
      PATH: process.env.PATH,
      SERVICE: image,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(portVar === undefined || port === undefined ? {} : { [portVar]: String(port) })
    }
  }

  /** Starts a service's image command; stops it with SIGTERM at the end of `use`, expecting exit 0. */
  async function serve (t: Test, image: 'chat' | 'search' | 'console', use: (url: string) => Promise<void>, extraEnv: Record<string, string> = {}) {
    const port = await freePort()
    const env = { ...await appEnv(image, port), ...extraEnv }
    const server = spawn('env', [...withoutTap, ...cmd.slice(1)], { cwd: outs[image], env, stdio: ['ignore', 'ignore', 'pipe'], ...user })
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
    t.ok(ready, `${image}: node ${cmd.slice(1).join(' ')} ready${who}${ready ? '' : `: ${stderr}`}`)
    if (ready) await use(`http://127.0.0.1:${port}`)

    server.kill('SIGTERM')
    const [code] = await Promise.race([exited, sleep(15_000).then(() => ['timeout'])])
    t.equal(code, 0, `${image}: a graceful stop on SIGTERM${code === 0 ? '' : `: ${stderr}`}`)
  }

  const db = createPool(databaseUrl, 2)
  t.teardown(() => db.end())
  let keys: { project: string, chat: string, search: string } | undefined
  const post = async (url: string, key: string, body: unknown) => await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000)
  })

  t.test('chat: a turn answered by the compiled assistant', async (t) => {
    await serve(t, 'chat', async (url) => {
      // The service has applied the migrations: credentials can be made now.
      const project = await createProject(db, 'image test')
      keys = {
        project: project.id,
        chat: (await createKey(db, project.id, 'chat', 'tester')).key,
        search: (await createKey(db, project.id, 'search', 'tester')).key
      }
      const res = await post(`${url}/newUserMessage`, keys.chat, { user_message: 'Hello there!', consumer_id: 'c1' })
      const body = await res.json() as { classification?: string, assistant_response?: string }
      t.equal(res.status, 200, JSON.stringify(body))
      t.equal(body.classification, 'greeting', 'the classifier loaded its model and corpus')
    })
  })

  t.test('search: a catalog import and a search on the reader threads', async (t) => {
    const key = keys?.search
    if (key === undefined) return t.fail('no credentials: the chat test did not run')
    await serve(t, 'search', async (url) => {
      const items = [{ id: 'boot-1', title: 'Waterproof hiking boot', price: 120 }, { id: 'tent-1', title: 'Two-person tent', price: 300 }]
      const imported = await post(`${url}/documents`, key, items)
      t.equal(imported.status, 200, 'imported (embedded with the bundled model)')
      const found = await post(`${url}/search`, key, { search_term: 'hiking boots' })
      t.equal(found.status, 200)
      t.same(((await found.json()) as { hits: Array<{ id: string }> }).hits.map((h) => h.id), ['boot-1'])
      const hybrid = await post(`${url}/search`, key, { search_term: 'something for the rain on a trail', search_type: 'hybrid', semantic_ratio: 1 })
      t.equal(hybrid.status, 200, 'a semantic search')
      // New settings are applied on a thread of their own, started from the compiled worker file.
      const settings = await fetch(`${url}/settings`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ searchableAttributes: ['title'], filterableAttributes: ['price'], facetableAttributes: [] }),
        signal: AbortSignal.timeout(60_000)
      })
      t.equal(settings.status, 200, `settings applied: ${await settings.text()}`)
      const filtered = await post(`${url}/search`, key, { search_term: '', filters: 'price < 200' })
      t.same(((await filtered.json()) as { hits: Array<{ id: string }> }).hits.map((h) => h.id), ['boot-1'], 'filtered by the new settings')
    })
  })

  t.test('console: the compiled console serves its built web app', async (t) => {
    // Its chat and search services are not running here: pages and the session API do not need them.
    const down = `http://127.0.0.1:${await freePort()}`
    await serve(t, 'console', async (url) => {
      const page = await fetch(`${url}/`, { signal: AbortSignal.timeout(10_000) })
      const html = await page.text()
      t.equal(page.status, 200)
      const script = /<script type="module"[^>]*src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1]
      t.ok(script !== undefined, `the built index.html, not the not-built page: ${html.slice(0, 200)}`)
      const asset = await fetch(`${url}${script ?? '/'}`, { signal: AbortSignal.timeout(10_000) })
      t.equal(asset.status, 200, `${script ?? ''} is in the image`)
      t.match(asset.headers.get('cache-control'), /immutable/)
      const session = await fetch(`${url}/api/session`, { signal: AbortSignal.timeout(10_000) })
      t.equal(session.status, 401, 'its API answers (no session)')
    }, { CHAT_URL: down, SEARCH_URL: down, SERVICE_TOKEN: 'image-test-service-token-' + 'x'.repeat(32) })
  })

  t.test('cli: the compiled admin CLI', async (t) => {
    const env = await appEnv('cli')
    const { stdout } = await run('env', [...withoutTap, images.cli.entry, 'project', 'list', '--json'], { cwd: outs.cli, env, timeout: MINUTE, ...user })
    t.match(JSON.parse(stdout), [{ id: keys?.project, name: 'image test' }], `project list${who}`)
  })
})
