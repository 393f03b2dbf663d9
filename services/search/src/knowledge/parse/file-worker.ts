import { parentPort } from 'node:worker_threads'
import { chunkPage } from '../chunk.js'
import type { Chunk } from '../types.js'
import { FileRejected } from './file-rejected.js'
import { parseFile, parseSource } from './file.js'
import type { FileAnswer, ParseJob } from './file-thread.js'

/**
 * A thread that parses and chunks an uploaded file, or documents sent as text (see file-thread.ts),
 * for each message it gets, and answers each; one at a time, as file-thread.ts sends them.
 */
async function answer ({ job, pdfTimeoutMs }: { job: ParseJob, pdfTimeoutMs: number }): Promise<FileAnswer> {
  try {
    if ('file' in job) {
      const page = await parseFile(job.file, { timeoutMs: pdfTimeoutMs })
      return { page, chunks: chunkPage(page) }
    }
    const chunks: Chunk[][] = []
    for (const { name, format, content, title, url } of job.sources) {
      try {
        chunks.push(chunkPage(parseSource(format, content, title, url)))
      } catch (err) {
        if (err instanceof FileRejected) throw new FileRejected(err.code, `${name}: ${err.reason}`)
        throw err
      }
    }
    return { chunks }
  } catch (err) {
    return err instanceof FileRejected
      ? { rejected: { code: err.code, reason: err.reason } }
      : { error: (err as Error).message }
  }
}

parentPort!.on('message', (request: { job: ParseJob, pdfTimeoutMs: number }) => {
  answer(request).then((reply) => { parentPort!.postMessage(reply) }, (err: unknown) => { parentPort!.postMessage({ error: String(err) } satisfies FileAnswer) })
})
