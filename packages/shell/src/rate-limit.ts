import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from './errors.js'
import { ThrottledWarning } from './redis/connection.js'
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from './redis/rate-limit-store.js'

/**
 * Endpoint classes, each with its own limit per credential and minute; the widget classes count a
 * publishable key's requests per client address and per consumer instead (see `counters`).
 */
export type RateLimitClass = 'chat_write' | 'chat_read' | 'search' | 'catalog' | 'admin' | 'widget_address' | 'widget_consumer'

/** One counter a request is counted in: its class's limit, per `who`. */
export interface RateCounter { rateClass: RateLimitClass, who: string }

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The class whose limit this route counts against; none: not limited. */
    rateLimit?: RateLimitClass
  }
  interface FastifyInstance {
    rateLimiter: RateLimiter
  }
}

export interface RateLimitOptions {
  /** The service's name: counters of different services never mix. */
  service: string
  /** Requests per credential and window for each class; 0 or absent: unlimited. */
  limits: Partial<Record<RateLimitClass, number>>
  /** Who is counted: the credential of an authenticated request, undefined otherwise. */
  identify: (request: FastifyRequest) => string | undefined
  /**
   * The counters of a request, when they are not its route class's per credential (a widget key's
   * browsers share one key: they are counted per address and per consumer); undefined: the default.
   */
  counters?: (request: FastifyRequest) => RateCounter[] | undefined
  windowMs?: number
}

const WINDOW_MS = 60_000

/**
 * Counts each credential's requests per class in fixed windows and answers 429 past the limit.
 * If the shared store fails, requests pass (fail open) with a warning in the log: a Redis outage
 * must not take the API down with it, and over-admitting for a while is the lesser harm.
 */
export class RateLimiter {
  /** Requests answered 429. */
  limited = 0
  /** Requests let through without counting because the store failed. */
  failedOpen = 0
  readonly #store: RateLimitStore
  readonly #opts: RateLimitOptions
  readonly #windowMs: number
  readonly #warning: ThrottledWarning
  readonly #onLimited: (rateClass: string) => void

  /** `onLimited` hears every 429 (for rate_limited_total in /metrics). */
  constructor (store: RateLimitStore, opts: RateLimitOptions, warning: ThrottledWarning, onLimited: (rateClass: string) => void = () => {}) {
    this.#store = store
    this.#opts = opts
    this.#windowMs = opts.windowMs ?? WINDOW_MS
    this.#warning = warning
    this.#onLimited = onLimited
  }

  /** Counts the request if its route has a class with a limit; sets the headers or throws the 429. */
  async check (request: FastifyRequest, reply: FastifyReply) {
    const rateClass = request.routeOptions.config.rateLimit
    if (rateClass === undefined) return
    let counters = this.#opts.counters?.(request)
    if (counters === undefined) {
      const who = this.#opts.identify(request)
      counters = who === undefined ? [] : [{ rateClass, who }]
    }
    // The headers tell of the counter nearest its limit; the first one past it answers 429.
    let nearest: { rateClass: RateLimitClass, limit: number, count: number, resetS: number } | undefined
    for (const { rateClass: counted, who } of counters) {
      const limit = this.#opts.limits[counted] ?? 0
      if (limit <= 0) continue
      let window
      try {
        window = await this.#store.hit(`rl:${this.#opts.service}:${counted}:${who}`, this.#windowMs)
      } catch (err) {
        this.failedOpen++
        this.#warning.warn(err, 'rate limits are not enforced: the shared store is unavailable')
        return
      }
      const resetS = Math.max(1, Math.ceil(window.resetMs / 1000))
      if (nearest === undefined || limit - window.count < nearest.limit - nearest.count) nearest = { rateClass: counted, limit, count: window.count, resetS }
    }
    if (nearest === undefined) return
    const { limit, count, resetS } = nearest
    reply.headers({
      'ratelimit-limit': limit,
      'ratelimit-remaining': Math.max(0, limit - count),
      'ratelimit-reset': resetS,
      'ratelimit-policy': `${limit};w=${Math.round(this.#windowMs / 1000)}`
    })
    if (count > limit) {
      this.limited++
      this.#onLimited(nearest.rateClass)
      throw new ApiError('rate_limited', `more than ${limit} ${nearest.rateClass.replace('_', ' ')} requests in ${Math.round(this.#windowMs / 1000)} s ${BY[nearest.rateClass] ?? 'with this credential'}; retry in ${resetS} s`,
        { 'retry-after': String(resetS) })
    }
  }
}

/** Whose requests a class counts, when not the credential's. */
const BY: Partial<Record<RateLimitClass, string>> = { widget_address: 'from this address', widget_consumer: 'for this consumer' }

/**
 * Rate limits for the routes that name a class in `config.rateLimit`. The hook runs at preParsing:
 * after every onRequest hook, so after authentication (a request without a valid credential is
 * answered 401 and never counted), and before a rejected request's body is read.
 */
export const rateLimitPlugin = fp<RateLimitOptions>(async (app, opts) => {
  const store = app.redis === undefined ? new MemoryRateLimitStore() : new RedisRateLimitStore(app.redis)
  // metrics are registered by buildService; a bare app (a unit test) has none
  if (store instanceof MemoryRateLimitStore && app.hasDecorator('metrics')) app.metrics.store('rate_limit_windows', () => store.size)
  const limiter = new RateLimiter(store, opts, new ThrottledWarning(app.log),
    app.hasDecorator('metrics') ? (rateClass) => app.metrics.rateLimited.inc({ class: rateClass }) : undefined)
  app.decorate('rateLimiter', limiter)
  app.addHook('preParsing', async (request, reply) => { await limiter.check(request, reply) })
}, { name: '@chatsearch/rate-limit', fastify: '5.x', dependencies: ['@chatsearch/redis'] })
