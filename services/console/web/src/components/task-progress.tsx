import { useEffect, useState } from 'preact/hooks'
import { cancelTask, getTask } from '../api/catalog.js'
import { messageOf } from '../api/client.js'
import type { Task } from '../api/types.js'
import { useAction } from '../hooks.js'
import { ConfirmButton } from './confirm-button.js'

const POLL_MS = 1000
const taskNames: Record<Task['type'], string> = { crawl: 'Crawl', files: 'File upload', catalog_import: 'Catalog import' }

/** What a task reports in its details: the plain values, in words. */
function detailsOf (task: Task): string[] {
  return Object.entries(task.details)
    .filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))
    .map(([key, value]) => `${key.replaceAll('_', ' ')}: ${String(value)}`)
}

/** Whether a task succeeded, failed or was canceled: until then it can be canceled. */
export const hasEnded = (task: Task) => task.status === 'succeeded' || task.status === 'failed' || task.status === 'canceled'

/** Follows a task until it ends, showing its progress; `onEnd` runs once when it has. */
export function TaskProgress ({ projectId, taskId, onEnd }: { projectId: string, taskId: string, onEnd?: (task: Task) => void }) {
  const [task, setTask] = useState<Task | undefined>()
  const [error, setError] = useState<string | undefined>()
  const stop = useAction()

  useEffect(() => {
    const abort = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const poll = async () => {
      try {
        const next = await getTask(projectId, taskId, abort.signal)
        // A reading sent before a cancel may be answered after it: an ended task stays ended.
        setTask((shown) => shown !== undefined && hasEnded(shown) ? shown : next)
        if (hasEnded(next)) {
          onEnd?.(next)
          return
        }
        setError(undefined)
      } catch (err) {
        if (abort.signal.aborted) return
        setError(messageOf(err))
      }
      timer = setTimeout(() => { poll() }, POLL_MS)
    }
    poll()
    return () => {
      abort.abort()
      clearTimeout(timer)
    }
    // onEnd is the caller's callback of the moment; following a task again for a new one would repeat it.
  }, [projectId, taskId])

  const name = task === undefined ? 'Task' : taskNames[task.type]
  const { done = 0, total = 0 } = task?.progress ?? {}
  return (
    <section class='task' aria-label={`${name} ${taskId}`}>
      <p role='status' aria-live='polite'>
        {task === undefined ? `Task ${taskId} started…` : `${name}: ${task.status}${total > 0 ? ` (${done} of ${total})` : ''}`}
      </p>
      {task !== undefined && !hasEnded(task) && (
        <ConfirmButton
          label='Stop' target={`${name.toLowerCase()} ${taskId}`} question={`Stop this ${name.toLowerCase()}? What it has done stays.`} disabled={stop.pending}
          onConfirm={() => stop.run(async () => { setTask(await cancelTask(projectId, taskId)) })}
        />
      )}
      {stop.error !== undefined && <p role='alert' class='alert'>{stop.error}</p>}
      {task !== undefined && task.status !== 'failed' && task.status !== 'canceled' && (
        total > 0
          ? <progress max={total} value={done} aria-label={`${name} progress`} />
          : task.status !== 'succeeded' && <progress aria-label={`${name} progress`} />
      )}
      {task?.error != null && <p role='alert' class='alert'>{task.error.message}</p>}
      {error !== undefined && <p role='alert' class='alert'>{error}</p>}
      {task !== undefined && hasEnded(task) && detailsOf(task).length > 0 && (
        <ul class='task-details'>{detailsOf(task).map((line) => <li key={line}>{line}</li>)}</ul>
      )}
    </section>
  )
}
