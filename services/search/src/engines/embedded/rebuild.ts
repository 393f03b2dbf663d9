import { Worker } from 'node:worker_threads'
import type { IndexSettings } from '../../engine/port.js'
import { threadEntry } from '../../thread-entry.js'

export interface RebuildRequest {
  file: string
  embedder: { id: string, dimensions: number }
  settings: IndexSettings
}

/**
 * Re-indexes one catalog file with new settings on a thread of its own (rebuild-worker.ts), which
 * ends when it is done. About 75 µs an item on this project's machines: seconds for a large catalog,
 * which on the service's thread would hold every request that long.
 */
export function rebuildOnThread (request: RebuildRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(threadEntry(import.meta.url, 'rebuild-worker'), { workerData: request })
    let answered = false
    worker.once('message', (answer: { error?: string }) => {
      answered = true
      if (answer.error === undefined) resolve()
      else reject(new Error(`settings rebuild: ${answer.error}`))
    })
    worker.once('error', (err) => { answered = true; reject(err) })
    worker.once('exit', (code) => { if (!answered) reject(new Error(`settings rebuild stopped (exit code ${code})`)) })
  })
}
