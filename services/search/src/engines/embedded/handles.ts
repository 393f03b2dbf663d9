import type { EngineIndex, KnowledgeIndex } from '../../engine/port.js'
import type { EmbeddedIndex } from './index.js'
import type { EmbeddedKnowledgeIndex } from './knowledge-index.js'

/** Runs one call on a project's open index, holding it open meanwhile (see OpenIndexes.use). */
export type Use<I> = <R>(work: (index: I) => Promise<R>) => Promise<R>

/**
 * What the engine hands out for a project's catalog: each call runs on the open index of its file,
 * opened again when it was closed to make room, and kept open until the call ends. A caller may
 * keep it across calls (a task importing slice after slice) without keeping the file open.
 * `writes`: the engine has a writer thread, which ingests batches sent as bytes.
 */
export function catalogHandle (use: Use<EmbeddedIndex>, writes: boolean): EngineIndex {
  return {
    settings: () => use((i) => i.settings()),
    updateSettings: (settings) => use((i) => i.updateSettings(settings)),
    upsert: (documents) => use((i) => i.upsert(documents)),
    ...(writes ? { ingestBatch: (raw, embed, maxItems) => use((i) => i.ingestBatch!(raw, embed, maxItems)) } satisfies Pick<EngineIndex, 'ingestBatch'> : {}),
    remove: (id) => use((i) => i.remove(id)),
    get: (id) => use((i) => i.get(id)),
    getMany: (ids, filter) => use((i) => i.getMany(ids, filter)),
    count: () => use((i) => i.count()),
    storedHashes: (ids) => use((i) => i.storedHashes(ids)),
    search: (query) => use((i) => i.search(query)),
    facetSearch: (query) => use((i) => i.facetSearch(query)),
    suggest: (term, limit, offset) => use((i) => i.suggest(term, limit, offset)),
    correct: (query) => use((i) => i.correct(query)),
    recordQuery: (query, search) => use((i) => i.recordQuery(query, search)),
    popularSearches: (limit, offset) => use((i) => i.popularSearches(limit, offset))
  }
}

/** The same for a project's knowledge. */
export function knowledgeHandle (use: Use<EmbeddedKnowledgeIndex>): KnowledgeIndex {
  return {
    upsert: (documents) => use((i) => i.upsert(documents)),
    remove: (id) => use((i) => i.remove(id)),
    get: (id) => use((i) => i.get(id)),
    list: (page) => use((i) => i.list(page)),
    count: () => use((i) => i.count()),
    storedHashes: (ids) => use((i) => i.storedHashes(ids)),
    search: (query) => use((i) => i.search(query))
  }
}
