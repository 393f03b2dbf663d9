import { setTimeout as sleep } from 'node:timers/promises'
import type pg from 'pg'
import type { Task, TaskType } from '@chatsearch/contracts'
import type { Embedder } from '@chatsearch/embeddings'
import { migrate } from '@chatsearch/shell'
import { crawlLimitsOf, knowledgeCrawl, knowledgeFiles, searchMigrations, TASK_DEFAULTS, TaskQueue } from '@chatsearch/search/tasks'
import { queueTaskEnded, webhookMigrations } from '@chatsearch/webhooks'
import type { SearchConfig } from '@chatsearch/search/tools'
import { requireProject, withDatabase } from './database.js'
import { openEngine, type SearchEngine } from './engine.js'
import { CommandError } from './errors.js'

/** The tasks this process can run: the knowledge tasks (a catalog import needs the service's cache). */
export type LocalTaskType = Extract<TaskType, 'crawl' | 'files'>
export const runsHere = (type: TaskType): type is LocalTaskType => type === 'crawl' || type === 'files'

export const isFinished = (task: Task) => task.status === 'succeeded' || task.status === 'failed' || task.status === 'canceled'

/** The queue's connections: pg-boss's workers and maintenance, heartbeats, and the command's own reads. */
const POOL_SIZE = 4
const POLL_MS = 250
/** How long a followed task may wait in the queue before the command says why nothing moves. */
const QUEUED_NOTE_MS = 3000

type QueueLog = Parameters<typeof TaskQueue.start>[1]

/** The queue's warnings and errors as lines on stderr; its info and debug lines are dropped. */
function stderrLog (): QueueLog {
  const line = (level: string) => (obj: unknown, msg?: string) => {
    const fields = typeof obj === 'object' && obj !== null ? obj as { err?: unknown, task?: unknown } : {}
    const task = typeof fields.task === 'string' ? ` (task ${fields.task})` : ''
    const err = fields.err instanceof Error ? `: ${fields.err.message}` : ''
    process.stderr.write(`${level}: ${typeof obj === 'string' ? obj : msg ?? ''}${task}${err}\n`)
  }
  const quiet = () => {}
  const log: QueueLog = { level: 'warn', fatal: line('error'), error: line('error'), warn: line('warning'), info: quiet, debug: quiet, trace: quiet, silent: quiet, child: () => log }
  return log
}

/**
 * This process as one more replica of the search service's task queue, on the services' database:
 * it queues tasks as the HTTP routes do and, once asked to run a type, takes tasks of that type
 * like any replica (a running service may take them first).
 */
export class Replica {
  readonly queue: TaskQueue
  /** Tasks this process took: one of them still enqueued after close was handed back. */
  readonly took = new Set<string>()
  readonly #config: SearchConfig
  readonly #running = new Set<LocalTaskType>()
  #writer: { engine: SearchEngine, embedder: Embedder | undefined } | undefined
  #closed = false

  private constructor (queue: TaskQueue, config: SearchConfig) {
    this.queue = queue
    this.#config = config
  }

  static async start (db: pg.Pool, config: SearchConfig): Promise<Replica> {
    await migrate(db, 'search', searchMigrations)
    await migrate(db, 'webhooks', webhookMigrations)
    // No grace at the end: a task this process still runs when the command ends (another project's,
    // or its own at Ctrl-C) is handed back at once, whole, for a service or the next command to run.
    const options = { ...TASK_DEFAULTS, ...config.tasks, concurrency: 1, shutdownGraceMs: 0 }
    // A task this process ends is announced to the project's webhooks like a service's: the
    // deliveries are written with its end, and a running service's worker sends them.
    return new Replica(await TaskQueue.start(db, stderrLog(), options, queueTaskEnded), config)
  }

  runs (type: TaskType): boolean {
    return this.#running.has(type as LocalTaskType)
  }

  /** Takes tasks of `type` from now on, writing with the engine and embedder the service is configured with. */
  async run (type: LocalTaskType): Promise<void> {
    if (this.#running.has(type)) return
    this.#running.add(type)
    this.#writer ??= await openEngine(this.#config, true)
    const writer = this.#writer
    const handler = type === 'files' ? knowledgeFiles(writer) : knowledgeCrawl(writer, crawlLimitsOf(this.#config))
    await this.queue.register(type, async (context) => {
      this.took.add(context.task.id)
      await handler(context)
    })
  }

  /** Stops taking tasks and hands back those running (see TaskQueue.close), then closes the engine. */
  async close (): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.queue.close()
    await this.#writer?.engine.close()
  }
}

/** Runs `work` with this process as a replica of the task queue, once the project is known to exist. */
export async function withReplica<T> (env: NodeJS.ProcessEnv, config: SearchConfig, projectId: string, work: (replica: Replica) => Promise<T>): Promise<T> {
  return await withDatabase(env, async (db) => {
    await requireProject(db, projectId)
    const replica = await Replica.start(db, config)
    try {
      return await work(replica)
    } finally {
      await replica.close()
    }
  }, POOL_SIZE)
}

/**
 * Runs `work` with a signal that Ctrl-C (or SIGTERM) aborts, so that it can stop cleanly; a second
 * Ctrl-C exits at once. Afterwards the signals end the process again as they do by default.
 */
export async function interruptible<T> (work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  const stop = () => {
    if (controller.signal.aborted) process.exit(130)
    controller.abort()
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  try {
    return await work(controller.signal)
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
}

/** Shown a followed task as it moves, once it knows how much there is to do. */
export type TaskProgress = (task: Task) => void

async function follow (replica: Replica, projectId: string, id: string, progress: TaskProgress, signal: AbortSignal): Promise<Task | undefined> {
  const started = Date.now()
  let noted = false
  while (!signal.aborted) {
    const task = await replica.queue.get(projectId, id)
    if (task === undefined) throw new CommandError(`no task ${id} in project ${projectId}`)
    if (task.progress.total > 0) progress(task)
    if (isFinished(task)) return task
    if (task.status === 'enqueued' && !noted && Date.now() - started > QUEUED_NOTE_MS) {
      noted = true
      process.stderr.write(replica.runs(task.type)
        ? `task ${id} waits in the queue behind other ${task.type} tasks\n`
        : `task ${id} waits for a search service to take it: ${task.type} tasks run there\n`)
    }
    await sleep(POLL_MS, undefined, { signal }).catch(() => {})
  }
  return undefined
}

/**
 * Follows a task to its end. When `signal` stops the following first, this process hands back the
 * task if it runs it (the documents written so far are whole; a new run skips them as unchanged),
 * and the error says where the task is now.
 */
export async function untilEnd (replica: Replica, projectId: string, id: string, progress: TaskProgress, signal: AbortSignal): Promise<Task> {
  const finished = await follow(replica, projectId, id, progress, signal)
  if (finished !== undefined) return finished
  await replica.close()
  const task = await replica.queue.get(projectId, id)
  if (task !== undefined && isFinished(task)) return task
  const resume = `pnpm -s cli tasks ${projectId} ${id} --wait`
  if (task?.status === 'enqueued' && replica.took.has(id)) {
    throw new CommandError(`interrupted: task ${id} was handed back to the queue; what it wrote so far is whole and is skipped as unchanged when it runs again, in a search service or here with \`${resume}\``)
  }
  if (task?.status === 'processing') throw new CommandError(`interrupted: stopped following task ${id}, which another replica runs (a search service, or another command); follow it again with \`${resume}\``)
  throw new CommandError(`interrupted: task ${id} stays in the queue until a search service takes it, or \`${resume}\` runs it here`)
}
