import type { Metrics } from '@chatsearch/shell'
import type { AssistantStats } from './assistant.js'
import { LlmError, type ChatModel, type TokenUsage } from './llm/client.js'
import type { Retriever } from './types.js'

/** Seconds: a local model's first token to a long streamed answer. */
const LLM_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120]
/** Seconds: a cached catalog shape and one search, to a search service timing out. */
const RETRIEVAL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const outcomeOf = (err: unknown) => (err instanceof LlmError ? err.kind : 'error')

/**
 * The model, each call (a tool-calling round is one) timed by mode (`complete`, `stream`) and outcome (`ok`, or the kind of
 * failure: `timeout`, `http`, `network`, `protocol`, `aborted`), retries included.
 */
export function timedModel (model: ChatModel, metrics: Metrics): ChatModel {
  const duration = metrics.histogram({
    name: 'llm_request_duration_seconds',
    help: 'Calls to the language model, retries included, by mode and outcome (ok or the failure kind)',
    labelNames: ['mode', 'outcome'],
    buckets: LLM_BUCKETS
  })
  const firstToken = metrics.histogram({
    name: 'llm_first_token_seconds',
    help: 'Time until a streamed model reply sends its first text',
    buckets: LLM_BUCKETS
  })
  return {
    async complete (messages, signal) {
      const end = duration.startTimer({ mode: 'complete' })
      try {
        const text = await model.complete(messages, signal)
        end({ outcome: 'ok' })
        return text
      } catch (err) {
        end({ outcome: outcomeOf(err) })
        throw err
      }
    },
    async * stream (messages, signal) {
      const end = duration.startTimer({ mode: 'stream' })
      const untilFirst = firstToken.startTimer()
      let outcome = 'ok'
      let first = true
      try {
        for await (const delta of model.stream(messages, signal)) {
          if (first) { untilFirst(); first = false }
          yield delta
        }
      } catch (err) {
        outcome = outcomeOf(err)
        throw err
      } finally {
        end({ outcome })
      }
    },
    async respond (messages, opts) {
      const end = duration.startTimer({ mode: opts.onText === undefined ? 'complete' : 'stream' })
      const untilFirst = opts.onText === undefined ? undefined : firstToken.startTimer()
      let first = true
      const onText = opts.onText === undefined ? undefined : (delta: string) => { if (first) { untilFirst?.(); first = false } opts.onText?.(delta) }
      try {
        const response = await model.respond(messages, { ...opts, ...(onText === undefined ? {} : { onText }) })
        end({ outcome: 'ok' })
        return response
      } catch (err) {
        end({ outcome: outcomeOf(err) })
        throw err
      }
    }
  }
}

/**
 * Counts the tokens the model's server reports using, by model (the configured LLM_MODEL, so that a
 * server naming its own versions cannot add series) and kind (`prompt`, `completion`).
 */
export function tokenCounter (metrics: Metrics, model: string): (usage: TokenUsage) => void {
  const tokens = metrics.counter({
    name: 'llm_tokens_total',
    help: 'Tokens the language model server reported, by model and kind (prompt, completion)',
    labelNames: ['model', 'kind']
  })
  return (usage) => {
    tokens.inc({ model, kind: 'prompt' }, usage.promptTokens)
    tokens.inc({ model, kind: 'completion' }, usage.completionTokens)
  }
}

/**
 * The retriever, each retrieval (one or two calls to the search service) timed by source
 * (`catalog`, `knowledge`, `items` by id) and outcome (`ok`, `failed`).
 */
export function timedRetriever (retriever: Retriever, metrics: Metrics): Retriever {
  const duration = metrics.histogram({
    name: 'retrieval_duration_seconds',
    help: 'Retrievals through the search service, by source (catalog, knowledge, items, page) and outcome (ok, failed)',
    labelNames: ['source', 'outcome'],
    buckets: RETRIEVAL_BUCKETS
  })
  const timed = async <T extends { failure?: string }>(source: string, work: Promise<T>): Promise<T> => {
    const end = duration.startTimer()
    const result = await work
    end({ source, outcome: result.failure === undefined ? 'ok' : 'failed' })
    return result
  }
  return {
    retrieve: async (projectId, message, history, context) => await timed('catalog', retriever.retrieve(projectId, message, history, context)),
    knowledge: async (projectId, text, context) => await timed('knowledge', retriever.knowledge(projectId, text, context)),
    items: async (projectId, ids, context) => await timed('items', retriever.items(projectId, ids, context)),
    page: async (projectId, documentId, context, found) => await timed('page', retriever.page(projectId, documentId, context, found))
  }
}

/**
 * The assistant's own counters of failures that did not fail a turn, and the size of what it keeps in
 * memory, read when Prometheus scrapes.
 */
export function assistantCounters (stats: AssistantStats, metrics: Metrics, cached: { sentences: () => number, messages: () => number } = { sentences: () => 0, messages: () => 0 }): void {
  // Help-page sentences whose embeddings are kept for choosing what to quote (at most SENTENCE_CACHE_ENTRIES),
  // and the messages they are compared with (at most MESSAGE_CACHE_ENTRIES).
  metrics.store('assistant_sentence_vectors', () => ({ entries: cached.sentences() }))
  metrics.store('assistant_message_vectors', () => ({ entries: cached.messages() }))
  metrics.counter({
    name: 'llm_fallbacks_total',
    help: 'Replies written by the grounded responder because the language model failed',
    collect () { this.reset(); this.inc(stats.llmFallbacks) }
  })
  metrics.counter({
    name: 'retrieval_failures_total',
    help: 'Turns answered without catalog items because the search service failed',
    collect () { this.reset(); this.inc(stats.retrievalFailures) }
  })
  metrics.counter({
    name: 'knowledge_failures_total',
    help: 'Turns answered without the project\'s knowledge because its search failed',
    collect () { this.reset(); this.inc(stats.knowledgeFailures) }
  })
}
