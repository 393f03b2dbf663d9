import type { RouteOptions } from 'fastify'
import { Type, type TSchema } from 'typebox'
import { IdempotencyKey, rateLimitHeaderNames, RequestIdIn, ResponseHeaders, type ResponseHeaderName } from '@chatsearch/contracts'

type Schema = Record<string, unknown>

/** The response headers the shell sends with `status` on a route with these options. */
function responseHeadersOf (status: string, opts: { limited: boolean, idempotent: boolean }): ResponseHeaderName[] {
  const names: ResponseHeaderName[] = ['X-Request-Id']
  // Counted after authentication: a 401 never carries them.
  if (opts.limited && status !== '401') names.push(...rateLimitHeaderNames)
  if (status === '429' || status === '503') names.push('Retry-After')
  if (opts.idempotent && status.startsWith('2')) names.push('Idempotent-Replayed')
  return names
}

function withHeaders (response: Schema, names: ResponseHeaderName[]): Schema {
  const headers: Record<string, TSchema> = { ...(response.headers as Record<string, TSchema> | undefined) }
  for (const name of names) headers[name] ??= ResponseHeaders[name]
  return { ...response, headers }
}

function requestHeaders (given: Schema | undefined, idempotent: boolean): Schema {
  const own = Type.Object({
    'X-Request-Id': Type.Optional(RequestIdIn),
    ...(idempotent ? { 'Idempotency-Key': Type.Optional(IdempotencyKey) } : {})
  })
  return { ...given, type: 'object', properties: { ...own.properties, ...(given?.properties as Schema | undefined) } }
}

/**
 * An onRoute hook completing a documented route's schema with the headers the shell reads and
 * sends for it, derived from the same route options that make it do so, so the OpenAPI document
 * cannot drift from the behaviour: `X-Request-Id` in and out everywhere, `Idempotency-Key` where
 * `config.idempotency` is set (then validated like any header: a malformed key is 400
 * `invalid_request`) and `Idempotent-Replayed` on its successes, `RateLimit-*` where
 * `config.rateLimit` is set, `Retry-After` on 429 and 503. Hidden routes are left alone.
 */
export function documentHeaders (route: RouteOptions) {
  const schema = route.schema as Schema | undefined
  if (schema === undefined || schema.hide === true) return
  const opts = { limited: route.config?.rateLimit !== undefined, idempotent: route.config?.idempotency !== undefined }
  const responses = Object.entries((schema.response ?? {}) as Record<string, Schema>)
    .map(([status, response]) => [status, withHeaders(response, responseHeadersOf(status, opts))])
  route.schema = {
    ...schema,
    headers: requestHeaders(schema.headers as Schema | undefined, opts.idempotent),
    response: Object.fromEntries(responses)
  }
}
