import { getSettings } from '../api/catalog.js'
import { ProjectFrame, useProject } from '../components/project-frame.js'
import { ErrorAlert, Loading } from '../components/status.js'
import { useLoad } from '../hooks.js'
import { PlaygroundChat } from './playground-chat.js'
import { PlaygroundSearch } from './playground-search.js'

function Body () {
  const project = useProject()
  const settings = useLoad(() => getSettings(project.id), [project.id])
  return (
    <div class='grid-2'>
      <PlaygroundChat projectId={project.id} />
      {settings.data === undefined
        ? settings.error !== undefined ? <ErrorAlert message={settings.error} /> : <Loading what='search settings' />
        : <PlaygroundSearch projectId={project.id} settings={settings.data} />}
    </div>
  )
}

export function Playground ({ id }: { id: string }) {
  return <ProjectFrame id={id} title='Playground'><Body /></ProjectFrame>
}
