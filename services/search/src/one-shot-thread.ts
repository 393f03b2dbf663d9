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
 * Starts a thread at `entry` with `workerData`, bounded in time and heap, and resolves with the one
 * message it answers (the thread is then stopped: it may still be tearing down what nobody waits
 * for). Past the time or the heap, or when the thread ends without answering, it rejects with the
 * matching failure; a thread's own error as it is.
 */
export function answerOnThread<Answer> (entry: URL, workerData: unknown, limits: ThreadLimits, failures: ThreadFailures): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry, {
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: Math.min(64, limits.maxHeapMb) }
    })
    let settled = false
    const settle = (outcome: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      outcome()
      worker.terminate().catch(() => {})
    }
    const timer = setTimeout(() => { settle(() => reject(failures.timeout())) }, limits.timeoutMs)
    worker.once('message', (answer: Answer) => { settle(() => resolve(answer)) })
    worker.once('error', (err: Error & { code?: string }) => {
      settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? failures.outOfMemory() : err))
    })
    worker.once('exit', (code) => { settle(() => reject(failures.stopped(code))) })
  })
}
