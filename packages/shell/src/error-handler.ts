import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { errorBody, idempotencyKeyRule, type ErrorBody, type ErrorCode } from '@chatsearch/contracts'
import { ApiError } from './errors.js'

type ValidationItem = NonNullable<FastifyError['validation']>[number]

/** Node and pg error codes that mean the database is out of reach rather than a bug. */
const unavailableCodes = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE',
  '57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08006'
])

function fieldName (item: ValidationItem, context: string | undefined): string {
  const missing = (item.params as { missingProperty?: string }).missingProperty
  const path = item.instancePath.replace(/^\//, '').replaceAll('/', '.')
  const name = missing ?? path
  return name === '' ? (context ?? 'request') : name
}

/** What a client whose request header fails its schema is told, by header name in lower case. */
const headerRules: Record<string, string> = { 'idempotency-key': idempotencyKeyRule }

/**
 * The failure to tell. A body that may be one thing or a list of them (POST /events) fails each
 * alternative of its `anyOf`; that it is not of the other alternative's type says least, so the
 * first failure within the alternative of its type is told (a missing field of the one event, an
 * event of the list), and the type only when it is of neither.
 */
function tellingFailure (items: ValidationItem[]): ValidationItem | undefined {
  const otherAlternative = (item: ValidationItem) => item.instancePath === '' && /^#\/anyOf\/\d+\/type$/.test(item.schemaPath)
  return items.find((item) => !otherAlternative(item) && item.keyword !== 'anyOf') ?? items[0]
}

/** Turns an AJV failure into our error: a missing field is `missing_parameters`, anything else `invalid_request`. */
function fromValidation (error: FastifyError): ApiError {
  const item = tellingFailure(error.validation ?? [])
  const context = error.validationContext
  if (item === undefined) return new ApiError('invalid_request', error.message)
  const field = fieldName(item, context)
  if (context === 'headers' && item.keyword !== 'required') {
    return new ApiError('invalid_request', headerRules[field] ?? `the ${field} header ${item.message ?? 'is invalid'}`)
  }
  const emptyQueryParam = context === 'querystring' && item.keyword === 'minLength'
  if (item.keyword === 'required' || emptyQueryParam) {
    return new ApiError('missing_parameters', `${field} is required (${context})`)
  }
  if (item.keyword === 'additionalProperties') {
    const extra = (item.params as { additionalProperty?: string }).additionalProperty
    return new ApiError('invalid_request', `unknown field ${extra ?? ''} in ${context ?? 'request'}`)
  }
  if (item.keyword === 'const') {
    // A union of literals (`rating`: up or down) fails once per literal: name them all.
    const allowed = (error.validation ?? []).filter((other) => other.keyword === 'const' && other.instancePath === item.instancePath)
      .map((other) => JSON.stringify((other.params as { allowedValue?: unknown }).allowedValue))
    return new ApiError('invalid_request', `${field} must be one of ${allowed.join(', ')}`)
  }
  if (item.keyword === 'pattern' && field === 'user_message') {
    return new ApiError('invalid_request', 'user_message must not be empty or only white space')
  }
  return new ApiError('invalid_request', `${field} ${item.message ?? 'is invalid'}`)
}

/** The catalog's code for a client-error status that Fastify or Node raised, when it has one. */
const codeOfStatus: Partial<Record<number, ErrorCode>> = {
  404: 'not_found', 405: 'method_not_allowed', 408: 'request_timeout', 413: 'payload_too_large', 415: 'unsupported_media_type', 431: 'headers_too_large'
}

/** Fastify's own client errors (bad JSON, wrong content type, too large, bad URL) keep their status with our body. */
function fromFastify (error: FastifyError): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', 'send the body as application/json')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large', error.message)
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_request', 'the JSON body is empty')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('invalid_request', 'the body is not valid JSON')
    case 'FST_ERR_BAD_URL':
      return new ApiError('invalid_request', 'the URL is not valid (bad percent-encoding)')
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('invalid_request', 'a path parameter is too long')
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return new ApiError('invalid_request', 'the body is not valid JSON')
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError(codeOfStatus[error.statusCode] ?? 'invalid_request', error.message)
  }
  return undefined
}

