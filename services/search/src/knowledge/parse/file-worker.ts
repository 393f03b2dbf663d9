import { parentPort, workerData } from 'node:worker_threads'
import { FileRejected } from './file-rejected.js'
import { parseFile, type UploadedFile } from './file.js'
import type { FileAnswer } from './file-thread.js'

/** A thread that parses one uploaded file (see file-thread.ts), answers, and ends. */
const { file, pdfTimeoutMs } = workerData as { file: UploadedFile, pdfTimeoutMs: number }
let answer: FileAnswer
try {
  answer = { page: await parseFile(file, { timeoutMs: pdfTimeoutMs }) }
} catch (err) {
  answer = err instanceof FileRejected
    ? { rejected: { code: err.code, reason: err.reason } }
    : { error: (err as Error).message }
}
parentPort!.postMessage(answer)
