/** Filter expressions (the search service's Meilisearch syntax) built from chosen facet values. */
import { quoteValue } from '@chatsearch/filter'

/** Chosen values per attribute. */
export type FacetChoice = Record<string, string[]>

/** The filter expression of the chosen values: any value of an attribute, every attribute (null for none). */
export function filterOf (choice: FacetChoice, extra?: string): string | null {
  const parts = Object.entries(choice)
    .filter(([, values]) => values.length > 0)
    .map(([attribute, values]) => {
      const terms = values.map((v) => `${attribute} = ${quoteValue(v)}`)
      return terms.length === 1 ? terms[0]! : `(${terms.join(' OR ')})`
    })
  if (extra !== undefined && extra.trim() !== '') parts.unshift(`(${extra.trim()})`)
  return parts.length === 0 ? null : parts.join(' AND ')
}
