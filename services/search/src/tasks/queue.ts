import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyBaseLogger } from 'fastify'
import type pg from 'pg'
import PgBoss from 'pg-boss'
import { errorBody, type ErrorBody, type Task, type TaskType } from '@chatsearch/contracts'
import { ApiError, inTransaction, type Queryable } from '@chatsearch/shell'
import { beat, cancelTask, claimTask, failOrphan, pruneFinished, finishTask, findTask, handBack, insertTask, listTasks, recoverStale, setDetails, setProgress, type StoredPayload, type TaskFilter } from './store.js'

export interface TaskContext {
  task: Task
  projectId: string
  /** What `enqueue` was given: the same JSON value, or the same bytes for a Buffer. */
  payload: unknown
  /** Writes the progress the API shows; throws once the task is no longer this replica's. */
  progress: (done: number, total: number) => Promise<void>
  /** Replaces the task's `details` (what was done, what was skipped and why). */
  details: (details: Record<string, unknown>) => Promise<void>
  /** Aborted when the service shuts down, the task was canceled or another replica took it over: stop soon. */
  signal: AbortSignal
}

/** Does a task's work; its throw fails the task (an ApiError keeps its code and message). */
export type TaskHandler = (context: TaskContext) => Promise<void>

export interface TaskQueueOptions {
  /** Tasks of each type one replica runs at once. */
  concurrency: number
  /** How often a running task says it is alive; one silent for three times this is taken over. */
  heartbeatMs: number
  /** Replicas that may take a task before it fails for good (each death of one counts). */
  maxAttempts: number
  /** How long shutdown waits for running tasks before handing them back. */
  shutdownGraceMs: number
  /** How often an idle worker asks for work (pg-boss allows 500 ms at least). */
  pollMs: number
  /** Tasks one project may have waiting to run, of all types; past it enqueue is `too_many_tasks` (0: no limit). */
  maxWaiting: number
}

/**
 * Told of each task that ended, in the transaction that ends it (the webhooks' `task.succeeded`,
 * `task.failed` and `task.canceled`): what it writes commits with the task's end, or neither does.
 */
export type TaskEnded = (db: Queryable, projectId: string, task: Task) => Promise<unknown>

export const TASK_DEFAULTS: TaskQueueOptions = { concurrency: 1, heartbeatMs: 10_000, maxAttempts: 3, shutdownGraceMs: 10_000, pollMs: 2000, maxWaiting: 100 }

/** Finished tasks are kept this long for GET /tasks, then deleted (checked once an hour). */
export const TASK_RETENTION_DAYS = 30
const PRUNE_EVERY_MS = 3600_000

/** pg-boss's own expiry of an active job: only a backstop, heartbeats notice a dead replica first (pg-boss allows < 24 h). */
const JOB_EXPIRY_S = 23 * 3600
const queueOf = (type: TaskType) => `search_task_${type}`

/** pg-boss runs its SQL through our pool or, inside our transaction, through its client. */
const bossDb = (db: Queryable) => ({ executeSql: async (text: string, values: unknown[]) => await db.query(text, values) })

/** Thrown by a run that hands its task back, so that pg-boss puts the job up for another fetch. */
class HandedBack extends Error {}

/** One run of a task; `runner` is its claim, so that a task taken twice by one replica (its own late
 * heartbeats made it look dead) is two runs that cannot write for each other. */
interface Running { id: string, runner: string, controller: AbortController, handedBack: boolean }

/** A failed run's `error`: an ApiError as it was raised, any other fault as task_failed (its details only logged). */
function taskError (err: unknown): ErrorBody {
  if (err instanceof ApiError) return errorBody(err.code, err.message)
  return errorBody('task_failed', 'the task stopped on an unexpected fault; it is logged with the task id')
}

/**
 * Tasks of all projects in PostgreSQL: `search_tasks` is what the API shows, pg-boss hands each
 * task to one replica (SKIP LOCKED), and heartbeats let any replica notice one that died mid-task.
 */
