import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'
import type { StoreSize } from '../metrics.js'
import { staleSweeper } from '../stale-sweep.js'

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

/** The default caps of a MemoryIdempotencyStore: keys held by running requests, bytes of what is kept. */
export const MEMORY_IDEMPOTENCY_MAX_KEYS = 100_000
export const MEMORY_IDEMPOTENCY_MAX_BYTES = 16 * 1024 * 1024
/**
 * What a kept record counts for besides its key and body: its objects, fingerprint, content type,
 * the typed array around its body and its map slot, as V8 lays them out on 64 bits (about 350-400 bytes).
 */
const RECORD_OVERHEAD = 400

interface Entry {
  record: IdempotencyRecord
  expires: number
}

/**
 * A kept response: its body as UTF-8 bytes, outside the V8 heap. Kept as a string, a reply with one
 * character beyond Latin-1 (the assistant's "—" and "•") cost two bytes per character of heap, twice
 * what the cap counted, for as long as the retention time.
 */
interface KeptEntry {
  fingerprint: string
  status: number
  contentType: string
  body: Uint8Array
  expires: number
}

// Not Buffer.from(string): a short body would be a slice of Node's shared 8 KiB buffer pool, and
// each one kept for a day would keep a whole slab of it alive. TextEncoder gives the body its own
// memory, of its own size.
const utf8 = new TextEncoder()
const fromUtf8 = new TextDecoder()

/** A response as the memory store keeps it (exported for its test). */
export const keptOf = (fingerprint: string, response: StoredResponse, expires: number): KeptEntry =>
  ({ fingerprint, status: response.status, contentType: response.contentType, body: utf8.encode(response.body), expires })

const recordOf = (kept: KeptEntry): IdempotencyRecord =>
  ({ fingerprint: kept.fingerprint, response: { status: kept.status, contentType: kept.contentType, body: fromUtf8.decode(kept.body) } })

/**
 * Records of this process alone: one node without Redis. Keys held by running requests and keys
 * with a kept response are two stores: a response kept longest unused goes first once `maxBytes`
 * bytes are kept (its key and body in UTF-8, and RECORD_OVERHEAD each; a retry after that runs the request
 * again, as it would after the retention time; Redis keeps every one), and a held key is never
 * pushed out by kept responses; at most `maxKeys` keys are held. Either store drops what has expired
 * as it is written (at most once a second). Both are capped by size alone: lru-cache allocates its
 * arrays for a `max` at once (about 4 MB for 100,000) and grows them as needed under maxSize.
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #held: LRUCache<string, Entry>
  readonly #done: LRUCache<string, KeptEntry>
  readonly #sweepHeld: (now?: number) => void
  readonly #sweepDone: (now?: number) => void

  constructor (maxKeys = MEMORY_IDEMPOTENCY_MAX_KEYS, maxBytes = MEMORY_IDEMPOTENCY_MAX_BYTES) {
    this.#held = new LRUCache({ maxSize: maxKeys, sizeCalculation: () => 1 })
    this.#done = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => RECORD_OVERHEAD + Buffer.byteLength(key) + entry.body.byteLength
    })
    this.#sweepHeld = staleSweeper(this.#held)
    this.#sweepDone = staleSweeper(this.#done)
  }

  async claim (key: string, fingerprint: string, leaseMs: number, now = Date.now()): Promise<Claim> {
    const kept = this.#live(this.#done, key, now)
    if (kept !== undefined) return claimOf(recordOf(kept), fingerprint)
    const held = this.#live(this.#held, key, now)
    if (held !== undefined) return claimOf(held.record, fingerprint)
    this.#sweepHeld(now)
    const token = randomUUID()
    this.#held.set(key, { record: { fingerprint, token }, expires: now + leaseMs }, { ttl: leaseMs })
    return { state: 'new', token }
  }

  async extend (key: string, token: string, leaseMs: number) {
    const entry = this.#holding(key, token)
    if (entry !== undefined) this.#held.set(key, { ...entry, expires: Date.now() + leaseMs }, { ttl: leaseMs })
  }

  async complete (key: string, token: string, fingerprint: string, response: StoredResponse, keepMs: number) {
    if (this.#holding(key, token) === undefined) return
    this.#held.delete(key)
    this.#sweepDone()
    this.#done.set(key, keptOf(fingerprint, response, Date.now() + keepMs), { ttl: keepMs })
  }

  async release (key: string, token: string) {
    if (this.#holding(key, token) !== undefined) this.#held.delete(key)
  }

  /** For `memory_store_entries` / `memory_store_bytes`: both stores' keys, the kept responses' bytes (as counted against the cap). */
  get size (): StoreSize {
    return { entries: this.#held.size + this.#done.size, bytes: this.#done.calculatedSize }
  }

  #live<E extends { expires: number }> (store: LRUCache<string, E>, key: string, now: number): E | undefined {
    const entry = store.get(key)
    if (entry === undefined || entry.expires > now) return entry
    store.delete(key)
    return undefined
  }

  #holding (key: string, token: string) {
    const entry = this.#held.get(key)
    return entry !== undefined && entry.expires > Date.now() && entry.record.token === token ? entry : undefined
  }
}
