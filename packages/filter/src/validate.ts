import { conditions, type FilterNode } from './ast.js'
import { clip, FilterError } from './errors.js'
import { matchPatterns } from './patterns.js'

/** The attributes a filter uses, each once, in the order they first appear. */
export function filterAttributes (node: FilterNode): string[] {
  return [...new Set(conditions(node).map((c) => c.attribute))]
}

/**
 * Throws a FilterError, naming the attribute, its position and the filterable attributes, when the
 * filter uses an attribute that is not filterable. As in Meilisearch, a filterable attribute also makes
 * the paths under it filterable (`brand` allows `brand.name`), and `*`, `prefix*`, `*suffix` and
 * `*infix*` patterns are understood.
 */
export function checkFilterable (node: FilterNode, filterable: readonly string[]): void {
  for (const condition of conditions(node)) {
    if (matchPatterns(filterable, condition.attribute) === 'match') continue
    const position = condition.position ?? -1
    const where = position >= 0 ? ` at position ${position}` : ''
    const available = filterable.length === 0
      ? 'This index does not have configured filterable attributes.'
      : `Available filterable attributes are: ${[...filterable].sort().map((a) => `\`${clip(a, 100)}\``).join(', ')}.`
    throw new FilterError(`Attribute \`${clip(condition.attribute, 100)}\`${where} is not filterable. ${available}`, position)
  }
}
