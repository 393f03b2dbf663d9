import type { Task, TaskList, TaskStatus, TaskType } from '@chatsearch/contracts'
import type { SearchConfig } from '@chatsearch/search/tools'
import { CommandError } from './errors.js'
import { interruptible, isFinished, runsHere, untilEnd, withReplica, type TaskProgress } from './replica.js'

export interface TaskQuery { status?: TaskStatus | undefined, type?: TaskType | undefined, limit: number, offset: number }

/** A project's tasks, newest first, as GET /tasks answers. */
export async function listTasks (env: NodeJS.ProcessEnv, config: SearchConfig, projectId: string, query: TaskQuery): Promise<TaskList> {
  return await withReplica(env, config, projectId, async (replica) => ({ ...await replica.queue.list(projectId, query), limit: query.limit, offset: query.offset }))
}

/**
 * One task of the project. With `wait`, followed to its end; a crawl or files task still to run is
 * also run by this process as one more replica (how a task queued with --no-wait, or handed back at
 * Ctrl-C, runs when no search service does).
 */
export async function showTask (env: NodeJS.ProcessEnv, config: SearchConfig, projectId: string, id: string, { wait, progress }: { wait: boolean, progress: TaskProgress }): Promise<Task> {
  return await withReplica(env, config, projectId, async (replica) => {
    const task = await replica.queue.get(projectId, id)
    if (task === undefined) throw new CommandError(`no task ${id} in project ${projectId}`)
    if (!wait || isFinished(task)) return task
    if (runsHere(task.type)) await replica.run(task.type)
    return await interruptible((signal) => untilEnd(replica, projectId, id, progress, signal))
  })
}

/** Cancels a task of the project that has not ended, as POST /tasks/{id}/cancel does; what it had done stays. */
export async function cancelTask (env: NodeJS.ProcessEnv, config: SearchConfig, projectId: string, id: string): Promise<Task> {
  return await withReplica(env, config, projectId, async (replica) => {
    const task = await replica.queue.cancel(projectId, id)
    if (task === undefined) throw new CommandError(`no task ${id} in project ${projectId}`)
    return task
  })
}
