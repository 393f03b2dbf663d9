import { cancelTask, listTasks } from '../api/catalog.js'
import { ConfirmButton } from '../components/confirm-button.js'
import { ErrorAlert, Loading, Status } from '../components/status.js'
import { formatDate } from '../format.js'
import { useAction, useLoad } from '../hooks.js'
import { hasEnded } from '../components/task-progress.js'

/** The project's recent tasks (crawls, uploads, imports), newest first. */
export function RecentTasks ({ projectId, version }: { projectId: string, version: number }) {
  const tasks = useLoad(() => listTasks(projectId), [projectId, version])
  const action = useAction()
  return (
    <section aria-labelledby='tasks' class='card'>
      <div class='section-head'>
        <h2 id='tasks'>Recent tasks</h2>
        <button type='button' onClick={() => tasks.reload()}>Refresh</button>
      </div>
      <ErrorAlert message={action.error ?? tasks.error} />
      <Status>{action.status}</Status>
      {tasks.data === undefined
        ? tasks.loading && <Loading what='tasks' />
        : tasks.data.results.length === 0
          ? <p>No tasks yet.</p>
          : (
            <table class='responsive'>
              <thead><tr><th scope='col'>Task</th><th scope='col'>Status</th><th scope='col'>Progress</th><th scope='col'>Started</th><th scope='col'><span class='sr-only'>Actions</span></th></tr></thead>
              <tbody>
                {tasks.data.results.map((t) => (
                  <tr key={t.id}>
                    <td data-label='Task'>{t.type.replace('_', ' ')} <code class='hint'>{t.id}</code></td>
                    <td data-label='Status'><span class={`badge status-${t.status}`}>{t.status}</span>{t.error !== null && <span class='hint'> {t.error.message}</span>}</td>
                    <td data-label='Progress'>{t.progress.total > 0 ? `${t.progress.done} of ${t.progress.total}` : '—'}</td>
                    <td data-label='Started'>{formatDate(t.enqueued_at)}</td>
                    <td data-label='Actions' class='actions'>
                      {!hasEnded(t) && (
                        <ConfirmButton
                          label='Stop' target={`${t.type.replace('_', ' ')} ${t.id}`} question='Stop this task? What it has done stays.' disabled={action.pending}
                          onConfirm={() => action.run(() => cancelTask(projectId, t.id), `Task ${t.id} canceled.`).then(() => tasks.reload())}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            )}
    </section>
  )
}
