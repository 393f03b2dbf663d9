import type { Redis } from 'ioredis'
import { ThrottledWarning, type WarnLog } from './redis/connection.js'
import { MemoryCacheStore, RedisCacheStore, type CacheStore } from './redis/cache-store.js'
import type { StoreSize } from './metrics.js'

export interface CacheLookup {
  /** The cached text, if any. */
  value: string | undefined
  /**
   * Keeps a freshly computed value under the version this lookup saw. It never rejects, so a
   * request need not wait for it; awaiting it means the value is stored.
   */
  store: (value: string) => Promise<void>
}

const RETRY_BUMPS_MS = 1000

/**
 * A response cache whose entries belong to a scope (a project) and its version: `bump` after every
 * change of what the scope's responses depend on, and no entry computed before it is served again.
 * The store failing never fails a request: a lookup becomes a miss, a store is skipped, and a bump
 * that could not be made is retried every second; until it is made this process serves that scope
 * uncached, so it cannot hand out an entry of the old version.
 */
export class VersionedCache {
  hits = 0
  misses = 0
  /** Store operations that failed (each counted once). */
  errors = 0
  readonly #store: CacheStore
  readonly #ttlMs: number
  readonly #warning: ThrottledWarning
  readonly #pendingBumps = new Set<string>()
  readonly #onLookup: (result: 'hit' | 'miss') => void
  #retry: NodeJS.Timeout | undefined

  /** `onLookup` hears every answered lookup (for the cache hit ratio in /metrics). */
  constructor (store: CacheStore, ttlMs: number, log?: WarnLog, onLookup: (result: 'hit' | 'miss') => void = () => {}) {
    this.#store = store
    this.#ttlMs = ttlMs
    this.#warning = new ThrottledWarning(log)
    this.#onLookup = onLookup
  }

  /** Redis when given, this process's memory otherwise. */
  static create (redis: Redis | undefined, prefix: string, ttlMs: number, log?: WarnLog, onLookup?: (result: 'hit' | 'miss') => void): VersionedCache {
    return new VersionedCache(redis === undefined ? new MemoryCacheStore() : new RedisCacheStore(redis, prefix), ttlMs, log, onLookup)
  }

  /** What the store holds when it is this process's memory (for `memory_store_entries`); undefined for Redis. */
  get memory (): StoreSize | undefined {
    return this.#store instanceof MemoryCacheStore ? this.#store.size : undefined
  }

  get enabled () {
    return this.#ttlMs > 0
  }

  async lookup (scope: string, key: string): Promise<CacheLookup> {
    const skip: CacheLookup = { value: undefined, store: async () => {} }
    if (!this.enabled || this.#pendingBumps.has(scope)) return skip
    let version: number
    let value: string | undefined
    try {
      version = await this.#store.version(scope)
      value = await this.#store.get(`${scope}:${version}:${key}`)
    } catch (err) {
      this.#failed(err)
      return skip
    }
    if (value !== undefined) {
      this.hits++
      this.#onLookup('hit')
      return { value, store: async () => {} }
    }
    this.misses++
    this.#onLookup('miss')
    return {
      value: undefined,
      store: async (text) => { await this.#store.set(`${scope}:${version}:${key}`, text, this.#ttlMs).catch((err: unknown) => this.#failed(err)) }
    }
  }

  /** Makes every entry of the scope stale. Never throws: a failed bump is retried. */
  async bump (scope: string) {
    try {
      await this.#store.bump(scope)
    } catch (err) {
      this.#failed(err)
      this.#pendingBumps.add(scope)
      this.#retry ??= setInterval(() => { this.#retryBumps().catch(() => {}) }, RETRY_BUMPS_MS).unref()
    }
  }

  close () {
    clearInterval(this.#retry)
    this.#retry = undefined
  }

  async #retryBumps () {
    for (const scope of this.#pendingBumps) {
      await this.#store.bump(scope)
      this.#pendingBumps.delete(scope)
    }
    this.close()
  }

  #failed (err: unknown) {
    this.errors++
    this.#warning.warn(err, 'the response cache is unavailable; serving uncached')
  }
}
