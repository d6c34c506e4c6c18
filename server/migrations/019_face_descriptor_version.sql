-- Which way each stored descriptor was made (issue 43, docs/decisions/face-recompute.md): the
-- alignment of issue 30 (version 1) and that of issue 43 (version 2: squares on the face mesh,
-- padded, mirrored, small faces described from the video at full size) put one photo 0.10 to 0.31
-- apart, so a face stored before is described again in the background (faces/recompute.ts) and
-- keeps its row: its id, person, name and "not this person" stay as people corrected them.
-- Every descriptor stored so far is version 1; rows written without a version (the analysis
-- always writes one) are taken as the current version.
ALTER TABLE scene_faces ADD COLUMN descriptor_version smallint NOT NULL DEFAULT 1;
ALTER TABLE scene_faces ALTER COLUMN descriptor_version SET DEFAULT 2;
ALTER TABLE video_people ADD COLUMN descriptor_version smallint NOT NULL DEFAULT 1;
ALTER TABLE video_people ALTER COLUMN descriptor_version SET DEFAULT 2;
