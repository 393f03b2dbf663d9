import { putSettings } from '../api/catalog.js'
import type { CatalogSettings } from '../api/types.js'
import { ErrorAlert, Status } from '../components/status.js'
import { useAction } from '../hooks.js'
import { parseSynonyms, synonymsText } from '../synonyms.js'

type ListKey = 'searchableAttributes' | 'filterableAttributes' | 'facetableAttributes' | 'sortableAttributes' | 'stopWords' | 'suggestionsExcluded'

const lists: Array<{ key: ListKey, label: string, hint: string }> = [
  { key: 'searchableAttributes', label: 'Searchable attributes, highest priority first', hint: 'settings-hint' },
  { key: 'filterableAttributes', label: 'Filterable attributes', hint: 'settings-hint' },
  { key: 'facetableAttributes', label: 'Facetable attributes', hint: 'settings-hint' },
  // Shown and sent back, so that saving this form does not drop the ones set through the API.
  { key: 'sortableAttributes', label: 'Sortable attributes', hint: 'settings-hint' },
  { key: 'stopWords', label: 'Stop words', hint: 'settings-stop-hint' },
  { key: 'suggestionsExcluded', label: 'Searches never suggested by autocomplete', hint: 'settings-suggestions-hint' }
]

const listOf = (text: string) => [...new Set(text.split(/[\n,]/).map((s) => s.trim()).filter((s) => s !== ''))]
/** Searches may hold commas: one per line. */
const linesOf = (text: string) => [...new Set(text.split('\n').map((s) => s.trim()).filter((s) => s !== ''))]

/** The index settings, one attribute (or stop word) per line, synonyms one key per line; saving re-indexes the catalog. */
/** What decides how the catalog is indexed: every setting but autocomplete's rules. */
const indexingOf = (s: CatalogSettings) =>
  JSON.stringify([s.searchableAttributes, s.filterableAttributes, s.facetableAttributes, s.sortableAttributes ?? [], s.synonyms ?? {}, s.stopWords ?? []])

interface Props {
  projectId: string
  /** The settings last loaded: the fields start from them, and a save compares with them. */
  settings: CatalogSettings
  /** The settings changed elsewhere (an import, popular searches) while the fields were being edited. */
  stale: boolean
  /** The first edit of a field. */
  onEdit: () => void
  /** Drops the edits and shows the settings last loaded. */
  onShowLatest: () => void
  onSaved: () => void
}

export function CatalogSettingsForm ({ projectId, settings, stale, onEdit, onShowLatest, onSaved }: Props) {
  const action = useAction()
  return (
    <section aria-labelledby='settings' class='card'>
      <h2 id='settings'>Settings</h2>
      {stale && (
        <div class='notice' role='status'>
          <p>The settings changed while you were editing them (after an import or a change to popular searches). Saving replaces them with what this form shows.</p>
          <button type='button' onClick={onShowLatest}>Discard my edits and show the new settings</button>
        </div>
      )}
      <form
        class='stack' onInput={onEdit} onSubmit={(e) => {
          e.preventDefault()
          const data = new FormData(e.currentTarget)
          const synonyms = parseSynonyms(String(data.get('synonyms')))
          if ('error' in synonyms) {
            action.setStatus(undefined)
            action.setError(synonyms.error)
            return
          }
          const next: CatalogSettings = {
            searchableAttributes: listOf(String(data.get('searchableAttributes'))),
            filterableAttributes: listOf(String(data.get('filterableAttributes'))),
            facetableAttributes: listOf(String(data.get('facetableAttributes'))),
            sortableAttributes: listOf(String(data.get('sortableAttributes'))),
            synonyms: synonyms.synonyms,
            stopWords: listOf(String(data.get('stopWords'))),
            suggestionsMinSearchers: Number(data.get('suggestionsMinSearchers')),
            suggestionsExcluded: linesOf(String(data.get('suggestionsExcluded')))
          }
          // The search service re-indexes unless only autocomplete's rules changed (sameIndexing there).
          const message = indexingOf(next) === indexingOf(settings) ? 'Settings saved.' : 'Settings saved; the catalog is re-indexed with them.'
          action.run(() => putSettings(projectId, next), message).then((saved) => {
            if (saved !== undefined) onSaved()
          })
        }}
      >
        <p class='hint' id='settings-hint'>One attribute per line (or separated by commas).</p>
        {lists.map((f) => (
          <div class='stack' key={f.key}>
            <label for={`settings-${f.key}`}>{f.label}</label>
            <textarea id={`settings-${f.key}`} name={f.key} rows={4} aria-describedby={f.hint} defaultValue={(settings[f.key] ?? []).join('\n')} />
          </div>
        ))}
        <p class='hint' id='settings-stop-hint'>
          Stop words: one word per line (or separated by commas), left out of searches ("the sofa" finds what "sofa" finds), except as the last word typed.
        </p>
        <p class='hint' id='settings-suggestions-hint'>
          One search per line; Popular searches below excludes them too. A title or brand of the same text is still suggested.
        </p>
        <div class='stack'>
          <label for='settings-min-searchers'>Shoppers a search needs before autocomplete suggests it</label>
          <input
            id='settings-min-searchers' name='suggestionsMinSearchers' type='number' min={1} step={1} required
            aria-describedby='settings-min-searchers-hint' defaultValue={String(settings.suggestionsMinSearchers ?? '')}
          />
          <p class='hint' id='settings-min-searchers-hint'>
            Different shoppers (consumer ids, or addresses without one) whose search found items by keyword; 1 suggests any search that found something.
          </p>
        </div>
        <div class='stack'>
          <label for='settings-synonyms'>Synonyms</label>
          <textarea id='settings-synonyms' name='synonyms' rows={5} aria-describedby='settings-synonyms-hint' defaultValue={synonymsText(settings.synonyms ?? {})} />
          <p class='hint' id='settings-synonyms-hint'>
            One word or phrase per line, a colon, then what a search for it may find instead, separated by commas:
            "phone: smartphone, mobile". One-way: for mutual synonyms, write a line for each.
          </p>
        </div>
        <div><button type='submit' class='primary' disabled={action.pending}>Save settings</button></div>
      </form>
      <ErrorAlert message={action.error} />
      <Status>{action.status}</Status>
    </section>
  )
}
