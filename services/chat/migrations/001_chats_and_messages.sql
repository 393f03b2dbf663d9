CREATE TABLE chats (
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  id text NOT NULL,
  consumer_id text NOT NULL,
  -- Test chats (newUserMessage with test: true) are kept but left out of usage counts.
  is_test boolean NOT NULL DEFAULT false,
  message_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  last_updated_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, id)
);

-- latestConsumerChatId and listAllProjectConsumerChats: one index range per consumer, newest first.
CREATE INDEX chats_by_consumer ON chats (project_id, consumer_id, last_updated_at DESC, id DESC);
-- listAllProjectChats streams the project's chats in this order.
CREATE INDEX chats_by_project ON chats (project_id, last_updated_at DESC, id DESC);

-- seq orders a conversation; a turn appends user then assistant under the chat's row lock.
CREATE TABLE messages (
  project_id text NOT NULL,
  chat_id text NOT NULL,
  seq integer NOT NULL,
  id text NOT NULL,
  role text NOT NULL CHECK (role IN ('user', 'assistant')),
  content text NOT NULL,
  classification text,
  citations jsonb,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, chat_id, seq),
  FOREIGN KEY (project_id, chat_id) REFERENCES chats (project_id, id) ON DELETE CASCADE,
  CHECK ((role = 'user') = (classification IS NOT NULL)),
  CHECK ((role = 'assistant') = (citations IS NOT NULL))
);
