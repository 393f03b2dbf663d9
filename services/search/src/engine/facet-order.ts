/**
 * The order of a facet's values, in a facetDistribution and in a facet search's hits alike, on both
 * engines: the most frequent first, equal counts by value (UTF-16 code units, as JavaScript compares
 * strings). Meilisearch breaks ties the other way in its facet search; its answer is sorted again.
 */
export function byCount (a: readonly [string, number], b: readonly [string, number]): number {
  return b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
}
