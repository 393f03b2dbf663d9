import type { FastifyServerOptions } from 'fastify'

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

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
