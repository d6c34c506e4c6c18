-- Resumable (multipart) uploads of a video's original file. Under STORAGE=s3 the parts live in
-- S3 and only the upload itself is recorded here; under STORAGE=local the server receives the
-- parts and records each one in upload_parts.
CREATE TABLE multipart_uploads (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  storage_key text NOT NULL,
  backend text NOT NULL,
  -- S3's UploadId; NULL for the local backend.
  backend_upload_id text,
  part_size bigint NOT NULL,
  -- open -> completed | aborted
  status text NOT NULL DEFAULT 'open',
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX multipart_uploads_video_idx ON multipart_uploads (video_id);
CREATE INDEX multipart_uploads_open_expiry_idx ON multipart_uploads (expires_at) WHERE status = 'open';

CREATE TABLE upload_parts (
  upload_id uuid NOT NULL REFERENCES multipart_uploads (id) ON DELETE CASCADE,
  part_number int NOT NULL,
  etag text NOT NULL,
  size bigint NOT NULL,
  PRIMARY KEY (upload_id, part_number)
);
