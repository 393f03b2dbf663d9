-- Publishable widget keys (decision 18): a third service, bound to the exact origins of the shop's
-- pages. The other services' keys have none.
ALTER TABLE api_keys DROP CONSTRAINT api_keys_service_check;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_service_check CHECK (service IN ('chat', 'search', 'widget'));
ALTER TABLE api_keys ADD COLUMN origins text[] NOT NULL DEFAULT '{}';
ALTER TABLE api_keys ADD CONSTRAINT api_keys_widget_origins CHECK ((service = 'widget') = (cardinality(origins) > 0));
-- The preflight of a browser names no key, only its origin: answered from the live widget keys' origins.
CREATE INDEX api_keys_widget_origins_idx ON api_keys USING gin (origins) WHERE service = 'widget' AND revoked_at IS NULL;

-- Each project's widget secrets, made the first time one is needed, so that every chat replica
-- agrees on them without configuration: one signs the consumer tokens the service gives browsers
-- (never leaves the database), the other is the shop's, shown in the console, under which its
-- server signs its logged-in customer's id (identity verification).
CREATE TABLE widget_secrets (
  project_id text PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  token_secret bytea NOT NULL,
  identity_secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
