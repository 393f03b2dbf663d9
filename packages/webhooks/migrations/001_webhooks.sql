-- A project's webhook endpoints (decision 18). The secret signs each delivery, so it is kept as is
-- (it cannot be hashed); it is answered only when made.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  url text NOT NULL,
  events text[] NOT NULL,
  secret text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_by_project ON webhook_endpoints (project_id, created_at);

-- One row per event and endpoint: the queue the workers claim from (SKIP LOCKED, next_attempt_at)
-- and the delivery log the console shows. event_id is the event's, the same for every endpoint.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id uuid NOT NULL,
  event text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error text,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
