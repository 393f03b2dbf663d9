import { parentPort, workerData } from 'node:worker_threads'
import type { RawBatch } from '../engine/port.js'
import { BatchError, parseBatch } from './batch.js'
import type { BatchAnswer } from './batch-thread.js'
import { queuedBatch } from './queued-batch.js'
import { DocumentError, validateBatch } from './validate.js'

/** A thread that parses and checks one large catalog batch, answers it as queued (batch-thread.ts), and ends. */
const { raw } = workerData as { raw: RawBatch }
let answer: BatchAnswer
try {
  const items = parseBatch(raw)
  const queued = queuedBatch(items.length, validateBatch(items))
  // A small Buffer shares Node's pool, which cannot be handed over: copied to one of its own.
  answer = { queued: queued.byteLength === queued.buffer.byteLength ? queued : new Uint8Array(queued), received: items.length }
} catch (err) {
  answer = err instanceof DocumentError
    ? { refused: { kind: 'document', message: err.message } }
    : err instanceof BatchError
      ? { refused: { kind: 'batch', code: err.code, message: err.message } }
      : { error: (err as Error).message }
}
parentPort!.postMessage(answer, 'queued' in answer ? [answer.queued.buffer as ArrayBuffer] : [])
