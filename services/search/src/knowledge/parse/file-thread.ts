import { Worker } from 'node:worker_threads'
import { threadEntry } from '../../thread-entry.js'
import type { ParsedPage } from '../types.js'
import { FileRejected, type RejectionCode } from './file-rejected.js'
import type { UploadedFile } from './file.js'

/** What a file-parsing thread answers. */
export type FileAnswer = { page: ParsedPage } | { rejected: { code: RejectionCode, reason: string } } | { error: string }

export interface FileThreadLimits {
  /** The whole parse, thread start included; past it the thread is stopped. */
  timeoutMs: number
  /** The thread's JavaScript heap; a file that needs more is refused. */
  maxHeapMb: number
}

export const FILE_THREAD_DEFAULTS: FileThreadLimits = { timeoutMs: 60_000, maxHeapMb: 512 }

/**
 * Parses an uploaded file (parseFile) on a thread of its own, bounded in time and memory: a hostile
 * file (a PDF built to loop, HTML that expands) costs that thread, which is stopped, never the service
 * or the other tasks. A file it cannot parse within the limits is a FileRejected saying which limit.
 */
export function parseFileOnThread (file: UploadedFile, limits: FileThreadLimits = FILE_THREAD_DEFAULTS): Promise<ParsedPage> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(threadEntry(import.meta.url, 'file-worker'), {
      // Inside, pdf.js checks its own (shorter) deadline between pages and says so more precisely.
      workerData: { file, pdfTimeoutMs: Math.max(1, limits.timeoutMs - 1000) },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: Math.min(64, limits.maxHeapMb) }
    })
    let settled = false
    const settle = (outcome: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      outcome()
      // The answer is in: the thread may still be tearing pdf.js down, which nobody waits for.
      worker.terminate().catch(() => {})
    }
    const timer = setTimeout(() => {
      settle(() => reject(new FileRejected('invalid_file', `${file.name} took longer than ${limits.timeoutMs / 1000} s to read`)))
    }, limits.timeoutMs)
    worker.once('message', (answer: FileAnswer) => {
      settle(() => {
        if ('page' in answer) resolve(answer.page)
        else if ('rejected' in answer) reject(new FileRejected(answer.rejected.code, answer.rejected.reason))
        else reject(new Error(`parsing ${file.name}: ${answer.error}`))
      })
    })
    worker.once('error', (err: Error & { code?: string }) => {
      settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new FileRejected('invalid_file', `${file.name} needs more than ${limits.maxHeapMb} MiB of memory to read`)
        : err))
    })
    worker.once('exit', (code) => { settle(() => reject(new Error(`parsing ${file.name}: the thread stopped (exit code ${code})`))) })
  })
}
