import { availableParallelism } from 'node:os'
import pLimit from 'p-limit'
import { isUsableVector, type Embedder } from '@chatsearch/embeddings'
import type { IncomingKnowledge, KnowledgeIndex, PreparedKnowledge } from '../engine/port.js'
import { knowledgeHash } from '../engine/hash.js'
import { DocumentError } from '../ingest/validate.js'
import type { IngestResult } from '../ingest/documents.js'
import { chunkPage, faqChunks } from './chunk.js'
import { FileRejected, parseHtml, parseMarkdown, parseText } from './parse/index.js'
import { chunkSourceOnThread } from './parse/file-thread.js'
import type { Chunk } from './types.js'
import { validateKnowledgeBatch } from './validate.js'

/**
 * Names the parsing and chunking rules, and what is embedded of a chunk, in the content hash: change
 * it with them, and the next import re-chunks and re-embeds documents that did not change.
 */
const CHUNKING = 'headings-1, embedded-300'
/**
 * What is embedded of a chunk at most: its page's title, its heading path and its opening. The
 * encoder's cost grows faster than the text's length, and a chunk's subject is in its headings and
 * first sentences: 300 characters instead of 1,000 embed 1.7× faster (`pnpm bench knowledge`), and
 * the assistant answered as many development questions or more (README, "Benchmarks"; 200 and 500 did no better).
 */
const EMBEDDED_TEXT_MAX = 300

const parsers = { markdown: parseMarkdown, html: parseHtml, text: parseText }

/**
 * Text longer than this is parsed and chunked on a thread of its own (chunkSourceOnThread), bounded in
 * time and memory; shorter text on the event loop, which is given back between documents. Parsing and
 * chunking cost up to about 15 µs a character (dense markup: a Markdown table row of 50,000 cells, or
 * emphasis marks throughout), so a page under this bound holds the loop for 0.5 s at the very worst,
 * and a help page of ordinary prose far less; a thread costs its start, about 2 s when the service runs
 * from its TypeScript sources (the thread compiles the parsers again), which only long pages pay.
 */
export const THREAD_PARSE_MIN_CHARS = 32 * 1024
/** Parsing threads of knowledge sent as JSON, across all requests: one core stays for the event loop. */
const parseThreads = pLimit(Math.max(1, availableParallelism() - 1))

/**
 * A document's chunks, from `document.parsed` when its page was parsed already (an uploaded file, a
 * crawled page); one its parser refuses (HTML nested too deep, say) is a DocumentError naming it.
 */
export function chunksOf (document: IncomingKnowledge): Chunk[] {
  if (document.kind === 'faq') return faqChunks(document.title, document.content, document.url)
  if (document.parsed !== undefined) return chunkPage(document.parsed)
  try {
    return chunkPage(parsers[document.format ?? 'markdown'](document.content, document.title, document.url))
  } catch (err) {
    if (err instanceof FileRejected) throw new DocumentError(`document ${document.id}: ${err.reason}`)
    throw err
  }
}

/** chunksOf, with a long text parsed on a thread and the event loop given back before a short one. */
async function chunksOfLater (document: IncomingKnowledge): Promise<Chunk[]> {
  if (document.kind !== 'faq' && document.parsed === undefined && document.content.length > THREAD_PARSE_MIN_CHARS) {
    const source = { format: document.format ?? 'markdown', content: document.content, title: document.title, ...(document.url === undefined ? {} : { url: document.url }) }
    const name = `document ${document.id}`
    try {
      return await parseThreads(() => chunkSourceOnThread(source, name))
    } catch (err) {
      // The thread's own limits name the document already; the parser's refusals do not.
      if (err instanceof FileRejected) throw new DocumentError(err.reason.startsWith(name) ? err.reason : `${name}: ${err.reason}`)
      throw err
    }
  }
  await new Promise((resolve) => setImmediate(resolve))
  return chunksOf(document)
}

/** What is embedded of a chunk: its document's title and heading path give the text its subject. */
export function chunkEmbeddingText (document: IncomingKnowledge, chunk: Chunk): string {
  return [document.title, chunk.section, chunk.text].filter((part) => part !== '').join('. ').slice(0, EMBEDDED_TEXT_MAX)
}

/** Whether the index holds this document as it is: storing it would neither chunk nor write anything. */
export async function isStored (index: KnowledgeIndex, document: IncomingKnowledge): Promise<boolean> {
  return (await index.storedHashes([document.id])).get(document.id) === knowledgeHash(document, CHUNKING)
}

/**
 * Adds or replaces knowledge documents sent as JSON: the batch validated whole first (a bad document
 * rejects it, nothing written), then stored (storeKnowledge).
 */
export async function ingestKnowledge (index: KnowledgeIndex, items: unknown[], embedder: Embedder | undefined): Promise<IngestResult> {
  const documents = validateKnowledgeBatch(items)
  return { ...await storeKnowledge(index, documents, embedder), received: items.length }
}

/**
 * Stores documents already known to be well formed (validated, or made by a crawl or a file import):
 * all chunked first (one without text rejects the batch, nothing written), those identical to the
 * stored ones skipped, only the chunks of the others embedded.
 */
export async function storeKnowledge (index: KnowledgeIndex, documents: IncomingKnowledge[], embedder: Embedder | undefined): Promise<IngestResult> {
  const stored = await index.storedHashes(documents.map((d) => d.id))
  const changed: PreparedKnowledge[] = []
  for (const document of documents) {
    const hash = knowledgeHash(document, CHUNKING)
    if (stored.get(document.id) !== hash) changed.push({ document, hash, chunks: await chunksOfLater(document) })
  }
  const empty = changed.find((p) => p.chunks.length === 0)
  if (empty !== undefined) throw new DocumentError(`document ${empty.document.id}: has no text to index once its markup is removed`)
  if (embedder !== undefined && changed.length > 0) {
    const vectors = await embedder.embed(changed.flatMap((p) => p.chunks.map((chunk) => chunkEmbeddingText(p.document, chunk))))
    let next = 0
    // A chunk whose text means nothing embeds to the zero vector: it is found by keyword only.
    for (const p of changed) p.vectors = p.chunks.map(() => { const v = vectors[next++]; return isUsableVector(v) ? v : null })
  }
  if (changed.length > 0) await index.upsert(changed)
  return { received: documents.length, indexed: changed.length, unchanged: documents.length - changed.length, total: await index.count() }
}
