/**
 * A filter tree written back in Meilisearch's filter expression syntax, normalised: keywords in upper
 * case, every value double-quoted (with `\\`, `\"`, `\n`, `\r`, `\t` escapes), attributes quoted when
 * they are not plain words, and explicit parentheses around every group, so that Meilisearch reads it
 * exactly as parseFilter did. `parseFilter(filterToMeilisearch(parseFilter(x)))` equals
 * `parseFilter(x)`.
 */
import type { FilterNode } from './ast.js'
import { FilterError } from './errors.js'
import { FILTER_LIMITS } from './limits.js'
import { quoteAttribute, quoteValue } from './quote.js'

export function filterToMeilisearch (node: FilterNode): string {
  const group = (n: FilterNode, depth: number) => {
    const text = write(n, depth)
    return n.type === 'and' || n.type === 'or' ? `(${text})` : text
  }

  const write = (n: FilterNode, depth: number): string => {
    if (depth > FILTER_LIMITS.maxDepth * 4) throw new FilterError('The filter is nested too deeply', n.position ?? -1)
    switch (n.type) {
      case 'and':
      case 'or':
        if (n.children.length === 0) throw new TypeError(`filterToMeilisearch: an empty \`${n.type}\` cannot be written`)
        return n.children.map((c) => group(c, depth + 1)).join(n.type === 'and' ? ' AND ' : ' OR ')
      case 'not': {
        const c = n.child
        const a = 'attribute' in c ? quoteAttribute(c.attribute) : ''
        switch (c.type) {
          case 'in': return `${a} NOT IN [${c.values.map(quoteValue).join(', ')}]`
          case 'exists': return `${a} NOT EXISTS`
          case 'isNull': return `${a} IS NOT NULL`
          case 'isEmpty': return `${a} IS NOT EMPTY`
          case 'contains': return `${a} NOT CONTAINS ${quoteValue(c.value)}`
          case 'startsWith': return `${a} NOT STARTS WITH ${quoteValue(c.value)}`
          default: return `NOT (${write(c, depth + 1)})`
        }
      }
      case 'compare': return `${quoteAttribute(n.attribute)} ${n.operator} ${quoteValue(n.value)}`
      case 'range': return `${quoteAttribute(n.attribute)} ${quoteValue(n.from)} TO ${quoteValue(n.to)}`
      case 'in': return `${quoteAttribute(n.attribute)} IN [${n.values.map(quoteValue).join(', ')}]`
      case 'exists': return `${quoteAttribute(n.attribute)} EXISTS`
      case 'isNull': return `${quoteAttribute(n.attribute)} IS NULL`
      case 'isEmpty': return `${quoteAttribute(n.attribute)} IS EMPTY`
      case 'contains': return `${quoteAttribute(n.attribute)} CONTAINS ${quoteValue(n.value)}`
      case 'startsWith': return `${quoteAttribute(n.attribute)} STARTS WITH ${quoteValue(n.value)}`
    }
  }

  return write(node, 0)
}
