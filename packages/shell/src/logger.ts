import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify'

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Level of Fastify's "incoming request" and "request completed" lines for this route (info
     * by default): `debug` for health probes and scrapes, which would fill an info log every few
     * seconds. A route's `logLevel` cannot do it: it only sets the least level the route logs.
     */
    requestLogLevel?: 'debug' | 'trace'
  }
}

/** Fastify's per-request lines at the level the route asks for (see `requestLogLevel`); failures keep theirs. */
export class RequestLogController extends LogController {
  override incomingRequest (request: FastifyRequest, reply: FastifyReply): void {
    const level = request.routeOptions.config.requestLogLevel
    if (level === undefined) super.incomingRequest(request, reply)
    else if (!this.isLogDisabled(request)) request.log[level]({ req: request }, 'incoming request')
  }

  override requestCompleted (error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const level = request.routeOptions.config.requestLogLevel
    if (level === undefined || error != null) super.requestCompleted(error, request, reply)
    else if (!this.isLogDisabled(request)) reply.log[level]({ res: reply, responseTime: reply.elapsedTime }, 'request completed')
  }
}

/** Where pino writes its JSON lines (a pino destination stream). */
export interface LogDestination { write: (line: string) => void }

/** Request headers that carry a secret: API keys and the service token (both sent as Authorization), cookies. */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key']

/**
 * Wherever a headers object may be logged: a request (`req`, as Fastify's serializer and our own
 * code name it), a raw `headers` object, a response's `set-cookie`, and the same one level down
 * (`err.config.headers`, `request.headers`…).
 */
export const redactedPaths = [
  ...SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `*.headers["${h}"]`]),
  'res.headers["set-cookie"]'
]

/**
 * Query parameters whose values are personal data: `consumer_id` is the caller's own identifier
 * of an end user. (`chat_id` is an opaque id of ours and stays, to follow a conversation.) Matched
 * however the key is written, since a misspelt one is logged too before it is refused.
 */
const PERSONAL_QUERY_KEY = /^consumer_id(\[.*\])?$/i

function decodedKey (key: string): string {
  try {
    return decodeURIComponent(key.replaceAll('+', ' '))
  } catch {
    return key
  }
}

/** A request URL as it may be logged: the values of personal query parameters replaced by `[redacted]`. */
export function loggedUrl (url: string): string {
  const start = url.indexOf('?')
  if (start === -1) return url
  const query = url.slice(start + 1).split('&').map((pair) => {
    const key = pair.split('=', 1)[0] ?? ''
    return PERSONAL_QUERY_KEY.test(decodedKey(key)) ? `${key}=[redacted]` : pair
  })
  return `${url.slice(0, start)}?${query.join('&')}`
}

/** Fastify's own request serializer, but for the URL. */
function serializeRequest (request: FastifyRequest) {
  const version = request.headers['accept-version']
  return {
    method: request.method,
    url: loggedUrl(request.url),
    version: typeof version === 'string' ? version : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort
  }
}

/** pino options: JSON for machines, pretty only for a person at a terminal; credentials and personal query values never logged. */
export function loggerOptions (level: LogLevel, name: string, stream?: LogDestination): NonNullable<FastifyServerOptions['logger']> {
  const base = { level, name, redact: { paths: redactedPaths, censor: '[redacted]' }, serializers: { req: serializeRequest } }
  if (stream !== undefined) return { ...base, stream }
  return {
    ...base,
    ...(process.stdout.isTTY === true
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } }
      : {})
  }
}
