import { Type, type TObject, type Static } from 'typebox'
import { Value } from 'typebox/value'

/**
 * Reads a config object from environment variables, validated once by a TypeBox schema.
 * Each property of the schema is named after its variable; `Convert` turns "3001" into 3001
 * and "false" into false. Fails fast with a message naming every bad variable.
 */
export function loadConfig<T extends TObject> (schema: T, env: NodeJS.ProcessEnv = process.env): Static<T> {
  const raw: Record<string, unknown> = {}
  for (const key of Object.keys(schema.properties)) {
    const value = env[key]
    if (value !== undefined && value !== '') raw[key] = value
  }
  const withDefaults = Value.Default(schema, Value.Convert(schema, raw))
  if (!Value.Check(schema, withDefaults)) {
    const problems = [...Value.Errors(schema, withDefaults)]
      .map((e) => `  ${e.instancePath.replace(/^\//, '') || '(config)'}: ${e.message}`)
    throw new Error(`invalid configuration:\n${problems.join('\n')}`)
  }
  return withDefaults as Static<T>
}

export const LogLevelSchema = Type.Union([
  Type.Literal('fatal'), Type.Literal('error'), Type.Literal('warn'), Type.Literal('info'),
  Type.Literal('debug'), Type.Literal('trace'), Type.Literal('silent')
], { default: 'info' })

/** Variables every service reads; README's configuration table mirrors them. */
export const commonEnv = {
  DATABASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  DATA_DIR: Type.String({ default: './.data' }),
  PG_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 54329 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  LOG_LEVEL: LogLevelSchema,
  DB_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  AUTH_CACHE_TTL_MS: Type.Integer({ minimum: 0, maximum: 5000, default: 5000 }),
  /** Failed authentications per client address and minute before it gets 429; 0 switches it off. */
  AUTH_FAILURES_PER_MINUTE: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 30 }),
  /** Which proxies may name the client in X-Forwarded-For: true, or addresses/CIDRs/`loopback`/`uniquelocal`, comma-separated. */
  TRUST_PROXY: Type.Optional(Type.String({ minLength: 1 })),
  /** Shared state of the replicas (rate limits, idempotency keys, caches, revocations); unset: in-process. */
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  /** The shared secret with which the chat service asks the search service (min. 32 characters). */
  SERVICE_TOKEN: Type.Optional(Type.String({ minLength: 32 })),
  /** How long requests and event streams in flight may take to finish once SIGTERM comes. */
  SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 10_000 }),
  /** When set, GET /metrics asks for `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 }))
}

/** A per-minute request limit per credential; 0 switches it off. */
export const rateLimitEnv = (perMinute: number) => Type.Integer({ minimum: 0, maximum: 1_000_000, default: perMinute })

/** TRUST_PROXY as Fastify's `trustProxy`: "true"/"false" as booleans, anything else a list of addresses. */
export function trustProxyOf (value: string | undefined): string | boolean {
  if (value === undefined || value === 'false') return false
  return value === 'true' ? true : value
}

/** What both services take from the common variables for their server and authentication. */
export function edgeConfigOf (env: { AUTH_FAILURES_PER_MINUTE: number, TRUST_PROXY?: string | undefined }) {
  return { authFailuresPerMinute: env.AUTH_FAILURES_PER_MINUTE, trustProxy: trustProxyOf(env.TRUST_PROXY) }
}
