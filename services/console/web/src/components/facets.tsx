import { useState } from 'preact/hooks'
import type { SearchResponse } from '../api/types.js'
import type { FacetChoice } from '../filter.js'

interface Props {
  /** Unfolded at first; by default only on a wide window. */
  open?: boolean
  distribution: SearchResponse['facetDistribution']
  choice: FacetChoice
  onChange: (choice: FacetChoice) => void
}

/** The facets of a search as groups of checkboxes, each value with its count. */
export function Facets ({ open, distribution, choice, onChange }: Props) {
  const [unfolded] = useState(() => open ?? window.matchMedia('(min-width: 40rem)').matches)
  const groups = Object.entries(distribution ?? {}).filter(([, values]) => Object.keys(values).length > 0)
  if (groups.length === 0) return null
  const toggle = (attribute: string, value: string, on: boolean) => {
    const current = choice[attribute] ?? []
    onChange({ ...choice, [attribute]: on ? [...current, value] : current.filter((v) => v !== value) })
  }
  return (
    // Folded where the values would push the results a screen or more down (a phone, the playground's half column).
    <details class='facets' open={unfolded}>
      <summary>Narrow down</summary>
      {groups.map(([attribute, values]) => (
        <fieldset key={attribute}>
          <legend>{attribute}</legend>
          {Object.entries(values).sort(([, a], [, b]) => b - a).slice(0, 20).map(([value, count]) => {
            const id = `facet-${attribute}-${value}`.replace(/[^A-Za-z0-9_-]/g, '_')
            return (
              <div class='check' key={value}>
                <input
                  type='checkbox' id={id} checked={choice[attribute]?.includes(value) ?? false}
                  onChange={(e) => toggle(attribute, value, e.currentTarget.checked)}
                />
                <label for={id}>{value} <span class='count'>({count})</span></label>
              </div>
            )
          })}
        </fieldset>
      ))}
    </details>
  )
}
