import { createHash } from 'node:crypto'
import fp from 'fastify-plugin'
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import { idempotencyKeyPattern, idempotencyKeyRule } from '@chatsearch/contracts'
import { ApiError } from './errors.js'
import { MemoryIdempotencyStore, RedisIdempotencyStore, type IdempotencyStore, type StoredResponse } from './redis/idempotency-store.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route honours `Idempotency-Key`. `stream`: it may answer as server-sent events, and a
     * replay to a client asking for them is one `done` event holding the stored JSON.
     */
    idempotency?: { stream?: boolean }
  }
  interface FastifyRequest {
    /** Set while this request holds an Idempotency-Key; a hijacked reply completes it itself. */
    idempotency: IdempotencyHandle | undefined
  }
  interface FastifyInstance {
    idempotency: IdempotencyCounters
  }
}

export interface IdempotencyOptions {
  /** The service's name: keys of different services never mix. */
  service: string
  /** The project and credential of an authenticated request: a key belongs to one credential. */
  identify: (request: FastifyRequest) => string | undefined
  /** How long a claimed key stays held if its request dies; renewed while it runs. */
  leaseMs?: number
  /** How long a response is kept for replays. */
  retentionMs?: number
}

export interface IdempotencyCounters {
  /** Requests answered with a stored response. */
  replays: number
  /** 409: the key was in flight. */
  conflicts: number
  /** 422: the key was used with another request. */
  mismatches: number
  /** 503: the shared store could not be asked. */
  unavailable: number
}

export const IDEMPOTENCY_HEADER = 'idempotency-key'
/** Checked here too for apps whose routes do not declare the header (documented routes validate it first). */
const KEY_FORMAT = new RegExp(idempotencyKeyPattern)
const LEASE_MS = 30_000
const RETENTION_MS = 24 * 60 * 60 * 1000

