import type { Index, Meilisearch, RecordAny } from 'meilisearch'
import type { ChunkHit, KnowledgeIndex, KnowledgeQuery, ListedKnowledge, PreparedKnowledge, StoredKnowledge } from '../../engine/port.js'
import type { KnowledgeKind } from '../../knowledge/types.js'
import { hasCode } from './errors.js'
import { IndexCalls, SETTINGS_TTL_MS } from './writes.js'
import {
  chunkRecords, declaredDimensions, documentsFilter, hasWords, knowledgeHits, knowledgeSearchParams, knowledgeSettings, listQuery, staleChunksFilter, storedKnowledgeOf, summaryOf
} from './knowledge-translate.js'
import { EMBEDDER } from './ranking.js'
import { BOOKKEEPING, storedHash } from './translate.js'

export interface KnowledgeContext {
  client: Meilisearch
  uid: string
  /** The model whose vectors this engine writes ('none': embeddings off). */
  embedder: { id: string, dimensions: number }
  taskTimeoutMs: number
}

/** Documents looked up per request (their ids travel in the filter). */
const FETCH_CHUNK = 100
/** Chunks read per request when a document is read whole. */
const CHUNK_PAGE = 1000
/** See the catalog's index: any other id names no document and must not reach a filter. */
const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,511}$/

/** One project's knowledge on Meilisearch: an index of chunks (see knowledge-translate.ts). */
export class MeilisearchKnowledgeIndex implements KnowledgeIndex {
  readonly #context: KnowledgeContext
  readonly #calls: IndexCalls
  readonly #index: Index
  /** The index created and configured, once per process. */
  #ready: Promise<void> | undefined
  /** The size of the vectors the index's embedder takes (undefined: it declares none), as read at `at`. */
  #declared: { dimensions: number | undefined, at: number } | undefined

  constructor (context: KnowledgeContext) {
    this.#context = context
    this.#calls = new IndexCalls(context.taskTimeoutMs)
    this.#index = context.client.index(context.uid)
  }

