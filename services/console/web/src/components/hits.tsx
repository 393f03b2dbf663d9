import type { ComponentChildren } from 'preact'
import type { SearchHit } from '../api/types.js'
import { highlightPieces } from '../highlight.js'

const SHOWN = ['price', 'category', 'brand', 'in_stock', 'rating'] as const

const text = (value: unknown) => typeof value === 'string' ? value : JSON.stringify(value)

/** The field as highlighted or cropped, when the search asked for it (the hit's _formatted). */
function formattedOf (hit: SearchHit, field: 'title' | 'description'): string | undefined {
  const formatted = (hit as Record<string, unknown>)._formatted
  if (typeof formatted !== 'object' || formatted === null) return undefined
  const value = (formatted as Record<string, unknown>)[field]
  return typeof value === 'string' ? value : undefined
}

/** Text with its matches as mark elements: built from text nodes, never from the hit's HTML. */
function Highlighted ({ formatted }: { formatted: string }) {
  return <>{highlightPieces(formatted).map((piece, i) => piece.marked ? <mark key={i}>{piece.text}</mark> : piece.text)}</>
}

/** One catalog item: its title, a few fields, and the whole item on demand; title and description highlighted when the search asked. */
export function Hit ({ hit, actions, cited = false }: { hit: SearchHit, actions?: ComponentChildren, cited?: boolean }) {
  const fields = SHOWN.filter((f) => hit[f] !== undefined)
  const title = formattedOf(hit, 'title')
  const description = formattedOf(hit, 'description')
  return (
    <li class={cited ? 'hit hit-cited' : 'hit'}>
      <div class='hit-head'>
        <h3>{title === undefined ? hit.title ?? hit.id : <Highlighted formatted={title} />}{cited && <> <span class='badge badge-accent'>Cited item</span></>}</h3>
        {actions}
      </div>
      <p class='hint'>id <code>{hit.id}</code></p>
      {description !== undefined ? <p><Highlighted formatted={description} /></p> : hit.description !== undefined && <p>{hit.description}</p>}
      {fields.length > 0 && (
        <dl class='fields'>
          {fields.map((f) => <div key={f}><dt>{f.replace('_', ' ')}</dt><dd>{text(hit[f])}</dd></div>)}
        </dl>
      )}
      <details>
        <summary>All fields<span class='sr-only'> of {hit.title ?? hit.id}</span></summary>
        <pre class='json'>{JSON.stringify(hit, null, 2)}</pre>
      </details>
    </li>
  )
}
