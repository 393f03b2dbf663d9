import type { ErrorBody, Task, TaskStatus, TaskType } from '@chatsearch/contracts'
import type { Queryable } from '@chatsearch/shell'

interface TaskRow {
  id: string
  type: TaskType
  status: TaskStatus
  progress_done: number
  progress_total: number
  details: Record<string, unknown>
  error: ErrorBody | null
  enqueued_at: Date
  started_at: Date | null
  finished_at: Date | null
}

const COLUMNS = 'id, type, status, progress_done, progress_total, details, error, enqueued_at, started_at, finished_at'

const iso = (date: Date | null) => date === null ? null : date.toISOString()

function taskOf (row: TaskRow): Task {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    progress: { done: row.progress_done, total: row.progress_total },
    details: row.details,
    error: row.error,
    enqueued_at: row.enqueued_at.toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at)
  }
}

/** What a task works on, as stored: JSON text, or bytes handed to the handler as they came. */
export interface StoredPayload { format: 'json' | 'bytes', body: Buffer }

export async function insertTask (db: Queryable, id: string, projectId: string, type: TaskType, payload: StoredPayload): Promise<Task> {
  const { rows } = await db.query<TaskRow>(
    `INSERT INTO search_tasks (id, project_id, type, status) VALUES ($1, $2, $3, 'enqueued') RETURNING ${COLUMNS}`,
    [id, projectId, type])
  await db.query('INSERT INTO search_task_payloads (task_id, format, body) VALUES ($1, $2, $3)', [id, payload.format, payload.body])
  return taskOf(rows[0]!)
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function findTask (db: Queryable, projectId: string, id: string): Promise<Task | undefined> {
  // Any other string is simply no task (not a 400): ids are opaque to the client.
  if (!UUID.test(id)) return undefined
  const { rows } = await db.query<TaskRow>(`SELECT ${COLUMNS} FROM search_tasks WHERE project_id = $1 AND id = $2`, [projectId, id])
  return rows[0] === undefined ? undefined : taskOf(rows[0])
}

export interface TaskFilter { status?: TaskStatus | undefined, type?: TaskType | undefined, limit: number, offset: number }

export async function listTasks (db: Queryable, projectId: string, filter: TaskFilter): Promise<{ results: Task[], total: number }> {
  const where = 'project_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR type = $3)'
  const values = [projectId, filter.status ?? null, filter.type ?? null]
  const [page, count] = await Promise.all([
    db.query<TaskRow>(`SELECT ${COLUMNS} FROM search_tasks WHERE ${where} ORDER BY enqueued_at DESC, id DESC LIMIT $4 OFFSET $5`,
      [...values, filter.limit, filter.offset]),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM search_tasks WHERE ${where}`, values)
  ])
  return { results: page.rows.map(taskOf), total: count.rows[0]!.total }
}

/** What a runner needs to run a task it has just claimed. */
export interface ClaimedTask { task: Task, projectId: string, payload: StoredPayload | undefined }

/**
 * Takes an enqueued task for `runner`. Undefined when the task is not waiting (it finished, or a
 * live replica runs it): pg-boss delivering a job twice must not run it twice.
 */
export async function claimTask (db: Queryable, id: string, runner: string): Promise<ClaimedTask | undefined> {
  // The payload is read in the statement that claims the task: read after it, a cancel committed
  // in between (which drops the payload) would leave the run with none.
  const { rows } = await db.query<TaskRow & { project_id: string, format: StoredPayload['format'] | null, body: Buffer | null }>(
    `WITH claimed AS (
       UPDATE search_tasks SET status = 'processing', started_at = COALESCE(started_at, now()), heartbeat_at = now(),
         runner = $2, attempts = attempts + 1
       WHERE id = $1 AND status = 'enqueued' RETURNING ${COLUMNS}, project_id)
     SELECT claimed.*, p.format, p.body FROM claimed LEFT JOIN search_task_payloads p ON p.task_id = claimed.id`, [id, runner])
  const row = rows[0]
  if (row === undefined) return undefined
  return { task: taskOf(row), projectId: row.project_id, payload: row.format === null || row.body === null ? undefined : { format: row.format, body: row.body } }
}

/** The update of a running task by its runner; false when the task is no longer this runner's. */
async function updateOwned (db: Queryable, id: string, runner: string, set: string, values: unknown[]): Promise<boolean> {
  const result = await db.query(`UPDATE search_tasks SET ${set} WHERE id = $1 AND runner = $2 AND status = 'processing'`, [id, runner, ...values])
  return result.rowCount === 1
}

export const beat = (db: Queryable, id: string, runner: string) =>
  updateOwned(db, id, runner, 'heartbeat_at = now()', [])

export const setProgress = (db: Queryable, id: string, runner: string, done: number, total: number) =>
  updateOwned(db, id, runner, 'progress_done = $3, progress_total = $4, heartbeat_at = now()', [done, total])

export const setDetails = (db: Queryable, id: string, runner: string, details: Record<string, unknown>) =>
  updateOwned(db, id, runner, 'details = $3, heartbeat_at = now()', [details])

/** Ends a task as succeeded or failed and drops its payload. */
export async function finishTask (db: Queryable, id: string, runner: string, error: ErrorBody | null): Promise<boolean> {
  const ended = await updateOwned(db, id, runner, 'status = $3, error = $4, finished_at = now(), runner = NULL, heartbeat_at = NULL',
    [error === null ? 'succeeded' : 'failed', error])
  if (ended) await db.query('DELETE FROM search_task_payloads WHERE task_id = $1', [id])
  return ended
}

/** What `cancelTask` found: the task canceled now (with the status it had), or one that had already ended. */
export type Canceled = { task: Task, type: TaskType, was: 'enqueued' | 'processing' } | { ended: Task }

/**
 * Ends a waiting or running task as canceled and drops its payload; a runner that holds it finds
 * out at its next write or heartbeat (updateOwned answers false). Undefined when the project has no
 * such task.
 */
export async function cancelTask (db: Queryable, projectId: string, id: string): Promise<Canceled | undefined> {
  if (!UUID.test(id)) return undefined
  // The row is locked first, so that the status it had (enqueued or processing) is the one it
  // leaves: a runner's claim or end waits for this transaction, then finds the task canceled.
  const { rows: [found] } = await db.query<{ status: TaskStatus }>('SELECT status FROM search_tasks WHERE project_id = $1 AND id = $2 FOR UPDATE', [projectId, id])
  if (found === undefined) return undefined
  if (found.status !== 'enqueued' && found.status !== 'processing') return { ended: (await findTask(db, projectId, id))! }
  const { rows } = await db.query<TaskRow>(
    `UPDATE search_tasks SET status = 'canceled', finished_at = now(), runner = NULL, heartbeat_at = NULL
     WHERE id = $1 RETURNING ${COLUMNS}`, [id])
  await db.query('DELETE FROM search_task_payloads WHERE task_id = $1', [id])
  return { task: taskOf(rows[0]!), type: rows[0]!.type, was: found.status }
}

/** A task this runner stops before its end (shutdown): waiting again, this attempt not counted. */
export const handBack = (db: Queryable, id: string, runner: string) =>
  updateOwned(db, id, runner, "status = 'enqueued', runner = NULL, heartbeat_at = NULL, attempts = attempts - 1", [])

/**
 * Tasks whose runner has not said it is alive for `staleMs`: its process died. Each is put back to
 * `enqueued`, or failed with `error` once `maxAttempts` replicas took it. One replica wins each task.
 */
export async function recoverStale (db: Queryable, staleMs: number, maxAttempts: number, error: ErrorBody): Promise<{ requeued: Array<{ id: string, type: TaskType }>, failed: Array<{ id: string, type: TaskType, project_id: string }> }> {
  const stale = "status = 'processing' AND heartbeat_at < now() - $1 * interval '1 millisecond'"
  const requeued = await db.query<{ id: string, type: TaskType }>(
    `UPDATE search_tasks SET status = 'enqueued', runner = NULL, heartbeat_at = NULL
     WHERE ${stale} AND attempts < $2 RETURNING id, type`, [staleMs, maxAttempts])
  const failed = await db.query<{ id: string, type: TaskType, project_id: string }>(
    `UPDATE search_tasks SET status = 'failed', error = $3, finished_at = now(), runner = NULL, heartbeat_at = NULL
     WHERE ${stale} AND attempts >= $2 RETURNING id, type, project_id`, [staleMs, maxAttempts, error])
  if (failed.rows.length > 0) await db.query('DELETE FROM search_task_payloads WHERE task_id = ANY($1::uuid[])', [failed.rows.map((r) => r.id)])
  return { requeued: requeued.rows, failed: failed.rows }
}

/** Fails a task that no runner holds, whatever its status: its queue job is gone, nothing would run it. */
export async function failOrphan (db: Queryable, id: string, error: ErrorBody): Promise<void> {
  await db.query(`UPDATE search_tasks SET status = 'failed', error = $2, finished_at = now(), runner = NULL, heartbeat_at = NULL
    WHERE id = $1 AND status IN ('enqueued', 'processing')`, [id, error])
  await db.query('DELETE FROM search_task_payloads WHERE task_id = $1', [id])
}

/** Deletes the tasks (of every project) that finished more than `days` ago; answers how many. */
export async function pruneFinished (db: Queryable, days: number): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM search_tasks WHERE finished_at < now() - $1 * interval '1 day'", [days])
  return rowCount ?? 0
}
