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
  // An import infers the settings of an empty catalog, and the popular-searches list changes
  // autocomplete's. The form's fields take their values when it mounts, so once the settings loaded
  // after either arrive it is mounted again with them (saving what it first showed would undo the
  // change), unless someone is editing it: their edits stay, and the form says the settings changed
  // and offers to show the new ones. A save of its own keeps it mounted, with its message.
  const [formKey, setFormKey] = useState(0)
  const [stale, setStale] = useState(false)
  const editing = useRef(false)
  const changedElsewhere = useRef(false)
  const showLatest = () => {
    editing.current = false
    setStale(false)
    setFormKey((k) => k + 1)
  }
  useEffect(() => {
    if (changedElsewhere.current && !settings.loading) {
      changedElsewhere.current = false
      if (editing.current) setStale(true)
      else showLatest()
    }
  }, [settings.loading, settings.data])
  const reloadForForm = () => {
    changedElsewhere.current = true
    settings.reload()
  }

  return (
    <>
      <CatalogImport
        projectId={project.id} onImported={() => {
          setVersion((v) => v + 1)
          reloadForForm()
        }}
      />
      <ErrorAlert message={settings.error} />
      {settings.data === undefined
        ? settings.loading && <Loading what='settings' />
        : (
          <>
            <CatalogBrowse projectId={project.id} settings={settings.data} version={version} initialTerm={query.q ?? ''} cited={query.item} key={query.q} />
            <CatalogSuggestions projectId={project.id} settings={settings.data} onChanged={reloadForForm} />
            <CatalogSettingsForm
              key={formKey} projectId={project.id} settings={settings.data} stale={stale}
              onEdit={() => { editing.current = true }}
              onShowLatest={showLatest}
              onSaved={() => {
                editing.current = false
                setStale(false)
                settings.reload()
              }}
            />
          </>
          )}
    </>
  )
}

export function Catalog ({ id }: { id: string }) {
  return <ProjectFrame id={id} title='Catalog'><Body /></ProjectFrame>
}
