import { Type, type Static } from 'typebox'
import { commonEnv, ConfigError, loadConfig, serviceConfigOf, type ServiceConfig } from '@chatsearch/shell'

/** Every environment variable the console reads; README's configuration table mirrors it. */
export const ConsoleEnvSchema = Type.Object({
  ...commonEnv,
  CONSOLE_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  CHAT_URL: Type.Optional(Type.String({ pattern: '^https?://', description: 'Base URL of the chat service (its /admin routes)' })),
  CHAT_PUBLIC_URL: Type.Optional(Type.String({ pattern: '^(https?://|/)', description: 'The chat service as shops\' browsers reach it (the widget snippet\'s src): a URL, or a path on the console\'s own origin behind a gateway (/chat); CHAT_URL by default' })),
  SEARCH_URL: Type.Optional(Type.String({ pattern: '^https?://', description: 'Base URL of the search service' })),
  CONSOLE_SESSION_TTL_HOURS: Type.Integer({ minimum: 1, maximum: 24 * 90, default: 12 }),
  /** Failed sign-ins per username and client address in 15 minutes before 429 (0: off). */
  CONSOLE_SIGNIN_FAILURES: Type.Integer({ minimum: 0, maximum: 1000, default: 5 }),
  /** How long a call to the chat or search service may take. */
  CONSOLE_UPSTREAM_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 30_000 })
})
export type ConsoleEnv = Static<typeof ConsoleEnvSchema>

/** What buildApp needs: the database is resolved (embedded or not) before the app is built. */
export interface ConsoleConfig extends ServiceConfig {
  chatUrl: string
  /** The chat service as browsers reach it, for the widget's snippet: a URL or a path on the console's origin; chatUrl when absent. */
  chatPublicUrl?: string
  searchUrl: string
  /** The shared secret that opens the chat and search /admin routes, with X-Project-Id. */
  serviceToken: string
  sessionTtlMs: number
  /** Failed sign-ins per username and address in the throttle's window; 0: off. */
  signInFailures: number
  upstreamTimeoutMs: number
  /** The built web app (services/console/web/dist by default); a placeholder page when it is missing. */
  webRoot?: string
}

/** The variables, checked at once: a bad combination stops the start before anything is opened. */
export function readConsoleEnv (env: NodeJS.ProcessEnv = process.env): ConsoleEnv {
  const read = loadConfig(ConsoleEnvSchema, env)
  upstreamsOf(read)
  return read
}

function upstreamsOf (env: ConsoleEnv) {
  const missing = (['CHAT_URL', 'SEARCH_URL', 'SERVICE_TOKEN'] as const).filter((name) => env[name] === undefined)
  if (missing.length > 0) throw new ConfigError(missing.map((name) => `${name} is required: the console reaches the chat and search services with it`))
  return { chatUrl: env.CHAT_URL!, searchUrl: env.SEARCH_URL!, serviceToken: env.SERVICE_TOKEN! }
}

export function consoleConfig (env: ConsoleEnv, databaseUrl: string): ConsoleConfig {
  return {
    ...serviceConfigOf(env, databaseUrl),
    ...upstreamsOf(env),
    chatPublicUrl: (env.CHAT_PUBLIC_URL ?? env.CHAT_URL!).replace(/\/+$/, ''),
    sessionTtlMs: env.CONSOLE_SESSION_TTL_HOURS * 3_600_000,
    signInFailures: env.CONSOLE_SIGNIN_FAILURES,
    upstreamTimeoutMs: env.CONSOLE_UPSTREAM_TIMEOUT_MS
  }
}
