import pLimit from 'p-limit'
import { ApiError } from '@chatsearch/shell'
import type { RawBatch } from '../engine/port.js'
import { answerOnThread, type ThreadLimits } from '../one-shot-thread.js'
import { threadEntry } from '../thread-entry.js'
import { BatchError } from './batch.js'
import { DocumentError } from './validate.js'

/** What the batch thread answers: the batch as queued (queued-batch.ts), or why it is refused. */
export type BatchAnswer =
  | { queued: Uint8Array, received: number }
  | { refused: { kind: 'document', message: string } | { kind: 'batch', code: BatchError['code'], message: string } }
  | { error: string }

/**
 * Parsing and checking a large body of small items takes seconds (4 million items of two fields,
 * 113 MiB: 15 s to parse, 6 s to check); the heap it needs is a few times the body.
 */
export const BATCH_THREAD_DEFAULTS: ThreadLimits = { timeoutMs: 120_000, maxHeapMb: 2048 }

/**
 * A batch too large to index while the client waits, parsed and checked whole on a thread of its own
 * and written as it will be queued: the event loop that serves every project's searches never holds
 * it. One check runs at a time per process; the others wait. A bad item rejects with the
 * DocumentError or BatchError the route would have thrown; a batch past the thread's time or memory
 * with 413 payload_too_large, which asks for smaller batches.
 */
export async function queueBatchOnThread (raw: RawBatch, limits: ThreadLimits = BATCH_THREAD_DEFAULTS): Promise<{ queued: Buffer, received: number }> {
  return await checks(() => queueBatch(raw, limits))
}

/** One check at a time per process: each may take a few times its 64 MiB body in memory (3.2 GB measured for 63 MiB). */
const checks = pLimit(1)

async function queueBatch (raw: RawBatch, limits: ThreadLimits): Promise<{ queued: Buffer, received: number }> {
  const smaller = (why: string) => new ApiError('payload_too_large', `the batch ${why} to check: send it as smaller batches`)
  const answer = await answerOnThread<BatchAnswer>(threadEntry(import.meta.url, 'batch-worker'), { raw }, limits, {
    timeout: () => smaller(`takes longer than ${limits.timeoutMs / 1000} s`),
    outOfMemory: () => smaller(`needs more than ${limits.maxHeapMb} MiB of memory`),
    stopped: (code) => new Error(`checking a batch: the thread stopped (exit code ${code})`)
  })
  if ('queued' in answer) return { queued: Buffer.from(answer.queued.buffer, answer.queued.byteOffset, answer.queued.byteLength), received: answer.received }
  if ('error' in answer) throw new Error(`checking a batch: ${answer.error}`)
  if (answer.refused.kind === 'document') throw new DocumentError(answer.refused.message)
  throw new BatchError(answer.refused.code, answer.refused.message)
}
