import { isUsableVector, type Embedder } from '@chatsearch/embeddings'
import type { KnowledgeDocument, KnowledgeIndex, PreparedKnowledge } from '../engine/port.js'
import { knowledgeHash } from '../engine/hash.js'
import { DocumentError } from '../ingest/validate.js'
import type { IngestResult } from '../ingest/documents.js'
import { chunkPage, faqChunks } from './chunk.js'
import { parseContent } from './interim-parse.js'
import type { Chunk } from './types.js'
import { validateKnowledgeBatch } from './validate.js'

/**
 * Names the parsing and chunking rules in the content hash: change it with them, and the next import
 * re-chunks and re-embeds documents that did not change.
 */
const CHUNKING = 'interim-1'
/** The encoder's cost grows with the text; a chunk's meaning is in its heading and first sentences. */
const EMBEDDED_TEXT_MAX = 1000

export function chunksOf (document: KnowledgeDocument): Chunk[] {
  if (document.kind === 'faq') return faqChunks(document.title, document.content, document.url)
  return chunkPage(parseContent(document.title, document.content, document.format ?? 'markdown', document.url))
}

/** What is embedded of a chunk: its document's title and heading path give the text its subject. */
export function chunkEmbeddingText (document: KnowledgeDocument, chunk: Chunk): string {
  return [document.title, chunk.section, chunk.text].filter((part) => part !== '').join('. ').slice(0, EMBEDDED_TEXT_MAX)
}

/**
 * Adds or replaces knowledge documents: the batch validated and chunked whole first (a bad document
 * rejects it, nothing written), documents identical to the stored ones skipped, only the chunks of
 * the others embedded.
 */
export async function ingestKnowledge (index: KnowledgeIndex, items: unknown[], embedder: Embedder | undefined): Promise<IngestResult> {
  const documents = validateKnowledgeBatch(items)
  const stored = await index.storedHashes(documents.map((d) => d.id))
  const changed: PreparedKnowledge[] = documents
    .map((document) => ({ document, hash: knowledgeHash(document, CHUNKING) }))
    .filter(({ document, hash }) => stored.get(document.id) !== hash)
    .map((p) => ({ ...p, chunks: chunksOf(p.document) }))
  const empty = changed.find((p) => p.chunks.length === 0)
  if (empty !== undefined) throw new DocumentError(`document ${empty.document.id}: has no text to index once its markup is removed`)
  if (embedder !== undefined && changed.length > 0) {
    const vectors = await embedder.embed(changed.flatMap((p) => p.chunks.map((chunk) => chunkEmbeddingText(p.document, chunk))))
    let next = 0
    // A chunk whose text means nothing embeds to the zero vector: it is found by keyword only.
    for (const p of changed) p.vectors = p.chunks.map(() => { const v = vectors[next++]; return isUsableVector(v) ? v : null })
  }
  if (changed.length > 0) await index.upsert(changed)
  return { received: items.length, indexed: changed.length, unchanged: documents.length - changed.length, total: await index.count() }
}
