import { Worker } from 'node:worker_threads'
import type { PreparedDocument } from '../../engine/port.js'
import { threadEntry } from '../../thread-entry.js'

export interface WriteRequest { id: number, file: string, documents: PreparedDocument[] }
export interface WriteResponse { id: number, error?: string }

interface Pending { resolve: () => void, reject: (err: Error) => void }

/**
 * One thread that writes batches of documents for every catalog file of an engine (writer-worker.ts).
 * A batch of 1,000 items holds its thread for about half a second at 50k items: on the service's
 * thread that would hold every request as long. Started on the first write; a thread that dies
 * fails its requests and the next write starts another.
 */
export class WriterThread {
  readonly #embedder: { id: string, dimensions: number }
  readonly #nice: number
  readonly #pending = new Map<number, Pending>()
  #worker: Worker | undefined
  #nextId = 0

  /** `nice`: how much lower than the event loop the thread runs (see thread-priority.ts). */
  constructor (embedder: { id: string, dimensions: number }, nice = 0) {
    this.#embedder = embedder
    this.#nice = nice
  }

  upsert (file: string, documents: PreparedDocument[]): Promise<void> {
    const worker = this.#worker ?? this.#spawn()
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) worker.ref()
      this.#pending.set(id, { resolve, reject })
      worker.postMessage({ id, file, documents } satisfies WriteRequest)
    })
  }

  async close () {
    const worker = this.#worker
    this.#worker = undefined
    await worker?.terminate()
  }

  #spawn (): Worker {
    const worker = new Worker(threadEntry(import.meta.url, 'writer-worker'), { workerData: { embedder: this.#embedder, nice: this.#nice } })
    this.#worker = worker
    worker.on('message', ({ id, error }: WriteResponse) => {
      const pending = this.#pending.get(id)
      if (pending === undefined) return
      this.#pending.delete(id)
      if (this.#pending.size === 0) worker.unref()
      if (error === undefined) pending.resolve()
      else pending.reject(new Error(error))
    })
    const fail = (err: Error) => {
      if (this.#worker === worker) this.#worker = undefined
      for (const p of this.#pending.values()) p.reject(err)
      this.#pending.clear()
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`catalog writer stopped (exit code ${code})`)))
    worker.unref()
    return worker
  }
}
