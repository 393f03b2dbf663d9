/**
 * Meilisearch's attribute patterns, as used in `filterableAttributes`: `brand` matches `brand` and
 * every path under it (`brand.name`); `*` matches everything; `prefix*`, `*suffix` and `*infix*` match
 * by prefix, suffix and substring.
 */
export type PatternMatch = 'match' | 'parent' | 'none'

/** Whether `path` is selected by `pattern`, or is a parent of paths it selects. */
export function matchPattern (pattern: string, path: string): PatternMatch {
  if (pattern === '*') return 'match'
  const starts = pattern.startsWith('*')
  const ends = pattern.length > 1 && pattern.endsWith('*')
  if (starts && ends) return path.includes(pattern.slice(1, -1)) ? 'match' : 'parent'
  if (starts) return path.endsWith(pattern.slice(1)) ? 'match' : 'parent'
  if (ends) {
    const prefix = pattern.slice(0, -1)
    if (path.startsWith(prefix)) return 'match'
    return prefix.startsWith(path) ? 'parent' : 'none'
  }
  if (pattern === path) return 'match'
  if (path.startsWith(pattern) && path[pattern.length] === '.') return 'match'
  if (pattern.startsWith(path) && pattern[path.length] === '.') return 'parent'
  return 'none'
}

/** The best match of `path` among `patterns`. */
export function matchPatterns (patterns: readonly string[], path: string): PatternMatch {
  let best: PatternMatch = 'none'
  for (const pattern of patterns) {
    const m = matchPattern(pattern, path)
    if (m === 'match') return m
    if (m === 'parent') best = m
  }
  return best
}
