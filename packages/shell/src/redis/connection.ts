import { Redis } from 'ioredis'

/** The little of a logger the Redis pieces need (a pino/Fastify logger fits). */
export interface WarnLog {
  warn: (obj: object, msg: string) => void
  info: (obj: object, msg: string) => void
}

export interface RedisOptions {
  /** Shown in Redis's CLIENT LIST, to tell our connections apart. */
  name: string
  log?: WarnLog
  /** How long start-up waits for the first connection. */
  connectTimeoutMs?: number
}

/**
 * Commands answer or fail within this time: a Redis that is down or stuck must never hold up a
 * request. Loopback Redis answers in well under a millisecond.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500

/**
 * A connected ioredis client set up to fail fast: no offline queue (a command while disconnected
 * fails at once instead of waiting for a reconnect), no retry of a command whose connection died,
 * a command timeout; it keeps reconnecting in the background, and says so in the log once per
 * outage rather than on every attempt. Start-up fails if Redis cannot be reached: a wrong REDIS_URL
 * is found at once, not at the first idempotent write.
 */
export async function connectRedis (url: string, opts: RedisOptions): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectionName: opts.name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: opts.connectTimeoutMs ?? 5000,
    retryStrategy: (attempt) => Math.min(100 * attempt, 2000)
  })
  // Failures before the first connection are start-up's to report (below).
  let everReady = false
  let down = false
  const lost = (reason: string) => {
    if (!everReady || down) return
    down = true
    opts.log?.warn({ reason }, 'Redis is unreachable; retrying in the background')
  }
  // Attached before connecting: an 'error' event without a listener would crash the process.
  redis.on('error', (err: Error) => { lost(err.message) })
  redis.on('close', () => { lost('connection closed') })
  redis.on('ready', () => {
    everReady = true
    if (!down) return
    down = false
    opts.log?.info({}, 'Redis is reachable again')
  })
  try {
    await redis.connect()
  } catch (err) {
    redis.disconnect()
    throw new Error(`cannot connect to Redis at REDIS_URL (${redactUrl(url)}): ${(err as Error).message}`, { cause: err })
  }
  return redis
}

/** A Redis URL without its password, for messages. */
export function redactUrl (url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return '(unparsable URL)'
  }
}

/** Closes a client whether or not it is connected, without waiting on a dead server. */
export async function closeRedis (redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    await redis.quit().catch(() => { redis.disconnect() })
  } else {
    redis.disconnect()
  }
}

/**
 * Logs a degraded-mode warning at most once per interval, so an outage under load writes a line
 * every few seconds rather than one per request.
 */
export class ThrottledWarning {
  readonly #log: WarnLog | undefined
  readonly #intervalMs: number
  #last = Number.NEGATIVE_INFINITY

  constructor (log: WarnLog | undefined, intervalMs = 10_000) {
    this.#log = log
    this.#intervalMs = intervalMs
  }

  warn (err: unknown, message: string) {
    const now = Date.now()
    if (now - this.#last < this.#intervalMs) return
    this.#last = now
    this.#log?.warn({ err: { message: (err as Error).message } }, message)
  }
}
