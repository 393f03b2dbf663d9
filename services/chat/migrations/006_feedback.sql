-- A customer's rating of an assistant reply (POST /feedback, issue 29): one per message, kept with
-- it; a second rating replaces the first, comment included, and feedback_at is the latest's time.
ALTER TABLE messages ADD COLUMN feedback_rating text;
ALTER TABLE messages ADD COLUMN feedback_comment text;
ALTER TABLE messages ADD COLUMN feedback_at timestamptz;
ALTER TABLE messages ADD CONSTRAINT messages_feedback_rating CHECK (feedback_rating IN ('up', 'down'));
ALTER TABLE messages ADD CONSTRAINT messages_feedback_is_assistant CHECK (feedback_rating IS NULL OR role = 'assistant');
ALTER TABLE messages ADD CONSTRAINT messages_feedback_whole CHECK (
  (feedback_rating IS NULL) = (feedback_at IS NULL) AND (feedback_comment IS NULL OR feedback_rating IS NOT NULL));

-- GET /admin/analytics counts the rated replies of the last days: a small share of the messages.
CREATE INDEX messages_rated ON messages (project_id, created_at) INCLUDE (chat_id, feedback_rating) WHERE feedback_rating IS NOT NULL;
