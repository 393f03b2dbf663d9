import type { Redis } from 'ioredis'

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

/** Counters shared by every replica. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: Redis

  constructor (redis: Redis) {
    this.#redis = redis
    if (!('chatsearchRateHit' in redis)) redis.defineCommand('chatsearchRateHit', { numberOfKeys: 1, lua: HIT })
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
}

/** Counters of this process alone: one node without Redis. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, { count: number, endsAt: number }>()
  readonly #maxKeys: number

  constructor (maxKeys = 100_000) {
    this.#maxKeys = maxKeys
  }

  async hit (key: string, windowMs: number, now = Date.now()): Promise<WindowCount> {
    let window = this.#windows.get(key)
    if (window === undefined || window.endsAt <= now) {
      if (this.#windows.size >= this.#maxKeys) this.#sweep(now)
      window = { count: 0, endsAt: now + windowMs }
      this.#windows.set(key, window)
    }
    window.count++
    return { count: window.count, resetMs: window.endsAt - now }
  }

  async peek (key: string, now = Date.now()): Promise<WindowCount> {
    const window = this.#windows.get(key)
    if (window === undefined || window.endsAt <= now) return { count: 0, resetMs: 0 }
    return { count: window.count, resetMs: window.endsAt - now }
  }

  #sweep (now: number) {
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key)
  }
}
