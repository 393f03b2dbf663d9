import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'
import type { StoreSize } from '../metrics.js'
import { staleSweeper } from '../stale-sweep.js'

/**
 * Where cached responses and the version counters that invalidate them live. A version only ever
 * grows; entries are written under the version they were computed at, so a bump leaves every older
 * entry unreachable at once (they age out by their TTL).
 */
export interface CacheStore {
  version (scope: string): Promise<number>
  bump (scope: string): Promise<void>
  get (key: string): Promise<string | undefined>
  set (key: string, value: string, ttlMs: number): Promise<void>
}

/** Shared by every replica: a catalog write on one is seen by the next lookup on any. */
export class RedisCacheStore implements CacheStore {
  readonly #redis: Redis
  readonly #prefix: string

  constructor (redis: Redis, prefix: string) {
    this.#redis = redis
    this.#prefix = prefix
  }

  async version (scope: string) {
    return Number(await this.#redis.get(`${this.#prefix}:version:${scope}`) ?? 0)
  }

  async bump (scope: string) {
    await this.#redis.incr(`${this.#prefix}:version:${scope}`)
  }

  async get (key: string) {
    return await this.#redis.get(`${this.#prefix}:entry:${key}`) ?? undefined
  }

  async set (key: string, value: string, ttlMs: number) {
    await this.#redis.set(`${this.#prefix}:entry:${key}`, value, 'PX', ttlMs)
  }
}

/** The default cap of a MemoryCacheStore: characters of keys and values held. */
export const MEMORY_CACHE_MAX_BYTES = 32 * 1024 * 1024

/**
 * This process alone, bounded by `maxBytes` characters of keys and values: least recently used
 * entries go first, an entry past its TTL is dropped when read and by a sweep at most once a second
 * on writes (so stale entries never fill the cap), and a value over an eighth of the cap is not kept.
 * The versions are one counter per scope (a project), never dropped: a dropped one would start again
 * at 0 and serve entries of an older 0.
 */
export class MemoryCacheStore implements CacheStore {
  readonly #versions = new Map<string, number>()
  readonly #entries: LRUCache<string, string>
  readonly #maxBytes: number
  readonly #sweep: (now?: number) => void

  constructor (maxBytes = MEMORY_CACHE_MAX_BYTES) {
    this.#maxBytes = maxBytes
    this.#entries = new LRUCache({ maxSize: maxBytes, sizeCalculation: (value, key) => Math.max(1, key.length + value.length) })
    this.#sweep = staleSweeper(this.#entries)
  }

  async version (scope: string) {
    return this.#versions.get(scope) ?? 0
  }

  async bump (scope: string) {
    this.#versions.set(scope, (this.#versions.get(scope) ?? 0) + 1)
  }

  async get (key: string) {
    return this.#entries.get(key)
  }

  async set (key: string, value: string, ttlMs: number, now = Date.now()) {
    this.#sweep(now)
    if (key.length + value.length > this.#maxBytes / 8) return
    this.#entries.set(key, value, { ttl: ttlMs })
  }

  /** For `memory_store_entries` / `memory_store_bytes`. */
  get size (): StoreSize {
    return { entries: this.#entries.size, bytes: this.#entries.calculatedSize }
  }
}
