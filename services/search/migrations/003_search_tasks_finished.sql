-- Finished tasks are deleted after TASK_RETENTION_DAYS (tasks/queue.ts): found by when they finished.
CREATE INDEX search_tasks_finished ON search_tasks (finished_at) WHERE finished_at IS NOT NULL;
