import { Type, type TObject, type TSchema, type Static } from 'typebox'
import { Value } from 'typebox/value'
import type { LogDestination, LogLevel } from './logger.js'

/** A configuration the process cannot start with; the message is one line naming each bad variable. */
export class ConfigError extends Error {
  constructor (problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`)
    this.name = 'ConfigError'
  }
}

interface Described { anyOf?: Array<{ const?: unknown }>, type?: unknown, minimum?: number, maximum?: number, minLength?: number, pattern?: string }

/** What a variable must be, in words, from its schema. */
function expectation (schema: Described): string | undefined {
  const choices = schema.anyOf?.map((s) => s.const)
  if (choices !== undefined && choices.every((c) => c !== undefined)) return `must be one of ${choices.join(', ')}`
  if (schema.type === 'boolean') return 'must be true or false'
  if (schema.type === 'integer' || schema.type === 'number') {
    const kind = schema.type === 'integer' ? 'an integer' : 'a number'
    if (schema.minimum !== undefined && schema.maximum !== undefined) return `must be ${kind} from ${schema.minimum} to ${schema.maximum}`
    if (schema.minimum !== undefined) return `must be ${kind} of at least ${schema.minimum}`
    return `must be ${kind}`
  }
  if (schema.pattern !== undefined) return `must match ${schema.pattern}`
  if (schema.minLength !== undefined) return `must have at least ${schema.minLength} characters`
  return undefined
}

/**
 * One variable's problem. The value is shown only for choices, numbers and booleans: a free text
 * may be a secret (a token, a URL with a password) and must not reach a log.
 */
function problem (name: string, schema: TSchema, value: unknown, fallback: string): string {
  const described = schema as Described
  const expected = expectation(described) ?? fallback
  const shown = described.type === 'string' || typeof value !== 'string' ? '' : ` (got ${JSON.stringify(value.slice(0, 40))})`
  return `${name} ${expected}${shown}`
}

/**
 * Reads a config object from environment variables, validated once by a TypeBox schema.
 * Each property of the schema is named after its variable; `Convert` turns "3001" into 3001
 * and "false" into false. Fails fast with a ConfigError naming every bad variable.
 */
export function loadConfig<T extends TObject> (schema: T, env: NodeJS.ProcessEnv = process.env): Static<T> {
  const raw: Record<string, string> = {}
  for (const key of Object.keys(schema.properties)) {
    const value = env[key]
    if (value !== undefined && value !== '') raw[key] = value
  }
  // Convert changes what it is given; `raw` keeps the text of each variable for the message.
  const converted = Value.Convert(schema, { ...raw }) as Record<string, unknown>
  // Convert truncates "12.5" to the integer 12: such a value is left as text, so the check refuses it.
  for (const [key, text] of Object.entries(raw)) {
    if ((schema.properties[key] as Described | undefined)?.type === 'integer' && !/^\s*[+-]?\d+\s*$/.test(text)) converted[key] = text
  }
  const withDefaults = Value.Default(schema, converted)
  if (!Value.Check(schema, withDefaults)) {
    const problems = new Map<string, string>()
    for (const e of Value.Errors(schema, withDefaults)) {
      const name = e.instancePath.split('/')[1] ?? ''
      const property = schema.properties[name]
      if (problems.has(name)) continue
      problems.set(name, property === undefined ? `${name || 'configuration'} ${e.message}` : problem(name, property, raw[name], e.message))
    }
    throw new ConfigError([...problems.values()])
  }
  return withDefaults as Static<T>
}

/**
 * Runs an entry point's reading of its configuration; a ConfigError ends the process with its
 * one line on stderr and exit code 1. Thrown on, it would end in a stack trace, printed by Node or
 * by the uncaughtException handler that the embedding model's runtime installs on import.
 */
export function exitOnConfigError<T> (read: () => T): T {
  try {
    return read()
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    process.stderr.write(`${err.message}\n`)
    process.exit(1)
  }
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
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  /** How far the V8 heap grows past its live size between full collections, in percent (see heap-growth.ts); 0: V8's own choice. */
  HEAP_GROWTH_PERCENT: Type.Integer({ minimum: 0, maximum: 300, default: 100 })
}

/** A per-minute request limit per credential; 0 switches it off. */
export const rateLimitEnv = (perMinute: number) => Type.Integer({ minimum: 0, maximum: 1_000_000, default: perMinute })

/** TRUST_PROXY as Fastify's `trustProxy`: "true"/"false" as booleans, anything else a list of addresses. */
function trustProxyOf (value: string | undefined): string | boolean {
  if (value === undefined || value === 'false') return false
  return value === 'true' ? true : value
}

/** What every service's app takes from the common variables; each service's config extends it. */
export interface ServiceConfig {
  /** Resolved (embedded or not) before the app is built. */
  databaseUrl: string
  logLevel: LogLevel
  /** Where log lines go; stdout by default. */
  logStream?: LogDestination
  /** Asked by GET /metrics when set. */
  metricsToken?: string
  dbPoolSize: number
  /** How long a looked-up credential is trusted (see @chatsearch/auth); absent: 5 s. */
  authCacheTtlMs?: number
  /** Failed authentications per client address and minute before 429 (0: off). */
  authFailuresPerMinute?: number
  /** Fastify's trustProxy: which proxies name the client address (for the throttles, logs and Secure cookies). */
  trustProxy?: string | boolean
  /** Shared state of the replicas; without it, this process keeps it (one node). */
  redisUrl?: string
  /** The shared secret of our services: it alone opens the /admin routes, and the chat service asks search with it; unset: not accepted. */
  serviceToken?: string
}

/** The common variables as loadConfig reads them. */
export type CommonEnv = Static<TObject<typeof commonEnv>>

/** The common variables as a ServiceConfig, on the database resolved from them. */
export function serviceConfigOf (env: CommonEnv, databaseUrl: string): ServiceConfig {
  return {
    databaseUrl,
    logLevel: env.LOG_LEVEL,
    ...(env.METRICS_TOKEN === undefined ? {} : { metricsToken: env.METRICS_TOKEN }),
    dbPoolSize: env.DB_POOL_SIZE,
    authCacheTtlMs: env.AUTH_CACHE_TTL_MS,
    authFailuresPerMinute: env.AUTH_FAILURES_PER_MINUTE,
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    ...(env.REDIS_URL === undefined ? {} : { redisUrl: env.REDIS_URL }),
    ...(env.SERVICE_TOKEN === undefined ? {} : { serviceToken: env.SERVICE_TOKEN })
  }
}
