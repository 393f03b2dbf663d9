import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Task, TaskList, TaskListQuery, TaskParams, bodyErrors, errorResponses, limits, searchErrors } from '@chatsearch/contracts'
import { ApiError, integerQuery } from '@chatsearch/shell'
import { TASK_RETENTION_DAYS } from '../tasks/queue.js'

export async function taskRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get('/tasks/:id', {
    config: { rateLimit: 'catalog' },
    schema: { operationId: 'getTask', tags: ['tasks'], summary: 'One task of the project: its status, progress and outcome', params: TaskParams, response: { 200: Task, ...errorResponses(...searchErrors.getTask) } }
  }, async (request) => {
    const task = await app.tasks.get(request.principal.projectId, request.params.id)
    if (task === undefined) throw new ApiError('task_not_found', `no task ${request.params.id} in this project`)
    return task
  })

  api.post('/tasks/:id/cancel', {
    config: { rateLimit: 'catalog' },
    schema: {
      operationId: 'cancelTask',
      tags: ['tasks'],
      summary: 'Cancels a task that has not ended',
      description: 'A waiting task never runs; a running one stops at its next step (a page, a file, a slice of items), at once on the replica that receives this (unless it took the task in that very moment) and within `TASK_HEARTBEAT_MS` otherwise. What it had done stays: pages, files and items already stored are not removed, and a crawl removes no page it did not reach. Answers the task, `canceled`; a task already canceled is answered as it is, one that succeeded or failed is `409 task_finished`. The project\'s webhooks subscribed to `task.canceled` are told.',
      params: TaskParams,
      response: { 200: Task, ...errorResponses(...bodyErrors, ...searchErrors.cancelTask) }
    }
  }, async (request) => {
    const task = await app.tasks.cancel(request.principal.projectId, request.params.id)
    if (task === undefined) throw new ApiError('task_not_found', `no task ${request.params.id} in this project`)
    return task
  })

  api.get('/tasks', {
    config: { rateLimit: 'catalog' },
    preValidation: integerQuery('limit', 'offset'),
    schema: { operationId: 'listTasks', tags: ['tasks'], summary: 'The project\'s tasks, newest first', description: `Finished tasks are kept ${TASK_RETENTION_DAYS} days, then deleted.`, querystring: TaskListQuery, response: { 200: TaskList, ...errorResponses(...searchErrors.listTasks) } }
  }, async (request) => {
    const { status, type, limit = limits.searchLimitDefault, offset = 0 } = request.query
    return { ...await app.tasks.list(request.principal.projectId, { status, type, limit, offset }), limit, offset }
  })
}
