-- A project's search rules (PUT /rules replaces them whole, in precedence order). Kept here, not in
-- an engine's index, so that both engines and every replica read the same ones; each process reads
-- them through a cache of a few seconds (src/rules/store.ts).
CREATE TABLE search_rules (
  project_id text PRIMARY KEY,
  rules jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
