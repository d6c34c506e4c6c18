-- Faces (issue 16): the embedding of each uploaded people image and of each face seen in a
-- scene. They are the team's own data: they live and die with the video (ON DELETE CASCADE;
-- a video goes with its owner's account), a person's row with its people image, and matching
-- only ever compares faces of one team (server/src/repositories/faces.ts).

-- 1024 numbers (FaceRes) of the one face of the person's image; NULL when it has none or
-- several, or until the analysis has looked. faces_found: NULL not looked at yet, else how many
-- faces the image shows (the detail page says when it is not exactly one).
ALTER TABLE video_people ADD COLUMN face_embedding real[];
ALTER TABLE video_people ADD COLUMN faces_found int;

-- One row per distinct face seen in a scene (faces of several frames that match each other are
-- one face). person_name: the uploaded person it matched, NULL for someone not recognised.
CREATE TABLE scene_faces (
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  scene_idx int NOT NULL,
  face_idx int NOT NULL,
  embedding real[] NOT NULL,
  person_name text,
  similarity real,
  PRIMARY KEY (video_id, scene_idx, face_idx)
);
