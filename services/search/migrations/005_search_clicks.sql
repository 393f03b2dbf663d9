-- Click and conversion events (POST /events). Each recorded search keeps the query_id its answer
-- carried, so that an event can name it; autocompletes, and searches written before this, have none.
ALTER TABLE search_events ADD COLUMN query_id uuid;
CREATE INDEX search_events_by_query_id ON search_events (query_id) WHERE query_id IS NOT NULL;

-- One row per event, written with the whole batch of its request or not at all. Not tied to
-- search_events by a foreign key: a search may still be in a replica's analytics buffer when its
-- event arrives (src/clicks.ts looks there first).
CREATE TABLE search_clicks (
  id bigserial PRIMARY KEY,
  project_id text NOT NULL,
  query_id uuid NOT NULL,
  type text NOT NULL CHECK (type IN ('click', 'conversion')),
  item_id text NOT NULL,
  position integer CHECK (position >= 1),
  consumer_id text,
  created_at timestamptz NOT NULL
);

CREATE INDEX search_clicks_by_project ON search_clicks (project_id, created_at);
