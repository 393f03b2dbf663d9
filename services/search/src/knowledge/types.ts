/**
 * The vocabulary of knowledge ingestion (spec/knowledge.md), shared by its parts: parsers turn a file
 * or a fetched page into a ParsedPage, the chunker turns that into Chunks, the index stores them.
 */

/** What a knowledge document is. */
export type KnowledgeKind = 'page' | 'file' | 'web' | 'faq'

/**
 * A paragraph, list item, table row or code block, with the headings above it (outermost first) and
 * the id of the nearest anchor at or above it (a heading's id, or an element id), if any.
 */
export interface Block {
  path: string[]
  anchor?: string
  text: string
}

/** A page of text reduced to its blocks, whatever format it came in. */
export interface ParsedPage {
  title: string
  blocks: Block[]
  /** Where readers find the original (a crawled page's canonical URL, an uploaded file's `url` field). */
  url?: string
}

/** A piece of a document that is searched and cited on its own. */
export interface Chunk {
  /** Stable within its document: the chunk's position (`0`, `1`, …); cited as `<document id>#<chunk id>`. */
  id: string
  /** The heading path, joined with ' › ' (empty for text before the first heading). */
  section: string
  text: string
  /** The document's URL with the nearest anchor as fragment, when the document has a URL. */
  url?: string
}
