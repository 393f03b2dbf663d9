import type { Histogram, Metrics } from '@chatsearch/shell'
import type { Embedder } from '@chatsearch/embeddings'
import type { EngineIndex, KnowledgeIndex, SearchEngine } from './port.js'

/** Seconds: a cached settings read to a large batch upsert. */
const ENGINE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]

type Operation = keyof EngineIndex

/** Every operation of the port (the compiler refuses a missing one), so that an adapter's calls are all timed. */
const OPERATIONS = Object.keys({
  settings: 0, updateSettings: 0, upsert: 0, ingestBatch: 0, remove: 0, get: 0, getMany: 0, count: 0, storedHashes: 0, search: 0, facetSearch: 0, suggest: 0, correct: 0, recordQuery: 0, popularSearches: 0
} satisfies Record<Operation, 0>) as Operation[]

type KnowledgeOperation = keyof KnowledgeIndex

/** Timed as `knowledge_<operation>`, apart from the catalog's. */
const KNOWLEDGE_OPERATIONS = Object.keys({
  upsert: 0, remove: 0, get: 0, list: 0, count: 0, storedHashes: 0, search: 0
} satisfies Record<KnowledgeOperation, 0>) as KnowledgeOperation[]

async function time<T> (histogram: Histogram<'operation'>, operation: string, call: () => Promise<T>): Promise<T> {
  const end = histogram.startTimer({ operation })
  try {
    return await call()
  } finally {
    end()
  }
}

/** The index with each of its `operations` timed, under its name with `prefix`. */
function timedIndex<I extends object> (index: I, operations: Array<keyof I & string>, histogram: Histogram<'operation'>, prefix = ''): I {
  const timed: Partial<Record<keyof I, unknown>> = {}
  for (const operation of operations) {
    const method = index[operation] as ((...args: unknown[]) => Promise<unknown>) | undefined
    // An optional operation the adapter does not have stays absent.
    if (method === undefined) continue
    timed[operation] = (...args: unknown[]) => time(histogram, `${prefix}${operation}`, () => method.apply(index, args))
  }
  return timed as I
}

/** Wraps each index once, however often it is asked for. */
function cachedWrapper<I extends object> (wrap: (index: I) => I): (index: I) => I {
  const wrapped = new WeakMap<I, I>()
  return (index) => {
    let timed = wrapped.get(index)
    if (timed === undefined) wrapped.set(index, timed = wrap(index))
    return timed
  }
}

/**
 * The engine with each call timed by operation (`search`, `suggest`, `upsert`…, and `open` for
 * finding or opening a project's index), whichever adapter is behind the port.
 */
export function timedEngine (engine: SearchEngine, metrics: Metrics): SearchEngine {
  const histogram = metrics.histogram({
    name: 'search_engine_duration_seconds',
    help: 'Calls to the search engine by operation',
    labelNames: ['operation'],
    buckets: ENGINE_BUCKETS
  })
  const catalog = cachedWrapper<EngineIndex>((index) => timedIndex(index, OPERATIONS, histogram))
  const knowledge = cachedWrapper<KnowledgeIndex>((index) => timedIndex(index, KNOWLEDGE_OPERATIONS, histogram, 'knowledge_'))
  return {
    index: async (projectId) => catalog(await time(histogram, 'open', () => engine.index(projectId))),
    knowledge: async (projectId) => knowledge(await time(histogram, 'knowledge_open', () => engine.knowledge(projectId))),
    // readiness probes are not engine work worth a latency series
    ping: () => engine.ping(),
    close: () => engine.close()
  }
}

/** The embedder with each batch timed (queries are batches of one). */
export function timedEmbedder (embedder: Embedder, metrics: Metrics): Embedder {
  const histogram = metrics.histogram({
    name: 'embedding_duration_seconds',
    help: 'Embedding of a batch of texts (one for a hybrid query, many for an import)',
    buckets: ENGINE_BUCKETS
  })
  return {
    dimensions: embedder.dimensions,
    embed: async (texts) => {
      const end = histogram.startTimer()
      try {
        return await embedder.embed(texts)
      } finally {
        end()
      }
    }
  }
}
