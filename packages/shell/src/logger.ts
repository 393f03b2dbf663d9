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

/** pino options: JSON for machines, pretty only for a person at a terminal; credentials never logged. */
export function loggerOptions (level: LogLevel, name: string, stream?: LogDestination): NonNullable<FastifyServerOptions['logger']> {
  const base = { level, name, redact: { paths: redactedPaths, censor: '[redacted]' } }
  if (stream !== undefined) return { ...base, stream }
  return {
    ...base,
    ...(process.stdout.isTTY === true
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } }
      : {})
  }
}
