/** Every scalar under a dot path, through arrays: `variants.color` of `{variants:[{color:'red'}]}` is ['red']. */
export function valuesAt (value: unknown, path: string[]): unknown[] {
  if (path.length === 0) return Array.isArray(value) ? value.flatMap((v) => valuesAt(v, [])) : [value]
  if (Array.isArray(value)) return value.flatMap((v) => valuesAt(v, path))
  if (value === null || typeof value !== 'object') return []
  const [head, ...rest] = path
  return valuesAt((value as Record<string, unknown>)[head!], rest)
}

/** The text an attribute contributes to the keyword index. */
export function searchableText (document: Record<string, unknown>, attribute: string): string {
  return valuesAt(document, attribute.split('.'))
    .filter((v) => typeof v === 'string' || typeof v === 'number')
    .join(' \n ')
}
