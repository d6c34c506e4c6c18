-- Background work on the job queue: recurring schedules, the mail outbox, retention.
-- (see docs/decisions/background-jobs.md).

-- One row per recurring job. A worker that finds a schedule due moves next_run_at on and queues
-- the run in the same transaction; the row lock (FOR UPDATE SKIP LOCKED) and the conditional
-- update make that happen once per slot however many processes look at the same moment.
CREATE TABLE job_schedules (
  name text PRIMARY KEY,
  next_run_at timestamptz NOT NULL,
  last_queued_at timestamptz
);

-- Mail waiting to be sent, written in the same transaction as the code or link it carries and
-- sent by a 'send-mail' job (retried with backoff). The row is deleted once sent or given up, so
-- a link or code stays in the database only until it has left.
CREATE TABLE mail_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  to_address text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  -- A code or link that has expired is not worth sending late.
  send_before timestamptz NOT NULL
);

-- The daily retention job looks for videos by age across all teams.
CREATE INDEX videos_created_idx ON videos (created_at);
