import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Task, TaskList, TaskListQuery, TaskParams, errorResponses, limits, searchErrors } from '@chatsearch/contracts'
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

  api.get('/tasks', {
    config: { rateLimit: 'catalog' },
    preValidation: integerQuery('limit', 'offset'),
    schema: { operationId: 'listTasks', tags: ['tasks'], summary: 'The project\'s tasks, newest first', description: `Finished tasks are kept ${TASK_RETENTION_DAYS} days, then deleted.`, querystring: TaskListQuery, response: { 200: TaskList, ...errorResponses(...searchErrors.listTasks) } }
  }, async (request) => {
    const { status, type, limit = limits.searchLimitDefault, offset = 0 } = request.query
    return { ...await app.tasks.list(request.principal.projectId, { status, type, limit, offset }), limit, offset }
  })
}
