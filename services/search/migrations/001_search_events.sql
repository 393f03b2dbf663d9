-- One row per search or autocomplete (ARCHITECTURE.md decision 12), written in batches.
CREATE TABLE search_events (
  id bigserial PRIMARY KEY,
  project_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('search', 'autocomplete')),
  consumer_id text,
  query text NOT NULL,
  hits integer NOT NULL,
  latency_ms integer NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE INDEX search_events_by_project ON search_events (project_id, created_at);
