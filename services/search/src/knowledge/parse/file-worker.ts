import { parentPort, workerData } from 'node:worker_threads'
import { chunkPage } from '../chunk.js'
import { FileRejected } from './file-rejected.js'
import { parseFile, parseSource } from './file.js'
import type { FileAnswer, ParseJob } from './file-thread.js'

/**
 * A thread that parses one uploaded file, or parses and chunks one document sent as text (see
 * file-thread.ts), answers, and ends.
 */
const { job, pdfTimeoutMs } = workerData as { job: ParseJob, pdfTimeoutMs: number }
let answer: FileAnswer
try {
  if ('file' in job) answer = { page: await parseFile(job.file, { timeoutMs: pdfTimeoutMs }) }
  else {
    const { format, content, title, url } = job.source
    answer = { chunks: chunkPage(parseSource(format, content, title, url)) }
  }
} catch (err) {
  answer = err instanceof FileRejected
    ? { rejected: { code: err.code, reason: err.reason } }
    : { error: (err as Error).message }
}
parentPort!.postMessage(answer)
