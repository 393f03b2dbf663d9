import { Worker } from 'node:worker_threads'
import type { FacetHit } from '@chatsearch/contracts'
import type { Document, FacetSearchQuery, SearchQuery, SearchResult } from '../../engine/port.js'
import type { FilterNode } from '@chatsearch/filter'
import { threadEntry } from '../../thread-entry.js'

export type ReaderRequest =
  | { id: number, file: string, method: 'search', args: [SearchQuery] }
  | { id: number, file: string, method: 'facetSearch', args: [FacetSearchQuery] }
  | { id: number, file: string, method: 'suggest', args: [string, number, number] }
  | { id: number, file: string, method: 'getMany', args: [string[], FilterNode | null] }
/** Sent to every reader when the engine closes a catalog file: the reader closes its own index of it. */
export interface ReaderClose { method: 'close', file: string }
export interface ReaderResponse { id: number, result?: unknown, error?: string }

interface Pending { resolve: (value: unknown) => void, reject: (err: Error) => void }
interface Reader { worker: Worker, pending: Map<number, Pending> }

/** Readers with a request in flight and without; requests queued behind the one a reader runs. */
export interface ReaderLoad { busy: number, idle: number, queued: number }

/**
 * A small pool of reader threads for the embedded engine (see reader-worker.ts). Each request goes
 * to the reader with the fewest requests in flight. A reader that dies fails its requests and is
 * replaced.
 */
export class ReaderPool {
  readonly #readers: Reader[] = []
  readonly #embedder: { id: string, dimensions: number }
  readonly #nice: number
  #nextId = 0
  #closed = false

  /** `nice`: how much lower than the event loop the threads run (see thread-priority.ts). */
  constructor (size: number, embedder: { id: string, dimensions: number }, nice = 0) {
    this.#embedder = embedder
    this.#nice = nice
    for (let i = 0; i < size; i++) this.#readers.push(this.#spawn())
  }

  search (file: string, query: SearchQuery): Promise<SearchResult> {
    return this.#send({ id: this.#nextId++, file, method: 'search', args: [query] }) as Promise<SearchResult>
  }

  facetSearch (file: string, query: FacetSearchQuery): Promise<FacetHit[]> {
    return this.#send({ id: this.#nextId++, file, method: 'facetSearch', args: [query] }) as Promise<FacetHit[]>
  }

  suggest (file: string, term: string, limit: number, offset: number): Promise<string[]> {
    return this.#send({ id: this.#nextId++, file, method: 'suggest', args: [term, limit, offset] }) as Promise<string[]>
  }

  getMany (file: string, ids: string[], filter: FilterNode | null): Promise<Document[]> {
    return this.#send({ id: this.#nextId++, file, method: 'getMany', args: [ids, filter] }) as Promise<Document[]>
  }

  /**
   * Each reader closes its index of `file`. The engine closes a file only when no call on it is
   * running, so no request of it is in flight; a later one, sent after this, opens it again.
   */
  closeFile (file: string) {
    if (this.#closed) return
    for (const reader of this.#readers) reader.worker.postMessage({ method: 'close', file } satisfies ReaderClose)
  }

  load (): ReaderLoad {
    const busy = this.#readers.filter((r) => r.pending.size > 0)
    return {
      busy: busy.length,
      idle: this.#readers.length - busy.length,
      // A reader answers its requests one at a time, in the order they came.
      queued: busy.reduce((sum, r) => sum + r.pending.size - 1, 0)
    }
  }

  async close () {
    this.#closed = true
    await Promise.all(this.#readers.map((r) => r.worker.terminate()))
  }

  #send (request: ReaderRequest): Promise<unknown> {
    const reader = this.#readers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a))
    return new Promise((resolve, reject) => {
      // An idle reader must not keep the process alive; one with work in flight must.
      if (reader.pending.size === 0) reader.worker.ref()
      reader.pending.set(request.id, { resolve, reject })
      reader.worker.postMessage(request)
    })
  }

  #spawn (): Reader {
    const worker = new Worker(threadEntry(import.meta.url, 'reader-worker'), { workerData: { embedder: this.#embedder, nice: this.#nice } })
    const reader: Reader = { worker, pending: new Map() }
    worker.on('message', (response: ReaderResponse) => {
      const pending = reader.pending.get(response.id)
      if (pending === undefined) return
      reader.pending.delete(response.id)
      if (reader.pending.size === 0) worker.unref()
      if (response.error === undefined) pending.resolve(response.result)
      else pending.reject(new Error(`search reader: ${response.error}`))
    })
    const fail = (err: Error) => {
      for (const p of reader.pending.values()) p.reject(err)
      reader.pending.clear()
    }
    worker.on('error', fail)
    worker.on('exit', (code) => {
      fail(new Error(`search reader stopped (exit code ${code})`))
      if (this.#closed) return
      const i = this.#readers.indexOf(reader)
      if (i !== -1) this.#readers[i] = this.#spawn()
    })
    worker.unref()
    return reader
  }
}
