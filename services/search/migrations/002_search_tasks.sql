-- Long work of a project as the API shows it (spec/knowledge.md "A task"). pg-boss (schema pgboss)
-- hands the work to a replica; this table is what GET /tasks reads and what a replica's heartbeat
-- keeps fresh, so a replica that died mid-task is noticed and its task handed to another.
CREATE TABLE search_tasks (
  id uuid PRIMARY KEY,
  project_id text NOT NULL,
  type text NOT NULL CHECK (type IN ('crawl', 'files', 'catalog_import')),
  status text NOT NULL CHECK (status IN ('enqueued', 'processing', 'succeeded', 'failed')),
  progress_done integer NOT NULL DEFAULT 0,
  progress_total integer NOT NULL DEFAULT 0,
  details jsonb NOT NULL DEFAULT '{}',
  error jsonb,
  enqueued_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  -- Which app instance runs it now, since when it last said it was alive, and how many times a
  -- replica took it (a task whose replicas keep dying fails instead of running forever).
  runner uuid,
  heartbeat_at timestamptz,
  attempts integer NOT NULL DEFAULT 0
);

CREATE INDEX search_tasks_by_project ON search_tasks (project_id, enqueued_at DESC, id DESC);
CREATE INDEX search_tasks_processing ON search_tasks (heartbeat_at) WHERE status = 'processing';

-- What a task works on (an uploaded file, a large catalog body), kept in PostgreSQL because it is the
-- one store every replica shares (DATA_DIR is per machine); deleted when the task ends.
CREATE TABLE search_task_payloads (
  task_id uuid PRIMARY KEY REFERENCES search_tasks (id) ON DELETE CASCADE,
  format text NOT NULL CHECK (format IN ('json', 'bytes')),
  body bytea NOT NULL
);
