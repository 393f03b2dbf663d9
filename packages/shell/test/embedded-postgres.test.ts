import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { freePort } from '@chatsearch/testkit'
import { openForPostgresUser } from '../src/embedded-postgres.js'

const fixture = fileURLToPath(new URL('fixtures/signalled-owner.ts', import.meta.url))

t.test('Ctrl-C reaches the process that started the cluster, not the cluster: it stays up until that process stops it', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-pg-'))
  await openForPostgresUser(dir)
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  // A process group of its own, as a terminal gives the command it runs.
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir, String(await freePort())], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => { if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL') })
  let output = ''
  child.stdout.on('data', (c: Buffer) => { output += c.toString() })
  child.stderr.on('data', (c: Buffer) => { output += c.toString() })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const deadline = Date.now() + 90_000
  while (!output.includes('ready\n')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the cluster did not start:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const pidFile = join(dir, 'postgres', 'postmaster.pid')
  t.ok(existsSync(pidFile), 'PostgreSQL runs')

  process.kill(-child.pid!, 'SIGINT') // what Ctrl-C does: the whole foreground group
  t.equal(await exited, 0)
  t.match(output, /query after the signal: 1\n/, 'the cluster still answered after the signal')
  t.match(output, /stopped\n/)
  t.notOk(existsSync(pidFile), 'and was stopped by its owner')
})
