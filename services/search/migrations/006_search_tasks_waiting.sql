-- What a task's priority counts at enqueue (queue.ts): a project's tasks of one type still waiting.
CREATE INDEX search_tasks_waiting ON search_tasks (project_id, type) WHERE status = 'enqueued';
