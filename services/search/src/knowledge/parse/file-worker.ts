import { parentPort, workerData } from 'node:worker_threads'
import { chunkPage } from '../chunk.js'
import type { Chunk } from '../types.js'
import { FileRejected } from './file-rejected.js'
import { parseFile, parseSource } from './file.js'
import type { FileAnswer, ParseJob } from './file-thread.js'

/**
 * A thread that parses and chunks one uploaded file, or documents sent as text (see
 * file-thread.ts), answers, and ends.
 */
const { job, pdfTimeoutMs } = workerData as { job: ParseJob, pdfTimeoutMs: number }
let answer: FileAnswer
try {
  if ('file' in job) {
    const page = await parseFile(job.file, { timeoutMs: pdfTimeoutMs })
    answer = { page, chunks: chunkPage(page) }
  } else {
    const chunks: Chunk[][] = []
    for (const { name, format, content, title, url } of job.sources) {
      try {
        chunks.push(chunkPage(parseSource(format, content, title, url)))
      } catch (err) {
        if (err instanceof FileRejected) throw new FileRejected(err.code, `${name}: ${err.reason}`)
        throw err
      }
    }
    answer = { chunks }
  }
} catch (err) {
  answer = err instanceof FileRejected
    ? { rejected: { code: err.code, reason: err.reason } }
    : { error: (err as Error).message }
}
parentPort!.postMessage(answer)
