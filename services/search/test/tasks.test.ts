import { randomUUID } from 'node:crypto'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import type { Task } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { getTask, searchHarness, send, taskIn, until } from './helpers.js'
import type { SearchConfig } from '../src/config.js'
import { TASK_RETENTION_DAYS } from '../src/tasks/queue.js'
import { pruneFinished } from '../src/tasks/store.js'
import { encodeFiles } from '../src/tasks/knowledge-files.js'
import { queueBatchOnThread } from '../src/ingest/batch-thread.js'
import { queuedBatch, readQueuedBatch } from '../src/ingest/queued-batch.js'

/** Fast heartbeats and polls: a test waits hundreds of milliseconds, not the production seconds. */
const FAST: Partial<SearchConfig> = { tasks: { heartbeatMs: 200, pollMs: 500, shutdownGraceMs: 300 } }

// One database and data directory for the file (each test has projects of its own): starting
// them is most of a test's time on a busy machine. The tests that close the app come last.
const h = await searchHarness(t, false, { ...FAST, catalogTask: { items: 50, bytes: 8 * 1024 * 1024 } })

/** A promise with its resolve, to hold a handler at a known point. */
function gate () {
  let open: () => void = () => {}
  const opened = new Promise<void>((resolve) => { open = resolve })
  return { open, opened }
}

t.test('a task runs, shows its progress and details, and succeeds', async (t) => {
  const shop = await h.tenant()
  const held = gate()
  await h.app.tasks.register('files', async ({ payload, progress, details }) => {
    const { files } = payload as { files: string[] }
    await progress(1, files.length)
    await details({ indexed: files.slice(0, 1) })
    await held.opened
    await progress(files.length, files.length)
    await details({ indexed: files, skipped: [] })
  })
  const queued = await h.app.tasks.enqueue(shop.projectId, 'files', { files: ['a.md', 'b.md', 'c.md'] })
  t.equal(queued.status, 'enqueued')
  t.same(queued.progress, { done: 0, total: 0 })
  t.equal(queued.started_at, null)

  const running = await taskIn(h.app, shop.key, queued.id, ['processing'])
  // Progress and details are two writes: wait for the second, which the handler makes after the first.
  const midway = await until('progress 1/3 and its details', async () => {
    const task = await getTask(h.app, shop.key, queued.id)
    return task.progress.done === 1 && Object.keys(task.details).length > 0 ? task : undefined
  })
  t.equal(midway.status, 'processing')
  t.same(midway.progress, { done: 1, total: 3 })
  t.same(midway.details, { indexed: ['a.md'] })
  t.type(running.started_at, 'string')
  held.open()

  const done = await taskIn(h.app, shop.key, queued.id, ['succeeded', 'failed'])
  t.equal(done.status, 'succeeded')
  t.same(done.progress, { done: 3, total: 3 })
  t.same(done.details, { indexed: ['a.md', 'b.md', 'c.md'], skipped: [] })
  t.equal(done.error, null)
  t.equal(done.type, 'files')
  t.ok(Date.parse(done.finished_at!) >= Date.parse(done.started_at!))
  t.ok(Date.parse(done.started_at!) >= Date.parse(done.enqueued_at))
  const payloads = await h.db.query('SELECT count(*)::int AS n FROM search_task_payloads')
  t.equal(payloads.rows[0].n, 0, 'the payload is removed when the task ends')
})

