import { useCallback, useState } from 'preact/hooks'
import { facetSearch, search } from '../api/catalog.js'
import { messageOf } from '../api/client.js'
import type { CatalogSettings, MatchingStrategy, SearchBody, SearchResponse } from '../api/types.js'
import { Facets, type SearchValues } from '../components/facets.js'
import { filterOf, type FacetChoice } from '../filter.js'
import { Hit } from '../components/hits.js'
import { ErrorAlert, Status } from '../components/status.js'

interface Form {
  term: string
  type: 'keyword' | 'hybrid'
  filters: string
  /** Empty: not sent, the search service's default (last). */
  strategy: MatchingStrategy | ''
  /** `attribute:asc` or `attribute:desc`; empty: by relevance. */
  sort: string
  highlight: boolean
  crop: boolean
  /** Words the crop keeps; empty: not sent, the search service's default. */
  cropLength: string
}

const strategies: Array<{ value: MatchingStrategy | '', label: string }> = [
  { value: '', label: 'Last (default): drop words from the end of the query' },
  { value: 'all', label: 'All: every word' },
  { value: 'frequency', label: 'Frequency: drop the most common words first' }
]

const formOf = (data: FormData): Form => ({
  term: String(data.get('term')),
  type: data.get('type') === 'hybrid' ? 'hybrid' : 'keyword',
  filters: String(data.get('filters')),
  strategy: strategies.find((s) => s.value === data.get('strategy'))?.value ?? '',
  sort: String(data.get('sort') ?? ''),
  highlight: data.get('highlight') === 'on',
  crop: data.get('crop') === 'on',
  cropLength: String(data.get('crop_length') ?? '').trim()
})

/** The request: what the playground always sent, and each option only when it is set. */
const bodyOf = (form: Form, choice: FacetChoice, facets: string[]): SearchBody => ({
  search_term: form.term,
  search_type: form.type,
  filters: filterOf(choice, form.filters),
  facets: facets.length > 0 ? facets : null,
  limit: 10,
  show_ranking_score: true,
  ...(form.strategy === '' ? {} : { matching_strategy: form.strategy }),
  ...(form.sort === '' ? {} : { sort: [form.sort] }),
  ...(form.highlight ? { attributes_to_highlight: ['*'] } : {}),
  ...(form.crop ? { attributes_to_crop: ['description'], ...(form.cropLength === '' ? {} : { crop_length: Number(form.cropLength) }) } : {})
})

/**
 * Searches as an application would: the term, the type, a filter expression, the facets (each
 * one's values searched when there are more than shown), and the matching strategy, sort and
 * highlighting a shop may ask for.
 */
export function PlaygroundSearch ({ projectId, settings }: { projectId: string, settings: CatalogSettings }) {
  const [result, setResult] = useState<{ body: SearchBody, response: SearchResponse } | undefined>()
  const [choice, setChoice] = useState<FacetChoice>({})
  const [error, setError] = useState<string | undefined>()
  const [pending, setPending] = useState(false)
  const [form, setForm] = useState<Form>({ term: '', type: 'keyword', filters: '', strategy: '', sort: '', highlight: false, crop: false, cropLength: '' })
  const sortable = settings.sortableAttributes ?? []

  const run = async (next: Form, nextChoice: FacetChoice) => {
    const body = bodyOf(next, nextChoice, settings.facetableAttributes)
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

  // A facet's values are counted over the items the search shown matched.
  const shownBody = result?.body
  const searchValues = useCallback<SearchValues>(async (attribute, query) => {
    if (shownBody === undefined) return []
    const answer = await facetSearch(projectId, {
      facet_name: attribute,
      facet_query: query,
      search_term: shownBody.search_term,
      filters: shownBody.filters ?? null,
      ...(shownBody.matching_strategy === undefined ? {} : { matching_strategy: shownBody.matching_strategy }),
      // Counted as the hybrid search shown counts its facets (both at the default semantic ratio).
      ...(shownBody.search_type === 'hybrid' ? { search_type: 'hybrid' as const } : {})
    })
    return answer.facet_hits
  }, [projectId, shownBody])

  return (
    <section aria-labelledby='playground-search' class='card'>
      <h2 id='playground-search'>Search</h2>
      <form
        role='search' class='stack' onSubmit={(e) => {
          e.preventDefault()
          const next = formOf(new FormData(e.currentTarget))
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
        <label for='ps-strategy'>Matching strategy</label>
        <select id='ps-strategy' name='strategy'>
          {strategies.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
        </select>
        <label for='ps-sort'>Sort</label>
        <select id='ps-sort' name='sort' aria-describedby='ps-sort-hint'>
          <option value=''>By relevance</option>
          {sortable.flatMap((attribute) => [
            <option key={`${attribute}:asc`} value={`${attribute}:asc`}>{attribute}, ascending</option>,
            <option key={`${attribute}:desc`} value={`${attribute}:desc`}>{attribute}, descending</option>
          ])}
        </select>
        <p id='ps-sort-hint' class='hint'>Sortable: {sortable.join(', ') || 'none (see the catalog settings)'}.</p>
        <label class='checkbox'><input type='checkbox' name='highlight' />Highlight the words found</label>
        <label class='checkbox'><input type='checkbox' name='crop' />Crop descriptions around the words found</label>
        <label for='ps-crop-length'>Words a crop keeps (optional)</label>
        <input id='ps-crop-length' name='crop_length' type='number' min={0} step={1} aria-describedby='ps-crop-hint' />
        <p id='ps-crop-hint' class='hint'>Empty: the search service's default.</p>
        <div><button type='submit' class='primary' disabled={pending}>Search</button></div>
      </form>
      <ErrorAlert message={error} />
      <Status>{pending ? 'Searching…' : result !== undefined && `${result.response.estimatedTotalHits} ${result.response.estimatedTotalHits === 1 ? 'item' : 'items'} found in ${result.response.processingTimeMs} ms.`}</Status>
      {result !== undefined && (
        <div class='with-sidebar'>
          <aside aria-label='Facets'>
            <Facets open={false} distribution={result.response.facetDistribution} choice={choice} onChange={(c) => { setChoice(c); run(form, c) }} searchValues={searchValues} />
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
