/** Constraints written as a Meilisearch filter (ARCHITECTURE.md, decision 2). */
import { quoteValue } from '@chatsearch/filter'
import type { CatalogShape, Constraints } from './types.js'

/** Plain decimal with at most two places: never `1e+21`, never a long binary fraction. */
function formatNumber (n: number): string | undefined {
  return Number.isFinite(n) ? String(Math.round(n * 100) / 100) : undefined
}

/**
 * `price <= 100 AND price >= 50 AND brand IN ["Trailmark"] AND in_stock = true AND rating >= 4`: one
 * condition per constraint whose attribute is filterable, string facets always as `IN [...]` (several
 * brands mean any of them). Undefined when nothing constrains the search.
 */
export function toFilter (c: Constraints, shape: CatalogShape): string | undefined {
  const can = (attribute: string) => shape.filterable.includes(attribute)
  const parts: string[] = []
  const compare = (attribute: string, op: string, n: number | undefined) => {
    const text = n === undefined ? undefined : formatNumber(n)
    if (can(attribute) && text !== undefined) parts.push(`${attribute} ${op} ${text}`)
  }
  compare('price', '<=', c.priceMax)
  compare('price', '>=', c.priceMin)
  for (const [attribute, values] of [['brand', c.brands], ['category', c.categories], ['color', c.colors]] as const) {
    if (can(attribute) && values.length > 0) parts.push(`${attribute} IN [${values.map(quoteValue).join(', ')}]`)
  }
  if (can('in_stock') && c.inStock !== undefined) parts.push(`in_stock = ${String(c.inStock)}`)
  compare('rating', '>=', c.minRating)
  return parts.length === 0 ? undefined : parts.join(' AND ')
}
