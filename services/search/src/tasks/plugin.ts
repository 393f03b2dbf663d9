import fp from 'fastify-plugin'
import { TaskQueue, type TaskEnded, type TaskQueueOptions } from './queue.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Long work of the projects (crawls, file and large catalog imports), run by any replica. */
    tasks: TaskQueue
  }
}

/**
 * The task queue, started on the app's pool. Registered after the engine so that it closes first:
 * running tasks finish or are handed back while the engine they write to is still open.
 */
export const tasksPlugin = fp<TaskQueueOptions & { ended?: TaskEnded }>(async (app, { ended, ...options }) => {
  const tasks = await TaskQueue.start(app.pg, app.log, options, ended)
  app.decorate('tasks', tasks)
  app.addHook('onClose', async () => { await tasks.close() })
}, { name: '@chatsearch/search-tasks', fastify: '5.x', dependencies: ['@chatsearch/database', '@chatsearch/search-engine'] })
