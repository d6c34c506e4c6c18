-- Durable job queue and per-step pipeline progress. Plain SQL that runs the same on PGlite and
-- PostgreSQL: workers claim with FOR UPDATE SKIP LOCKED and hold a lease they renew while running
-- (see docs/decisions/job-queue.md).

CREATE TABLE jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  -- Not a foreign key: a deleted video leaves its cancelled jobs behind as history.
  video_id uuid,
  -- Ids only; handlers read everything else from the database.
  payload jsonb NOT NULL DEFAULT '{}',
  state text NOT NULL DEFAULT 'queued'
    CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  run_at timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  locked_until timestamptz,
  attempts int NOT NULL DEFAULT 0,
  max_attempts int NOT NULL DEFAULT 3,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_claimable_idx ON jobs (run_at) WHERE state IN ('queued', 'running');
CREATE INDEX jobs_video_idx ON jobs (video_id);
-- At most one live job of a kind per video: enqueueing twice is a no-op.
CREATE UNIQUE INDEX jobs_one_live_idx ON jobs (name, video_id) WHERE state IN ('queued', 'running');

-- Finished steps of a video's analysis with what later steps need from them, so a retry or a
-- recovered crash starts at the first unfinished step.
CREATE TABLE pipeline_steps (
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  step text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}',
  finished_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (video_id, step)
);
