import { isUsableVector, type Embedder } from '@chatsearch/embeddings'
import type { EmbedTexts, EngineIndex, IngestResult, RawBatch } from '../engine/port.js'
import { parseBatch } from './batch.js'
import { validateBatch } from './validate.js'
import { writeValidated } from './write.js'

export type { IngestResult } from '../engine/port.js'

/**
 * `embedder`'s vectors, with null for a text that means nothing: it embeds to the zero vector, which
 * would sit at the same distance from every query, so such an item is stored without a vector.
 */
export function usableVectors (embedder: Embedder): EmbedTexts {
  return async (texts) => (await embedder.embed(texts)).map((v) => isUsableVector(v) ? v : null)
}

/**
 * Adds or replaces a batch: validated whole first (a bad item rejects the batch, nothing written),
 * items identical to the stored ones skipped, embeddings computed only for what changed.
 */
export async function ingestDocuments (index: EngineIndex, items: unknown[], embedder: Embedder | undefined): Promise<IngestResult> {
  return await writeValidated(index, validateBatch(items), items.length, embedder === undefined ? undefined : usableVectors(embedder))
}

/**
 * A batch sent as bytes (POST /documents): parsed, validated and written by the engine's writer
 * thread when it has one, here otherwise. Undefined, with nothing written, when it holds more than
 * `maxItems` items: too many to index while the client waits.
 */
export async function ingestBatch (index: EngineIndex, raw: RawBatch, embedder: Embedder | undefined, maxItems: number): Promise<IngestResult | undefined> {
  const embed = embedder === undefined ? undefined : usableVectors(embedder)
  if (index.ingestBatch !== undefined) return await index.ingestBatch(raw, embed, maxItems)
  const items = parseBatch(raw)
  if (items.length > maxItems) return undefined
  return await writeValidated(index, validateBatch(items), items.length, embed)
}
