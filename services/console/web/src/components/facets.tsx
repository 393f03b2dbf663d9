import { useEffect, useRef, useState } from 'preact/hooks'
import { messageOf } from '../api/client.js'
import type { FacetHit, SearchResponse } from '../api/types.js'
import type { FacetChoice } from '../filter.js'

/** Values shown per facet, the most frequent first. */
const SHOWN = 20
/** How long typing in a facet's filter box pauses before its values are searched. */
const TYPING_PAUSE_MS = 250

/** The values of one facet that begin with a query (POST /facet-search), counted as the search's facets are. */
export type SearchValues = (attribute: string, query: string) => Promise<FacetHit[]>

interface Props {
  /** Unfolded at first; by default only on a wide window. */
  open?: boolean
  distribution: SearchResponse['facetDistribution']
  choice: FacetChoice
  onChange: (choice: FacetChoice) => void
  /** With it, a facet with more values than shown gets a box to find the others. */
  searchValues?: SearchValues
}

/** The facets of a search as groups of checkboxes, each value with its count. */
export function Facets ({ open, distribution, choice, onChange, searchValues }: Props) {
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
        <FacetGroup
          key={attribute} attribute={attribute} values={values} chosen={choice[attribute] ?? []}
          onToggle={(value, on) => toggle(attribute, value, on)}
          searchValues={Object.keys(values).length > SHOWN ? searchValues : undefined}
        />
      ))}
    </details>
  )
}

interface GroupProps {
  attribute: string
  values: Record<string, number>
  chosen: string[]
  onToggle: (value: string, on: boolean) => void
  searchValues: SearchValues | undefined
}

/** One facet: its most frequent values or, once something is typed in its filter box, those found. */
function FacetGroup ({ attribute, values, chosen, onToggle, searchValues }: GroupProps) {
  const [query, setQuery] = useState('')
  const [found, setFound] = useState<FacetHit[] | undefined>()
  const [error, setError] = useState<string | undefined>()
  const latest = useRef(0)
  // Searched again when the search changes (a new searchValues), so the counts stay those of the results.
  useEffect(() => {
    const mine = ++latest.current
    if (searchValues === undefined || query.trim() === '') {
      setFound(undefined)
      setError(undefined)
      return
    }
    const timer = setTimeout(() => {
      searchValues(attribute, query).then(
        (hits) => { if (mine === latest.current) { setFound(hits); setError(undefined) } },
        (err: unknown) => { if (mine === latest.current) setError(messageOf(err)) }
      )
    }, TYPING_PAUSE_MS)
    return () => clearTimeout(timer)
  }, [attribute, query, searchValues])

  const shown: Array<[string, number]> = found !== undefined
    ? found.map((hit) => [hit.value, hit.count])
    : Object.entries(values).sort(([, a], [, b]) => b - a).slice(0, SHOWN)
  const boxId = `facet-find-${attribute}`.replace(/[^A-Za-z0-9_-]/g, '_')
  return (
    <fieldset>
      <legend>{attribute}</legend>
      {searchValues !== undefined && (
        <>
          <label for={boxId} class='sr-only'>Find values of {attribute}</label>
          <input id={boxId} type='search' class='facet-find' placeholder='Find a value' value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
          {error !== undefined && <p role='alert' class='alert'>{error}</p>}
          {found !== undefined && found.length === 0 && <p class='hint'>No value begins with “{query.trim()}”.</p>}
        </>
      )}
      {shown.map(([value, count]) => {
        const id = `facet-${attribute}-${value}`.replace(/[^A-Za-z0-9_-]/g, '_')
        return (
          <div class='check' key={value}>
            <input type='checkbox' id={id} checked={chosen.includes(value)} onChange={(e) => onToggle(value, e.currentTarget.checked)} />
            <label for={id}>{value} <span class='count'>({count})</span></label>
          </div>
        )
      })}
    </fieldset>
  )
}
