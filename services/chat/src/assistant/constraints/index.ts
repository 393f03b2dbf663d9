/**
 * A shopper's message as a catalog search: keywords plus a filter built only from attributes the
 * catalog has. Deterministic rules, no model: each one can be read, tested and explained.
 */
export type { CatalogShape, Constraints, Order, SearchPlan } from './types.js'
export { extractConstraints } from './extract.js'
export { toFilter } from './filter.js'
export { planSearch } from './plan.js'
