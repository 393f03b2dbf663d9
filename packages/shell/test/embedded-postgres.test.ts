import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t, { type Test } from 'tap'
import { freePort } from '@chatsearch/testkit'
import { openForPostgresUser } from '../src/embedded-postgres.js'

const fixture = fileURLToPath(new URL('fixtures/signalled-owner.ts', import.meta.url))

/** The fixture's process, in a process group of its own as a terminal gives the command it runs, once its cluster is up. */
async function startOwner (t: Test) {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-pg-'))
  await openForPostgresUser(dir)
  const pidFile = join(dir, 'postgres', 'postmaster.pid')
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir, String(await freePort())], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  // Whatever the test did, neither the fixture nor a cluster outlives it.
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL')
    const postmaster = Number((await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0])
    if (postmaster > 0) {
      try { process.kill(postmaster, 'SIGINT') } catch {}
      await until(() => !existsSync(pidFile), 15_000)
    }
    await rm(dir, { recursive: true, force: true })
  })
  const out = { text: '' }
  child.stdout.on('data', (c: Buffer) => { out.text += c.toString() })
  child.stderr.on('data', (c: Buffer) => { out.text += c.toString() })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const deadline = Date.now() + 90_000
  while (!out.text.includes('ready\n')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the cluster did not start:\n${out.text}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { child, out, exited, pidFile }
}

/** Whether `done` came true within `ms`, asked every 100 ms. */
async function until (done: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) if (done()) return true
  return done()
}

t.test('Ctrl-C reaches the process that started the cluster, not the cluster: it stays up until that process stops it', async (t) => {
  const { child, out, exited, pidFile } = await startOwner(t)
  t.ok(existsSync(pidFile), 'PostgreSQL runs')

  process.kill(-child.pid!, 'SIGINT') // what Ctrl-C does: the whole foreground group
  t.equal(await exited, 0)
  t.match(out.text, /query after the signal: 1\n/, 'the cluster still answered after the signal')
  t.match(out.text, /stopped\n/)
  t.notOk(existsSync(pidFile), 'and was stopped by its owner')
})

// What the service itself checks before it starts PostgreSQL through setpriv (parentDeathLauncher).
const setprivWorks = process.platform === 'linux' && spawnSync('setpriv', ['--pdeathsig', 'SIGINT', '--', 'true']).status === 0

t.test('a cluster whose owner is killed outright (no exit hook runs) stops too, where setpriv can arrange it', { skip: !setprivWorks && 'needs util-linux\'s setpriv with --pdeathsig (Linux)' }, async (t) => {
  const { child, exited, pidFile } = await startOwner(t)
  t.ok(existsSync(pidFile), 'PostgreSQL runs')
  child.kill('SIGKILL') // the owner alone, as the OOM killer or `kill -9` would
  await exited
  t.ok(await until(() => !existsSync(pidFile), 30_000), 'PostgreSQL shut down on its own after its owner died')
})