t.test('a handler\'s throw fails the task with an error body and a reason, never internals', async (t) => {
  const shop = await h.tenant()
  await h.app.tasks.register('crawl', async ({ payload }) => {
    const { url } = payload as { url: string }
    if (url.includes('refused')) throw new ApiError('task_failed', `${url} did not answer`)
    throw new Error('password=hunter2 leaked from a driver')
  })
  const refused = await h.app.tasks.enqueue(shop.projectId, 'crawl', { url: 'http://refused.example' })
  const broken = await h.app.tasks.enqueue(shop.projectId, 'crawl', { url: 'http://broken.example' })

  const first = await taskIn(h.app, shop.key, refused.id, ['succeeded', 'failed'])
  t.equal(first.status, 'failed')
  t.same(first.error, { statusCode: 500, error: 'Task Failed', code: 'task_failed', message: 'http://refused.example did not answer' })
  t.type(first.finished_at, 'string')

  const second = await taskIn(h.app, shop.key, broken.id, ['succeeded', 'failed'])
  t.equal(second.status, 'failed')
  t.equal(second.error?.code, 'task_failed')
  t.notMatch(second.error?.message ?? '', /hunter2/)
})

t.test('GET /tasks lists newest first, filters by status and type, pages, and checks its query', async (t) => {
  const shop = await h.tenant()
  await h.app.tasks.register('files', async ({ payload }) => {
    if ((payload as { fail: boolean }).fail) throw new ApiError('task_failed', 'no text in this file')
  })
  const ids: string[] = []
  for (let i = 0; i < 5; i++) ids.push((await h.app.tasks.enqueue(shop.projectId, 'files', { fail: i % 2 === 1 })).id)
  for (const id of ids) await taskIn(h.app, shop.key, id, ['succeeded', 'failed'])

  const all = (await send(h.app, shop.key, 'GET', '/tasks')).json()
  t.equal(all.total, 5)
  t.equal(all.limit, 20)
  t.equal(all.offset, 0)
  t.same(all.results.map((task: Task) => task.id), [...ids].reverse(), 'newest first')

  const failed = (await send(h.app, shop.key, 'GET', '/tasks?status=failed')).json()
  t.equal(failed.total, 2)
  t.same(failed.results.map((task: Task) => task.id), [ids[3], ids[1]])
  t.ok(failed.results.every((task: Task) => task.error?.message === 'no text in this file'))

  const page = (await send(h.app, shop.key, 'GET', '/tasks?limit=2&offset=1')).json()
  t.same(page.results.map((task: Task) => task.id), [ids[3], ids[2]])
  t.equal(page.total, 5)
  t.equal(page.limit, 2)
  t.equal(page.offset, 1)

  t.equal((await send(h.app, shop.key, 'GET', '/tasks?type=crawl')).json().total, 0)
  t.equal((await send(h.app, shop.key, 'GET', '/tasks?type=files&status=succeeded')).json().total, 3)

  for (const query of ['limit=1001', 'limit=-1', 'offset=-1', 'status=done', 'type=pdf']) {
    const res = await send(h.app, shop.key, 'GET', `/tasks?${query}`)
    t.equal(res.statusCode, 400, query)
    t.equal(res.json().code, 'invalid_request', query)
  }
  t.equal((await send(h.app, shop.key, 'GET', '/tasks?limit=1000')).statusCode, 200)
  t.equal((await h.app.inject({ method: 'GET', url: '/tasks' })).statusCode, 401)
})

t.test('projects take turns: one project\'s queue of tasks does not hold another\'s task until it is done', async (t) => {
  const busy = await h.tenant('busy')
  const other = await h.tenant('other')
  const held = gate()
  const started: string[] = []
  await h.app.tasks.register('crawl', async ({ payload }) => {
    const { name } = payload as { name: string }
    started.push(name)
    if (name === 'busy-1') await held.opened
  })
  const first = await h.app.tasks.enqueue(busy.projectId, 'crawl', { name: 'busy-1' })
  await taskIn(h.app, busy.key, first.id, ['processing'])
  for (const name of ['busy-2', 'busy-3', 'busy-4']) await h.app.tasks.enqueue(busy.projectId, 'crawl', { name })
  const last = await h.app.tasks.enqueue(other.projectId, 'crawl', { name: 'other-1' })
  held.open()
  await taskIn(h.app, other.key, last.id, ['succeeded'])
  await until('every task started', async () => started.length === 5 ? true : undefined)
  t.same(started, ['busy-1', 'busy-2', 'other-1', 'busy-3', 'busy-4'], 'the other project\'s one task runs second in line, not after the whole queue')
})

