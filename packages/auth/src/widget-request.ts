import type { FastifyRequest } from 'fastify'
import { limits } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { newConsumerId, verifyConsumerToken, verifyIdentity, type WidgetSecrets } from './widget.js'

/** The request headers a widget sends besides its key (decision 18). */
export const CONSUMER_TOKEN_HEADER = 'x-consumer-token'
export const CONSUMER_ID_HEADER = 'x-consumer-id'
export const CONSUMER_HMAC_HEADER = 'x-consumer-hmac'

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** A widget key is accepted only from the pages of its own origins, exactly as the browser names them. */
export function checkOrigin (request: FastifyRequest, origins: readonly string[]): string {
  const origin = header(request, 'origin')
  if (origin === undefined) throw new ApiError('origin_not_allowed', 'a widget key is accepted only from a browser page: the request has no Origin header')
  if (!origins.includes(origin)) throw new ApiError('origin_not_allowed', `a widget key is accepted only from its allowed origins, and ${JSON.stringify(origin.slice(0, 200))} is not one of them`)
  return origin
}

/**
 * Whose chats a widget request acts on: the shop's logged-in customer when its server signed the
 * customer id (X-Consumer-Id with X-Consumer-Hmac), else the consumer of the token the service gave
 * this browser (X-Consumer-Token), else a new consumer. Never what a body or query says.
 */
export function widgetConsumer (request: FastifyRequest, secrets: WidgetSecrets): string {
  const customerId = header(request, CONSUMER_ID_HEADER)
  const hmac = header(request, CONSUMER_HMAC_HEADER)
  if (customerId !== undefined || hmac !== undefined) {
    if (customerId === undefined || hmac === undefined) throw new ApiError('invalid_consumer_hmac', 'identity verification needs both X-Consumer-Id and X-Consumer-Hmac')
    if (customerId.length > limits.consumerIdMaxChars) throw new ApiError('invalid_request', `X-Consumer-Id must have at most ${limits.consumerIdMaxChars} characters`)
    if (!verifyIdentity(secrets.identitySecret, customerId, hmac)) {
      throw new ApiError('invalid_consumer_hmac', 'X-Consumer-Hmac is not the hex HMAC-SHA256 of X-Consumer-Id under the project\'s identity secret (console, Widget section)')
    }
    return customerId
  }
  const token = header(request, CONSUMER_TOKEN_HEADER)
  if (token === undefined) return newConsumerId()
  const consumerId = verifyConsumerToken(secrets.tokenSecret, token)
  if (consumerId === undefined) throw new ApiError('invalid_consumer_token', 'X-Consumer-Token was not issued by this service for this project; send none to be given a new one')
  return consumerId
}
