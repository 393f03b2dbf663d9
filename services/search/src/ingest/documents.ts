import { isUsableVector, type Embedder } from '@chatsearch/embeddings'
import type { Document, EngineIndex, PreparedDocument } from '../engine/port.js'
import { documentHash } from '../engine/hash.js'
import { searchableText } from '../engine/document-values.js'
import { validateBatch } from './validate.js'

export interface IngestResult {
  received: number
  indexed: number
  unchanged: number
  total: number
}

/** Attributes whose text is embedded when the index has no searchable settings yet. */
const DEFAULT_EMBEDDED = ['title', 'name', 'brand', 'category', 'tags', 'description']
/**
 * The sentence encoder's cost grows with the text: about 77 ms for a whole product (dates and sizes
 * included) against about 10 ms for a short one. The meaning sits in the first few hundred characters.
 */
const EMBEDDED_TEXT_MAX = 300

const WORD = /\p{L}{2,}/u
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T/

/**
 * The searchable text worth embedding, in priority order: the attributes with words, not dates or
 * codes; for an item with no word at all (a title such as "X5", "4K" or "12345"), its codes. Empty
 * when nothing has a letter or a digit ("🎧"): the item then gets no vector.
 */
export function embeddingText (document: Document, attributes: string[]): string {
  const list = attributes.length > 0 ? attributes : DEFAULT_EMBEDDED
  const texts = list.map((attr) => searchableText(document, attr)).filter((t) => !TIMESTAMP.test(t))
  const words = texts.filter((t) => WORD.test(t))
  return (words.length > 0 ? words : texts.filter((t) => LETTER_OR_DIGIT.test(t))).join('. ').slice(0, EMBEDDED_TEXT_MAX)
}

/**
 * Adds or replaces a batch: validated whole first (a bad item rejects the batch, nothing written),
 * items identical to the stored ones skipped, embeddings computed only for what changed.
 */
export async function ingestDocuments (index: EngineIndex, items: unknown[], embedder: Embedder | undefined): Promise<IngestResult> {
  const documents = validateBatch(items)
  const stored = await index.storedHashes(documents.map((d) => d.id))
  let prepared: PreparedDocument[] = documents.map((document) => ({ document, hash: documentHash(document) }))
    .filter(({ document, hash }) => stored.get(document.id) !== hash)
  const changed = prepared.map((p) => p.document)
  if (embedder !== undefined && changed.length > 0) {
    const { searchableAttributes } = await index.settings()
    const vectors = await embedder.embed(changed.map((d) => embeddingText(d, searchableAttributes)))
    // A text that means nothing embeds to the zero vector, which would sit at the same distance
    // from every query: such an item is stored without a vector.
    prepared = prepared.map((p, i) => ({ ...p, vector: isUsableVector(vectors[i]) ? vectors[i] : null }))
  }
  if (prepared.length > 0) await index.upsert(prepared)
  return { received: items.length, indexed: changed.length, unchanged: documents.length - changed.length, total: await index.count() }
}
