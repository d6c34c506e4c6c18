-- Finished, failed and cancelled jobs are deleted after their retention (issue 28 item 5): the
-- hourly prune-jobs run finds them by the time they last changed.
CREATE INDEX jobs_finished_idx ON jobs (updated_at) WHERE state IN ('done', 'failed', 'cancelled');
