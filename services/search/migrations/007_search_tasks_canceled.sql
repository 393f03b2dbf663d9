-- A task can be canceled (POST /tasks/{id}/cancel): a fifth status, an end like succeeded and failed.
ALTER TABLE search_tasks DROP CONSTRAINT search_tasks_status_check;
ALTER TABLE search_tasks ADD CONSTRAINT search_tasks_status_check
  CHECK (status IN ('enqueued', 'processing', 'succeeded', 'failed', 'canceled'));
