import { useState } from 'preact/hooks'
import { getDocument } from '../api/knowledge.js'
import { messageOf } from '../api/client.js'
import { ProjectFrame, useProject } from '../components/project-frame.js'
import { ErrorAlert } from '../components/status.js'
import { TaskProgress } from '../components/task-progress.js'
import { CrawlSite, UploadFiles } from './knowledge-add.js'
import { KnowledgeDocuments } from './knowledge-documents.js'
import { FaqForm, type FaqDraft } from './knowledge-faq.js'
import { RecentTasks } from './knowledge-tasks.js'

function Body () {
  const project = useProject()
  const [tasks, setTasks] = useState<string[]>([])
  const [version, setVersion] = useState(0)
  const [editing, setEditing] = useState<FaqDraft | undefined>()
  const [error, setError] = useState<string | undefined>()
  const changed = () => setVersion((v) => v + 1)
  const follow = (taskId: string) => {
    setTasks((list) => [taskId, ...list])
    changed()
  }

  return (
    <>
      <div class='grid-2'>
        <UploadFiles projectId={project.id} onTask={follow} />
        <CrawlSite projectId={project.id} onTask={follow} />
      </div>
      {tasks.length > 0 && (
        <section aria-labelledby='running' class='card'>
          <h2 id='running'>Started here</h2>
          {tasks.map((id) => <TaskProgress key={id} projectId={project.id} taskId={id} onEnd={changed} />)}
        </section>
      )}
      <ErrorAlert message={error} />
      <FaqForm
        projectId={project.id} editing={editing} onCancel={() => setEditing(undefined)} onSaved={() => {
          setEditing(undefined)
          changed()
        }}
      />
      <KnowledgeDocuments
        projectId={project.id} version={version} onEdit={(summary) => {
          setError(undefined)
          const open = (draft: FaqDraft) => {
            setEditing(draft)
            // After the form has re-rendered with the pair.
            setTimeout(() => document.getElementById('faq-question')?.focus(), 0)
          }
          getDocument(project.id, summary.id).then(
            (doc) => open({ id: doc.id, question: doc.title, answer: doc.content, url: doc.url }),
            (err: unknown) => { setError(`“${summary.title}” cannot be opened: ${messageOf(err)}`) })
        }}
      />
      <RecentTasks projectId={project.id} version={version} />
    </>
  )
}

export function Knowledge ({ id }: { id: string }) {
  return <ProjectFrame id={id} title='Knowledge'><Body /></ProjectFrame>
}
