import { useState } from 'preact/hooks'
import { listCandidates, putSettings } from '../api/catalog.js'
import type { CatalogSettings } from '../api/types.js'
import { ErrorAlert, Loading, Status } from '../components/status.js'
import { useAction, useLoad } from '../hooks.js'
import { suggestionStatusText } from '../suggestion-status.js'

const PAGE = 20

interface Props {
  projectId: string
  settings: CatalogSettings
  /** After an exclusion changed the settings: they are read again. */
  onChanged: () => void
}

/**
 * The catalog's popular searches, the most searched first, with whether autocomplete suggests each;
 * excluding one (or including it again) saves the settings with the new list of excluded searches.
 */
export function CatalogSuggestions ({ projectId, settings, onChanged }: Props) {
  const [offset, setOffset] = useState(0)
  const list = useLoad(() => listCandidates(projectId, { limit: PAGE, offset }), [projectId, offset, settings])
  const action = useAction()
  const excluded = settings.suggestionsExcluded ?? []
  const total = list.data?.total ?? 0

  const toggle = (query: string) => {
    const exclude = !excluded.includes(query)
    const next = exclude ? [...excluded, query] : excluded.filter((q) => q !== query)
    action.run(() => putSettings(projectId, { ...settings, suggestionsExcluded: next }), exclude ? `“${query}” is no longer suggested.` : `“${query}” may be suggested again.`)
      .then((saved) => { if (saved !== undefined) onChanged() })
  }

  return (
    <section aria-labelledby='suggestions' class='card'>
      <h2 id='suggestions'>Popular searches</h2>
      <p class='hint'>
        Autocomplete suggests a search once {settings.suggestionsMinSearchers} different shoppers made it and its keyword search found
        something, unless it is excluded. Searches made from this console are not counted.
      </p>
      <ErrorAlert message={action.error ?? list.error} />
      <Status>{action.status ?? (list.data !== undefined && `${total} popular search${total === 1 ? '' : 'es'}.`)}</Status>
      {list.data === undefined
        ? list.loading && <Loading what='popular searches' />
        : list.data.results.length > 0 && (
          <table class='responsive'>
            <thead>
              <tr><th scope='col'>Search</th><th scope='col'>Made</th><th scope='col'>Shoppers</th><th scope='col'>Keyword results</th><th scope='col'>Status</th><th scope='col'><span class='sr-only'>Actions</span></th></tr>
            </thead>
            <tbody>
              {list.data.results.map((c) => (
                <tr key={c.query}>
                  <td data-label='Search'>{c.query}</td>
                  <td data-label='Made'>{c.count}</td>
                  <td data-label='Shoppers'>{c.searchers}</td>
                  <td data-label='Keyword results'>{c.hits ?? 'not known yet'}</td>
                  <td data-label='Status'>{suggestionStatusText(c)}</td>
                  <td data-label='Actions' class='actions'>
                    <button type='button' aria-label={`${c.status === 'excluded' ? 'Include' : 'Exclude'} ${c.query}`} disabled={action.pending} onClick={() => toggle(c.query)}>
                      {c.status === 'excluded' ? 'Include' : 'Exclude'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      <nav aria-label='Popular search pages' class='pager'>
        <button type='button' disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Previous</button>
        <button type='button' disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>Next</button>
      </nav>
    </section>
  )
}
