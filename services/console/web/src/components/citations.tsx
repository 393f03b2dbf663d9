import type { Citation } from '../api/types.js'

/**
 * Where a cited source can be read: a page or pair at its URL; a catalog item on the catalog page,
 * found by its title (ids are not searchable) and marked there by its id.
 */
function hrefOf (projectId: string, citation: Citation): string | undefined {
  if (citation.source === 'catalog') {
    const search = new URLSearchParams({ q: citation.title ?? citation.reference, item: citation.reference })
    return `/projects/${encodeURIComponent(projectId)}/catalog?${search.toString()}`
  }
  return citation.url
}

export const sourceNames: Record<Citation['source'], string> = { catalog: 'Catalog item', knowledge: 'Knowledge', faq: 'FAQ' }

export function Citations ({ projectId, citations }: { projectId: string, citations: Citation[] }) {
  if (citations.length === 0) return null
  return (
    <div class='citations'>
      <p class='hint'>Sources</p>
      <ul>
        {citations.map((c) => {
          const href = hrefOf(projectId, c)
          const label = c.title ?? c.reference
          const external = href !== undefined && !href.startsWith('/')
          return (
            <li key={`${c.source}:${c.reference}`}>
              <span class='badge'>{sourceNames[c.source]}</span>{' '}
              {href === undefined
                ? label
                : <a href={href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>{label}</a>}
              <span class='hint'> ({Math.round(c.confidence * 100)} %)</span>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
