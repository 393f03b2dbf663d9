/** What a batcher has sent so far: how many batches, holding how many texts. */
export interface BatchStats { batches: number, texts: number }

export interface BatcherOptions {
  /** The most texts in one batch. */
  maxBatch: number
  /** Batches running at once (the pool's threads); texts arriving meanwhile wait and go together. */
  concurrency: number
}

interface Request {
  vectors: Float32Array[]
  remaining: number
  settled: boolean
  resolve: (vectors: Float32Array[]) => void
  reject: (err: unknown) => void
}

/** Texts `from`…`from + texts.length` of one request. */
interface Segment { request: Request, from: number, texts: string[] }

/**
 * Gathers the texts of concurrent calls into batches of at most `maxBatch`: a call waits until the
 * next macrotask (so the calls of one turn of the event loop go together), or, while every batch slot
 * is taken, until one frees. Each caller gets its own vectors, in order. A batch that fails rejects
 * its callers; when it held several, each is tried again alone, so one bad input fails only its caller.
 */
export class Batcher {
  readonly #run: (texts: string[]) => Promise<Float32Array[]>
  readonly #options: BatcherOptions
  readonly #queue: Segment[] = []
  #inFlight = 0
  #scheduled = false
  #closed: Error | undefined
  readonly #stats: BatchStats = { batches: 0, texts: 0 }

  constructor (run: (texts: string[]) => Promise<Float32Array[]>, options: BatcherOptions) {
    this.#run = run
    this.#options = options
  }

  get stats (): BatchStats { return { ...this.#stats } }

  embed (texts: string[]): Promise<Float32Array[]> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed)
    if (texts.length === 0) return Promise.resolve([])
    return new Promise((resolve, reject) => {
      const request: Request = { vectors: new Array(texts.length), remaining: texts.length, settled: false, resolve, reject }
      this.#queue.push({ request, from: 0, texts })
      if (!this.#scheduled) {
        this.#scheduled = true
        setImmediate(() => {
          this.#scheduled = false
          this.#dispatch()
        })
      }
    })
  }

  /** Rejects the calls still waiting and every later one with `reason`. */
  close (reason: Error): void {
    this.#closed = reason
    for (const { request } of this.#queue.splice(0)) settle(request, { error: reason })
  }

  #dispatch (): void {
    while (this.#inFlight < this.#options.concurrency && this.#queue.length > 0) {
      const batch = this.#take()
      if (batch.length > 0) this.#send(batch, false)
    }
  }

  /** Up to maxBatch texts from the front of the queue, splitting a request that does not fit. */
  #take (): Segment[] {
    const batch: Segment[] = []
    let room = this.#options.maxBatch
    while (room > 0 && this.#queue.length > 0) {
      const segment = this.#queue[0]!
      if (segment.request.settled) { this.#queue.shift(); continue }
      if (segment.texts.length <= room) {
        batch.push(this.#queue.shift()!)
        room -= segment.texts.length
      } else {
        batch.push({ request: segment.request, from: segment.from, texts: segment.texts.slice(0, room) })
        this.#queue[0] = { request: segment.request, from: segment.from + room, texts: segment.texts.slice(room) }
        room = 0
      }
    }
    return batch
  }

  #send (batch: Segment[], alone: boolean): void {
    const texts = batch.flatMap((segment) => segment.texts)
    this.#inFlight++
    this.#stats.batches++
    this.#stats.texts += texts.length
    this.#run(texts)
      .then((vectors) => {
        if (vectors.length !== texts.length) throw new Error(`the embedder returned ${vectors.length} vectors for ${texts.length} texts`)
        let k = 0
        for (const { request, from, texts: some } of batch) {
          for (let i = 0; i < some.length; i++) request.vectors[from + i] = vectors[k++]!
          request.remaining -= some.length
          if (request.remaining === 0) settle(request)
        }
      })
      .catch((err: unknown) => {
        const requests = new Set(batch.map((segment) => segment.request))
        if (alone || requests.size === 1) {
          for (const request of requests) settle(request, { error: err })
        } else {
          for (const segment of batch) this.#send([segment], true)
        }
      })
      .finally(() => {
        this.#inFlight--
        this.#dispatch()
      })
  }
}

function settle (request: Request, failure?: { error: unknown }): void {
  if (request.settled) return
  request.settled = true
  if (failure === undefined) request.resolve(request.vectors)
  else request.reject(failure.error)
}