export class TaskQueue {
  readonly #pool: pg.Pool
  readonly #boss: PgBoss
  readonly #log: FastifyBaseLogger
  readonly #options: TaskQueueOptions
  readonly #ended: TaskEnded | undefined
  readonly #handlers = new Map<TaskType, TaskHandler>()
  readonly #workers = new Map<TaskType, string[]>()
  /** The runs of this replica, by their claim. */
  readonly #running = new Map<string, Running>()
  #sweeper: NodeJS.Timeout | undefined
  #prunedAt = 0
  #stopping = false

  private constructor (pool: pg.Pool, boss: PgBoss, log: FastifyBaseLogger, options: TaskQueueOptions, ended: TaskEnded | undefined) {
    this.#pool = pool
    this.#boss = boss
    this.#log = log
    this.#options = options
    this.#ended = ended
  }

  static async start (pool: pg.Pool, log: FastifyBaseLogger, options: TaskQueueOptions, ended?: TaskEnded): Promise<TaskQueue> {
    // Archival and expiry only: no cron schedules, and jobs are created through our transactions.
    const boss = new PgBoss({ db: bossDb(pool), schedule: false, supervise: true })
    boss.on('error', (err) => log.warn({ err }, 'task queue: pg-boss error'))
    await boss.start()
    for (const type of ['crawl', 'files', 'catalog_import'] as const) {
      await boss.createQueue(queueOf(type), { name: queueOf(type), retryLimit: 1_000_000, retryDelay: 0, expireInSeconds: JOB_EXPIRY_S })
    }
    const queue = new TaskQueue(pool, boss, log, options, ended)
    queue.#sweeper = setInterval(() => { queue.#recover().catch((err: unknown) => log.warn({ err }, 'task queue: recovery failed')) }, options.heartbeatMs)
    queue.#sweeper.unref()
    return queue
  }