t.test('a project with TASKS_WAITING_MAX tasks waiting is refused more, even sent at once; another project is not', async (t) => {
  const busy = await h.tenant('busy')
  const other = await h.tenant('other')
  const capped = await h.replica({ tasks: { ...FAST.tasks, maxWaiting: 3 } })
  const held = gate()
  for (const app of [h.app, capped]) await app.tasks.register('crawl', async () => { await held.opened })
  // Each app's one crawl worker busy: what is sent next stays waiting.
  const blockers = [await h.app.tasks.enqueue(busy.projectId, 'crawl', {}), await h.app.tasks.enqueue(busy.projectId, 'crawl', {})]
  for (const task of blockers) await taskIn(h.app, busy.key, task.id, ['processing'])

  const crawl = async (key: string) => await send(capped, key, 'POST', '/knowledge/crawl', { url: 'https://shop.example/help/' })
  const burst = await Promise.all(Array.from({ length: 10 }, async () => await crawl(busy.key)))
  t.same(burst.map((r) => r.statusCode).sort(), [...Array(3).fill(202), ...Array(7).fill(429)], 'three queued, however many were sent at once')
  const refused = burst.find((r) => r.statusCode === 429)!.json()
  t.same(refused, { statusCode: 429, error: 'Too Many Requests', code: 'too_many_tasks', message: refused.message })
  t.match(refused.message, /3 tasks waiting/)
  t.equal((await send(capped, busy.key, 'GET', '/tasks?status=enqueued')).json().total, 3, 'nothing half-written of the refused ones')
  t.equal((await crawl(other.key)).statusCode, 202, 'another project still queues')

  held.open()
  for (const res of burst.filter((r) => r.statusCode === 202)) await taskIn(h.app, busy.key, res.json().task_id, ['succeeded'])
  t.equal((await crawl(busy.key)).statusCode, 202, 'once its tasks ran, the project queues again')
  await until('every crawl done', async () => (await send(capped, busy.key, 'GET', '/tasks?status=enqueued')).json().total === 0 ? true : undefined)
  await capped.close()
})

t.test('another project\'s task is 404 and never listed', async (t) => {
  const shop = await h.tenant('shop')
  const other = await h.tenant('other')
  await h.app.tasks.register('files', async () => {})
  const task = await h.app.tasks.enqueue(shop.projectId, 'files', {})
  await taskIn(h.app, shop.key, task.id, ['succeeded'])

  const res = await send(h.app, other.key, 'GET', `/tasks/${task.id}`)
  t.equal(res.statusCode, 404)
  t.equal(res.json().code, 'task_not_found')
  t.same((await send(h.app, other.key, 'GET', '/tasks')).json(), { results: [], total: 0, limit: 20, offset: 0 })
  for (const id of ['00000000-0000-4000-8000-000000000000', 'tsk_nothing', '42']) {
    const missing = await send(h.app, shop.key, 'GET', `/tasks/${id}`)
    t.equal(missing.statusCode, 404, id)
    t.equal(missing.json().code, 'task_not_found', id)
  }
})

