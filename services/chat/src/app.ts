import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { authMigrations, projectCredentials } from '@chatsearch/auth'
import { loadEmbedder, type Embedder } from '@chatsearch/embeddings'
import { buildOnServiceBase, type Metrics, type ServiceBaseOptions } from '@chatsearch/shell'
import { WEBHOOK_DEFAULTS, webhookMigrations, webhooksPlugin } from '@chatsearch/webhooks'
import type { ChatConfig } from './config.js'
import { Assistant } from './assistant/assistant.js'
import { loadClassifier, type Classifier } from './assistant/classifier.js'
import { noRetriever, searchRetriever } from './assistant/retriever.js'
import type { Retriever } from './assistant/types.js'
import { openAiChatModel, type ChatModel } from './assistant/llm/client.js'
import { assistantCounters, timedModel, timedRetriever, tokenCounter } from './assistant/metrics.js'
import { newUserMessageRoutes } from './routes/new-user-message.js'
import { readConversationRoutes } from './routes/read-conversation.js'
import { listChatsRoutes } from './routes/list-chats.js'
import { latestConsumerChatRoutes } from './routes/latest-consumer-chat.js'
import { feedbackRoutes } from './routes/feedback.js'
import { adminRoutes } from './routes/admin.js'
import { widgetFileRoutes } from './routes/widget-files.js'
import { widgetCors, widgetCounters } from './widget.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The reply pipeline, with its counters of retrieval failures and model fallbacks. */
    assistant: Assistant
  }
}

export const chatMigrations = fileURLToPath(new URL('../migrations', import.meta.url))

/** Parts of the reply pipeline a caller may provide instead of the defaults. */
export interface ChatParts {
  classifier?: Classifier
  /** Embeds the sentences the assistant may quote; by default the classifier's USE-lite (none when a classifier is given). */
  embedder?: Embedder
  retriever?: Retriever
  model?: ChatModel
}

function retrieverOf (config: ChatConfig, metrics: Metrics): Retriever {
  if (config.search === undefined) return noRetriever
  return searchRetriever({
    searchUrl: config.search.url,
    serviceToken: config.search.serviceToken,
    timeoutMs: config.search.timeoutMs,
    onShapes: (size) => { metrics.store('retriever_catalog_shapes', () => ({ entries: size() })) }
  })
}

function modelOf (config: ChatConfig, metrics: Metrics): ChatModel | undefined {
  if (config.llm === undefined) return undefined
  return openAiChatModel({ ...config.llm, onUsage: tokenCounter(metrics, config.llm.model) })
}

/**
 * The shared parts as the chat service has them. The search service is no readiness check: without
 * it replies still come, uncited.
 */
function baseOf (config: ChatConfig): ServiceBaseOptions {
  return {
    service: 'chat',
    config,
    migrations: { auth: authMigrations, chat: chatMigrations, webhooks: webhookMigrations },
    credentials: {
      check: projectCredentials('chat'),
      rateLimits: {
        chat_write: config.rateLimits?.chatWrite ?? 0,
        chat_read: config.rateLimits?.chatRead ?? 0,
        admin: config.rateLimits?.admin ?? 0,
        widget_address: config.rateLimits?.widgetAddress ?? 0,
        widget_consumer: config.rateLimits?.widgetConsumer ?? 0
      },
      counters: widgetCounters
    },
    openApi: {
      title: 'Chat Service API',
      description: 'Conversational AI assistant scoped to a project: send messages, read and list conversations, rate replies.',
      servers: [
        { url: '/', description: 'The chat service itself, on its own host and port (CHAT_PORT, 3001 by default)' },
        { url: '/chat', description: 'Through the gateway of docker-compose.yml, which serves the chat API under /chat' }
      ],
      tags: [
        { name: 'chat', description: 'Conversations of the project: send a user message and get the reply, read a conversation, list the chats of the project or of one consumer, rate a reply' },
        { name: 'widget', description: 'The embeddable chat widget\'s scripts (public), and browsers\' CORS preflights of the routes a publishable widget key (`csk_pub_…`) may call from a shop\'s page' },
        { name: 'admin', description: 'For the console only (decision 15): the service token with X-Project-Id; never routed by the gateway' }
      ]
    }
  }
}

async function register (app: FastifyInstance, config: ChatConfig, parts: ChatParts) {
  const model = parts.model ?? modelOf(config, app.metrics)
  const retriever = parts.retriever ?? retrieverOf(config, app.metrics)
  const assistant = new Assistant({
    classifier: parts.classifier ?? await loadClassifier(config.embedThreads),
    // The classifier's encoder (loadEmbedder keeps one per thread count): no second model in memory.
    ...(parts.embedder !== undefined ? { embedder: parts.embedder } : parts.classifier === undefined ? { embedder: await loadEmbedder(config.embedThreads === undefined ? {} : { threads: config.embedThreads }) } : {}),
    retriever: retriever === noRetriever ? retriever : timedRetriever(retriever, app.metrics),
    ...(model === undefined ? {} : { model: timedModel(model, app.metrics) }),
    promptTokens: config.llm?.promptTokens ?? 3000,
    log: app.log
  })
  assistantCounters(assistant.stats, app.metrics, { sentences: () => assistant.cachedSentences, messages: () => assistant.cachedMessages })
  app.decorate('assistant', assistant)
  // Both services run a delivery worker (SKIP LOCKED): each one's events go out even when the other is down.
  await app.register(webhooksPlugin, config.webhooks ?? WEBHOOK_DEFAULTS)
  const cors = widgetCors(app.pg, config.authCacheTtlMs)
  await app.register(cors.preflight)
  await app.register(widgetFileRoutes)
  await app.register(async (api) => {
    api.addHook('onRequest', cors.headers)
    api.addHook('onRequest', api.authenticate)
    await api.register(newUserMessageRoutes, { assistant, historyTurns: config.historyTurns })
    await api.register(readConversationRoutes)
    await api.register(listChatsRoutes)
    await api.register(latestConsumerChatRoutes)
    await api.register(feedbackRoutes)
    await api.register(adminRoutes)
  })
}

/** The chat service as a Fastify app: migrations applied, routes registered, ready to listen or inject. */
export async function buildApp (config: ChatConfig, parts: ChatParts = {}): Promise<FastifyInstance> {
  return await buildOnServiceBase(baseOf(config), (app) => register(app, config, parts))
}