/** JSON with object keys sorted: the same body with its fields in another order is the same request (a body kept as bytes is compared as bytes). */
export function canonicalJson (value: unknown): string {
  // A body kept as bytes (a catalog batch parsed elsewhere) stands for itself: its digest.
  if (value instanceof Uint8Array) return JSON.stringify(`bytes:${createHash('sha256').update(value).digest('base64url')}`)
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
    return `{${entries.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

const fingerprintOf = (request: FastifyRequest) =>
  createHash('sha256').update(`${request.method}\n${request.url}\n${canonicalJson(request.body)}`).digest('base64url')

/** The client asked for server-sent events (`Accept: text/event-stream`). */
export const wantsStream = (request: FastifyRequest) => /\btext\/event-stream\b/i.test(request.headers.accept ?? '')

/** A claimed key: its lease is renewed until the request completes (response stored) or releases it. */
export class IdempotencyHandle {
  #settled = false
  readonly #renewal: NodeJS.Timeout

  constructor (
    readonly store: IdempotencyStore,
    readonly key: string,
    readonly token: string,
    readonly fingerprint: string,
    readonly opts: { leaseMs: number, retentionMs: number, log: FastifyBaseLogger }
  ) {
    this.#renewal = setInterval(() => {
      store.extend(key, token, opts.leaseMs).catch((err: unknown) => opts.log.warn({ err }, 'could not renew an Idempotency-Key lease'))
    }, Math.max(10, Math.floor(opts.leaseMs / 3)))
    this.#renewal.unref()
  }

  get settled () {
    return this.#settled
  }

  /** Keeps a successful response for replays. If that fails the response still goes out, logged. */
  async complete (response: StoredResponse) {
    if (this.#settle()) return
    try {
      await this.store.complete(this.key, this.token, this.fingerprint, response, this.opts.retentionMs)
    } catch (err) {
      this.opts.log.error({ err }, 'a response could not be stored for its Idempotency-Key; a retry may run the request again')
    }
  }

  /** Forgets the key: the request changed nothing, so running it again is harmless. */
  async release () {
    if (this.#settle()) return
    await this.store.release(this.key, this.token).catch((err: unknown) => {
      this.opts.log.warn({ err }, 'an Idempotency-Key could not be released; it frees itself when its lease ends')
    })
  }

  #settle (): boolean {
    const already = this.#settled
    this.#settled = true
    clearInterval(this.#renewal)
    return already
  }
}

function keyOf (request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_HEADER]
  if (value === undefined) return undefined
  if (typeof value !== 'string' || !KEY_FORMAT.test(value)) {
    throw new ApiError('invalid_request', idempotencyKeyRule)
  }
  return value
}

function replay (request: FastifyRequest, reply: FastifyReply, response: StoredResponse) {
  reply.header('idempotent-replayed', 'true')
  if (request.routeOptions.config.idempotency?.stream === true && wantsStream(request)) {
    return reply.code(response.status).type('text/event-stream; charset=utf-8').header('cache-control', 'no-cache')
      .send(`event: done\ndata: ${response.body}\n\n`)
  }
  return reply.code(response.status).type(response.contentType).send(response.body)
}

/**
 * `Idempotency-Key` on the routes that set `config.idempotency`: the first request with a key runs
 * and its successful response is kept 24 h; a retry with the same key and body gets that response
 * again (`Idempotent-Replayed: true`) without running; the same key with another body is 422; a
 * key whose request is still running is 409. Failed requests (4xx, 5xx) are not kept: they changed
 * nothing and the client may retry them with the same key. When the shared store is unreachable a
 * request with a key is refused with 503: running it without the guarantee could duplicate it.
 */
export const idempotencyPlugin = fp<IdempotencyOptions>(async (app, opts) => {
  const store = app.redis === undefined ? new MemoryIdempotencyStore() : new RedisIdempotencyStore(app.redis)
  if (store instanceof MemoryIdempotencyStore && app.hasDecorator('metrics')) app.metrics.store('idempotency_records', () => store.size)
  const counters: IdempotencyCounters = { replays: 0, conflicts: 0, mismatches: 0, unavailable: 0 }
  const leaseMs = opts.leaseMs ?? LEASE_MS
  const retentionMs = opts.retentionMs ?? RETENTION_MS
  app.decorate('idempotency', counters)
  app.decorateRequest('idempotency', undefined)

  // preHandler: after authentication and body validation, so a key is only claimed for a request
  // that will actually run.
  app.addHook('preHandler', async (request, reply) => {
    if (request.routeOptions.config.idempotency === undefined) return
    const given = keyOf(request)
    const who = opts.identify(request)
    if (given === undefined || who === undefined) return
    const key = `idem:${opts.service}:${who}:${request.method} ${request.routeOptions.url ?? ''}:${given}`
    const fingerprint = fingerprintOf(request)
    let claim
    try {
      claim = await store.claim(key, fingerprint, leaseMs)
    } catch (err) {
      counters.unavailable++
      request.log.warn({ err }, 'Idempotency-Key refused: the shared store is unavailable')
      throw new ApiError('service_unavailable', 'requests with an Idempotency-Key cannot be accepted right now (the idempotency store is unavailable); retry shortly', { 'retry-after': '1' })
    }
    switch (claim.state) {
      case 'new':
        request.idempotency = new IdempotencyHandle(store, key, claim.token, fingerprint, { leaseMs, retentionMs, log: request.log })
        return
      case 'done':
        counters.replays++
        return replay(request, reply, claim.response)
      case 'in_flight':
        counters.conflicts++
        throw new ApiError('idempotency_key_in_use', 'a request with this Idempotency-Key is still being processed; retry once it has finished')
      case 'mismatch':
        counters.mismatches++
        throw new ApiError('idempotency_key_reused', 'this Idempotency-Key was already used with a different request; use a new key for a new request')
    }
  })

  app.addHook('onSend', async (request, reply, payload) => {
    const handle = request.idempotency
    if (handle === undefined || handle.settled) return payload
    if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
      await handle.complete({ status: reply.statusCode, contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'), body: payload })
    } else {
      await handle.release()
    }
    return payload
  })

  // A hijacked (streamed) reply skips onSend: whatever it did not complete is released.
  app.addHook('onResponse', async (request) => {
    const handle = request.idempotency
    if (handle !== undefined && !handle.settled) await handle.release()
  })
}, { name: '@chatsearch/idempotency', fastify: '5.x', dependencies: ['@chatsearch/redis'] })