t.test('a waiting task canceled never runs and frees its place; an ended task is 409, another project\'s 404', async (t) => {
  const shop = await h.tenant('shop')
  const other = await h.tenant('other')
  const held = gate()
  const ran: string[] = []
  await h.app.tasks.register('files', async ({ task }) => {
    ran.push(task.id)
    await held.opened
  })
  const running = await h.app.tasks.enqueue(shop.projectId, 'files', { n: 1 })
  await taskIn(h.app, shop.key, running.id, ['processing'])
  const waiting = await h.app.tasks.enqueue(shop.projectId, 'files', { n: 2 })
  const cancel = async (key: string, id: string) => await send(h.app, key, 'POST', `/tasks/${id}/cancel`)

  const foreign = await cancel(other.key, waiting.id)
  t.equal(foreign.statusCode, 404, 'another project\'s task')
  t.equal(foreign.json().code, 'task_not_found')
  const res = await cancel(shop.key, waiting.id)
  t.equal(res.statusCode, 200)
  const canceled = res.json() as Task
  t.equal(canceled.status, 'canceled')
  t.equal(canceled.started_at, null, 'it never started')
  t.type(canceled.finished_at, 'string')
  t.equal(canceled.error, null)
  const payloads = await h.db.query('SELECT count(*)::int AS n FROM search_task_payloads WHERE task_id = $1', [waiting.id])
  t.equal(payloads.rows[0].n, 0, 'its payload is dropped')
  t.equal((await send(h.app, shop.key, 'GET', '/tasks?status=enqueued')).json().total, 0, 'nothing left waiting')
  const again = await cancel(shop.key, waiting.id)
  t.equal(again.statusCode, 200, 'canceling twice answers the task as it is')
  t.same(again.json(), canceled)

  held.open()
  t.equal((await taskIn(h.app, shop.key, running.id, ['succeeded', 'failed'])).status, 'succeeded')
  const next = await h.app.tasks.enqueue(shop.projectId, 'files', { n: 3 })
  await taskIn(h.app, shop.key, next.id, ['succeeded'])
  t.same(ran, [running.id, next.id], 'the canceled task never ran; the one after it did')
  t.equal((await getTask(h.app, shop.key, waiting.id)).status, 'canceled')
  t.same((await send(h.app, shop.key, 'GET', '/tasks?status=canceled')).json().results.map((task: Task) => task.id), [waiting.id])

  const ended = await cancel(shop.key, running.id)
  t.equal(ended.statusCode, 409)
  t.same(ended.json(), { statusCode: 409, error: 'Conflict', code: 'task_finished', message: `task ${running.id} already succeeded: nothing is left to cancel` })
  for (const id of ['00000000-0000-4000-8000-000000000000', 'tsk_nothing']) t.equal((await cancel(shop.key, id)).json().code, 'task_not_found', id)
})

t.test('a running task canceled stops: at once on its replica, at its next heartbeat on another; it stays canceled', async (t) => {
  const shop = await h.tenant()
  const replica = await h.replica()
  let hold = true
  const runs = new Map<string, { app: string, reason?: string }>()
  for (const [name, app] of [['first', h.app], ['second', replica]] as const) {
    await app.tasks.register('crawl', async ({ task, signal, progress }) => {
      if (!hold) return
      runs.set(task.id, { app: name })
      await progress(1, 10)
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
      runs.get(task.id)!.reason = (signal.reason as Error).message
    })
  }
  // The first app is woken by its own enqueue; the second takes the other task at its next poll.
  const tasks = [await h.app.tasks.enqueue(shop.projectId, 'crawl', {}), await h.app.tasks.enqueue(shop.projectId, 'crawl', {})]
  for (const task of tasks) await taskIn(h.app, shop.key, task.id, ['processing'])
  await until('both apps running one', async () => runs.size === 2 ? true : undefined)
  const on = (app: string) => [...runs].find(([, run]) => run.app === app)![0]

  const local = await send(h.app, shop.key, 'POST', `/tasks/${on('first')}/cancel`)
  t.equal(local.json().status, 'canceled')
  // By the cancel itself, or by a heartbeat that waited for the cancel's lock and was answered at the same time.
  t.match(runs.get(on('first'))!.reason, /canceled/, 'this replica\'s run is stopped before the answer')
  const remote = await send(h.app, shop.key, 'POST', `/tasks/${on('second')}/cancel`)
  t.equal(remote.json().status, 'canceled')
  const reason = await until('the other replica\'s run stopped', async () => runs.get(on('second'))!.reason)
  t.match(reason, /no longer this run/, 'the other replica finds out at its next heartbeat')

  hold = false
  await sleep(3 * (FAST.tasks!.heartbeatMs ?? 0))
  for (const task of tasks) {
    const now = await getTask(h.app, shop.key, task.id)
    t.equal(now.status, 'canceled', 'the stopped run did not end it otherwise')
    t.same(now.progress, { done: 1, total: 10 }, 'what it had done stays')
  }
  const after = [await h.app.tasks.enqueue(shop.projectId, 'crawl', {}), await replica.tasks.enqueue(shop.projectId, 'crawl', {})]
  for (const task of after) t.equal((await taskIn(h.app, shop.key, task.id, ['succeeded', 'failed'])).status, 'succeeded', 'the workers take work again')
  await replica.close()
})

