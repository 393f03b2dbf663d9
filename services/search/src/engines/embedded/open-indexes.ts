import { LRUCache } from 'lru-cache'

/**
 * Index files kept open at most by default (SEARCH_OPEN_INDEXES), catalogs and knowledge alike: 50
 * projects with both. Each holds SQLite's page cache (up to 64 MiB, never more than the file) and
 * what is derived from the file in memory, on the event loop and again on each reader thread.
 */
export const OPEN_INDEXES_DEFAULT = 100

/** What an open index must offer: a way to let go of its file. */
export interface Closable { close: () => void }

/** An open index and the operations running on it now. */
interface Open { index: Closable, busy: number }

/**
 * The index files open in one process, at most `cap`, least recently used closed first, but never
 * one with an operation running (a search, a write, a rebuild, a knowledge write): past the cap with
 * every file in use, the next open waits until one is free. Waiting keeps the cap a true bound; the
 * operations it waits for end without opening another file, so the wait ends.
 *
 * lru-cache keeps the order of use and closes what leaves through its `dispose`. Its own eviction
 * would pick the least recently used entry even while in use, so room is made here before each set
 * and `max` never has to evict.
 */
export class OpenIndexes {
  readonly #open: LRUCache<string, Open>
  readonly #cap: number
  /** Opens waiting for a file to be free, woken all at once when one is. */
  #waiting: Array<() => void> = []
  #ended = false

  /** `closed` is told of each file closed, after its index was (the engine's threads let theirs go). */
  constructor (cap: number, closed: (file: string, index: Closable) => void) {
    this.#cap = cap
    this.#open = new LRUCache<string, Open>({
      max: cap,
      dispose: ({ index }, file) => {
        index.close()
        closed(file, index)
      }
    })
  }

  /** Files open now. */
  get size (): number {
    return this.#open.size
  }

  /** The open indexes, most recently used first. */
  indexes (): Closable[] {
    return [...this.#open.values()].map(({ index }) => index)
  }

  /**
   * Runs `work` on the index of `file`, opened with `open` unless it is open already, and keeps it
   * open until `work` settles. `open` must return the same kind of index for the same file.
   * Synchronous up to `work`'s start when no wait is needed: a reader request is sent before the
   * caller's next statement, as without the cap.
   */
  async use<I extends Closable, R> (file: string, open: () => I, work: (index: I) => Promise<R>): Promise<R> {
    let entry = this.#acquire(file, open)
    while (entry === undefined) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve))
      entry = this.#acquire(file, open)
    }
    entry.busy++
    try {
      return await work(entry.index as I)
    } finally {
      entry.busy--
      if (entry.busy === 0) this.#wake()
    }
  }

  /** Closes every file, in use or not (the engine is closing), and refuses any later use. */
  closeAll () {
    this.#ended = true
    this.#open.clear()
    this.#wake()
  }

  /** The entry of `file`, opened when there is room or a file free to close; undefined: wait. */
  #acquire (file: string, open: () => Closable): Open | undefined {
    if (this.#ended) throw new Error('the search engine is closed')
    const known = this.#open.get(file)
    if (known !== undefined) return known
    if (this.#open.size >= this.#cap && !this.#closeLeastRecentlyUsedFree()) return undefined
    const entry = { index: open(), busy: 0 }
    this.#open.set(file, entry)
    return entry
  }

  /** Closes the least recently used file that nothing is using; false when every one is in use. */
  #closeLeastRecentlyUsedFree (): boolean {
    for (const file of this.#open.rkeys()) {
      if (this.#open.peek(file)!.busy > 0) continue
      this.#open.delete(file)
      return true
    }
    return false
  }

  #wake () {
    const waiting = this.#waiting
    this.#waiting = []
    for (const resolve of waiting) resolve()
  }
}
