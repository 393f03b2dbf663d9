import { putSettings } from '../api/catalog.js'
import type { CatalogSettings } from '../api/types.js'
import { ErrorAlert, Status } from '../components/status.js'
import { useAction } from '../hooks.js'

const fields: Array<{ key: keyof CatalogSettings, label: string }> = [
  { key: 'searchableAttributes', label: 'Searchable attributes, highest priority first' },
  { key: 'filterableAttributes', label: 'Filterable attributes' },
  { key: 'facetableAttributes', label: 'Facetable attributes' },
  // Shown and sent back, so that saving this form does not drop the ones set through the API.
  { key: 'sortableAttributes', label: 'Sortable attributes' }
]

const listOf = (text: string) => [...new Set(text.split(/[\n,]/).map((s) => s.trim()).filter((s) => s !== ''))]

/** The index settings, one attribute per line; saving re-indexes the catalog. */
export function CatalogSettingsForm ({ projectId, settings, onSaved }: { projectId: string, settings: CatalogSettings, onSaved: () => void }) {
  const action = useAction()
  return (
    <section aria-labelledby='settings' class='card'>
      <h2 id='settings'>Settings</h2>
      <form
        class='stack' onSubmit={(e) => {
          e.preventDefault()
          const data = new FormData(e.currentTarget)
          const next: CatalogSettings = {
            searchableAttributes: listOf(String(data.get('searchableAttributes'))),
            filterableAttributes: listOf(String(data.get('filterableAttributes'))),
            facetableAttributes: listOf(String(data.get('facetableAttributes'))),
            sortableAttributes: listOf(String(data.get('sortableAttributes')))
          }
          action.run(() => putSettings(projectId, next), 'Settings saved; the catalog is re-indexed with them.').then((saved) => {
            if (saved !== undefined) onSaved()
          })
        }}
      >
        <p class='hint' id='settings-hint'>One attribute per line (or separated by commas).</p>
        {fields.map((f) => (
          <div class='stack' key={f.key}>
            <label for={`settings-${f.key}`}>{f.label}</label>
            <textarea id={`settings-${f.key}`} name={f.key} rows={4} aria-describedby='settings-hint' defaultValue={(settings[f.key] ?? []).join('\n')} />
          </div>
        ))}
        <div><button type='submit' class='primary' disabled={action.pending}>Save settings</button></div>
      </form>
      <ErrorAlert message={action.error} />
      <Status>{action.status}</Status>
    </section>
  )
}
