import { createHash } from 'node:crypto'
import type { Document, IncomingKnowledge } from './port.js'

/**
 * Identifies an item's content as it is embedded: an unchanged re-import is recognised and costs
 * nothing. `embedding` names the rule for the text embedded (EMBEDDING_RULE), so that a new rule
 * embeds unchanged items again, as `chunking` does in knowledgeHash.
 */
export const documentHash = (document: Document, embedding: string) => createHash('sha256').update(JSON.stringify([embedding, document])).digest('base64url')

/**
 * Identifies a knowledge document's content as it is chunked: `chunking` names the chunker's rules,
 * so that new rules re-chunk (and re-embed) documents that did not change.
 */
export const knowledgeHash = (document: IncomingKnowledge, chunking: string) =>
  createHash('sha256').update(JSON.stringify([chunking, document.id, document.kind, document.title, document.format ?? null, document.url ?? null, document.content])).digest('base64url')
