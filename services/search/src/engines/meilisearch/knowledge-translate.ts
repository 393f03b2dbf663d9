/**
 * A project's knowledge as a Meilisearch index of chunks, and back: pure functions, tested without a
 * server. Each chunk is a document carrying its document's fields; the first chunk (position 0) also
 * carries what is said once per document (its content, format, URL, chunk count and our bookkeeping),
 * and stands for the document in lists.
 */
import { createHash } from 'node:crypto'
import type { DocumentsQuery, Embedders, RecordAny, SearchParams, SearchResponse, Settings } from 'meilisearch'
import { quoteValue } from '@chatsearch/filter'
import type { ChunkHit, KnowledgeQuery, ListedKnowledge, PreparedKnowledge, StoredKnowledge } from '../../engine/port.js'
import type { KnowledgeKind } from '../../knowledge/types.js'
import { tokenize } from '../../text.js'
import { BOOKKEEPING, embedderSettings } from './translate.js'
import { EMBEDDER, hybridParams, KNOWLEDGE_MATCHING, portScore } from './ranking.js'

/**
 * The knowledge index's settings. Chunks are searched by their document's title, their heading path
 * and their text, in that order of importance; found and listed by document; vectors come from our
 * embedder (none declared while embeddings are off).
 */
export function knowledgeSettings (embedder: { id: string, dimensions: number }): Settings {
  return {
    searchableAttributes: ['title', 'section', 'text'],
    filterableAttributes: ['document_id', 'kind', 'position'],
    sortableAttributes: ['document_id', 'position'],
    ...(embedder.id === 'none' ? {} : { embedders: embedderSettings(embedder.dimensions) })
  }
}

/**
 * The size of the vectors the index takes for our embedder, from its embedders setting (GET
 * …/settings/embedders); undefined when it declares none (an index written while embeddings were
 * off) or one that is not ours.
 */
export function declaredDimensions (embedders: Embedders): number | undefined {
  const declared = embedders?.[EMBEDDER]
  return declared?.source === 'userProvided' ? declared.dimensions : undefined
}

/**
 * A chunk's primary key. A document id may have 511 characters, Meilisearch's whole limit: the key
 * is a digest of it (distinct ids never meet in practice) and the chunk's position.
 */
export function chunkKey (documentId: string, chunkId: string): string {
  return `${createHash('sha256').update(documentId).digest('hex').slice(0, 40)}-${chunkId}`
}

/** The chunks of these documents (and with `first`, only the chunk standing for each). */
export function documentsFilter (ids: string[], first = false): string {
  return `document_id IN [${ids.map(quoteValue).join(', ')}]${first ? ' AND position = 0' : ''}`
}

/**
 * The chunks a new version of each document no longer has: those past its last chunk. Chunk keys
 * are positions, so the new chunks replace the old ones in place and only this tail is deleted.
 */
export function staleChunksFilter (documents: Array<{ id: string, chunks: number }>): string {
  return documents.map((d) => `(document_id = ${quoteValue(d.id)} AND position >= ${d.chunks})`).join(' OR ')
}

/** A document as the chunks Meilisearch stores, written at `updatedAt` with vectors of `embedder`. */
export function chunkRecords ({ document, hash, chunks, vectors }: PreparedKnowledge, embedder: string, updatedAt: string): RecordAny[] {
  return chunks.map((chunk, position) => {
    const vector = vectors?.[position]
    return {
      id: chunkKey(document.id, chunk.id),
      document_id: document.id,
      chunk_id: chunk.id,
      position,
      kind: document.kind,
      title: document.title,
      section: chunk.section,
      text: chunk.text,
      url: chunk.url ?? null,
      updated_at: updatedAt,
      ...(position === 0
        ? { content: document.content, format: document.format ?? null, document_url: document.url ?? null, chunk_count: chunks.length, [BOOKKEEPING]: { hash, embedder: vectors === undefined ? 'none' : embedder } }
        : {}),
      ...(vectors === undefined ? {} : { _vectors: { [EMBEDDER]: vector === null || vector === undefined ? null : Array.from(vector) } })
    }
  })
}

/** Fields of the chunk standing for a document, as lists show it. */
export const SUMMARY_FIELDS = ['document_id', 'kind', 'title', 'document_url', 'chunk_count', 'updated_at']

/** A page of the project's documents, by id. */
export function listQuery ({ limit, offset, kind }: { limit: number, offset: number, kind?: KnowledgeKind }): DocumentsQuery {
  return {
    filter: `position = 0${kind === undefined ? '' : ` AND kind = ${quoteValue(kind)}`}`,
    sort: ['document_id:asc'],
    fields: SUMMARY_FIELDS,
    limit,
    offset
  }
}

export function summaryOf (first: RecordAny): ListedKnowledge {
  return {
    id: String(first.document_id),
    kind: first.kind as KnowledgeKind,
    title: String(first.title),
    ...(typeof first.document_url === 'string' ? { url: first.document_url } : {}),
    chunks: Number(first.chunk_count),
    updatedAt: String(first.updated_at)
  }
}

/** A document from its chunks in position order (the first standing for it). */
export function storedKnowledgeOf (chunks: RecordAny[]): StoredKnowledge {
  const first = chunks[0]!
  return {
    id: String(first.document_id),
    kind: first.kind as KnowledgeKind,
    title: String(first.title),
    content: String(first.content),
    ...(typeof first.format === 'string' ? { format: first.format as 'markdown' } : {}),
    ...(typeof first.document_url === 'string' ? { url: first.document_url } : {}),
    chunks: chunks.map((c) => ({ id: String(c.chunk_id), section: String(c.section), text: String(c.text), ...(typeof c.url === 'string' ? { url: c.url } : {}) })),
    updatedAt: String(first.updated_at)
  }
}

const HIT_FIELDS = ['document_id', 'chunk_id', 'kind', 'title', 'section', 'text', 'url']

/** A knowledge search as Meilisearch's search parameters (the ranking choices are ranking.ts's). */
export function knowledgeSearchParams (query: KnowledgeQuery): SearchParams {
  return { q: query.q, limit: query.limit, matchingStrategy: KNOWLEDGE_MATCHING, showRankingScore: true, attributesToRetrieve: HIT_FIELDS, ...hybridParams(query.hybrid) }
}

/** Whether a query is worth sending: one without a word finds nothing (Meilisearch would browse). */
export const hasWords = (query: KnowledgeQuery) => tokenize(query.q).length > 0 && query.limit > 0

export function knowledgeHits (response: SearchResponse): ChunkHit[] {
  return response.hits.map((hit) => ({
    documentId: String(hit.document_id),
    chunkId: String(hit.chunk_id),
    kind: hit.kind as KnowledgeKind,
    title: String(hit.title),
    section: String(hit.section),
    text: String(hit.text),
    ...(typeof hit.url === 'string' ? { url: hit.url } : {}),
    score: portScore(hit._rankingScore)
  }))
}
