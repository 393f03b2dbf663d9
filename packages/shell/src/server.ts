import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import Fastify, { type FastifyInstance } from 'fastify'
import helmet from 'helmet'
import { limits } from '@chatsearch/contracts'
import { clientErrorHandler, installErrorHandler, sendError } from './error-handler.js'
import { ApiError } from './errors.js'
import { checkJson, jsonParser } from './json-body.js'
import { loggerOptions, RequestLogController, type LogDestination, type LogLevel } from './logger.js'
import { metricsPlugin } from './metrics.js'

export interface ServerOptions {
  name: string
  logLevel: LogLevel
  bodyLimit?: number
  /** Where log lines go; stdout by default. */
  logStream?: LogDestination
  /** Asked by `GET /metrics` when set (METRICS_TOKEN). */
  metricsToken?: string
  /** Fastify's `trustProxy` (TRUST_PROXY): which proxies' X-Forwarded-For names the client. */
  trustProxy?: string | boolean
  /** Bounds on slow clients; the defaults suit a service behind a gateway. */
  timeouts?: Partial<Timeouts>
  /** The content security policy's directives; by default none of any kind (a JSON API serves no active content). */
  contentSecurityPolicy?: Record<string, string[]>
}

export interface Timeouts {
  /** All request headers must have arrived within this time of the connection or previous request. */
  headersMs: number
  /** The whole request, body included, must have arrived within this time. */
  requestMs: number
  /** An idle keep-alive connection is closed after this time (longer than the gateway's). */
  keepAliveMs: number
  /** How often connections are checked against the first two. */
  checkIntervalMs: number
}

export const defaultTimeouts: Timeouts = { headersMs: 10_000, requestMs: 120_000, keepAliveMs: 72_000, checkIntervalMs: 1000 }

/** The router's bound on one path parameter, decoded. */
export const MAX_PARAM_LENGTH = 2048

/** Request ids a gateway may pass on: short printable tokens only, so logs stay clean. */
const REQUEST_ID = /^[\w.:-]{1,128}$/

/**
 * A Fastify instance with the conventions both services share: the error handler, strict JSON
 * validation (no type coercion, unknown fields rejected), body limit, request ids, pino.
 */
export function createServer (opts: ServerOptions): FastifyInstance {
  const timeouts = { ...defaultTimeouts, ...opts.timeouts }
  const app = Fastify({
    logger: loggerOptions(opts.logLevel, opts.name, opts.logStream),
    logController: new RequestLogController(),
    bodyLimit: opts.bodyLimit ?? limits.bodyMaxBytes,
    // genReqId reads x-request-id itself, so a gateway's id is kept only when it is sane.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
    },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: true } },
    // Fastify's default (100) is shorter than ids the contracts allow (a catalog item's id takes
    // 511 characters): each route's schema bounds its parameters, so the router's bound is only a backstop.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Node checks headers and request time only every connectionsCheckingInterval (30 s by default):
    // a client sending its headers a byte at a time would hold its connection that much longer.
    // Node would answer a request without Host with a bare 400; refuseMalformed below answers it.
    http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: timeouts.checkIntervalMs, requireHostHeader: false },
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    trustProxy: opts.trustProxy ?? false,
    clientErrorHandler,
    frameworkErrors: (error, request, reply) => sendError(request, reply, error),
    // Refused while closing by our own hook below, with the documented error body and a request id.
    return503OnClosing: false,
    // Closing cuts idle keep-alive connections only: requests and event streams in flight finish.
    forceCloseConnections: 'idle',
    // Fastify gives each plugin 10 s to start; loading the bundled embedding model on a machine whose
    // every core is busy (a deploy beside a running replica, a CI run) took longer and failed the start.
    pluginTimeout: 60_000
  })
  installErrorHandler(app)
  // Every body is JSON: anything else is 415 rather than a string that fails validation.
  app.removeContentTypeParser(['text/plain', 'application/json'])
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, jsonParser(app.getDefaultJsonParser('error', 'error')))
  const headers = securityHeaders(opts.contentSecurityPolicy)
  app.addHook('onRequest', (request, reply, done) => {
    // On the raw response, so that hijacked replies (event streams) carry them too.
    for (const [name, value] of headers) reply.raw.setHeader(name, value)
    reply.raw.setHeader('x-request-id', request.id)
    done()
  })
  installDrain(app)
  refuseMalformed(app)
  app.addHook('preValidation', checkJson)
  return app
}

