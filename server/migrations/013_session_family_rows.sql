-- Revocation wins over a racing refresh (issue 28 item 6). One row per sign-in (token family):
-- a refresh locks it (SELECT ... FOR UPDATE) while it rotates, and a revocation (logout, password
-- change or reset, e-mail change) updates it before it ends the family's tokens. Under READ
-- COMMITTED an UPDATE of sessions alone did not see the successor a concurrent refresh inserted,
-- so both could succeed; the statement after a wait on this row does see it.
CREATE TABLE session_families (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  revoked_at timestamptz
);
CREATE INDEX session_families_user_idx ON session_families (user_id);
-- Existing sign-ins: a family is live while one of its tokens is.
INSERT INTO session_families (id, user_id, revoked_at)
SELECT family_id, (array_agg(user_id))[1],
       CASE WHEN bool_or(revoked_at IS NULL) THEN NULL ELSE max(revoked_at) END
FROM sessions GROUP BY family_id;
