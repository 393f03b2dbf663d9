import { Worker } from 'node:worker_threads'

export interface ThreadLimits {
  /** The whole job, thread start included; past it the thread is stopped. */
  timeoutMs: number
  /** The thread's JavaScript heap. */
  maxHeapMb: number
}

/** The errors a bounded thread ends with when it does not answer. */
export interface ThreadFailures {
  timeout: () => Error
  outOfMemory: () => Error
  stopped: (exitCode: number) => Error
}

/**
 * Threads that answered a job in full and wait for the next job of their kind (entry and heap): a
 * start costs about 0.1 s compiled and 2 s from the TypeScript sources, more than most files' parse.
 * They do not keep the process alive and stop after a minute unused; at most two of a kind are kept.
 */
interface Spare { worker: Worker, timer: NodeJS.Timeout, drop: () => void }
const spares = new Map<string, Spare[]>()
const SPARES_MAX = 2
const SPARE_IDLE_MS = 60_000

/**
 * Sends `job` to a thread at `entry` (a thread that answers each message it gets with one message),
 * bounded in time and heap, and resolves with its answer. Past the time or the heap, or when the
 * thread ends without answering, it rejects with the matching failure; a thread's own error as it is.
 * A thread that failed is stopped (it may still be tearing down what nobody waits for); one whose
 * answer `keep` accepts is kept for the next job of its kind, any other is stopped.
 */
export function answerOnThread<Answer> (
  entry: URL,
  job: unknown,
  limits: ThreadLimits,
  failures: ThreadFailures,
  keep: (answer: Answer) => boolean = () => false
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const kind = `${limits.maxHeapMb} ${entry.href}`
    const worker = takeSpare(kind) ?? new Worker(entry, {
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: Math.min(64, limits.maxHeapMb) }
    })
    let settled = false
    const settle = (outcome: () => void, answer?: { value: Answer }) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      worker.off('message', onMessage).off('error', onError).off('exit', onExit)
      outcome()
      if (answer !== undefined && keep(answer.value)) park(kind, worker)
      else worker.terminate().catch(() => {})
    }
    const onMessage = (answer: Answer) => { settle(() => resolve(answer), { value: answer }) }
    const onError = (err: Error & { code?: string }) => {
      settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? failures.outOfMemory() : err))
    }
    const onExit = (code: number) => { settle(() => reject(failures.stopped(code))) }
    const timer = setTimeout(() => { settle(() => reject(failures.timeout())) }, limits.timeoutMs)
    worker.on('message', onMessage).on('error', onError).on('exit', onExit)
    worker.postMessage(job)
  })
}

/** How many threads wait for a job, of every kind. */
export function keptThreads (): number {
  return [...spares.values()].reduce((n, waiting) => n + waiting.length, 0)
}

function takeSpare (kind: string): Worker | undefined {
  const spare = spares.get(kind)?.pop()
  if (spare === undefined) return undefined
  clearTimeout(spare.timer)
  spare.worker.off('error', spare.drop).off('exit', spare.drop)
  spare.worker.ref()
  return spare.worker
}

function park (kind: string, worker: Worker): void {
  const waiting = spares.get(kind) ?? []
  if (waiting.length >= SPARES_MAX) {
    worker.terminate().catch(() => {})
    return
  }
  const spare: Spare = {
    worker,
    timer: setTimeout(() => spare.drop(), SPARE_IDLE_MS).unref(),
    drop: () => {
      const at = waiting.indexOf(spare)
      if (at !== -1) waiting.splice(at, 1)
      clearTimeout(spare.timer)
      worker.off('error', spare.drop).off('exit', spare.drop)
      worker.terminate().catch(() => {})
    }
  }
  // An error event nobody listens to would be thrown in the service.
  worker.on('error', spare.drop).on('exit', spare.drop)
  worker.unref()
  waiting.push(spare)
  spares.set(kind, waiting)
}