function toApiError (error: FastifyError): ApiError {
  if (error instanceof ApiError) return error
  if (error.validation !== undefined) return fromValidation(error)
  const client = fromFastify(error)
  if (client !== undefined) return client
  if (unavailableCodes.has(String(error.code))) {
    return new ApiError('service_unavailable', 'a backing service is unavailable, try again shortly')
  }
  return new ApiError('internal_error', 'something went wrong on our side; it has been logged')
}

/** The documented error body for any failure, as the error handler would send it (for responses already streaming). */
export function errorBodyOf (error: unknown): ErrorBody {
  const apiError = toApiError(error as FastifyError)
  return errorBody(apiError.code, apiError.message)
}

function send (reply: FastifyReply, apiError: ApiError) {
  return reply.code(apiError.statusCode).headers(apiError.headers).type('application/json; charset=utf-8').send(errorBody(apiError.code, apiError.message))
}

/** The methods a path answers to, from the routes the app has (for 405 and its Allow header). */
class RouteMethods {
  readonly #routes: Array<{ method: string, path: RegExp }> = []

  add (methods: string | string[], url: string) {
    const pattern = url.split('/').map((part) => part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('/')
    for (const method of [methods].flat()) this.#routes.push({ method, path: new RegExp(`^${pattern}$`) })
  }

  allowed (path: string): string[] {
    return [...new Set(this.#routes.filter((route) => route.path.test(path)).map((route) => route.method))].sort()
  }
}

/** The one error handler of a service: every failure leaves as the documented error body. */
export function installErrorHandler (app: FastifyInstance) {
  const routes = new RouteMethods()
  app.addHook('onRoute', (route) => { routes.add(route.method, route.url) })
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error)
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed')
    else request.log.info({ code: apiError.code, reason: apiError.message }, 'request rejected')
    return send(reply, apiError)
  })
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/'
    const allowed = routes.allowed(path)
    if (allowed.length > 0) {
      return send(reply, new ApiError('method_not_allowed', `${path} answers ${allowed.join(', ')}, not ${request.method}`, { allow: allowed.join(', ') }))
    }
    return send(reply, new ApiError('not_found', `no route ${request.method} ${path}`))
  }
  app.setNotFoundHandler(notFound)
  // Fastify reads and parses a body before the not-found handler runs, so an empty or broken JSON
  // body, or one too large, would answer 400 or 413 for a method the path does not have. A 404 or
  // 405 does not depend on the body: it is answered here, after the onRequest hooks and unread.
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (request.is404) {
      // The body is left unread: with one on its way, the connection closes after the answer rather
      // than read it, however large, to reach the next request.
      const { 'content-length': length, 'transfer-encoding': chunked } = request.headers
      if ((length !== undefined && length !== '0') || chunked !== undefined) reply.header('connection', 'close')
      notFound(request, reply)
      return
    }
    done(null, payload)
  })
}

/**
 * Errors found by Node's HTTP parser before any request exists (malformed requests, headers too
 * large, a request that did not arrive in time) answered with the documented body, as Fastify's
 * default does but with our `code`. Installed as Fastify's `clientErrorHandler`.
 */
export function clientErrorHandler (this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const code: ErrorCode = err.code === 'HPE_HEADER_OVERFLOW'
    ? 'headers_too_large'
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : 'invalid_request'
  const message = code === 'headers_too_large'
    ? 'the request headers are too large'
    : code === 'request_timeout' ? 'the request did not arrive in time' : 'the request is not valid HTTP'
  const body = errorBody(code, message)
  const json = JSON.stringify(body)
  this.log.debug({ err: { code: err.code } }, `client error: ${code}`)
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${body.statusCode} ${body.error}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`)
  }
  socket.destroy()
}

/** Sends any failure as the documented body (Fastify's `frameworkErrors`: bad URLs and the like, before routing). */
export function sendError (request: FastifyRequest, reply: FastifyReply, error: unknown) {
  const apiError = toApiError(error as FastifyError)
  request.log.info({ code: apiError.code, reason: apiError.message }, 'request rejected')
  return send(reply, apiError)
}
