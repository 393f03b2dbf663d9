import type { FastifyServerOptions } from 'fastify'

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

/** pino options: JSON for machines, pretty only for a person at a terminal; credentials never logged. */
export function loggerOptions (level: LogLevel, name: string): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    name,
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
    ...(process.stdout.isTTY === true
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } }
      : {})
  }
}