t.test('finished tasks are deleted after the retention period, unfinished ones never', async (t) => {
  const shop = await h.tenant()
  const ids = []
  for (const [status, finishedDaysAgo] of [['succeeded', TASK_RETENTION_DAYS + 1], ['failed', TASK_RETENTION_DAYS + 2], ['succeeded', TASK_RETENTION_DAYS - 1], ['enqueued', null]] as const) {
    const id = randomUUID()
    ids.push(id)
    await h.db.query(`INSERT INTO search_tasks (id, project_id, type, status, enqueued_at, finished_at)
      VALUES ($1, $2, 'crawl', $3, now() - interval '90 days', now() - $4 * interval '1 day')`, [id, shop.projectId, status, finishedDaysAgo])
  }
  t.equal(await pruneFinished(h.db, TASK_RETENTION_DAYS), 2)
  const left = await h.db.query<{ id: string }>('SELECT id FROM search_tasks WHERE project_id = $1 ORDER BY finished_at NULLS LAST', [shop.projectId])
  t.same(left.rows.map((r) => r.id), [ids[2], ids[3]], 'the recent one and the unfinished one stay')
})

t.test('two apps on one database run each task once', async (t) => {
  const shop = await h.tenant()
  const replica = await h.replica()
  const runs: Array<{ app: string, id: string }> = []
  for (const [name, app] of [['first', h.app], ['second', replica]] as const) {
    await app.tasks.register('crawl', async ({ task }) => {
      runs.push({ app: name, id: task.id })
      await sleep(100)
    })
  }
  const ids: string[] = []
  for (let i = 0; i < 12; i++) ids.push((await (i % 2 === 0 ? h.app : replica).tasks.enqueue(shop.projectId, 'crawl', { i })).id)
  for (const id of ids) t.equal((await taskIn(h.app, shop.key, id, ['succeeded', 'failed'])).status, 'succeeded')
  await sleep(300)
  t.same(runs.map((r) => r.id).sort(), [...ids].sort(), 'every task ran exactly once')
  t.ok(new Set(runs.map((r) => r.app)).size === 2, `both apps took work (${runs.filter((r) => r.app === 'first').length} of ${runs.length} on the first)`)
  // Left running, the replica's own files handler could take a later test's task from the handler
  // that test gave the first app, and that test would wait for it forever.
  await replica.close()
})

