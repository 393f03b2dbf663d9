import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from './errors.js'
import { ThrottledWarning } from './redis/connection.js'
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from './redis/rate-limit-store.js'

/** Endpoint classes, each with its own limit per credential and minute. */
export type RateLimitClass = 'chat_write' | 'chat_read' | 'search' | 'catalog' | 'admin'

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
    const limit = this.#opts.limits[rateClass] ?? 0
    const who = this.#opts.identify(request)
    if (limit <= 0 || who === undefined) return
    let window
    try {
      window = await this.#store.hit(`rl:${this.#opts.service}:${rateClass}:${who}`, this.#windowMs)
    } catch (err) {
      this.failedOpen++
      this.#warning.warn(err, 'rate limits are not enforced: the shared store is unavailable')
      return
    }
    const resetS = Math.max(1, Math.ceil(window.resetMs / 1000))
    reply.headers({
      'ratelimit-limit': limit,
      'ratelimit-remaining': Math.max(0, limit - window.count),
      'ratelimit-reset': resetS,
      'ratelimit-policy': `${limit};w=${Math.round(this.#windowMs / 1000)}`
    })
    if (window.count > limit) {
      this.limited++
      this.#onLimited(rateClass)
      throw new ApiError('rate_limited', `more than ${limit} ${rateClass.replace('_', ' ')} requests in ${Math.round(this.#windowMs / 1000)} s with this credential; retry in ${resetS} s`,
        { 'retry-after': String(resetS) })
    }
  }
}

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
