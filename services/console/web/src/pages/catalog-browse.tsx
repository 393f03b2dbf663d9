import { useState } from 'preact/hooks'
import { deleteItem, search } from '../api/catalog.js'
import type { CatalogSettings, SearchBody } from '../api/types.js'
import { ConfirmButton } from '../components/confirm-button.js'
import { Facets } from '../components/facets.js'
import { filterOf, type FacetChoice } from '../filter.js'
import { Hit } from '../components/hits.js'
import { ErrorAlert, Loading, Status } from '../components/status.js'
import { useAction, useLoad } from '../hooks.js'

const PAGE = 20

interface Props {
  projectId: string
  settings: CatalogSettings
  /** Changes when the catalog did (an import ended): the results are fetched again. */
  version: number
  /** A search to start with (the page's ?q=). */
  initialTerm: string
  /** The id of an item to mark among the results (the page's ?item=, from a citation). */
  cited: string | undefined
}

/** Browse and search the catalog, narrowed by the facets the settings name. */
export function CatalogBrowse ({ projectId, settings, version, initialTerm, cited }: Props) {
  const [term, setTerm] = useState(initialTerm)
  const [choice, setChoice] = useState<FacetChoice>({})
  const [offset, setOffset] = useState(0)
  const [round, setRound] = useState(0)
  const action = useAction()
  const body: SearchBody = {
    search_term: term,
    facets: settings.facetableAttributes.length > 0 ? settings.facetableAttributes : null,
    filters: filterOf(choice),
    limit: PAGE,
    offset
  }
  const results = useLoad(() => search(projectId, body), [projectId, JSON.stringify(body), version, round])
  const data = results.data
  const total = data?.estimatedTotalHits ?? 0

  return (
    <section aria-labelledby='browse' class='card'>
      <h2 id='browse'>Items</h2>
      <form
        role='search' class='inline-form' onSubmit={(e) => {
          e.preventDefault()
          setTerm(String(new FormData(e.currentTarget).get('q')))
          setOffset(0)
        }}
      >
        <label for='catalog-q'>Search the catalog</label>
        <input id='catalog-q' name='q' type='search' defaultValue={initialTerm} />
        <button type='submit'>Search</button>
      </form>
      <div class='with-sidebar'>
        <aside aria-label='Facets'>
          <Facets distribution={data?.facetDistribution} choice={choice} onChange={(c) => { setChoice(c); setOffset(0) }} />
        </aside>
        <div class='results'>
          <ErrorAlert message={action.error ?? results.error} />
          <Status>
            {results.loading
              ? 'Searching…'
              : data !== undefined && (total === 0 ? 'No items found.' : `Items ${offset + 1}–${offset + data.hits.length} of about ${total}.`)}
          </Status>
          {action.status !== undefined && <Status>{action.status}</Status>}
          {data === undefined
            ? results.loading && <Loading what='items' />
            : (
              <ul class='hits plain'>
                {data.hits.map((hit) => (
                  <Hit
                    key={hit.id} hit={hit} cited={hit.id === cited} actions={
                      <ConfirmButton
                        label='Delete' target={`item ${hit.id}`} question={`Delete item ${hit.id}?`}
                        onConfirm={() => action.run(() => deleteItem(projectId, hit.id), `Item ${hit.id} deleted.`).then(() => setRound((r) => r + 1))}
                      />
                    }
                  />
                ))}
              </ul>
              )}
          <nav aria-label='Result pages' class='pager'>
            <button type='button' disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Previous</button>
            <button type='button' disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>Next</button>
          </nav>
        </div>
      </div>
    </section>
  )
}
