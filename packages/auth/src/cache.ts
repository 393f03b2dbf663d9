/**
 * A small time-bounded cache of lookups. Entries live `ttlMs` at most, so a change at the source
 * (a revoked key) is seen within that time; concurrent lookups of one key share one query; a failed
 * lookup is not cached.
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: Promise<V>, expires: number }>()
  readonly #ttlMs: number
  readonly #maxEntries: number

  constructor (ttlMs: number, maxEntries = 10_000) {
    this.#ttlMs = ttlMs
    this.#maxEntries = maxEntries
  }

  get (key: string, load: () => Promise<V>, now = Date.now()): Promise<V> {
    const hit = this.#entries.get(key)
    if (hit !== undefined && hit.expires > now) return hit.value
    if (this.#entries.size >= this.#maxEntries) this.#evict(now)
    const value = load()
    this.#entries.set(key, { value, expires: now + this.#ttlMs })
    value.catch(() => { this.#entries.delete(key) })
    return value
  }

  clear () {
    this.#entries.clear()
  }

  get size () {
    return this.#entries.size
  }

  /** Drops expired entries, then the oldest ones (Map keeps insertion order) until there is room. */
  #evict (now: number) {
    for (const [k, e] of this.#entries) if (e.expires <= now) this.#entries.delete(k)
    for (const k of this.#entries.keys()) {
      if (this.#entries.size < this.#maxEntries) break
      this.#entries.delete(k)
    }
  }
}
