export type {
  AndNode,
  CompareNode,
  CompareOperator,
  ConditionNode,
  ContainsNode,
  ExistsNode,
  FilterNode,
  InNode,
  IsEmptyNode,
  IsNullNode,
  NotNode,
  OrNode,
  RangeNode,
  StartsWithNode
} from './ast.js'
export { conditions } from './ast.js'
export { FilterError } from './errors.js'
export { FILTER_LIMITS } from './limits.js'
export { parseFilter } from './parse.js'
export { matchPattern, matchPatterns, type PatternMatch } from './patterns.js'
export { quoteAttribute, quoteValue } from './quote.js'
export { filterToMeilisearch } from './to-meilisearch.js'
export { checkFilterable, filterAttributes } from './validate.js'