t.test('POST /documents imports a large body as a catalog_import task with progress', async (t) => {
  const shop = await h.tenant()
  const items = Array.from({ length: 600 }, (_, i) => ({ id: `p${i}`, title: `Lamp number ${i}`, price: i }))

  const small = await send(h.app, shop.key, 'POST', '/documents', items.slice(0, 50))
  t.equal(small.statusCode, 200, 'at the threshold: answered while the client waits')
  t.same(small.json(), { received: 50, indexed: 50, unchanged: 0, total: 50 })

  const bad = await send(h.app, shop.key, 'POST', '/documents', [...items, { title: 'no id' }])
  t.equal(bad.statusCode, 400, 'a bad item in a large body is refused before any task')
  t.equal(bad.json().code, 'invalid_document')
  t.equal((await send(h.app, shop.key, 'GET', '/tasks')).json().total, 0)

  const res = await send(h.app, shop.key, 'POST', '/documents', [...items, { id: 'p0', title: 'Lamp zero, replaced' }])
  t.equal(res.statusCode, 202)
  const { task_id: id } = res.json()
  t.match(id, /^[0-9a-f-]{36}$/)
  const done = await taskIn(h.app, shop.key, id, ['succeeded', 'failed'])
  t.equal(done.status, 'succeeded', JSON.stringify(done.error))
  t.equal(done.type, 'catalog_import')
  t.same(done.progress, { done: 600, total: 600 })
  t.same(done.details, { received: 601, indexed: 551, unchanged: 49, total: 600 }, 'p0 changed, p1 to p49 as stored')
  t.equal((await send(h.app, shop.key, 'GET', '/documents/p0')).json().title, 'Lamp zero, replaced', 'of a repeated id the last wins')
  t.equal((await send(h.app, shop.key, 'GET', '/documents/p599')).statusCode, 200)
  const search = (await send(h.app, shop.key, 'POST', '/search', { search_term: 'lamp', limit: 1 })).json()
  t.equal(search.estimatedTotalHits, 600)

  const ndjson = items.slice(0, 60).map((item) => JSON.stringify(item)).join('\n')
  const again = await send(h.app, shop.key, 'POST', '/documents', ndjson, { 'content-type': 'application/x-ndjson' })
  t.equal(again.statusCode, 202, 'NDJSON too')
  const unchanged = await taskIn(h.app, shop.key, again.json().task_id, ['succeeded', 'failed'])
  t.same(unchanged.details, { received: 60, indexed: 1, unchanged: 59, total: 600 }, 'p0 back to its first title, the rest unchanged')
})

t.test('a large body is checked whole on a thread: the event loop serves others meanwhile', async (t) => {
  const shop = await h.tenant()
  // Over the 8 MiB that are indexed while the client waits: 400,000 small items, the last one bad. On
  // the event loop, parsing and checking them held it about 2 s.
  const body = `[${Array.from({ length: 400_000 }, (_, i) => `{"id":"i${i}","title":"t"}`).join(',')},{"title":"no id"}]`
  t.ok(body.length > 8 * 1024 * 1024)
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  const res = await send(h.app, shop.key, 'POST', '/documents', body, { 'content-type': 'application/json' })
  await sleep(50) // the delay of a turn is recorded by the next tick of the monitor's timer
  loop.disable()
  t.equal(res.statusCode, 400)
  t.match(res.json(), { code: 'invalid_document', message: /^document 400000: / }, 'the bad item named, as when checked in the request')
  t.equal((await send(h.app, shop.key, 'GET', '/tasks')).json().total, 0, 'nothing queued')
  t.ok(loop.max < 500e6, `the event loop's longest delay ${Math.round(loop.max / 1e6)} ms`)
})

t.test('a batch check past its thread\'s time or memory is a 413 that asks for smaller batches', async (t) => {
  const raw = { format: 'json' as const, bytes: Buffer.from(`[${Array.from({ length: 100_000 }, (_, i) => `{"id":"i${i}","title":"t"}`).join(',')}]`) }
  await t.rejects(queueBatchOnThread(raw, { timeoutMs: 1, maxHeapMb: 2048 }), { code: 'payload_too_large', message: 'the batch takes longer than 0.001 s to check: send it as smaller batches' })
  const checked = await queueBatchOnThread(raw)
  t.equal(checked.received, 100_000, 'within the bounds, the same batch is queued')
  t.equal(readQueuedBatch(checked.queued, 500).count, 100_000)
})

