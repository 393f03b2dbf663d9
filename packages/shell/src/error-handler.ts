import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ErrorBody } from '@chatsearch/contracts'
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

/** Turns an AJV failure into our error: a missing field is `missing_parameters`, anything else `invalid_request`. */
function fromValidation (error: FastifyError): ApiError {
  const item = error.validation?.[0]
  const context = error.validationContext
  if (item === undefined) return new ApiError(400, 'Bad Request', 'invalid_request', error.message)
  const field = fieldName(item, context)
  const emptyQueryParam = context === 'querystring' && item.keyword === 'minLength'
  if (item.keyword === 'required' || emptyQueryParam) {
    return new ApiError(400, 'Missing Parameters', 'missing_parameters', `${field} is required (${context})`)
  }
  if (item.keyword === 'additionalProperties') {
    const extra = (item.params as { additionalProperty?: string }).additionalProperty
    return new ApiError(400, 'Bad Request', 'invalid_request', `unknown field ${extra ?? ''} in ${context ?? 'request'}`)
  }
  if (item.keyword === 'pattern' && field === 'user_message') {
    return new ApiError(400, 'Bad Request', 'invalid_request', 'user_message must not be empty or only white space')
  }
  return new ApiError(400, 'Bad Request', 'invalid_request', `${field} ${item.message ?? 'is invalid'}`)
}

/** Fastify's own client errors (bad JSON, wrong content type, too large) keep their status with our body. */
function fromFastify (error: FastifyError): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'Unsupported Media Type', 'unsupported_media_type', 'send the body as application/json')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'Payload Too Large', 'payload_too_large', error.message)
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'Bad Request', 'invalid_request', 'the JSON body is empty')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, 'Bad Request', 'invalid_request', 'the body is not valid JSON')
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return new ApiError(400, 'Bad Request', 'invalid_request', 'the body is not valid JSON')
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError(error.statusCode, 'Bad Request', 'invalid_request', error.message)
  }
  return undefined
}

function toApiError (error: FastifyError): ApiError {
  if (error instanceof ApiError) return error
  if (error.validation !== undefined) return fromValidation(error)
  const client = fromFastify(error)
  if (client !== undefined) return client
  if (unavailableCodes.has(String(error.code))) {
    return new ApiError(503, 'Service Unavailable', 'service_unavailable', 'a backing service is unavailable, try again shortly')
  }
  return new ApiError(500, 'Internal Server Error', 'internal_error', 'something went wrong on our side; it has been logged')
}

const bodyOf = (apiError: ApiError): ErrorBody => ({
  statusCode: apiError.statusCode,
  error: apiError.error,
  code: apiError.code,
  message: apiError.message
})

/** The documented error body for any failure, as the error handler would send it (for responses already streaming). */
export function errorBodyOf (error: unknown): ErrorBody {
  return bodyOf(toApiError(error as FastifyError))
}

function send (reply: FastifyReply, apiError: ApiError) {
  return reply.code(apiError.statusCode).headers(apiError.headers).type('application/json; charset=utf-8').send(bodyOf(apiError))
}

/** The one error handler of a service: every failure leaves as the documented error body. */
export function installErrorHandler (app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error)
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed')
    else request.log.info({ code: apiError.code, reason: apiError.message }, 'request rejected')
    return send(reply, apiError)
  })
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    return send(reply, new ApiError(404, 'Not Found', 'not_found', `no route ${request.method} ${request.url.split('?')[0]}`))
  })
}
