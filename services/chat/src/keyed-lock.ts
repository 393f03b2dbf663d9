/**
 * Runs tasks one at a time per key, in arrival order. Turns of one chat wait for each other in
 * this process, so each turn sees the previous reply. Across replicas only the writes are ordered
 * (appendTurn's row lock keeps each turn whole and in sequence): two turns of one chat arriving at
 * two replicas at once may each read the history without the other's reply.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>()
  #waiting = 0

  async run<T> (key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key)
    if (previous !== undefined) this.#waiting++
    const start = previous === undefined ? task : async () => { this.#waiting--; return await task() }
    const current = (previous ?? Promise.resolve()).then(start, start)
    const tail = current.catch(() => {})
    this.#tails.set(key, tail)
    try {
      return await current
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key)
    }
  }

  /** Tasks queued behind an earlier one of the same key. */
  get waiting () {
    return this.#waiting
  }
}
