import { randomUUID } from 'node:crypto'
import Fastify, { type FastifyInstance } from 'fastify'
import { limits } from '@chatsearch/contracts'
import { installErrorHandler } from './error-handler.js'
import { invalidRequest, serviceUnavailable } from './errors.js'
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
}

/** Request ids a gateway may pass on: short printable tokens only, so logs stay clean. */
const REQUEST_ID = /^[\w.:-]{1,128}$/

/**
 * A Fastify instance with the conventions both services share: the error handler, strict JSON
 * validation (no type coercion, unknown fields rejected), body limit, request ids, pino.
 */
export function createServer (opts: ServerOptions): FastifyInstance {
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
    // Refused while closing by our own hook below, with the documented error body and a request id.
    return503OnClosing: false,
    // Closing cuts idle keep-alive connections only: requests and event streams in flight finish.
    forceCloseConnections: 'idle'
  })
  installErrorHandler(app)
  // Every body is JSON: anything else is 415 rather than a string that fails validation.
  app.removeContentTypeParser('text/plain')
  app.addHook('onRequest', async (request, reply) => {
    // On the raw response, so that hijacked replies (event streams) carry it too.
    reply.raw.setHeader('x-request-id', request.id)
  })
  installDrain(app)
  app.addHook('preValidation', rejectNul)
  return app
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
    if (draining) throw serviceUnavailable('this instance is shutting down; retry the request')
  })
  app.addHook('onResponse', async () => {
    if (draining) app.server.closeIdleConnections()
  })
}

function holdsNul (value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (Array.isArray(value)) return value.some(holdsNul)
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\u0000') || holdsNul(v))
  return false
}

/** PostgreSQL text cannot hold NUL: refuse it up front rather than fail in the database. */
export async function rejectNul (request: { body: unknown, query: unknown }) {
  if (holdsNul(request.query) || holdsNul(request.body)) {
    throw invalidRequest('text must not contain the NUL character (\\u0000)')
  }
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
