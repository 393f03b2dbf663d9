import { parentPort, workerData } from 'node:worker_threads'
import { EmbeddedIndex } from './index.js'
import { lowerThisThread } from './thread-priority.js'
import type { WriteRequest, WriteResponse } from './writer.js'

/**
 * The writer thread: writes batches of documents to the catalog files on its own SQLite connections
 * (see writer.ts), one request after the other. Each index notices the commit through data_version
 * and patches its derived data from the change log.
 */
const indexes = new Map<string, EmbeddedIndex>()
const { embedder, nice } = workerData as { embedder: { id: string, dimensions: number }, nice: number }
lowerThisThread(nice)

// answer() never rejects: failures travel back as { error }.
parentPort!.on('message', (request: WriteRequest) => {
  answer(request).then((response) => parentPort!.postMessage(response), () => {})
})

async function answer ({ id, file, documents }: WriteRequest): Promise<WriteResponse> {
  try {
    let index = indexes.get(file)
    if (index === undefined) {
      index = new EmbeddedIndex(file, embedder)
      indexes.set(file, index)
    }
    await index.upsert(documents)
    index.checkpoint()
    return { id }
  } catch (err) {
    return { id, error: (err as Error).message }
  }
}
