import { parentPort, workerData } from 'node:worker_threads'
import type { EmbedTexts, IngestResult } from '../../engine/port.js'
import { BatchError, parseBatch } from '../../ingest/batch.js'
import { DocumentError, validateBatch } from '../../ingest/validate.js'
import { writeValidated } from '../../ingest/write.js'
import { EmbeddedIndex } from './index.js'
import { lowerThisThread } from './thread-priority.js'
import type { WriteRequest, WriteResponse } from './writer.js'

/**
 * The writer thread: writes batches of documents to the catalog files on its own SQLite connections
 * (see writer.ts), one request after the other. Each index notices the commit through data_version
 * and patches its derived data from the change log. An index is kept per catalog file the engine
 * has open and closed when the engine closes the file (see OpenIndexes): no more than the engine's cap.
 */
const indexes = new Map<string, EmbeddedIndex>()
const { embedder, nice } = workerData as { embedder: { id: string, dimensions: number }, nice: number }
lowerThisThread(nice)

/** Ingests waiting for their vectors from the service's thread, by request id. */
const vectorsFor = new Map<number, { resolve: (vectors: Array<Float32Array | null>) => void, reject: (err: Error) => void }>()

const post = (response: WriteResponse) => parentPort!.postMessage(response)

// Requests run as they come, as on the service's thread: writes to one file wait for each other
// inside the index; a batch waiting for its vectors holds nothing else up.
parentPort!.on('message', (request: WriteRequest) => {
  if (request.kind === 'vectors') {
    const waiting = vectorsFor.get(request.id)
    vectorsFor.delete(request.id)
    if (request.error !== undefined) waiting?.reject(new Error(request.error))
    else waiting?.resolve(request.vectors ?? [])
    return
  }
  if (request.kind === 'close') {
    indexes.get(request.file)?.close()
    indexes.delete(request.file)
    return
  }
  // answer() never rejects: failures travel back in the response.
  answer(request).then(post, () => {})
})

function indexOf (file: string): EmbeddedIndex {
  let index = indexes.get(file)
  if (index === undefined) {
    index = new EmbeddedIndex(file, embedder)
    indexes.set(file, index)
  }
  return index
}

/** Asks the service's thread to embed `texts` for request `id`. */
const embedFor = (id: number): EmbedTexts => (texts) => new Promise((resolve, reject) => {
  vectorsFor.set(id, { resolve, reject })
  post({ id, kind: 'embed', texts })
})

async function answer (request: Exclude<WriteRequest, { kind: 'vectors' | 'close' }>): Promise<WriteResponse> {
  const { id } = request
  try {
    const index = indexOf(request.file)
    let result: IngestResult | undefined
    if (request.kind === 'record') {
      // Checkpointed by SQLite itself past its threshold, on this thread.
      await index.recordQuery(request.query, request.search)
      return { id, kind: 'done' }
    }
    if (request.kind === 'upsert') {
      await index.upsert(request.documents)
    } else {
      const items = parseBatch(request.raw)
      result = items.length > request.maxItems ? undefined : await writeValidated(index, validateBatch(items), items.length, request.embed ? embedFor(id) : undefined)
    }
    index.checkpoint()
    return { id, kind: 'done', ...(result === undefined ? {} : { result }) }
  } catch (err) {
    const refused = err instanceof BatchError ? err.code : err instanceof DocumentError ? 'invalid_document' : undefined
    return { id, kind: 'done', error: (err as Error).message, ...(refused === undefined ? {} : { refused }) }
  }
}