  /**
   * Runs tasks of `type` on this replica with `handler`. A second call replaces the handler (tests
   * give a type a handler of their own); the workers stay.
   */
  async register (type: TaskType, handler: TaskHandler): Promise<void> {
    this.#handlers.set(type, handler)
    if (this.#workers.has(type)) return
    const ids: string[] = []
    this.#workers.set(type, ids)
    for (let i = 0; i < this.#options.concurrency; i++) {
      ids.push(await this.#boss.work(queueOf(type), { batchSize: 1, pollingIntervalSeconds: this.#options.pollMs / 1000 },
        async ([job]) => { if (job !== undefined) await this.#run(type, job.id) }))
    }
  }

  /**
   * Stores the task and its payload and queues it, in one transaction: no task without its job.
   * Throws `too_many_tasks` when the project already has `maxWaiting` tasks waiting: each holds its
   * payload (a file upload, a catalog) in the database until it runs.
   */
  async enqueue (projectId: string, type: TaskType, payload: unknown): Promise<Task> {
    const stored: StoredPayload = Buffer.isBuffer(payload)
      ? { format: 'bytes', body: payload }
      : { format: 'json', body: Buffer.from(JSON.stringify(payload)) }
    const id = randomUUID()
    const task = await inTransaction(this.#pool, async (client) => {
      const task = await insertTask(client, id, projectId, type, stored)
      // Then one project's enqueues one at a time, so that concurrent ones count each other (ten sent
      // at once against a limit of three queue three, not ten). Taken after the payload is written,
      // the lock is held only for the count and the commit: each statement reads what committed
      // before it, and this transaction's own task.
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('search_tasks:' || $1, 0))", [projectId])
      const { rows } = await client.query<{ waiting: number, ofType: number }>(
        `SELECT count(*)::int AS waiting, (count(*) FILTER (WHERE type = $2))::int AS "ofType"
         FROM search_tasks WHERE project_id = $1 AND status = 'enqueued' AND id <> $3`, [projectId, type, id])
      const { waiting, ofType } = rows[0]!
      const max = this.#options.maxWaiting
      if (max > 0 && waiting >= max) {
        throw new ApiError('too_many_tasks', `the project already has ${waiting} tasks waiting to run (at most ${max}); send this again once some have started (GET /tasks?status=enqueued)`)
      }
      // Turns between projects: a task's priority is minus the tasks of its type its project already
      // has waiting, and pg-boss takes the highest priority first, then the oldest. So one project's
      // hundred queued crawls no longer hold another's one until they are all done: that one goes next.
      await this.#boss.send(queueOf(type), {}, { id, db: bossDb(client), priority: -ofType })
      return task
    })
    this.#wake(type)
    return task
  }

  get (projectId: string, id: string): Promise<Task | undefined> {
    return findTask(this.#pool, projectId, id)
  }

  list (projectId: string, filter: TaskFilter): Promise<{ results: Task[], total: number }> {
    return listTasks(this.#pool, projectId, filter)
  }

  /**
   * Cancels a waiting or running task of the project; what it had done stays. A waiting one never
   * runs. A running one's signal is aborted at once when this replica runs it, else at its runner's
   * next write or heartbeat (within `heartbeatMs`). A task already canceled is answered as it is;
   * one that succeeded or failed is `task_finished`. Undefined: the project has no such task.
   */
  async cancel (projectId: string, id: string): Promise<Task | undefined> {
    const canceled = await inTransaction(this.#pool, async (client) => {
      const found = await cancelTask(client, projectId, id)
      if (found === undefined) return undefined
      if ('ended' in found) {
        if (found.ended.status !== 'canceled') throw new ApiError('task_finished', `task ${id} already ${found.ended.status}: nothing is left to cancel`)
        return found.ended
      }
      // Its job would be fetched only to find the task no longer waiting: taken out of the queue now.
      if (found.was === 'enqueued') await this.#boss.cancel(queueOf(found.type), id, { db: bossDb(client) })
      await this.#ended?.(client, projectId, found.task)
      return found.task
    })
    for (const running of this.#running.values()) if (running.id === id) running.controller.abort(new Error('the task was canceled'))
    return canceled
  }

  /**
   * Stops taking work, lets running tasks finish for the grace period, then hands the others back
   * (aborting their signal) so that another replica, or this one after a restart, runs them again.
   */
  async close (): Promise<void> {
    this.#stopping = true
    clearInterval(this.#sweeper)
    for (const ids of this.#workers.values()) for (const id of ids) await this.#boss.offWork({ id })
    const deadline = Date.now() + this.#options.shutdownGraceMs
    while (this.#running.size > 0 && Date.now() < deadline) await sleep(50)
    for (const running of this.#running.values()) {
      running.handedBack = await handBack(this.#pool, running.id, running.runner)
      running.controller.abort(new Error('the service is shutting down'))
    }
    while (this.#running.size > 0) await sleep(20)
    await this.#boss.stop({ graceful: true, timeout: 2000 })
  }

  /** Starts an idle local worker at once rather than at its next poll. */
  #wake (type: TaskType) {
    for (const id of this.#workers.get(type) ?? []) this.#boss.notifyWorker(id)
  }

  async #run (type: TaskType, id: string): Promise<void> {
    // Thrown back to pg-boss: the job is fetched again, by another replica or after the restart.
    if (this.#stopping) throw new HandedBack('shutting down')
    const runner = randomUUID()
    const claimed = await claimTask(this.#pool, id, runner)
    if (claimed === undefined) return
    const controller = new AbortController()
    const running: Running = { id, runner, controller, handedBack: false }
    this.#running.set(runner, running)
    const lost = () => controller.abort(new Error('the task is no longer this run\'s: canceled, or taken over by another replica'))
    const heartbeat = setInterval(() => {
      beat(this.#pool, id, runner).then((mine) => { if (!mine) lost() }, (err: unknown) => this.#log.warn({ err, task: id }, 'task heartbeat failed'))
    }, this.#options.heartbeatMs)
    // The handler's writes run one after the other, in the order it made them: sent at once on the
    // pool's connections, an earlier progress could land after a later one (a crawl reports each
    // page without waiting) and the task would end showing 3/4 pages done.
    let writes: Promise<unknown> = Promise.resolve()
    const owned = (write: () => Promise<boolean>): Promise<void> => {
      const done = writes.then(async () => {
        if (!await write()) {
          lost()
          throw controller.signal.reason
        }
      })
      writes = done.catch(() => {})
      return done
    }
    try {
      const handler = this.#handlers.get(type)
      if (handler === undefined) throw new ApiError('task_failed', `this service does not run ${type} tasks`)
      const work = handler({
        task: claimed.task,
        projectId: claimed.projectId,
        payload: claimed.payload === undefined ? undefined : claimed.payload.format === 'bytes' ? claimed.payload.body : JSON.parse(claimed.payload.body.toString('utf8')),
        progress: (done, total) => owned(() => setProgress(this.#pool, id, runner, done, total)),
        details: (details) => owned(() => setDetails(this.#pool, id, runner, details)),
        signal: controller.signal
      })
      // A handler that ignores its signal is left behind: its writes are no longer this runner's.
      work.catch(() => {})
      const stopped = new Promise<never>((_resolve, reject) => {
        controller.signal.addEventListener('abort', () => reject(new Error('task stopped', { cause: controller.signal.reason })), { once: true })
      })
      // A heartbeat answered after the end may still abort: nobody waits for this then.
      stopped.catch(() => {})
      await Promise.race([work, stopped])
      // A write the handler did not wait for (a crawl's last progress) lands before the task ends.
      await Promise.race([writes, stopped])
      await this.#finish(claimed.projectId, id, runner, null)
    } catch (err) {
      if (running.handedBack) throw new HandedBack('handed back at shutdown')
      if (controller.signal.aborted) return
      if (!(err instanceof ApiError)) this.#log.error({ err, task: id, type }, 'task failed')
      await this.#finish(claimed.projectId, id, runner, taskError(err))
    } finally {
      clearInterval(heartbeat)
      this.#running.delete(runner)
    }
  }

  /** Ends a run's task, telling #ended in the same transaction. */
  async #finish (projectId: string, id: string, runner: string, error: ErrorBody | null): Promise<void> {
    const told = this.#ended
    if (told === undefined) {
      await finishTask(this.#pool, id, runner, error)
      return
    }
    await inTransaction(this.#pool, async (client) => {
      if (await finishTask(client, id, runner, error)) {
        const task = await findTask(client, projectId, id)
        if (task !== undefined) await told(client, projectId, task)
      }
    })
  }

  /** Puts the tasks of dead replicas back in the queue, or fails those that died too often. */
  async #recover (): Promise<void> {
    if (Date.now() - this.#prunedAt > PRUNE_EVERY_MS) {
      this.#prunedAt = Date.now()
      const pruned = await pruneFinished(this.#pool, TASK_RETENTION_DAYS)
      if (pruned > 0) this.#log.info({ pruned }, `task queue: deleted the tasks finished more than ${TASK_RETENTION_DAYS} days ago`)
    }
    const requeued = await inTransaction(this.#pool, async (client) => {
      const { requeued, failed } = await recoverStale(client, 3 * this.#options.heartbeatMs, this.#options.maxAttempts,
        errorBody('task_failed', `the task was interrupted ${this.#options.maxAttempts} times: the service running it stopped`))
      for (const { id, type } of requeued) {
        // pg-boss 10 answers {affected} here though its types say void.
        const { affected } = await this.#boss.fail(queueOf(type), id, { message: 'its replica stopped' }, { db: bossDb(client) }) as unknown as { affected: number }
        // pg-boss completes the job of a run that lost its task, even when another replica had
        // taken the job again; if that one died too, no job is left to run the task: say so.
        if (affected === 0) await failOrphan(client, id, errorBody('task_failed', 'the task was lost while a replica that stopped ran it'))
      }
      for (const { id, type, project_id: projectId } of failed) {
        await this.#boss.cancel(queueOf(type), id, { db: bossDb(client) })
        const task = this.#ended === undefined ? undefined : await findTask(client, projectId, id)
        if (task !== undefined) await this.#ended?.(client, projectId, task)
      }
      return requeued
    })
    for (const { id, type } of requeued) {
      this.#log.warn({ task: id, type }, 'task taken over from a replica that stopped')
      this.#wake(type)
    }
  }
}
