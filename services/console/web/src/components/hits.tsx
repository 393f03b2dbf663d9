import type { ComponentChildren } from 'preact'
import type { SearchHit } from '../api/types.js'

const SHOWN = ['price', 'category', 'brand', 'in_stock', 'rating'] as const

const text = (value: unknown) => typeof value === 'string' ? value : JSON.stringify(value)

/** One catalog item: its title, a few fields, and the whole item on demand. */
export function Hit ({ hit, actions, cited = false }: { hit: SearchHit, actions?: ComponentChildren, cited?: boolean }) {
  const fields = SHOWN.filter((f) => hit[f] !== undefined)
  return (
    <li class={cited ? 'hit hit-cited' : 'hit'}>
      <div class='hit-head'>
        <h3>{hit.title ?? hit.id}{cited && <> <span class='badge badge-accent'>Cited item</span></>}</h3>
        {actions}
      </div>
      <p class='hint'>id <code>{hit.id}</code></p>
      {hit.description !== undefined && <p>{hit.description}</p>}
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
