import { useState } from 'preact/hooks'
import { createProject, listProjects, renameProject } from '../api/projects.js'
import type { Project } from '../api/types.js'
import { ErrorAlert, Loading, Status } from '../components/status.js'
import { formatDate } from '../format.js'
import { useAction, useLoad, useTitle } from '../hooks.js'

function RenameForm ({ project, onDone }: { project: Project, onDone: (renamed?: Project) => void }) {
  const action = useAction()
  const inputId = `rename-${project.id}`
  return (
    <form
      class='inline-form' onSubmit={(e) => {
        e.preventDefault()
        const name = String(new FormData(e.currentTarget).get('name')).trim()
        action.run(() => renameProject(project.id, name)).then((renamed) => { if (renamed !== undefined) onDone(renamed) })
      }}
    >
      <label for={inputId}>New name for {project.name}</label>
      <input id={inputId} name='name' defaultValue={project.name} required maxLength={200} autoFocus />
      <button type='submit' class='primary' disabled={action.pending}>Save</button>
      <button type='button' onClick={() => onDone()}>Cancel</button>
      <ErrorAlert message={action.error} />
    </form>
  )
}

export function Projects () {
  useTitle('Projects')
  const projects = useLoad(listProjects, [])
  const create = useAction()
  const [renaming, setRenaming] = useState<string | undefined>()
  const [status, setStatus] = useState<string | undefined>()

  return (
    <>
      <h1 tabIndex={-1}>Projects</h1>
      <section aria-labelledby='new-project' class='card'>
        <h2 id='new-project'>New project</h2>
        <form
          class='inline-form' onSubmit={(e) => {
            e.preventDefault()
            const form = e.currentTarget
            const name = String(new FormData(form).get('name')).trim()
            create.run(() => createProject(name), (p) => `Project ${p.name} created.`).then((p) => {
              if (p === undefined) return
              form.reset()
              projects.reload()
            })
          }}
        >
          <label for='project-name'>Project name</label>
          <input id='project-name' name='name' required maxLength={200} />
          <button type='submit' class='primary' disabled={create.pending}>Create project</button>
        </form>
        <ErrorAlert message={create.error} />
        <Status>{create.status ?? status}</Status>
      </section>

      <section aria-labelledby='your-projects'>
        <h2 id='your-projects'>Your projects</h2>
        <ErrorAlert message={projects.error} />
        {projects.data === undefined
          ? projects.loading && <Loading what='projects' />
          : projects.data.length === 0
            ? <p>You have no projects yet. Create one above.</p>
            : (
              <table class='responsive'>
                <thead><tr><th scope='col'>Name</th><th scope='col'>Your role</th><th scope='col'>Created</th><th scope='col'><span class='sr-only'>Actions</span></th></tr></thead>
                <tbody>
                  {projects.data.map((p) => (
                    <tr key={p.id}>
                      <td data-label='Name'>
                        {renaming === p.id
                          ? <RenameForm project={p} onDone={(renamed) => { setRenaming(undefined); if (renamed !== undefined) { setStatus(`Renamed to ${renamed.name}.`); projects.reload() } }} />
                          : <a href={`/projects/${encodeURIComponent(p.id)}`}>{p.name}</a>}
                      </td>
                      <td data-label='Your role'>{p.role}</td>
                      <td data-label='Created'>{formatDate(p.created_at)}</td>
                      <td data-label='Actions'>
                        {p.role === 'owner' && renaming !== p.id && <button type='button' aria-label={`Rename ${p.name}`} onClick={() => setRenaming(p.id)}>Rename</button>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              )}
      </section>
    </>
  )
}
