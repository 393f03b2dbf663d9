/** What the retriever knows about a project's catalog (from its search settings + facet values). */
export interface CatalogShape {
  /** Filterable attributes, e.g. ['brand', 'category', 'price', 'in_stock', 'rating', 'color', 'tags']. */
  filterable: string[]
  /** Known values of string facets, e.g. { brand: ['Trailmark'], category: ['Hiking Footwear'], color: ['Red'] }. */
  values: Record<string, string[]>
}

/** What a shopper asked for beyond keywords. Price bounds are inclusive. */
export interface Constraints {
  priceMin?: number
  priceMax?: number
  brands: string[]
  categories: string[]
  colors: string[]
  inStock?: boolean
  minRating?: number
  /** "the cheapest …", "your best-rated …": which of the matching items come first. No filter says this. */
  order?: Order
}

export type Order = 'price' | 'rating'

/** A search request for the catalog search service: keywords plus a Meilisearch filter. */
export interface SearchPlan {
  query: string
  filter?: string
  constraints: Constraints
}

export function emptyConstraints (): Constraints {
  return { brands: [], categories: [], colors: [] }
}
