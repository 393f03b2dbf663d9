import { parentPort, workerData } from 'node:worker_threads'
import { EmbeddedIndex } from './index.js'
import { lowerThisThread } from './thread-priority.js'
import type { ReaderClose, ReaderRequest, ReaderResponse } from './readers.js'

/**
 * A reader thread: answers searches, facet searches, suggestions and filtered reads by id (a search
 * rule's pinned items) from its own SQLite connections, so a long query never blocks the service's
 * event loop. SQLite's WAL mode lets it read while the main thread writes; the index notices those
 * writes through data_version. It keeps an index per catalog file the engine has open and closes it
 * when the engine closes the file (see OpenIndexes): it never holds more than the engine's cap.
 */
const indexes = new Map<string, EmbeddedIndex>()
const { embedder, nice } = workerData as { embedder: { id: string, dimensions: number }, nice: number }
lowerThisThread(nice)

// answer() never rejects: failures travel back as { error }.
parentPort!.on('message', (message: ReaderRequest | ReaderClose) => {
  if (message.method === 'close') {
    indexes.get(message.file)?.close()
    indexes.delete(message.file)
    return
  }
  answer(message).then((response) => parentPort!.postMessage(response), () => {})
})

async function answer ({ id, file, method, args }: ReaderRequest): Promise<ReaderResponse> {
  try {
    let index = indexes.get(file)
    if (index === undefined) {
      index = new EmbeddedIndex(file, embedder)
      indexes.set(file, index)
    }
    let result: unknown
    if (method === 'search') result = await index.search(args[0])
    else if (method === 'facetSearch') result = await index.facetSearch(args[0])
    else if (method === 'getMany') result = await index.getMany(args[0], args[1])
    else result = await index.suggest(args[0], args[1], args[2])
    return { id, result }
  } catch (err) {
    return { id, error: (err as Error).message }
  }
}
