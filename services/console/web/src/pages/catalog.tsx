import { useEffect, useRef, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { getSettings } from '../api/catalog.js'
import { ProjectFrame, useProject } from '../components/project-frame.js'
import { ErrorAlert, Loading } from '../components/status.js'
import { useLoad } from '../hooks.js'
import { CatalogBrowse } from './catalog-browse.js'
import { CatalogImport } from './catalog-import.js'
import { CatalogSettingsForm } from './catalog-settings.js'
import { CatalogSuggestions } from './catalog-suggestions.js'

function Body () {
  const project = useProject()
  const { query } = useLocation()
  const settings = useLoad(() => getSettings(project.id), [project.id])
  const [version, setVersion] = useState(0)
  // An import infers the settings of an empty catalog. The form's fields take their values when it
  // mounts, so once the settings loaded after an import arrive it is mounted again with them (saving
  // the empty lists it first showed would undo the inference); a save of its own keeps it mounted,
  // with its message.
  const [formKey, setFormKey] = useState(0)
  const imported = useRef(false)
  useEffect(() => {
    if (imported.current && !settings.loading) {
      imported.current = false
      setFormKey((k) => k + 1)
    }
  }, [settings.loading, settings.data])

  return (
    <>
      <CatalogImport
        projectId={project.id} onImported={() => {
          setVersion((v) => v + 1)
          imported.current = true
          settings.reload()
        }}
      />
      <ErrorAlert message={settings.error} />
      {settings.data === undefined
        ? settings.loading && <Loading what='settings' />
        : (
          <>
            <CatalogBrowse projectId={project.id} settings={settings.data} version={version} initialTerm={query.q ?? ''} cited={query.item} key={query.q} />
            <CatalogSuggestions projectId={project.id} settings={settings.data} onChanged={() => settings.reload()} />
            {/* Made again when autocomplete's rules change from the list above, as after an import: its fields show the settings as they were read. */}
            <CatalogSettingsForm
              key={`${formKey}\n${settings.data.suggestionsMinSearchers ?? ''}\n${(settings.data.suggestionsExcluded ?? []).join('\n')}`}
              projectId={project.id} settings={settings.data} onSaved={() => settings.reload()}
            />
          </>
          )}
    </>
  )
}

export function Catalog ({ id }: { id: string }) {
  return <ProjectFrame id={id} title='Catalog'><Body /></ProjectFrame>
}
