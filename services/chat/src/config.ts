import { Type, type Static } from 'typebox'
import { commonEnv, ConfigError, loadConfig, rateLimitEnv, serviceConfigOf, type ServiceConfig } from '@chatsearch/shell'
import { webhookConfigOf, webhookEnv, type WebhookConfig } from '@chatsearch/webhooks'

/** Every environment variable the chat service reads; README's configuration table mirrors it. */
export const ChatEnvSchema = Type.Object({
  ...commonEnv,
  ...webhookEnv,
  CHAT_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3001 }),
  HISTORY_TURNS: Type.Integer({ minimum: 0, maximum: 50, default: 6 }),
  /** Worker threads that embed messages for the classifier, batching concurrent ones (0: on the event loop). */
  EMBED_THREADS: Type.Integer({ minimum: 0, maximum: 16, default: 1 }),
  SEARCH_URL: Type.Optional(Type.String({ pattern: '^https?://', description: 'Base URL of the search service the assistant retrieves from' })),
  RETRIEVAL_TIMEOUT_MS: Type.Integer({ minimum: 50, maximum: 60_000, default: 2000 }),
  LLM_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://', description: 'OpenAI-compatible API base, e.g. http://127.0.0.1:11434/v1' })),
  LLM_MODEL: Type.Optional(Type.String({ minLength: 1 })),
  LLM_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  LLM_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 20_000 }),
  LLM_RETRIES: Type.Integer({ minimum: 0, maximum: 5, default: 2 }),
  LLM_PROMPT_TOKENS: Type.Integer({ minimum: 500, maximum: 200_000, default: 3000 }),
  /** POST /newUserMessage per credential and minute (0: unlimited). */
  RATE_LIMIT_CHAT_WRITE: rateLimitEnv(600),
  /** The reading routes per credential and minute (0: unlimited). */
  RATE_LIMIT_CHAT_READ: rateLimitEnv(1200),
  /** The /admin routes (the console's) per project and minute (0: unlimited). */
  RATE_LIMIT_ADMIN: rateLimitEnv(600),
  /** A widget key's requests per client address and minute, all its routes together (0: unlimited). */
  RATE_LIMIT_WIDGET_ADDRESS: rateLimitEnv(300),
  /** A widget key's requests per consumer (browser or verified customer) and minute (0: unlimited). */
  RATE_LIMIT_WIDGET_CONSUMER: rateLimitEnv(60)
})
export type ChatEnv = Static<typeof ChatEnvSchema>

/** What buildApp needs: the database is resolved (embedded or not) before the app is built. */
export interface ChatConfig extends ServiceConfig {
  /** How long a looked-up credential, and a widget key's origin, is trusted. */
  authCacheTtlMs: number
  /** Requests per credential and minute; absent or 0: unlimited. */
  rateLimits?: { chatWrite: number, chatRead: number, admin?: number, widgetAddress?: number, widgetConsumer?: number }
  /** How many earlier turns the assistant sees. */
  historyTurns: number
  /** Worker threads of the classifier's embedder (0: it runs on the event loop); absent: 1. */
  embedThreads?: number
  /** Where the assistant retrieves catalog items; without it replies carry no citations. */
  search?: { url: string, serviceToken: string, timeoutMs: number }
  /** An OpenAI-compatible model writing the replies; without it the grounded responder does. */
  llm?: { baseUrl: string, model: string, apiKey?: string, timeoutMs: number, retries: number, promptTokens: number }
  /** How webhooks are delivered (WEBHOOK_*); absent: the defaults, internal addresses refused. */
  webhooks?: WebhookConfig
}

/** The variables, checked at once: a bad combination stops the start before anything is opened. */
export function readChatEnv (env: NodeJS.ProcessEnv = process.env): ChatEnv {
  const read = loadConfig(ChatEnvSchema, env)
  searchOf(read)
  llmOf(read)
  return read
}

export function chatConfig (env: ChatEnv, databaseUrl: string): ChatConfig {
  return {
    ...serviceConfigOf(env, databaseUrl),
    authCacheTtlMs: env.AUTH_CACHE_TTL_MS,
    historyTurns: env.HISTORY_TURNS,
    embedThreads: env.EMBED_THREADS,
    rateLimits: {
      chatWrite: env.RATE_LIMIT_CHAT_WRITE,
      chatRead: env.RATE_LIMIT_CHAT_READ,
      admin: env.RATE_LIMIT_ADMIN,
      widgetAddress: env.RATE_LIMIT_WIDGET_ADDRESS,
      widgetConsumer: env.RATE_LIMIT_WIDGET_CONSUMER
    },
    webhooks: webhookConfigOf(env),
    ...searchOf(env),
    ...llmOf(env)
  }
}

function searchOf (env: ChatEnv): Pick<ChatConfig, 'search'> {
  if (env.SEARCH_URL === undefined) return {}
  if (env.SERVICE_TOKEN === undefined) throw new ConfigError(['SEARCH_URL is set but SERVICE_TOKEN is not: the chat service needs it to ask the search service'])
  return { search: { url: env.SEARCH_URL, serviceToken: env.SERVICE_TOKEN, timeoutMs: env.RETRIEVAL_TIMEOUT_MS } }
}

function llmOf (env: ChatEnv): Pick<ChatConfig, 'llm'> {
  if (env.LLM_BASE_URL === undefined) return {}
  if (env.LLM_MODEL === undefined) throw new ConfigError(['LLM_BASE_URL is set but LLM_MODEL is not: name the model to ask'])
  return {
    llm: {
      baseUrl: env.LLM_BASE_URL,
      model: env.LLM_MODEL,
      ...(env.LLM_API_KEY === undefined ? {} : { apiKey: env.LLM_API_KEY }),
      timeoutMs: env.LLM_TIMEOUT_MS,
      retries: env.LLM_RETRIES,
      promptTokens: env.LLM_PROMPT_TOKENS
    }
  }
}
