-- Reads whose cost grew with every message stored (measured on 200k chats and 1.9M messages over 90
-- days): each now reads an index range of the messages it counts or looks for.

-- GET /admin/analytics counts the messages of the last days by day and by class, and leaves out
-- those of test chats: the project's messages of those days, read from the index alone.
CREATE INDEX messages_by_time ON messages (project_id, created_at) INCLUDE (chat_id, role, classification);

-- Its handoff rate: the turns handed off in those days (a small share of the messages).
CREATE INDEX messages_handed_off ON messages (project_id, created_at) INCLUDE (chat_id) WHERE handoff;

-- The console's filter by class (GET /admin/chats?classification=): whether a chat has a user
-- message of that class, or the project's chats that have one, rather than every user message of
-- every project.
CREATE INDEX messages_by_class ON messages (project_id, classification, chat_id) WHERE role = 'user';
