-- Sessions under concurrency (issue 14 section 1). Every token a sign-in leads to, through its
-- rotations, shares one family: a rotated token reused after its grace window ends the family
-- (theft), and the family's sign-in time bounds its life however often it is refreshed.
ALTER TABLE sessions ADD COLUMN family_id uuid;
ALTER TABLE sessions ADD COLUMN signed_in_at timestamptz;
UPDATE sessions SET family_id = id, signed_in_at = created_at;
-- A row made without them (a sign-in's first token) starts a family of its own, now.
ALTER TABLE sessions ALTER COLUMN family_id SET NOT NULL, ALTER COLUMN family_id SET DEFAULT gen_random_uuid();
ALTER TABLE sessions ALTER COLUMN signed_in_at SET NOT NULL, ALTER COLUMN signed_in_at SET DEFAULT now();
-- Set when a refresh replaced the token (revoked_at is set too); successor_sealed holds the new
-- token encrypted under a key only the old token yields, for callers that raced the rotation.
ALTER TABLE sessions ADD COLUMN rotated_at timestamptz;
ALTER TABLE sessions ADD COLUMN successor_sealed text;
CREATE INDEX sessions_family_idx ON sessions (family_id);
