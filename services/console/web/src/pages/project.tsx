import { ProjectFrame, useProject } from '../components/project-frame.js'
import { Credentials } from './credentials.js'
import { Members } from './members.js'

function Body () {
  const project = useProject()
  return (
    <>
      <Credentials
        projectId={project.id} service='chat' title='API Keys' noun='API key'
        purpose='API Keys call the chat service (POST /newUserMessage and the conversation routes).'
      />
      <Credentials
        projectId={project.id} service='search' title='API Tokens' noun='API token'
        purpose='API Tokens call the search service (search, autocomplete, catalog and knowledge).'
      />
      <Members projectId={project.id} isOwner={project.role === 'owner'} />
    </>
  )
}

export function ProjectPage ({ id }: { id: string }) {
  return <ProjectFrame id={id} title='Credentials'><Body /></ProjectFrame>
}
