import { randomUUID } from 'node:crypto'
import Fastify, { type FastifyInstance } from 'fastify'
import { limits } from '@chatsearch/contracts'
import { installErrorHandler } from './error-handler.js'
import { invalidRequest } from './errors.js'
import { loggerOptions, type LogLevel } from './logger.js'

export interface ServerOptions {
  name: string
  logLevel: LogLevel
  bodyLimit?: number
}

/** Request ids a gateway may pass on: short printable tokens only, so logs stay clean. */
const REQUEST_ID = /^[\w.:-]{1,128}$/

/**
 * A Fastify instance with the conventions both services share: the error handler, strict JSON
 * validation (no type coercion, unknown fields rejected), body limit, request ids, pino.
 */
export function createServer (opts: ServerOptions): FastifyInstance {
  const app = Fastify({
    logger: loggerOptions(opts.logLevel, opts.name),
    bodyLimit: opts.bodyLimit ?? limits.bodyMaxBytes,
    // genReqId reads x-request-id itself, so a gateway's id is kept only when it is sane.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
    },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: true } },
    return503OnClosing: true,
    forceCloseConnections: 'idle'
  })
  installErrorHandler(app)
  // Every body is JSON: anything else is 415 rather than a string that fails validation.
  app.removeContentTypeParser('text/plain')
  app.addHook('preValidation', rejectNul)
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  return app
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
    await register(app)
    await app.ready()
  } catch (err) {
    await app.close()
    throw err
  }
  return app
}
