import { Type, type Static } from 'typebox'
import { ErrorBody } from './error.js'
import { limits } from './limits.js'
import { Timestamp, timestampOrNull } from './timestamp.js'

/** What long work a task does (spec/knowledge.md). */
export const TaskType = Type.Union([Type.Literal('crawl'), Type.Literal('files'), Type.Literal('catalog_import')])
export type TaskType = Static<typeof TaskType>

export const TaskStatus = Type.Union([Type.Literal('enqueued'), Type.Literal('processing'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('canceled')], {
  description: '`enqueued` → `processing` → `succeeded` or `failed`; `canceled` by POST /tasks/{id}/cancel before it ended (what it had done stays)'
})
export type TaskStatus = Static<typeof TaskStatus>

/** Long work of a project, run by any replica of the search service. */
export const Task = Type.Object({
  id: Type.String({ description: 'The task id, as answered by the request that started it' }),
  type: TaskType,
  status: TaskStatus,
  progress: Type.Object({
    done: Type.Integer({ minimum: 0 }),
    total: Type.Integer({ minimum: 0, description: '0 until the task knows how much there is to do' })
  }, { additionalProperties: false }),
  details: Type.Record(Type.String(), Type.Unknown(), { description: 'What was done and what was skipped and why' }),
  error: Type.Union([ErrorBody, Type.Null()], { description: 'Why the task failed, when `status` is `failed`' }),
  enqueued_at: Timestamp,
  started_at: timestampOrNull('When a replica first took the task; null while enqueued'),
  finished_at: timestampOrNull('When the task succeeded, failed or was canceled')
}, { additionalProperties: false })
export type Task = Static<typeof Task>

export const TaskParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 128 })
})
export type TaskParams = Static<typeof TaskParams>

export const TaskListQuery = Type.Object({
  status: Type.Optional(TaskStatus),
  type: Type.Optional(TaskType),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: limits.searchLimitMax, default: limits.searchLimitDefault })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 }))
})
export type TaskListQuery = Static<typeof TaskListQuery>

export const TaskList = Type.Object({
  results: Type.Array(Task, { description: 'Newest first' }),
  total: Type.Integer({ minimum: 0, description: 'Tasks matching the query' }),
  limit: Type.Integer({ minimum: 0 }),
  offset: Type.Integer({ minimum: 0 })
}, { additionalProperties: false })
export type TaskList = Static<typeof TaskList>

/** The answer of a request whose work goes on as a task (202). */
export const TaskAccepted = Type.Object({
  task_id: Type.String({ description: 'Follow it with GET /tasks/{id}' })
}, { additionalProperties: false })
export type TaskAccepted = Static<typeof TaskAccepted>
