import type { Redis } from 'ioredis'

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

/** This process alone: least recently used entries go first once `maxBytes` of text is held. */
export class MemoryCacheStore implements CacheStore {
  readonly #versions = new Map<string, number>()
  readonly #entries = new Map<string, { value: string, expires: number }>()
  readonly #maxBytes: number
  #bytes = 0

  constructor (maxBytes = 64 * 1024 * 1024) {
    this.#maxBytes = maxBytes
  }

  async version (scope: string) {
    return this.#versions.get(scope) ?? 0
  }

  async bump (scope: string) {
    this.#versions.set(scope, (this.#versions.get(scope) ?? 0) + 1)
  }

  async get (key: string, now = Date.now()) {
    const entry = this.#entries.get(key)
    if (entry === undefined) return undefined
    this.#delete(key)
    if (entry.expires <= now) return undefined
    this.#entries.set(key, entry)
    this.#bytes += entry.value.length
    return entry.value
  }

  async set (key: string, value: string, ttlMs: number) {
    if (value.length > this.#maxBytes / 8) return
    this.#delete(key)
    this.#entries.set(key, { value, expires: Date.now() + ttlMs })
    this.#bytes += value.length
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.#maxBytes) break
      this.#delete(oldest)
    }
  }

  get size () {
    return this.#entries.size
  }

  #delete (key: string) {
    const entry = this.#entries.get(key)
    if (entry === undefined) return
    this.#entries.delete(key)
    this.#bytes -= entry.value.length
  }
}
