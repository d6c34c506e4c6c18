-- Nothing twice (issue 42): each video keeps the size and SHA-256 of its original file, so a team
-- can ask "which of these do I already have?" and the same bytes are not analysed twice.
-- file_size: the client's figure at create, replaced by the stored file's when it is up.
-- content_sha256: lower-case hex; the client's claim at create, replaced by the server's own
-- digest (content_hashed_at set) once the server has read the bytes.
-- allow_duplicate: the uploader asked to keep these bytes even if the team has them already.
-- duplicate_of: the team video with the same bytes that made this one fail as 'duplicate'.
ALTER TABLE videos ADD COLUMN file_size bigint;
ALTER TABLE videos ADD COLUMN content_sha256 text;
ALTER TABLE videos ADD COLUMN allow_duplicate boolean NOT NULL DEFAULT false;
ALTER TABLE videos ADD COLUMN content_hashed_at timestamptz;
ALTER TABLE videos ADD COLUMN duplicate_of uuid REFERENCES videos (id) ON DELETE SET NULL;
-- Files received before this migration: their size is known, their digest is not.
UPDATE videos SET file_size = source_size WHERE source_size IS NOT NULL;
CREATE INDEX videos_team_file_size_idx ON videos (team_id, file_size) WHERE file_size IS NOT NULL;
CREATE INDEX videos_team_content_sha256_idx ON videos (team_id, content_sha256)
  WHERE content_sha256 IS NOT NULL;
CREATE INDEX videos_duplicate_of_idx ON videos (duplicate_of) WHERE duplicate_of IS NOT NULL;
