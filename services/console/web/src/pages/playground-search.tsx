import { useState } from 'preact/hooks'
import { search } from '../api/catalog.js'
import { messageOf } from '../api/client.js'
import type { CatalogSettings, SearchBody, SearchResponse } from '../api/types.js'
import { Facets } from '../components/facets.js'
import { filterOf, type FacetChoice } from '../filter.js'
import { Hit } from '../components/hits.js'
import { ErrorAlert, Status } from '../components/status.js'

/** Searches as an application would: the term, the type, a filter expression and the facets. */
export function PlaygroundSearch ({ projectId, settings }: { projectId: string, settings: CatalogSettings }) {
  const [result, setResult] = useState<{ body: SearchBody, response: SearchResponse } | undefined>()
  const [choice, setChoice] = useState<FacetChoice>({})
  const [error, setError] = useState<string | undefined>()
  const [pending, setPending] = useState(false)
  const [form, setForm] = useState<{ term: string, type: 'keyword' | 'hybrid', filters: string }>({ term: '', type: 'keyword', filters: '' })

  const run = async (next: typeof form, nextChoice: FacetChoice) => {
    const body: SearchBody = {
      search_term: next.term,
      search_type: next.type,
      filters: filterOf(nextChoice, next.filters),
      facets: settings.facetableAttributes.length > 0 ? settings.facetableAttributes : null,
      limit: 10,
      show_ranking_score: true
    }
    setPending(true)
    setError(undefined)
    try {
      setResult({ body, response: await search(projectId, body) })
    } catch (err) {
      setError(messageOf(err))
    } finally {
      setPending(false)
    }
  }

  return (
    <section aria-labelledby='playground-search' class='card'>
      <h2 id='playground-search'>Search</h2>
      <form
        role='search' class='stack' onSubmit={(e) => {
          e.preventDefault()
          const data = new FormData(e.currentTarget)
          const next = { term: String(data.get('term')), type: data.get('type') === 'hybrid' ? 'hybrid' as const : 'keyword' as const, filters: String(data.get('filters')) }
          setForm(next)
          run(next, choice)
        }}
      >
        <label for='ps-term'>Search term</label>
        <input id='ps-term' name='term' type='search' />
        <label for='ps-type'>Search type</label>
        <select id='ps-type' name='type'>
          <option value='keyword'>Keyword</option>
          <option value='hybrid'>Hybrid (keyword and semantic)</option>
        </select>
        <label for='ps-filters'>Filter expression (optional)</label>
        <input id='ps-filters' name='filters' placeholder='price < 50 AND in_stock = true' autocapitalize='none' spellcheck={false} aria-describedby='ps-filters-hint' />
        <p id='ps-filters-hint' class='hint'>Filterable: {settings.filterableAttributes.join(', ') || 'none (see the catalog settings)'}.</p>
        <div><button type='submit' class='primary' disabled={pending}>Search</button></div>
      </form>
      <ErrorAlert message={error} />
      <Status>{pending ? 'Searching…' : result !== undefined && `${result.response.estimatedTotalHits} items found in ${result.response.processingTimeMs} ms.`}</Status>
      {result !== undefined && (
        <div class='with-sidebar'>
          <aside aria-label='Facets'>
            <Facets open={false} distribution={result.response.facetDistribution} choice={choice} onChange={(c) => { setChoice(c); run(form, c) }} />
          </aside>
          <div class='results'>
            <ul class='hits plain'>{result.response.hits.map((hit) => <Hit key={hit.id} hit={hit} />)}</ul>
            <details>
              <summary>Request body</summary>
              <pre class='json'>{JSON.stringify(result.body, null, 2)}</pre>
            </details>
          </div>
        </div>
      )}
    </section>
  )
}