/**
 * The usual headers for an API (nosniff, no framing, no referrer, HSTS behind TLS); a JSON API serves
 * no active content, so its content security policy allows nothing unless told otherwise. Helmet
 * decides them; with a policy of fixed strings they are the same for every response, so its
 * middleware runs once, here, and each request only sets the list. Running it per request (a chain of
 * a dozen middlewares) was a tenth of the chat app's CPU at /healthz; @fastify/helmet, which also
 * parsed the policy each time, had been a twentieth of a chat read's.
 */
export function securityHeaders (contentSecurityPolicy?: Record<string, string[]>): Array<[string, string]> {
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy ?? { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginResourcePolicy: { policy: 'same-origin' }
  })
  const headers = new Map<string, string>()
  // Helmet's middlewares only set and remove headers (X-Powered-By, which no response of ours has).
  const response = {
    setHeader: (name: string, value: string) => { headers.set(name.toLowerCase(), value) },
    removeHeader: (name: string) => { headers.delete(name.toLowerCase()) }
  }
  middleware({} as IncomingMessage, response as unknown as ServerResponse, () => {})
  return [...headers]
}

/**
 * While the app closes, the listening socket is closed (no new connections) and what is in flight
 * finishes. A request arriving on a connection that is still open is refused with 503, and each
 * connection is closed as soon as its last response ends: a keep-alive connection left idle would
 * otherwise hold the close up for the whole keep-alive timeout.
 */
function installDrain (app: FastifyInstance) {
  let draining = false
  app.addHook('preClose', async () => { draining = true })
  app.addHook('onRequest', async () => {
    if (draining) throw new ApiError('service_unavailable', 'this instance is shutting down; retry the request')
  })
  app.addHook('onResponse', async () => {
    if (draining) app.server.closeIdleConnections()
  })
}

/** Node's test for an expectation it meets itself (it answers 100 Continue and goes on). */
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i

/** Whether a request carries a body in a content coding other than identity (RFC 9110: 415 for one not supported). */
function encodedBody (headers: IncomingMessage['headers']): boolean {
  const coding = headers['content-encoding']
  if (coding === undefined || /^\s*(identity)?\s*$/i.test(coding)) return false
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0
}

/**
 * What Node would answer itself with a bare status and no body: an HTTP/1.1 request without Host
 * (RFC 9112 section 3.2: 400) and an HTTP/1.1 Expect header other than 100-continue (RFC 9110 section
 * 10.1.1: 417; Node ignores Expect in HTTP/1.0, and so does this). Here they reach the app, after the hooks that set the security headers and request id, and
 * are answered with the documented body. Also a body of a known route in a content coding (415):
 * bodies are read as sent, so a gzip body would otherwise be refused as bytes that are not UTF-8 or
 * JSON; an unknown path or method keeps its 404 or 405, and a GET or HEAD, whose body Fastify never
 * reads, is answered as without one (so no GET route answers 415).
 */
function refuseMalformed (app: FastifyInstance) {
  // With a listener, Node leaves the request to it instead of answering 417: hand it to the app.
  app.server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => app.server.emit('request', req, res))
  app.addHook('onRequest', (request, _reply, done) => {
    const { httpVersion, headers } = request.raw
    if (httpVersion === '1.1' && headers.host === undefined) {
      done(new ApiError('invalid_request', 'an HTTP/1.1 request must have a Host header', { connection: 'close' }))
    } else if (httpVersion === '1.1' && headers.expect !== undefined && !CONTINUE.test(headers.expect)) {
      done(new ApiError('expectation_failed', 'the only expectation this server meets is Expect: 100-continue'))
    } else if (!request.is404 && request.method !== 'GET' && request.method !== 'HEAD' && encodedBody(headers)) {
      // Closed after the answer: the body is not read.
      done(new ApiError('unsupported_media_type', `the body is sent with Content-Encoding ${String(headers['content-encoding']).slice(0, 40)}, which is not decoded here: send it uncompressed`, { connection: 'close' }))
    } else {
      done()
    }
  })
}

/**
 * Builds a service: a server with the shared conventions, `register` adding its plugins and routes,
 * then ready to listen or inject. A failure on the way closes what was opened.
 */
export async function buildService (opts: ServerOptions, register: (app: FastifyInstance) => Promise<void>): Promise<FastifyInstance> {
  const app = createServer(opts)
  try {
    await app.register(metricsPlugin, { service: opts.name, token: opts.metricsToken })
    await register(app)
    await app.ready()
  } catch (err) {
    await app.close()
    throw err
  }
  return app
}
