/** The entry point of the search-request builder; the rules live in ./constraints/. */
export { extractConstraints, planSearch, toFilter } from './constraints/index.js'
export type { CatalogShape, Constraints, Order, SearchPlan } from './constraints/index.js'
