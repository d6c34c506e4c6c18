-- Core schema: teams, users, sessions, videos. Later migrations add to it; never edit an applied one.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE teams (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  team_id uuid NOT NULL REFERENCES teams (id),
  email text NOT NULL,
  full_name text NOT NULL DEFAULT '',
  username text NOT NULL DEFAULT '',
  password_hash text NOT NULL,
  must_change_password boolean NOT NULL DEFAULT true,
  is_team_admin boolean NOT NULL DEFAULT false,
  language text NOT NULL DEFAULT 'en',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_team_idx ON users (team_id);

-- Server-side session records: the bearer token is random, only its hash is stored.
CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  refresh_until timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE videos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  team_id uuid NOT NULL REFERENCES teams (id),
  owner_id uuid REFERENCES users (id) ON DELETE SET NULL,
  filename text NOT NULL,
  title text,
  summary text,
  tags jsonb NOT NULL DEFAULT '[]',
  status text NOT NULL DEFAULT 'uploading',
  failure_reason text,
  about_this_video text NOT NULL DEFAULT '',
  trailer_instruction text,
  output_language text NOT NULL DEFAULT 'en',
  video_date timestamp,
  video_length double precision,
  source_key text,
  source_size bigint,
  thumbnail_key text,
  playable_key text,
  trailer_key text,
  report_key text,
  is_trailer_creating boolean NOT NULL DEFAULT false,
  is_report_creating boolean NOT NULL DEFAULT false,
  output_data jsonb NOT NULL DEFAULT '{}',
  idempotency_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX videos_team_created_idx ON videos (team_id, created_at DESC);
CREATE UNIQUE INDEX videos_idempotency_key ON videos (owner_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE TABLE video_people (
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  position int NOT NULL,
  name text NOT NULL,
  image_key text NOT NULL,
  PRIMARY KEY (video_id, position)
);

-- Scenes of an analysed video. Embeddings are 384-dimensional for every provider
-- (see docs/decisions/embedding-size.md) so one HNSW index serves them all.
CREATE TABLE scenes (
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  idx int NOT NULL,
  start_ms int NOT NULL,
  end_ms int NOT NULL,
  description text NOT NULL DEFAULT '',
  thumbnail_key text,
  clip_key text,
  frames jsonb NOT NULL DEFAULT '[]',
  captions text NOT NULL DEFAULT '',
  embedding vector(384),
  PRIMARY KEY (video_id, idx)
);

ALTER TABLE videos ADD COLUMN embedding vector(384);
