import { Piscina } from 'piscina'
import { Batcher, type BatchStats } from './batcher.js'
import { embedByLength, embedNonBlank, type Embedder } from './embedder.js'
import { USE_LITE_BATCH, USE_LITE_DIMENSIONS } from './use-lite-model.js'

/** USE-lite embedding on worker threads, so that no model work runs on the caller's event loop. */
export interface PooledEmbedder extends Embedder {
  /** The batches sent to the threads so far (texts of concurrent calls share one). */
  readonly stats: BatchStats
  /** Ends the threads; calls still waiting, and later ones, are rejected. */
  close (): Promise<void>
}

/**
 * Compiled (dist/*.js) the thread runs embed-worker.js; from the TypeScript sources, embed-worker.mjs,
 * which registers tsx in the thread first (the same arrangement as the search service's reader threads).
 */
function workerFile (): URL {
  const extension = import.meta.url.endsWith('.ts') ? 'mjs' : 'js'
  return new URL(`./embed-worker.${extension}`, import.meta.url)
}

/**
 * `threads` worker threads, each loading USE-lite once, behind a batcher that sends the texts of
 * concurrent calls together (a text costs about 2.6× less in a batch than alone). Resolves once a
 * thread has loaded the model, so a broken install fails at start-up. Idle threads do not keep the
 * process alive (piscina unrefs them), so a process that never calls close() still exits.
 */
export async function createPooledEmbedder (threads: number): Promise<PooledEmbedder> {
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`an embedding pool needs at least one thread, not ${threads}`)
  const pool = new Piscina<string[], Float32Array>({
    filename: workerFile().href,
    minThreads: threads,
    maxThreads: threads,
    // Nothing queues inside piscina: the batcher keeps at most one batch per thread in flight.
    concurrentTasksPerWorker: 1
  })
  const run = async (texts: string[]): Promise<Float32Array[]> => {
    const flat = await pool.run(texts)
    return Array.from({ length: flat.length / USE_LITE_DIMENSIONS }, (_, i) => flat.slice(i * USE_LITE_DIMENSIONS, (i + 1) * USE_LITE_DIMENSIONS))
  }
  try {
    await run(['warm up'])
  } catch (err) {
    await pool.destroy()
    throw err
  }
  const batcher = new Batcher(run, { maxBatch: USE_LITE_BATCH, concurrency: threads })
  return {
    dimensions: USE_LITE_DIMENSIONS,
    embed: (texts) => embedNonBlank(texts, USE_LITE_DIMENSIONS, (some) => embedByLength(some, (sorted) => batcher.embed(sorted))),
    get stats () { return batcher.stats },
    async close () {
      batcher.close(new Error('the embedder is closed'))
      await pool.destroy()
    }
  }
}
