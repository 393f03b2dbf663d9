import { useState } from 'preact/hooks'
import { catalogContentType, importCatalog } from '../api/catalog.js'
import { ErrorAlert, Status } from '../components/status.js'
import { TaskProgress } from '../components/task-progress.js'
import { useAction } from '../hooks.js'

/** Imports a JSON, JSON Lines or CSV file of items; a large one is followed as a task. */
export function CatalogImport ({ projectId, onImported }: { projectId: string, onImported: () => void }) {
  const action = useAction()
  const [taskId, setTaskId] = useState<string | undefined>()

  const submit = async (form: HTMLFormElement) => {
    const file = (form.elements.namedItem('catalog-file') as HTMLInputElement).files?.[0]
    if (file === undefined) return
    const type = catalogContentType(file.name)
    if (type === undefined) {
      action.setError(`${file.name} is not a .json, .jsonl, .ndjson or .csv file.`)
      return
    }
    setTaskId(undefined)
    const result = await action.run(() => importCatalog(projectId, file, type), (r) =>
      'task_id' in r ? `${file.name} is being imported as a task.` : `${file.name}: ${r.received} items received, ${r.indexed} indexed, ${r.unchanged} unchanged; ${r.total} items in the catalog.`)
    if (result === undefined) return
    form.reset()
    if ('task_id' in result) setTaskId(result.task_id)
    else onImported()
  }

  return (
    <section aria-labelledby='import' class='card'>
      <h2 id='import'>Import items</h2>
      <form class='stack' onSubmit={(e) => { e.preventDefault(); submit(e.currentTarget) }}>
        <label for='catalog-file'>Catalog file (JSON array, JSON Lines or CSV)</label>
        <input id='catalog-file' name='catalog-file' type='file' accept='.json,.jsonl,.ndjson,.csv,application/json,text/csv' required aria-describedby='catalog-file-hint' />
        <p id='catalog-file-hint' class='hint'>Each item needs an <code>id</code>; an item with the id of a stored one replaces it.</p>
        <div><button type='submit' class='primary' disabled={action.pending}>Import</button></div>
      </form>
      <ErrorAlert message={action.error} />
      <Status>{action.pending ? 'Uploading…' : action.status}</Status>
      {taskId !== undefined && <TaskProgress projectId={projectId} taskId={taskId} onEnd={onImported} />}
    </section>
  )
}
