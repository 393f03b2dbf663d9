import type { Document, EmbedTexts, EngineIndex, IngestResult, PreparedDocument } from '../engine/port.js'
import { documentHash } from '../engine/hash.js'
import { searchableText } from '../engine/document-values.js'

// What ingestion does once a batch is validated. Nothing here loads the embedding model: the writer
// thread runs it too, asking the service's thread for the vectors (see engines/embedded/writer.ts).

/** Attributes whose text is embedded when the index has no searchable settings yet. */
const DEFAULT_EMBEDDED = ['title', 'name', 'brand', 'category', 'tags', 'description']
/**
 * The sentence encoder's cost grows with the text: about 77 ms for a whole product (dates and sizes
 * included) against about 10 ms for a short one. The meaning sits in the first few hundred characters.
 */
const EMBEDDED_TEXT_MAX = 300
/**
 * Names embeddingText's rule in each item's content hash (documentHash), as the chunking rule is
 * named in a knowledge document's: a new rule makes every item's next import embed it again rather
 * than keep a vector of text the rule no longer embeds. Change it with the rule.
 */
export const EMBEDDING_RULE = `words first, at most ${EMBEDDED_TEXT_MAX} characters`

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
 * Writes a validated batch (`received` items as sent): items identical to the stored ones skipped,
 * embeddings computed only for what changed.
 */
export async function writeValidated (index: EngineIndex, documents: Document[], received: number, embed: EmbedTexts | undefined): Promise<IngestResult> {
  const stored = await index.storedHashes(documents.map((d) => d.id))
  let prepared: PreparedDocument[] = documents.map((document) => ({ document, hash: documentHash(document, EMBEDDING_RULE) }))
    .filter(({ document, hash }) => stored.get(document.id) !== hash)
  const changed = prepared.map((p) => p.document)
  if (embed !== undefined && changed.length > 0) {
    const { searchableAttributes } = await index.settings()
    const vectors = await embed(changed.map((d) => embeddingText(d, searchableAttributes)))
    prepared = prepared.map((p, i) => ({ ...p, vector: vectors[i] ?? null }))
  }
  if (prepared.length > 0) await index.upsert(prepared)
  return { received, indexed: changed.length, unchanged: documents.length - changed.length, total: await index.count() }
}
