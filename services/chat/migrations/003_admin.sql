-- The console's listing (GET /admin/chats): chats waiting for a person first, then the most
-- recently updated, read one page at a time in this order. It replaces the partial index of 002,
-- which served only the first half of that order.
CREATE INDEX chats_for_console ON chats (project_id, needs_human DESC, last_updated_at DESC, id DESC);
DROP INDEX chats_needing_human;
-- GET /admin/analytics counts the chats with a handed-off turn: needs_human alone forgets a handoff
-- once a team member answers. Set on the assistant message of a handed-off turn.
ALTER TABLE messages ADD COLUMN handoff boolean NOT NULL DEFAULT false;
