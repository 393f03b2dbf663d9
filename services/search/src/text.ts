/**
 * How the search service reads text, whatever the engine: split the way FTS5's unicode61 tokenizer
 * (remove_diacritics 2) splits documents, so a query word and an indexed term compare equal:
 * compatibility-normalised, accents removed, lower-cased, cut at every character that is not a
 * letter or a digit. The routes and both engines use it; it belongs to neither engine.
 */
const SEPARATOR = /[^\p{L}\p{N}]+/u
const MARKS = /\p{M}+/gu

export function foldText (text: string): string {
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase()
}

/**
 * A search as autocomplete counts it, suggests it and excludes it, on both engines: folded, white
 * space collapsed, trimmed ("  Free   Money " → "free money").
 */
export function foldQuery (text: string): string {
  return foldText(text).replace(/\s+/g, ' ').trim()
}

export function tokenize (text: string): string[] {
  return foldText(text).split(SEPARATOR).filter((w) => w.length > 0)
}

/**
 * A text as its words, folded and joined by single spaces ("Navy-Blue" → "navy blue"): how a facet
 * search compares its query with facet values, whatever punctuation either holds; "" for a text
 * without a letter or digit.
 */
export function foldWords (text: string): string {
  return tokenize(text).join(' ')
}

/** The query as the response reports it: Unicode-normalised, trimmed, white space collapsed. */
export function processQuery (text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/gu, ' ')
}

/**
 * Query words searched, the rest ignored, as Meilisearch does: each word the words rule may drop is
 * one more statement to run, and a 1,000-character query holds hundreds of words.
 */
export const MAX_QUERY_WORDS = 10

/** A query word, and whether it is the query's last (which also matches as a prefix). */
export interface QueryWord { word: string, isLast: boolean }

/**
 * The words searched; the last is a prefix only when the query ends with it, as in Meilisearch.
 * The embedded engine matches these, and highlighting (engine/format.ts) marks them, on both engines.
 * A catalog's `stopWords` (folded) are left out before the first ten are taken, as Meilisearch leaves
 * them out, except the query's last word: it may still be being typed ("the" → "theatre").
 */
export function queryWords (query: string, stopWords?: ReadonlySet<string>): QueryWord[] {
  const all = tokenize(query)
  const words = stopWords === undefined || stopWords.size === 0 ? all : all.filter((word, i) => i === all.length - 1 || !stopWords.has(word))
  return words.slice(0, MAX_QUERY_WORDS).map((word, i) => ({ word, isLast: i === words.length - 1 }))
}

/** Whether a query word also matches as a prefix: the last, of two letters or more (one letter would match much of the catalog). */
export const isPrefixWord = ({ word, isLast }: QueryWord) => isLast && [...word].length >= 2

/** Typos Meilisearch tolerates for a word of this length: 0 under 5 letters, 1 from 5, 2 from 9. */
export function allowedTypos (word: string): number {
  const length = [...word].length
  return length >= 9 ? 2 : length >= 5 ? 1 : 0
}
