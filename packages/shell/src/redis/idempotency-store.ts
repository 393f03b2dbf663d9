import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'

/** What is kept of a successful response to replay it. */
export interface StoredResponse {
  status: number
  contentType: string
  body: string
}

export type Claim =
  /** Nobody used the key: the caller runs the request, holding the key with `token`. */
  | { state: 'new', token: string }
  /** The key is held by a request still running (or one that died less than a lease ago). */
  | { state: 'in_flight' }
  /** The key was used with another request. */
  | { state: 'mismatch' }
  | { state: 'done', response: StoredResponse }

/**
 * Idempotency records: a key is claimed with the request's fingerprint for a short lease, which
 * the running request renews; completing stores the response for the retention time; releasing
 * forgets the key. `extend`, `complete` and `release` act only while the caller's token holds
 * the key, so a request whose lease ran out cannot overwrite another's record.
 */
export interface IdempotencyStore {
  claim (key: string, fingerprint: string, leaseMs: number): Promise<Claim>
  extend (key: string, token: string, leaseMs: number): Promise<void>
  complete (key: string, token: string, fingerprint: string, response: StoredResponse, keepMs: number): Promise<void>
  release (key: string, token: string): Promise<void>
}

/** The record as stored: `token` while in flight, `response` once done. */
interface IdempotencyRecord {
  fingerprint: string
  token?: string
  response?: StoredResponse
}

function claimOf (record: IdempotencyRecord, fingerprint: string): Claim {
  if (record.fingerprint !== fingerprint) return { state: 'mismatch' }
  if (record.response !== undefined) return { state: 'done', response: record.response }
  return { state: 'in_flight' }
}

// Returns the existing record, or stores the new one and returns nothing.
const CLAIM = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`

// Runs only while the record holds the caller's token: ARGV[1] token, ARGV[2] new value or '' to
// delete, ARGV[3] lifetime (ms) or '' to keep the value and only renew the lease.
const IF_HELD = `
local existing = redis.call('GET', KEYS[1])
if not existing then return 0 end
local ok, record = pcall(cjson.decode, existing)
if not ok or record.token ~= ARGV[1] then return 0 end
if ARGV[2] == '' and ARGV[3] == '' then redis.call('DEL', KEYS[1]) return 1 end
if ARGV[2] == '' then redis.call('PEXPIRE', KEYS[1], ARGV[3]) return 1 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`

interface IdempotencyCommands {
  chatsearchIdemClaim: (key: string, value: string, leaseMs: number) => Promise<string | null>
  chatsearchIdemIfHeld: (key: string, token: string, value: string, ms: number | '') => Promise<number>
}

/** Records shared by every replica: a key claimed on one is in flight on all. */
export class RedisIdempotencyStore implements IdempotencyStore {
  readonly #redis: Redis & IdempotencyCommands

  constructor (redis: Redis) {
    if (!('chatsearchIdemClaim' in redis)) {
      redis.defineCommand('chatsearchIdemClaim', { numberOfKeys: 1, lua: CLAIM })
      redis.defineCommand('chatsearchIdemIfHeld', { numberOfKeys: 1, lua: IF_HELD })
    }
    this.#redis = redis as Redis & IdempotencyCommands
  }

  async claim (key: string, fingerprint: string, leaseMs: number): Promise<Claim> {
    const token = randomUUID()
    const record: IdempotencyRecord = { fingerprint, token }
    const existing = await this.#redis.chatsearchIdemClaim(key, JSON.stringify(record), leaseMs)
    return existing === null ? { state: 'new', token } : claimOf(JSON.parse(existing) as IdempotencyRecord, fingerprint)
  }

  async extend (key: string, token: string, leaseMs: number) {
    await this.#redis.chatsearchIdemIfHeld(key, token, '', leaseMs)
  }

  async complete (key: string, token: string, fingerprint: string, response: StoredResponse, keepMs: number) {
    const record: IdempotencyRecord = { fingerprint, response }
    await this.#redis.chatsearchIdemIfHeld(key, token, JSON.stringify(record), keepMs)
  }

  async release (key: string, token: string) {
    await this.#redis.chatsearchIdemIfHeld(key, token, '', '')
  }
}

/** Records of this process alone: one node without Redis. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #records = new Map<string, { record: IdempotencyRecord, expires: number }>()
  readonly #maxKeys: number

  constructor (maxKeys = 100_000) {
    this.#maxKeys = maxKeys
  }

  async claim (key: string, fingerprint: string, leaseMs: number, now = Date.now()): Promise<Claim> {
    const existing = this.#live(key, now)
    if (existing !== undefined) return claimOf(existing, fingerprint)
    if (this.#records.size >= this.#maxKeys) this.#sweep(now)
    const token = randomUUID()
    this.#records.set(key, { record: { fingerprint, token }, expires: now + leaseMs })
    return { state: 'new', token }
  }

  async extend (key: string, token: string, leaseMs: number) {
    const entry = this.#held(key, token)
    if (entry !== undefined) entry.expires = Date.now() + leaseMs
  }

  async complete (key: string, token: string, fingerprint: string, response: StoredResponse, keepMs: number) {
    if (this.#held(key, token) !== undefined) this.#records.set(key, { record: { fingerprint, response }, expires: Date.now() + keepMs })
  }

  async release (key: string, token: string) {
    if (this.#held(key, token) !== undefined) this.#records.delete(key)
  }

  #live (key: string, now = Date.now()) {
    const entry = this.#records.get(key)
    if (entry === undefined) return undefined
    if (entry.expires > now) return entry.record
    this.#records.delete(key)
    return undefined
  }

  #held (key: string, token: string) {
    const entry = this.#records.get(key)
    return entry !== undefined && entry.expires > Date.now() && entry.record.token === token ? entry : undefined
  }

  #sweep (now: number) {
    for (const [key, entry] of this.#records) if (entry.expires <= now) this.#records.delete(key)
  }
}
