import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'
import type { StoreSize } from '../metrics.js'
import { staleSweeper } from '../stale-sweep.js'

/** Where a window's count stands after one more request. */
export interface WindowCount {
  /** Requests in the current window, this one included. */
  count: number
  /** Milliseconds until the window ends and the count starts again from zero. */
  resetMs: number
}

/** Fixed-window counters: each key counts requests for `windowMs` from its first request. */
export interface RateLimitStore {
  hit (key: string, windowMs: number): Promise<WindowCount>
  /** The current window's count without adding to it; zero when no window is open. */
  peek (key: string): Promise<WindowCount>
  /**
   * Takes one back from the current window's count (an attempt counted before it was checked, which
   * then succeeded); nothing when no window is open or it is at zero.
   */
  release (key: string): Promise<void>
}

// One round trip, atomic: the first request of a window starts its expiry. A key left without an
// expiry (it cannot happen through this script, but a manual SET could) gets one rather than
// counting forever.
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`

// Never below zero, and never on a key without a window: a DECR there would make one that never expires.
const RELEASE = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0`

/** Counters shared by every replica. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: Redis

  constructor (redis: Redis) {
    this.#redis = redis
    if (!('chatsearchRateHit' in redis)) redis.defineCommand('chatsearchRateHit', { numberOfKeys: 1, lua: HIT })
    if (!('chatsearchRateRelease' in redis)) redis.defineCommand('chatsearchRateRelease', { numberOfKeys: 1, lua: RELEASE })
  }

  async hit (key: string, windowMs: number): Promise<WindowCount> {
    const run = (this.#redis as unknown as { chatsearchRateHit: (key: string, windowMs: number) => Promise<[number, number]> }).chatsearchRateHit
    const [count, resetMs] = await run.call(this.#redis, key, windowMs)
    return { count, resetMs }
  }

  async peek (key: string): Promise<WindowCount> {
    const replies = await this.#redis.multi().get(key).pttl(key).exec()
    const failed = replies?.find(([err]) => err !== null)
    if (replies === null || failed !== undefined) throw failed?.[0] ?? new Error('the Redis transaction was aborted')
    const [count, resetMs] = replies.map(([, value]) => Number(value ?? 0))
    return { count: count ?? 0, resetMs: Math.max(0, resetMs ?? 0) }
  }

  async release (key: string): Promise<void> {
    const run = (this.#redis as unknown as { chatsearchRateRelease: (key: string) => Promise<number> }).chatsearchRateRelease
    await run.call(this.#redis, key)
  }
}

/** The default cap of a MemoryRateLimitStore: counting windows (one per client and limit class). */
export const MEMORY_RATE_LIMIT_MAX_KEYS = 100_000

/**
 * Counters of this process alone: one node without Redis. At most `maxKeys` windows are kept; a
 * window is dropped once it has ended (swept at most once a second), and past the cap the least
 * recently counted one goes first (a flood of distinct clients makes the quietest start a new window:
 * it can never grow the store).
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows: LRUCache<string, { count: number, endsAt: number }>
  readonly #sweep: (now?: number) => void

  constructor (maxKeys = MEMORY_RATE_LIMIT_MAX_KEYS) {
    // maxSize with a size of 1 each rather than `max`: lru-cache allocates its arrays for `max` at
    // once (about 4 MB for 100,000), and grows them as needed under maxSize alone.
    this.#windows = new LRUCache({ maxSize: maxKeys, sizeCalculation: () => 1 })
    this.#sweep = staleSweeper(this.#windows)
  }

  async hit (key: string, windowMs: number, now = Date.now()): Promise<WindowCount> {
    let window = this.#windows.get(key)
    if (window === undefined || window.endsAt <= now) {
      this.#sweep(now)
      window = { count: 0, endsAt: now + windowMs }
      this.#windows.set(key, window, { ttl: windowMs })
    }
    window.count++
    return { count: window.count, resetMs: window.endsAt - now }
  }

  async peek (key: string, now = Date.now()): Promise<WindowCount> {
    const window = this.#windows.peek(key)
    if (window === undefined || window.endsAt <= now) return { count: 0, resetMs: 0 }
    return { count: window.count, resetMs: window.endsAt - now }
  }

  async release (key: string, now = Date.now()): Promise<void> {
    const window = this.#windows.peek(key)
    if (window !== undefined && window.endsAt > now && window.count > 0) window.count--
  }

  /** For `memory_store_entries`. */
  get size (): StoreSize {
    return { entries: this.#windows.size }
  }
}
