import { Worker } from 'node:worker_threads'
import { ApiError } from '@chatsearch/shell'
import type { RawBatch } from '../engine/port.js'
import { threadEntry } from '../thread-entry.js'
import { BatchError } from './batch.js'
import { DocumentError } from './validate.js'

/** What the batch thread answers: the batch as queued (queued-batch.ts), or why it is refused. */
export type BatchAnswer =
  | { queued: Uint8Array, received: number }
  | { refused: { kind: 'document', message: string } | { kind: 'batch', code: BatchError['code'], message: string } }
  | { error: string }

export interface BatchThreadLimits { timeoutMs: number, maxHeapMb: number }

/**
 * Parsing and checking 64 MiB of small items takes seconds (4 million items of two fields: 15 s to
 * parse, 6 s to check); the heap it needs is a few times the body.
 */
export const BATCH_THREAD_DEFAULTS: BatchThreadLimits = { timeoutMs: 120_000, maxHeapMb: 2048 }

/**
 * A batch too large to index while the client waits, parsed and checked whole on a thread of its own
 * and written as it will be queued: the event loop that serves every project's searches never holds
 * it. A bad item rejects with the DocumentError or BatchError the route would have thrown; a batch
 * past the thread's time or memory with 413 payload_too_large, which asks for smaller batches.
 */
export function queueBatchOnThread (raw: RawBatch, limits: BatchThreadLimits = BATCH_THREAD_DEFAULTS): Promise<{ queued: Buffer, received: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(threadEntry(import.meta.url, 'batch-worker'), {
      workerData: { raw },
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
    const smaller = (why: string) => new ApiError('payload_too_large', `the batch ${why} to check: send it as smaller batches`)
    const timer = setTimeout(() => { settle(() => reject(smaller(`takes longer than ${limits.timeoutMs / 1000} s`))) }, limits.timeoutMs)
    worker.once('message', (answer: BatchAnswer) => {
      settle(() => {
        if ('queued' in answer) resolve({ queued: Buffer.from(answer.queued.buffer, answer.queued.byteOffset, answer.queued.byteLength), received: answer.received })
        else if ('error' in answer) reject(new Error(`checking a batch: ${answer.error}`))
        else if (answer.refused.kind === 'document') reject(new DocumentError(answer.refused.message))
        else reject(new BatchError(answer.refused.code, answer.refused.message))
      })
    })
    worker.once('error', (err: Error & { code?: string }) => {
      settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? smaller(`needs more than ${limits.maxHeapMb} MiB of memory`) : err))
    })
    worker.once('exit', (code) => { settle(() => reject(new Error(`checking a batch: the thread stopped (exit code ${code})`))) })
  })
}
