import pLimit from 'p-limit'
import { isUsableVector, type Embedder } from '@chatsearch/embeddings'
import type { IncomingKnowledge, KnowledgeIndex, PreparedKnowledge } from '../engine/port.js'
import { knowledgeHash } from '../engine/hash.js'
import { DocumentError } from '../ingest/validate.js'
import type { IngestResult } from '../ingest/documents.js'
import { chunkPage, faqChunks } from './chunk.js'
import { FileRejected, parseHtml, parseMarkdown, parseText } from './parse/index.js'
import { chunkSourcesOnThread } from './parse/file-thread.js'
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
 * Text longer than this (in characters) is parsed and chunked on a thread (chunkSourcesOnThread),
 * bounded in time and memory; shorter text on the event loop, which is given back between documents.
 * Parsing and chunking cost up to about 15 µs a character (dense markup: a Markdown table row of
 * 50,000 cells, or emphasis marks throughout), so a page under this bound holds the loop for 0.5 s at
 * the very worst, and a help page of ordinary prose far less. A thread costs its start, about 2 s
 * when the service runs from its TypeScript sources (the thread compiles the parsers again): the long
 * pages of a request share threads, THREAD_JOB_MAX_CHARS of text each.
 */
export const THREAD_PARSE_MIN_CHARS = 32 * 1024
/** The text one parsing thread is given at most, within its time and memory bounds (60 s, 512 MiB). */
const THREAD_JOB_MAX_CHARS = 4 * 1024 * 1024
/** One parsing thread at a time in this process, whatever the requests: its memory bound is the process's. */
const parseThreads = pLimit(1)

/**
 * A document's chunks, `document.chunks` when its page was chunked already (an uploaded file, a
 * crawled page); one its parser refuses (HTML nested too deep, say) is a DocumentError naming it.
 */
export function chunksOf (document: IncomingKnowledge): Chunk[] {
  if (document.kind === 'faq') return faqChunks(document.title, document.content, document.url)
  if (document.chunks !== undefined) return document.chunks
  try {
    return chunkPage(parsers[document.format ?? 'markdown'](document.content, document.title, document.url))
  } catch (err) {
    if (err instanceof FileRejected) throw new DocumentError(`document ${document.id}: ${err.reason}`)
    throw err
  }
}

const isLong = (document: IncomingKnowledge) => document.kind !== 'faq' && document.chunks === undefined && document.content.length > THREAD_PARSE_MIN_CHARS

/**
 * The chunks of each document, in order: the long ones (isLong) parsed on threads, a few MiB of text
 * to a thread; the others by chunksOf on the event loop, given back before each.
 */
async function chunksOfAll (documents: IncomingKnowledge[]): Promise<Chunk[][]> {
  const chunks: Chunk[][] = []
  const jobs: number[][] = []
  let size = Infinity
  documents.forEach((document, i) => {
    if (!isLong(document)) return
    if (size + document.content.length > THREAD_JOB_MAX_CHARS) { jobs.push([]); size = 0 }
    jobs[jobs.length - 1]!.push(i)
    size += document.content.length
  })
  for (const job of jobs) {
    const sources = job.map((i) => {
      const d = documents[i]!
      return { name: `document ${d.id}`, format: d.format ?? 'markdown', content: d.content, title: d.title, ...(d.url === undefined ? {} : { url: d.url }) }
    })
    try {
      const parsed = await parseThreads(() => chunkSourcesOnThread(sources))
      job.forEach((i, k) => { chunks[i] = parsed[k]! })
    } catch (err) {
      if (err instanceof FileRejected) throw new DocumentError(err.reason)
      throw err
    }
  }
  for (const [i, document] of documents.entries()) {
    if (chunks[i] !== undefined) continue
    await new Promise((resolve) => setImmediate(resolve))
    chunks[i] = chunksOf(document)
  }
  return chunks
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
  const toStore = documents
    .map((document) => ({ document, hash: knowledgeHash(document, CHUNKING) }))
    .filter(({ document, hash }) => stored.get(document.id) !== hash)
  const chunks = await chunksOfAll(toStore.map((p) => p.document))
  const changed: PreparedKnowledge[] = toStore.map((p, i) => ({ ...p, chunks: chunks[i]! }))
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
