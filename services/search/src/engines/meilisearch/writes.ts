import type { EnqueuedTaskPromise } from 'meilisearch'
import { fromFailedTask, fromMeilisearchError } from './errors.js'

/**
 * Another service instance may change an index's settings (its embedder included): what an adapter
 * keeps of them is read again after this long.
 */
export const SETTINGS_TTL_MS = 2000

/**
 * How an index adapter talks to Meilisearch: errors turned into the API's, writes waited for, and the
 * writes on one index run one after another. One per index (catalog, suggestions and knowledge alike).
 */
export class IndexCalls {
  readonly #taskTimeoutMs: number
  #writes: Promise<unknown> = Promise.resolve()

  constructor (taskTimeoutMs: number) {
    this.#taskTimeoutMs = taskTimeoutMs
  }

  /** Waits for a write to be applied; a failed one throws its error, a slow one a 503. */
  async settle (enqueued: EnqueuedTaskPromise, tolerated?: string): Promise<void> {
    const task = await enqueued.waitTask({ timeout: this.#taskTimeoutMs })
    if (task.status === 'succeeded' || (tolerated !== undefined && task.error?.code === tolerated)) return
    throw fromFailedTask(task)
  }

  /** Runs a call with Meilisearch's errors turned into the API's. */
  async call<T> (work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (err) {
      throw fromMeilisearchError(err, this.#taskTimeoutMs)
    }
  }

  /** Runs a write after the ones before it on this index have finished. */
  async serial<T> (work: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(async () => await this.call(work))
    this.#writes = run.catch(() => {})
    return await run
  }
}
