/**
 * Values and attributes written into a filter expression so that the parser, and Meilisearch, read
 * them back exactly as given: every filter built from data (the normalised filter, facet choices,
 * extracted constraints, document ids) quotes with these.
 */
import { keywordOf, MEILISEARCH_WORD } from './lexer.js'

/** A value in double quotes, with `\\`, `"`, line breaks and tabs escaped. */
export function quoteValue (value: string): string {
  return '"' + value.replace(/[\\"\n\r\t]/g, (c) => {
    switch (c) {
      case '\n': return '\\n'
      case '\r': return '\\r'
      case '\t': return '\\t'
      default: return '\\' + c
    }
  }) + '"'
}

/** An attribute as is when Meilisearch reads it as a plain word, else quoted. */
export function quoteAttribute (attribute: string): string {
  const plain = MEILISEARCH_WORD.test(attribute) && keywordOf(attribute) === undefined && !attribute.startsWith('_geo')
  return plain ? attribute : quoteValue(attribute)
}
