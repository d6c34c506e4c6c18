-- Accounts: login throttling, password reset tokens and pending e-mail changes.

-- One row per throttled event (failed login, reset mail, e-mail code). Counting rows in a time
-- window works the same across processes sharing one PostgreSQL; old rows are pruned.
CREATE TABLE throttle_events (
  id bigserial PRIMARY KEY,
  scope text NOT NULL,
  key text NOT NULL,
  client_ip text NOT NULL DEFAULT '',
  at timestamptz NOT NULL
);
CREATE INDEX throttle_events_scope_key_idx ON throttle_events (scope, key, at);
CREATE INDEX throttle_events_scope_ip_idx ON throttle_events (scope, client_ip, at);

-- Reset tokens are random; only their SHA-256 is kept. Single use, short-lived.
CREATE TABLE password_resets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_resets_user_idx ON password_resets (user_id);

-- At most one pending e-mail change per user; a resend replaces the row.
CREATE TABLE email_changes (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  new_email text NOT NULL,
  code_hash text NOT NULL,
  language text NOT NULL DEFAULT 'en',
  attempts int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
