import { Type, type Static } from 'typebox'
import { commonEnv, loadConfig, type LogLevel } from '@chatsearch/shell'

/** Every environment variable the chat service reads; README's configuration table mirrors it. */
export const ChatEnvSchema = Type.Object({
  ...commonEnv,
  CHAT_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3001 }),
  HISTORY_TURNS: Type.Integer({ minimum: 0, maximum: 50, default: 6 })
})
export type ChatEnv = Static<typeof ChatEnvSchema>

/** What buildApp needs: the database is resolved (embedded or not) before the app is built. */
export interface ChatConfig {
  databaseUrl: string
  logLevel: LogLevel
  dbPoolSize: number
  authCacheTtlMs: number
  /** How many earlier turns the assistant sees. */
  historyTurns: number
}

export const readChatEnv = (env: NodeJS.ProcessEnv = process.env): ChatEnv => loadConfig(ChatEnvSchema, env)

export function chatConfig (env: ChatEnv, databaseUrl: string): ChatConfig {
  return {
    databaseUrl,
    logLevel: env.LOG_LEVEL,
    dbPoolSize: env.DB_POOL_SIZE,
    authCacheTtlMs: env.AUTH_CACHE_TTL_MS,
    historyTurns: env.HISTORY_TURNS
  }
}