t.test('a queued batch is read back a slice at a time, as it was validated', async (t) => {
  const documents = Array.from({ length: 7 }, (_, i) => ({ id: `p${i}`, title: `line\nbreak ${i}` }))
  const read = readQueuedBatch(queuedBatch(9, documents), 3)
  t.same([read.received, read.count], [9, 7])
  t.same([...read.slices()], [documents.slice(0, 3), documents.slice(3, 6), documents.slice(6)])
  const empty = readQueuedBatch(queuedBatch(0, []), 3)
  t.same([empty.received, empty.count, [...empty.slices()]], [0, 0, []])

  const shop = await h.tenant()
  const earlier = await h.app.tasks.enqueue(shop.projectId, 'catalog_import', { received: 3, documents: documents.slice(0, 2) })
  const done = await taskIn(h.app, shop.key, earlier.id, ['succeeded', 'failed'])
  t.same([done.status, done.details], ['succeeded', { received: 3, indexed: 2, unchanged: 0, total: 2 }], 'a task queued by the earlier version, as a JSON payload, still runs')
})

t.test('closing an app hands a running task back, and the next app finishes it', async (t) => {
  const shop = await h.tenant()
  const started = gate()
  await h.app.tasks.register('files', async ({ progress, signal }) => {
    await progress(1, 2)
    started.open()
    // Work that only ends when told to stop.
    await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))))
  })
  // A real upload's payload: the next app runs it with the service's own files handler.
  const task = await h.app.tasks.enqueue(shop.projectId, 'files', encodeFiles({ files: [{ name: 'a.md', bytes: Buffer.from('# A\n\nA page of text.') }] }))
  await started.opened
  const closing = Date.now()
  const next = await h.restart({})
  t.ok(Date.now() - closing < 8000, 'the close waited for the grace period, not for the task')
  t.not((await getTask(next, shop.key, task.id)).status, 'failed', 'handed back, not failed')
  const done = await taskIn(next, shop.key, task.id, ['succeeded', 'failed'], 30_000)
  t.equal(done.status, 'succeeded', JSON.stringify(done.error))
  t.same(done.progress, { done: 1, total: 1 })
  t.match(done.details, { files: 1, indexed: 1 })
  // Its files handler is the service's own: closed, it takes no task the next test gives its app.
  await next.close()
})

t.test('a task an app takes back from itself (its heartbeats were late) is stopped in its first run, even with runs to spare', async (t) => {
  // Two runs at once: with one, the second run would wait for the worker the first holds.
  const app = await h.restart({ tasks: { ...FAST.tasks!, concurrency: 2 } })
  const shop = await h.tenant()
  const signals: AbortSignal[] = []
  const second = gate()
  await app.tasks.register('files', async ({ progress, signal }) => {
    signals.push(signal)
    if (signals.length === 1) {
      await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)))
    }
    await second.opened
    await progress(1, 1)
  })
  const task = await app.tasks.enqueue(shop.projectId, 'files', { files: ['a.md'] })
  const first = await until('the first run', async () => {
    const { rows } = await h.db.query<{ runner: string | null }>("SELECT runner FROM search_tasks WHERE id = $1 AND status = 'processing'", [task.id])
    return rows[0]?.runner ?? undefined
  })
  // What a stalled process leaves: a heartbeat older than three beats. The app's own sweep puts
  // the task back in the queue and the app takes it again.
  await until('a second run', async () => {
    await h.db.query("UPDATE search_tasks SET heartbeat_at = now() - interval '1 hour' WHERE id = $1 AND runner = $2", [task.id, first])
    return signals.length >= 2 ? true : undefined
  })
  await until('the first run stopped', async () => signals[0]!.aborted ? true : undefined)
  t.equal(signals[1]!.aborted, false, 'the second run goes on')
  second.open()
  const done = await taskIn(app, shop.key, task.id, ['succeeded', 'failed'])
  t.equal(done.status, 'succeeded', JSON.stringify(done.error))
  t.same(done.progress, { done: 1, total: 1 })
  t.equal(signals.length, 2, 'no third run')
})
