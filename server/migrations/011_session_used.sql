-- When a token was first presented (an API call or its own refresh). A rotated token that comes
-- back after its grace window while its successor was never used is a refresh whose answer was
-- lost, not a stolen token (issue 14): it gets that successor instead of ending the family.
ALTER TABLE sessions ADD COLUMN used_at timestamptz;
-- Tokens issued before this migration count as used: theft detection stays as strict for them.
UPDATE sessions SET used_at = created_at;
