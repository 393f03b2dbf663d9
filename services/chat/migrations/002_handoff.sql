-- Handoff (spec/knowledge.md): a chat whose turn the assistant handed off waits for the project's
-- team until one of its members answers; their answer is an assistant message with their name.
ALTER TABLE chats ADD COLUMN needs_human boolean NOT NULL DEFAULT false;
ALTER TABLE messages ADD COLUMN author_username text;
ALTER TABLE messages ADD CONSTRAINT messages_author_is_assistant CHECK (author_username IS NULL OR role = 'assistant');
-- The console lists the chats waiting for a person first.
CREATE INDEX chats_needing_human ON chats (project_id, last_updated_at DESC) WHERE needs_human;
