import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { TtlCache, widgetOriginKnown } from '@chatsearch/auth'
import { NoContent, WidgetRequestHeaders, errorResponses } from '@chatsearch/contracts'
import { ApiError, type Queryable, type RateCounter } from '@chatsearch/shell'

// What the chat service does for publishable widget keys (decision 18) besides authenticating them
// (packages/auth): answer browsers' CORS preflights, name the origin on the replies, count the limits.

/** The routes a widget key may call; each marks itself with `config.widgetKey`. */
export const WIDGET_ROUTES = [['POST', '/newUserMessage'], ['GET', '/readConversation'], ['GET', '/latestConsumerChatId'], ['POST', '/feedback']] as const

const ALLOWED_HEADERS = ['authorization', 'content-type', 'accept', 'idempotency-key', 'x-request-id', 'x-consumer-token', 'x-consumer-id', 'x-consumer-hmac'].join(', ')
const EXPOSED_HEADERS = ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'retry-after', 'idempotent-replayed'].join(', ')
/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE_S = 600

/**
 * CORS written out rather than @fastify/cors: a preflight carries no key, so whether an origin is
 * allowed is a question to the database (does a live widget key name it?), asked only on the four
 * routes; @fastify/cors answers preflights on every path through one wildcard OPTIONS route. The
 * request itself is then checked against its own key's origins by the auth plugin.
 */
export function widgetCors (db: Queryable, cacheTtlMs: number) {
  const known = new TtlCache<boolean>(cacheTtlMs)
  /** The origin, when a live widget key allows it. */
  const allowed = async (origin: string | undefined): Promise<string | undefined> =>
    origin !== undefined && origin !== '' && await known.get(origin, () => widgetOriginKnown(db, origin)) ? origin : undefined

  /**
   * onRequest hook, before authentication: a reply to a widget route, an error included, names the
   * origin when some widget key allows it, so the widget can read why it was refused.
   */
  async function headers (request: FastifyRequest, reply: FastifyReply) {
    if (request.routeOptions.config.widgetKey !== true) return
    reply.header('vary', 'Origin')
    const origin = await allowed(request.headers.origin)
    if (origin !== undefined) reply.headers({ 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED_HEADERS })
  }

  /** The browsers' preflights (OPTIONS) of the widget routes. */
  async function preflight (app: FastifyInstance) {
    for (const [method, url] of WIDGET_ROUTES) {
      app.options(url, {
        schema: {
          operationId: `preflight${url.slice(1, 2).toUpperCase()}${url.slice(2)}`,
          tags: ['widget'],
          summary: `CORS preflight of ${method} ${url} from a shop's page (widget keys)`,
          description: 'Answered 204 with the Access-Control-Allow-* headers when the Origin is allowed by a live widget key; the request that follows is checked against its own key\'s origins.',
          security: [],
          headers: { type: 'object', properties: { Origin: WidgetRequestHeaders.Origin } },
          response: { 204: NoContent('Allowed: Access-Control-Allow-Origin names the origin'), ...errorResponses('origin_not_allowed') }
        }
      }, async (request, reply) => {
        reply.header('vary', 'Origin')
        const origin = await allowed(request.headers.origin)
        if (origin === undefined) throw new ApiError('origin_not_allowed', 'no widget key allows this origin')
        return await reply.code(204).headers({
          'access-control-allow-origin': origin,
          'access-control-allow-methods': method,
          'access-control-allow-headers': ALLOWED_HEADERS,
          'access-control-max-age': String(PREFLIGHT_MAX_AGE_S)
        }).send()
      })
    }
    app.addHook('onClose', async () => { known.clear() })
  }

  return { headers, preflight }
}

/**
 * A widget key's browsers share one key: they are counted per client address and per consumer
 * (RATE_LIMIT_WIDGET_ADDRESS, RATE_LIMIT_WIDGET_CONSUMER), not against the key's own limit.
 */
export function widgetCounters (request: FastifyRequest): RateCounter[] | undefined {
  const principal = request.principal as FastifyRequest['principal'] | null
  if (principal?.service !== 'widget') return undefined
  return [
    { rateClass: 'widget_address', who: `${principal.projectId}:${request.ip}` },
    { rateClass: 'widget_consumer', who: `${principal.projectId}:${principal.consumerId ?? ''}` }
  ]
}
