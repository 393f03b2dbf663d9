-- Console users. password_hash is scrypt's, self-describing: scrypt$N$r$p$<salt>$<hash> (base64).
CREATE TABLE console_users (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username text NOT NULL UNIQUE CHECK (username ~ '^[A-Za-z0-9._@-]{1,64}$'),
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Who sees which project; projects belong to the auth package (packages/auth).
CREATE TABLE project_members (
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'member')),
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_members_by_user ON project_members (user_id);

-- Only a SHA-256 of each session id is kept: a read of this table opens no session.
CREATE TABLE console_sessions (
  id_hash bytea PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX console_sessions_by_expiry ON console_sessions (expires_at);
CREATE INDEX console_sessions_by_user ON console_sessions (user_id);