  /**
   * Writes the new chunks over the old ones (same keys: document and position), then deletes the old
   * version's tail. A write that fails leaves the old version whole, never a document without chunks;
   * in between, a search may still see the tail of a document that got shorter.
   */
  async upsert (documents: PreparedKnowledge[]): Promise<void> {
    await this.#calls.serial(async () => {
      await this.#prepare()
      const now = new Date().toISOString()
      await this.#calls.settle(this.#index.addDocuments(documents.flatMap((d) => chunkRecords(d, this.#context.embedder.id, now))))
      for (let i = 0; i < documents.length; i += FETCH_CHUNK) {
        const slice = documents.slice(i, i + FETCH_CHUNK).map((d) => ({ id: d.document.id, chunks: d.chunks.length }))
        await this.#calls.settle(this.#index.deleteDocuments({ filter: staleChunksFilter(slice) }))
      }
    })
  }

  async remove (id: string): Promise<boolean> {
    if (!DOCUMENT_ID.test(id)) return false
    return await this.#calls.serial(async () => {
      if ((await this.#documents({ filter: documentsFilter([id], true), fields: ['id'], limit: 1 })).results.length === 0) return false
      await this.#calls.settle(this.#index.deleteDocuments({ filter: documentsFilter([id]) }))
      return true
    })
  }

  async get (id: string): Promise<StoredKnowledge | undefined> {
    if (!DOCUMENT_ID.test(id)) return undefined
    return await this.#calls.call(async () => {
      const chunks: RecordAny[] = []
      for (let offset = 0; ; offset += CHUNK_PAGE) {
        const page = await this.#documents({ filter: documentsFilter([id]), sort: ['position:asc'], limit: CHUNK_PAGE, offset })
        chunks.push(...page.results)
        if (page.results.length < CHUNK_PAGE) break
      }
      return chunks.length === 0 ? undefined : storedKnowledgeOf(chunks)
    })
  }

  async list (page: { limit: number, offset: number, kind?: KnowledgeKind }): Promise<{ results: ListedKnowledge[], total: number }> {
    return await this.#calls.call(async () => {
      const found = await this.#documents(listQuery(page))
      return { results: found.results.map(summaryOf), total: found.total }
    })
  }

  async count (): Promise<number> {
    return await this.#calls.call(async () => (await this.#documents({ filter: 'position = 0', fields: ['id'], limit: 1 })).total)
  }

  async storedHashes (ids: string[]): Promise<Map<string, string>> {
    return await this.#calls.call(async () => {
      const out = new Map<string, string>()
      const wanted = ids.filter((id) => DOCUMENT_ID.test(id))
      for (let i = 0; i < wanted.length; i += FETCH_CHUNK) {
        const slice = wanted.slice(i, i + FETCH_CHUNK)
        const { results } = await this.#documents({ filter: documentsFilter(slice, true), fields: ['document_id', BOOKKEEPING], limit: slice.length })
        for (const first of results) {
          const hash = storedHash(first, this.#context.embedder.id)
          if (hash !== undefined) out.set(String(first.document_id), hash)
        }
      }
      return out
    })
  }

  async search (query: KnowledgeQuery): Promise<ChunkHit[]> {
    if (!hasWords(query)) return []
    return await this.#calls.call(async () => {
      try {
        // The semantic side only where the index takes our vectors: one written while embeddings were
        // off declares no embedder until the next write (Meilisearch would refuse the search with
        // invalid_search_embedder), one written with another model may take vectors of another size.
        const hybrid = (query.hybrid !== undefined && await this.#takesOurVectors()) ? query.hybrid : undefined
        const params = knowledgeSearchParams({ ...query, hybrid })
        return knowledgeHits(await this.#index.search(params.q, params))
      } catch (err) {
        if (hasCode(err, 'index_not_found')) return []
        throw err
      }
    })
  }

  /** Stored documents (chunks) matching `query`; none before the index exists. */
  async #documents (query: Parameters<Index['getDocuments']>[0]): Promise<{ results: RecordAny[], total: number }> {
    try {
      const page = await this.#index.getDocuments<RecordAny>(query)
      return { results: page.results, total: page.total }
    } catch (err) {
      if (hasCode(err, 'index_not_found')) return { results: [], total: 0 }
      throw err
    }
  }

  /** Whether this process embeds and the index's embedder takes vectors of its size. */
  async #takesOurVectors (): Promise<boolean> {
    const { id, dimensions } = this.#context.embedder
    return id !== 'none' && await this.#declaredDimensions() === dimensions
  }

  /** The size of the vectors the index's embedder takes; undefined without one (or without the index). */
  async #declaredDimensions (): Promise<number | undefined> {
    if (this.#declared !== undefined && Date.now() - this.#declared.at < SETTINGS_TTL_MS) return this.#declared.dimensions
    let dimensions: number | undefined
    try {
      dimensions = declaredDimensions(await this.#index.getEmbedders())
    } catch (err) {
      if (!hasCode(err, 'index_not_found')) throw err
    }
    this.#declared = { dimensions, at: Date.now() }
    return dimensions
  }

  /**
   * Creates the index (once) and applies its settings, this process's embedder included. An embedder
   * of another vector size is removed first, with its vectors, as the catalog does: Meilisearch keeps
   * the vectors when a `userProvided` embedder's size changes, and they no longer fit. The documents
   * they belonged to are embedded again by the next import (their bookkeeping names the other model).
   */
  async #prepare () {
    this.#ready ??= (async () => {
      await this.#calls.settle(this.#context.client.createIndex(this.#context.uid, { primaryKey: 'id' }), 'index_already_exists')
      const { id, dimensions } = this.#context.embedder
      if (id !== 'none') {
        const current = await this.#index.getEmbedders()
        if (current?.[EMBEDDER] != null && declaredDimensions(current) !== dimensions) await this.#calls.settle(this.#index.resetEmbedders())
      }
      await this.#calls.settle(this.#index.updateSettings(knowledgeSettings(this.#context.embedder)))
      this.#declared = undefined
    })().catch((err: unknown) => {
      this.#ready = undefined
      throw err
    })
    await this.#ready
  }
}
