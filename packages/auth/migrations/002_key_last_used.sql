-- When a key last authenticated a request, to the minute or so: the services record uses in batches
-- (packages/auth/src/last-used.ts), so a busy key costs one UPDATE per interval, not one per request.
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
