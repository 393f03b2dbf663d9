/**
 * Limits that keep parsing and SQL generation bounded on hostile input. A filter that exceeds one of
 * them is rejected with a FilterError before any work proportional to its size is done twice.
 */
export const FILTER_LIMITS = {
  /** Longest filter string, in UTF-16 code units. */
  maxLength: 100_000,
  /** Deepest nesting of parentheses and `NOT`s. */
  maxDepth: 64,
  /** Most conditions (`a = b`, `a EXISTS`, `a IN [...]`, ...) in one filter. */
  maxConditions: 1_000,
  /** Most values in one filter, counting every element of every `IN [...]` list. */
  maxValues: 10_000,
  /** Longest single value or attribute name, in UTF-16 code units. */
  maxValueLength: 10_000
} as const
