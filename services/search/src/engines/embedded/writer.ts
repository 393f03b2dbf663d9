import { Worker } from 'node:worker_threads'
import type { EmbedTexts, IngestResult, PreparedDocument, RawBatch, RecordedSearch } from '../../engine/port.js'
import { BatchError } from '../../ingest/batch.js'
import { threadEntry } from '../../thread-entry.js'

/** What the service's thread asks of the writer thread. */
export type WriteRequest =
  | { id: number, kind: 'upsert', file: string, documents: PreparedDocument[] }
  | { id: number, kind: 'ingest', file: string, raw: RawBatch, embed: boolean, maxItems: number }
  | { id: number, kind: 'record', file: string, query: string, search: RecordedSearch }
  | { id: number, kind: 'vectors', vectors?: Array<Float32Array | null>, error?: string }
  /** The engine closed `file` (see OpenIndexes): the thread closes its index of it. */
  | { kind: 'close', file: string }

/** What it answers: a request's end, or, during an ingest, the texts whose vectors it needs. */
export type WriteResponse =
  | { id: number, kind: 'done', result?: IngestResult, error?: string, refused?: BatchError['code'] }
  | { id: number, kind: 'embed', texts: string[] }

interface Pending {
  resolve: (result: IngestResult | undefined) => void
  reject: (err: Error) => void
  embed?: EmbedTexts | undefined
  /** The embedder's own error, which the batch then fails with (a message alone would lose its kind). */
  embedError?: unknown
}

/**
 * One thread that writes batches of documents for every catalog file of an engine (writer-worker.ts).
 * A batch of 1,000 items holds its thread for about half a second at 50k items: on the service's
 * thread that would hold every request as long. A batch sent as bytes is also parsed, validated and
 * hashed there; its vectors come from the service's embedder, asked over the same channel. Started on
 * the first write; a thread that dies fails its requests and the next write starts another.
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

  async upsert (file: string, documents: PreparedDocument[]): Promise<void> {
    await this.#ask((id) => ({ id, kind: 'upsert', file, documents }))
  }

  /**
   * Records a search for autocomplete's popularity. On the service's thread, that small write could
   * commit past SQLite's checkpoint threshold and copy the write-ahead log into the file there: 30 to
   * 120 ms of the event loop, in a profile taken during a 50k import.
   */
  async record (file: string, query: string, search: RecordedSearch): Promise<void> {
    await this.#ask((id) => ({ id, kind: 'record', file, query, search }))
  }

  /**
   * Parses, validates and writes `raw` on the thread (see ingestBatch in ingest/documents.ts); a
   * refused batch rejects with its BatchError, as if it had been parsed here.
   */
  ingest (file: string, raw: RawBatch, embed: EmbedTexts | undefined, maxItems: number): Promise<IngestResult | undefined> {
    return this.#ask((id) => ({ id, kind: 'ingest', file, raw, embed: embed !== undefined, maxItems }), embed)
  }

  /**
   * The thread closes its index of `file`. The engine closes a file only when no call on it is
   * running, so no write of it is in flight; a later one, sent after this, opens it again.
   */
  closeFile (file: string) {
    this.#worker?.postMessage({ kind: 'close', file } satisfies WriteRequest)
  }

  /** Requests sent and not yet answered. */
  get pending (): number {
    return this.#pending.size
  }

  async close () {
    const worker = this.#worker
    this.#worker = undefined
    await worker?.terminate()
  }

  #ask (request: (id: number) => WriteRequest, embed?: EmbedTexts): Promise<IngestResult | undefined> {
    const worker = this.#worker ?? this.#spawn()
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) worker.ref()
      this.#pending.set(id, { resolve, reject, embed })
      worker.postMessage(request(id))
    })
  }

  /** The vectors of an ingest's changed items, computed here (the embedding pool) and sent back. */
  #embed (worker: Worker, id: number, texts: string[]) {
    const pending = this.#pending.get(id)
    if (pending?.embed === undefined) return worker.postMessage({ id, kind: 'vectors', error: 'no embedder for this batch' } satisfies WriteRequest)
    pending.embed(texts).then(
      (vectors) => worker.postMessage({ id, kind: 'vectors', vectors } satisfies WriteRequest),
      (err: unknown) => {
        pending.embedError = err
        worker.postMessage({ id, kind: 'vectors', error: err instanceof Error ? err.message : String(err) } satisfies WriteRequest)
      }
    )
  }

  #spawn (): Worker {
    const worker = new Worker(threadEntry(import.meta.url, 'writer-worker'), { workerData: { embedder: this.#embedder, nice: this.#nice } })
    this.#worker = worker
    worker.on('message', (response: WriteResponse) => {
      if (response.kind === 'embed') return this.#embed(worker, response.id, response.texts)
      const pending = this.#pending.get(response.id)
      if (pending === undefined) return
      this.#pending.delete(response.id)
      if (this.#pending.size === 0) worker.unref()
      if (pending.embedError !== undefined) pending.reject(pending.embedError as Error)
      else if (response.refused !== undefined) pending.reject(new BatchError(response.refused, response.error ?? 'refused'))
      else if (response.error !== undefined) pending.reject(new Error(response.error))
      else pending.resolve(response.result)
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
