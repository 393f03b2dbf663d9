/** One message's constraints and keywords, with no regard to the conversation (plan.ts adds that). */
import type { CatalogShape, Constraints } from './types.js'
import { emptyConstraints } from './types.js'
import { extractPrice } from './price.js'
import { extractOrder, extractRating, extractStock } from './signals.js'
import { extractBrandsAndColors, matchCategories } from './terms.js'
import { normalise, removeFiller, tidy } from './text.js'

/** Drops what the catalog cannot filter on (the phrase is still gone from the keywords: it names no product). */
function keepFilterable (c: Constraints, shape: CatalogShape): Constraints {
  const can = (attribute: string) => shape.filterable.includes(attribute)
  return {
    ...(can('price') && c.priceMin !== undefined ? { priceMin: c.priceMin } : {}),
    ...(can('price') && c.priceMax !== undefined ? { priceMax: c.priceMax } : {}),
    brands: can('brand') ? c.brands : [],
    categories: can('category') ? c.categories : [],
    colors: can('color') ? c.colors : [],
    ...(can('in_stock') && c.inStock !== undefined ? { inStock: c.inStock } : {}),
    ...(can('rating') && c.minRating !== undefined ? { minRating: c.minRating } : {}),
    ...(c.order === undefined ? {} : { order: c.order })
  }
}

/**
 * The constraints a message states, and `rest`: the message without them, without politeness and
 * shopping talk, and without brand and colour words (the filter covers those). Category words stay in
 * `rest`: they are the product words that rank the right items first. `rest` may be empty.
 */
export function extractConstraints (text: string, shape: CatalogShape): { constraints: Constraints, rest: string } {
  const c = emptyConstraints()
  let rest = normalise(text)
  extractOrder(rest, c)
  // ratings first: "4 stars" and "rated 4+" hold numbers that are not prices
  rest = extractRating(rest, c)
  rest = extractPrice(rest, c)
  rest = extractStock(rest, c)
  rest = extractBrandsAndColors(rest, shape, c)
  rest = removeFiller(rest)
  // after the filler is gone, so "looking for tents" reads as tents, not as a purpose ("for camping")
  c.categories = matchCategories(rest, shape)
  return { constraints: keepFilterable(c, shape), rest: tidy(rest) }
}
