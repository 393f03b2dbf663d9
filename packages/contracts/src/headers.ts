import { Type } from 'typebox'
import { limits } from './limits.js'

// The headers the API reads and sends besides Authorization (the bearer security scheme) and the
// content types, in one place: routes validate the request headers with these schemas and both
// OpenAPI documents list them.

/** Visible ASCII, as Stripe and the IETF draft's examples use (UUIDs, ULIDs, base64url). */
export const idempotencyKeyPattern = '^[\\x21-\\x7e]{1,255}$'

export const IdempotencyKey = Type.String({
  pattern: idempotencyKeyPattern,
  description: 'Makes a retry of this request safe: the first request with a key runs and its successful response is kept 24 h; a retry with the same key and body gets that response again (`Idempotent-Replayed: true`) without running. The same key with another body is 422 `idempotency_key_reused`; a key whose request is still running is 409 `idempotency_key_in_use`; errors are not kept, so a failed request may be retried with its key. 1 to 255 visible ASCII characters, e.g. a UUID.',
  examples: ['5f0c2a8e-3b7d-4f7e-9c1a-6d2b8e4f0a13']
})

/** What a client whose Idempotency-Key does not fit the schema is told. */
export const idempotencyKeyRule = 'Idempotency-Key must be 1 to 255 visible ASCII characters (no spaces), e.g. a UUID'

/** The gateway's (or caller's) id of a request; one that does not fit is replaced, never refused. */
export const RequestIdIn = Type.String({
  description: 'An id for this request in the logs, e.g. a gateway\'s. Kept when it is 1 to 128 letters, digits, `_`, `.`, `:` or `-`; otherwise the service makes one. Either way it is returned in the `X-Request-Id` response header.',
  examples: ['gw-7f3a9c']
})

/** Response headers, by the name they are documented with (HTTP header names ignore case). */
export const ResponseHeaders = {
  'X-Request-Id': Type.String({ description: 'The id of this request in the service\'s logs: the caller\'s `X-Request-Id` when acceptable, otherwise a new UUID. Quote it when reporting a problem.' }),
  'RateLimit-Limit': Type.Integer({ minimum: 1, description: 'Requests of this endpoint\'s class a credential may send per window. Sent once a request is counted: when a limit is configured for the class, the credential is valid, and the rate-limit store answered.' }),
  'RateLimit-Remaining': Type.Integer({ minimum: 0, description: 'Requests of this class the credential has left in the current window' }),
  'RateLimit-Reset': Type.Integer({ minimum: 1, description: 'Seconds until the current window ends' }),
  'RateLimit-Policy': Type.String({ description: 'The limit and its window in seconds, as `<limit>;w=<seconds>`', examples: ['600;w=60'] }),
  'Retry-After': Type.Integer({ minimum: 1, description: 'Seconds to wait before retrying. Always sent with 429; with 503 when the service knows (e.g. the idempotency store is unavailable).' }),
  'Idempotent-Replayed': Type.String({ enum: ['true'], description: 'Present when this is the stored response of an earlier request with the same Idempotency-Key, replayed without running the request again' }),
  Allow: Type.String({ description: 'The methods the path answers to', examples: ['GET, HEAD'] })
}
export type ResponseHeaderName = keyof typeof ResponseHeaders
/** The headers that tell a client where it stands against its rate limit (the IETF RateLimit fields). */
export const rateLimitHeaderNames: ResponseHeaderName[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']

/**
 * The request headers of a route that takes a publishable widget key (decision 18). A browser sends
 * Origin itself; the others are the widget's.
 */
export const WidgetRequestHeaders = {
  Origin: Type.String({ description: 'With a widget key: must be one of the key\'s allowed origins (browsers send it); otherwise 403 `origin_not_allowed`. Ignored with an API key.', examples: ['https://shop.example'] }),
  'X-Consumer-Token': Type.String({ description: 'With a widget key: the `consumer_token` of an earlier reply, naming this browser\'s consumer. Without it a new consumer is made; one this service did not sign for the project is 401 `invalid_consumer_token`.' }),
  'X-Consumer-Id': Type.String({ maxLength: limits.consumerIdMaxChars, description: 'With a widget key and X-Consumer-Hmac: the shop\'s logged-in customer, who becomes the consumer (identity verification)' }),
  'X-Consumer-Hmac': Type.String({ description: 'Hex HMAC-SHA256 of X-Consumer-Id under the project\'s identity secret (console, Widget section), computed by the shop\'s server; wrong or alone: 403 `invalid_consumer_hmac`', examples: ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'] })
}

/** The widget headers as a route's optional request headers (Fastify validates and OpenAPI lists them). */
export const WidgetHeaders = Type.Object(Object.fromEntries(Object.entries(WidgetRequestHeaders).map(([name, schema]) => [name, Type.Optional(schema)])))
