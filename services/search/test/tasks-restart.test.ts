import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import type { Task } from '@chatsearch/contracts'
import { createKey, createProject } from '@chatsearch/auth'
import { createPool } from '@chatsearch/shell'
import { testDatabase } from '@chatsearch/testkit'

const serviceDir = fileURLToPath(new URL('..', import.meta.url))

interface Server { child: ChildProcess, url: string, output: () => string }

/**
 * `node src/server.ts` as an operator runs it, on the test's database and data directory, without
 * embeddings (fast to start), with quick heartbeats, and importing more than 100 items as a task.
 */
async function startServer (t: { teardown: (fn: () => unknown) => void, comment: (message: string) => void }, databaseUrl: string, dataDir: string, extra: Record<string, string> = {}): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    // Port 0, read back from the log: a port picked here could be taken by another test's process
    // before the server, which compiles its sources first, listens.
    SEARCH_PORT: '0',
    EMBEDDINGS: 'false',
    SEARCH_READERS: '0',
    LOG_LEVEL: 'info',
    RATE_LIMIT_CATALOG: '0',
    TASK_HEARTBEAT_MS: '300',
    CATALOG_TASK_ITEMS: '100',
    ...extra
  }
  delete env.MEILI_URL
  delete env.REDIS_URL
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: serviceDir, env, stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  let output = ''
  child.stdout.on('data', (c: Buffer) => { output += c.toString() })
  child.stderr.on('data', (c: Buffer) => { output += c.toString() })
  const started = Date.now()
  const deadline = started + 60_000
  let listening: RegExpExecArray | null = null
  while ((listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)) === null) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${output}`)
    await sleep(100)
  }
  t.comment(`server started in ${Date.now() - started} ms`)
  return { child, url: listening[1]!, output: () => output }
}

async function killed (server: Server) {
  const exited = new Promise((resolve) => server.child.once('exit', resolve))
  server.child.kill('SIGKILL')
  await exited
}

t.test('a service killed mid-task: after a restart the task finishes, or fails with a reason once it was interrupted too often', async (t) => {
  const databaseUrl = await testDatabase(t)
  const dataDir = await mkdtemp(join(tmpdir(), 'chatsearch-tasks-'))
  t.teardown(() => rm(dataDir, { recursive: true, force: true }))
  const db = createPool(databaseUrl, 2)
  t.teardown(() => db.end())

  let server = await startServer(t, databaseUrl, dataDir)
  const project = await createProject(db, 'shop')
  const { key } = await createKey(db, project.id, 'search', 'tester')
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: res.status, body: await res.json() as Record<string, unknown> }
  }
  const task = async (id: string) => (await call('GET', `/tasks/${id}`)).body as unknown as Task
  const until = async (id: string, done: (task: Task) => boolean, ms: number) => {
    const deadline = Date.now() + ms
    for (;;) {
      const seen = await task(id)
      if (done(seen)) return seen
      if (Date.now() > deadline) throw new Error(`task ${id} stayed ${JSON.stringify(seen)}\n${server.output()}`)
      await sleep(20)
    }
  }

  /**
   * Starts an import of `count` items, waits until the server runs it, then holds the task's row so
   * that the server's next progress report waits (the task stays mid-way however fast the machine),
   * and kills the server with SIGKILL: no shutdown hook runs.
   */
  const importThenKill = async (count: number, prefix: string) => {
    const items = Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, title: `Desk lamp ${i}`, price: i }))
    const accepted = await call('POST', '/documents', items)
    t.equal(accepted.status, 202)
    const id = accepted.body.task_id as string
    await until(id, (seen) => seen.status === 'processing', 20_000)
    const holder = await db.connect()
    try {
      await holder.query('BEGIN')
      const { rows } = await holder.query('SELECT status, progress_done, progress_total FROM search_tasks WHERE id = $1 FOR UPDATE', [id])
      t.equal(rows[0].status, 'processing', 'killed while processing')
      t.ok(rows[0].progress_done < count, `killed mid-way (${rows[0].progress_done} of ${count} written)`)
      await killed(server)
      await holder.query('COMMIT')
    } finally {
      holder.release()
    }
    t.equal((await db.query('SELECT status FROM search_tasks WHERE id = $1', [id])).rows[0].status, 'processing', 'the dead server left it processing')
    return id
  }

  const first = await importThenKill(6000, 'a')
  server = await startServer(t, databaseUrl, dataDir)
  const finished = await until(first, (seen) => seen.status !== 'processing' && seen.status !== 'enqueued', 20_000)
  t.equal(finished.status, 'succeeded', JSON.stringify(finished.error))
  t.same(finished.progress, { done: 6000, total: 6000 })
  t.match(finished.details, { received: 6000, total: 6000 })
  t.equal((await call('GET', '/documents/a5999')).status, 200)
  const runs = await db.query('SELECT attempts FROM search_tasks WHERE id = $1', [first])
  t.equal(runs.rows[0].attempts, 2, 'taken again once')
  t.equal((await db.query('SELECT count(*)::int AS n FROM search_task_payloads')).rows[0].n, 0, 'payload removed')

  // A task whose replicas keep dying: restarted with TASK_MAX_ATTEMPTS=1, the replicas count the
  // first death as one too many and fail it for good.
  const second = await importThenKill(6000, 'b')
  server = await startServer(t, databaseUrl, dataDir, { TASK_MAX_ATTEMPTS: '1' })
  const failed = await until(second, (seen) => seen.status !== 'processing', 20_000)
  t.equal(failed.status, 'failed')
  t.equal(failed.error?.code, 'task_failed')
  t.match(failed.error?.message, /interrupted 1 times/)
  t.type(failed.finished_at, 'string')
  await sleep(1000)
  t.equal((await task(second)).status, 'failed', 'and it stays failed: no replica runs it again')
  await killed(server)
})
