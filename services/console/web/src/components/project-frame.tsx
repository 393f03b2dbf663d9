import type { ComponentChildren } from 'preact'
import { createContext } from 'preact'
import { useContext, useEffect, useRef } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { findProject } from '../api/projects.js'
import type { Project } from '../api/types.js'
import { useLoad, useTitle } from '../hooks.js'
import { ErrorAlert, Loading } from './status.js'

const sections = [
  { path: '', name: 'Credentials' },
  { path: '/widget', name: 'Widget' },
  { path: '/webhooks', name: 'Webhooks' },
  { path: '/catalog', name: 'Catalog' },
  { path: '/rules', name: 'Rules' },
  { path: '/knowledge', name: 'Knowledge' },
  { path: '/chats', name: 'Conversations' },
  { path: '/analytics', name: 'Analytics' },
  { path: '/playground', name: 'Playground' }
]

const ProjectContext = createContext<Project | undefined>(undefined)

/** The project of the page being shown (inside a ProjectFrame). */
export function useProject (): Project {
  const project = useContext(ProjectContext)
  if (project === undefined) throw new Error('useProject outside a ProjectFrame')
  return project
}

/** The frame of a project's pages: its name, the sections' navigation and the page's heading. */
export function ProjectFrame ({ id, title, children }: { id: string, title: string, children: ComponentChildren }) {
  const { path } = useLocation()
  const project = useLoad(() => findProject(id), [id])
  useTitle(project.data === undefined ? title : `${title} · ${project.data.name}`)
  const base = `/projects/${encodeURIComponent(id)}`
  const heading = useRef<HTMLHeadingElement>(null)
  // A navigation focuses the main region while the project loads; its heading takes over once shown.
  useEffect(() => {
    if (document.activeElement?.id === 'main') heading.current?.focus()
  }, [project.data !== undefined])

  if (project.data === undefined) {
    if (project.error !== undefined) return <ErrorAlert message={project.error} />
    if (project.loading) return <Loading what='project' />
    return (
      <>
        <h1>Project not found</h1>
        <p>No project of yours has this id. <a href='/'>Back to your projects</a></p>
      </>
    )
  }
  return (
    <ProjectContext.Provider value={project.data}>
      <p class='breadcrumb'><a href='/'>Projects</a> / <span>{project.data.name}</span></p>
      <nav aria-label='Project sections' class='sections'>
        <ul>
          {sections.map((s) => {
            const href = base + s.path
            const current = s.path === '' ? path === href : path === href || path.startsWith(href + '/')
            return <li key={s.path}><a href={href} aria-current={current ? 'page' : undefined}>{s.name}</a></li>
          })}
        </ul>
      </nav>
      <h1 tabIndex={-1} ref={heading}>{title}</h1>
      {children}
    </ProjectContext.Provider>
  )
}
