CREATE TABLE projects (
  id text PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Only a SHA-256 of each key is kept; key_hint lets a person tell keys apart in a listing.
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  service text NOT NULL CHECK (service IN ('chat', 'search')),
  username text NOT NULL,
  key_hash bytea NOT NULL UNIQUE,
  key_hint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE INDEX api_keys_by_project ON api_keys (project_id, created_at);
