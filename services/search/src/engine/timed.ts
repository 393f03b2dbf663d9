import type { Histogram, Metrics } from '@chatsearch/shell'
import type { Embedder } from '@chatsearch/embeddings'
import type { EngineIndex, SearchEngine } from './port.js'

/** Seconds: a cached settings read to a large batch upsert. */
const ENGINE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]

type Operation = keyof EngineIndex

/** Every operation of the port (the compiler refuses a missing one), so that an adapter's calls are all timed. */
const OPERATIONS = Object.keys({
  settings: 0, updateSettings: 0, upsert: 0, remove: 0, get: 0, count: 0, storedHashes: 0, search: 0, suggest: 0, correct: 0, recordQuery: 0
} satisfies Record<Operation, 0>) as Operation[]

async function time<T> (histogram: Histogram<'operation'>, operation: string, call: () => Promise<T>): Promise<T> {
  const end = histogram.startTimer({ operation })
  try {
    return await call()
  } finally {
    end()
  }
}

function timedIndex (index: EngineIndex, histogram: Histogram<'operation'>): EngineIndex {
  const timed: Partial<Record<Operation, unknown>> = {}
  for (const operation of OPERATIONS) {
    const method = index[operation] as (...args: unknown[]) => Promise<unknown>
    timed[operation] = (...args: unknown[]) => time(histogram, operation, () => method.apply(index, args))
  }
  return timed as EngineIndex
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
  const indexes = new WeakMap<EngineIndex, EngineIndex>()
  return {
    async index (projectId) {
      const index = await time(histogram, 'open', () => engine.index(projectId))
      let timed = indexes.get(index)
      if (timed === undefined) indexes.set(index, timed = timedIndex(index, histogram))
      return timed
    },
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
