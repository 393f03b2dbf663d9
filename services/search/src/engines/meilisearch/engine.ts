import { Meilisearch, MeilisearchApiError, type Config } from 'meilisearch'
import type { SearchEngine } from '../../engine/port.js'
import { fromMeilisearchError } from './errors.js'
import { MeilisearchIndex } from './index.js'
import { MeilisearchKnowledgeIndex } from './knowledge-index.js'

/**
 * The Meilisearch release this adapter is written and pinned for (docker-compose uses the same).
 * Hybrid search with `userProvided` embedders needs no experimental flag since v1.13; the `meilisearch`
 * client 0.62 was released against the v1.5x line.
 */
export const MEILISEARCH_VERSION = 'v1.53.1'

const PROJECT_ID = /^[A-Za-z0-9_-]{1,64}$/
/** A search or a read that takes longer than this is answered with a 503. */
const REQUEST_TIMEOUT_MS = 10_000

export interface MeilisearchOptions {
  /** Where Meilisearch listens, e.g. http://127.0.0.1:7700. */
  url: string
  apiKey?: string
  /** Starts the name of every index this service makes (several deployments may share one server). */
  indexPrefix: string
  /** How long a write (a Meilisearch task) may take before the caller gets a 503. */
  taskTimeoutMs: number
  /**
   * Sends the client's requests instead of fetch (the client's own hook): the contract test answers
   * them without a server. Absent: fetch.
   */
  httpClient?: Config['httpClient']
}

interface Log { warn: (obj: object, message: string) => void }

/**
 * The production engine: a catalog index, a suggestions index and a knowledge index per project on a Meilisearch
 * server, with vectors from the same embedder as the embedded engine.
 */
export class MeilisearchEngine implements SearchEngine {
  readonly #client: Meilisearch
  readonly #options: MeilisearchOptions
  readonly #embedder: { id: string, dimensions: number }
  /** The knowledge indexes' (KnowledgeIndex): absent from the constructor, the catalogs'. */
  readonly #knowledgeEmbedder: { id: string, dimensions: number }
  readonly #indexes = new Map<string, MeilisearchIndex>()
  readonly #knowledge = new Map<string, MeilisearchKnowledgeIndex>()
  readonly #log: Log | undefined
  #features: Promise<void> | undefined

  constructor (options: MeilisearchOptions, embedder: { id: string, dimensions: number }, log?: Log,
    knowledgeEmbedder: { id: string, dimensions: number } = embedder) {
    this.#options = options
    this.#embedder = embedder
    this.#knowledgeEmbedder = knowledgeEmbedder
    this.#log = log
    this.#client = new Meilisearch({
      host: options.url,
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      timeout: REQUEST_TIMEOUT_MS,
      defaultWaitOptions: { timeout: options.taskTimeoutMs, interval: 25 },
      ...(options.httpClient === undefined ? {} : { httpClient: options.httpClient })
    })
  }

  /** Index names of a project: its catalog and its suggestions. */
  uids (projectId: string) {
    return { catalogUid: `${this.#options.indexPrefix}catalog-${projectId}`, suggestionsUid: `${this.#options.indexPrefix}suggest-${projectId}` }
  }

  /** The index name of a project's knowledge chunks. */
  knowledgeUid (projectId: string) {
    return `${this.#options.indexPrefix}knowledge-${projectId}`
  }

  async index (projectId: string): Promise<MeilisearchIndex> {
    if (!PROJECT_ID.test(projectId)) throw new Error(`invalid project id for an index name: ${projectId}`)
    let index = this.#indexes.get(projectId)
    if (index === undefined) {
      index = new MeilisearchIndex({
        client: this.#client,
        ...this.uids(projectId),
        embedder: this.#embedder,
        taskTimeoutMs: this.#options.taskTimeoutMs,
        containsFilter: async () => await this.#enableContainsFilter()
      })
      this.#indexes.set(projectId, index)
    }
    return index
  }

  async knowledge (projectId: string): Promise<MeilisearchKnowledgeIndex> {
    if (!PROJECT_ID.test(projectId)) throw new Error(`invalid project id for an index name: ${projectId}`)
    let index = this.#knowledge.get(projectId)
    if (index === undefined) {
      index = new MeilisearchKnowledgeIndex({ client: this.#client, uid: this.knowledgeUid(projectId), embedder: this.#knowledgeEmbedder, taskTimeoutMs: this.#options.taskTimeoutMs })
      this.#knowledge.set(projectId, index)
    }
    return index
  }

  /** Throws (a 503 ApiError) unless Meilisearch answers its health check. */
  async ping (): Promise<void> {
    try {
      await this.#client.health()
    } catch (err) {
      throw fromMeilisearchError(err)
    }
  }

  /** Nothing to release: the client holds no connection of its own (fetch pools them). */
  async close (): Promise<void> {
    this.#indexes.clear()
    this.#knowledge.clear()
  }

  /**
   * `CONTAINS` and `STARTS WITH` are part of the filter language both engines accept, and Meilisearch
   * has them behind its `containsFilter` experimental feature: it is switched on for the server before
   * the first such filter. A key that may not do that is logged; those filters then get a 501.
   */
  async #enableContainsFilter (): Promise<void> {
    this.#features ??= this.#client.updateExperimentalFeatures({ containsFilter: true }).then(() => {}, (err: unknown) => {
      if (!(err instanceof MeilisearchApiError)) {
        this.#features = undefined // not reached: tried again with the next request
        throw fromMeilisearchError(err)
      }
      this.#log?.warn({ err }, 'could not switch on Meilisearch\'s containsFilter feature: CONTAINS and STARTS WITH filters will be refused')
    })
    await this.#features
  }
}
