import type { Task } from '@chatsearch/contracts'
import { CommandError } from '../errors.js'
import { Progress } from '../progress.js'
import type { TaskProgress } from '../replica.js'
import { describeTask, labelOf, unitOf } from '../task-text.js'
import type { CommandContext } from './context.js'

/** Runs `follow` with a progress bar on stderr for the task it follows, then ends the bar. */
export async function withTaskBar (follow: (progress: TaskProgress) => Promise<Task>): Promise<Task> {
  let bar: Progress | undefined
  const following = Date.now()
  try {
    return await follow((task) => {
      // Made once the task's type is known; its rate counts from when the task started, or this command did.
      bar ??= new Progress(labelOf(task.type), unitOf(task.type), Math.max(following, Date.parse(task.started_at ?? '') || following))
      bar.update(task.progress.done, task.progress.total)
    })
  } finally {
    bar?.finish()
  }
}

/** A followed task at its end: what it did, or its error (exit code 1) when it failed or was canceled. */
export function printEnded (task: Task, print: CommandContext['print']) {
  if (task.status === 'failed') throw new CommandError(`task ${task.id} failed: ${task.error?.message ?? 'no reason was recorded'}`)
  if (task.status === 'canceled') throw new CommandError(`task ${task.id} was canceled at ${task.finished_at ?? 'an unknown time'}; what it had done stays`)
  print(task, describeTask(task, { times: false }))
}
