-- Faces, the descriptor switch (issue 30, docs/decisions/face-descriptor.md): face-api's ResNet-34,
-- 128 numbers, compared by Euclidean distance. The old FaceRes vectors (embedding, 1024 numbers)
-- stay until a recompute job has read the stored pictures again; a face whose descriptor is NULL
-- is never compared with one that has it, so vectors of the two models never meet.
ALTER TABLE scene_faces ALTER COLUMN embedding DROP NOT NULL;
-- A stable id for each face seen, so people can be corrected face by face.
ALTER TABLE scene_faces ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY UNIQUE;
ALTER TABLE scene_faces ADD COLUMN descriptor vector(128);
-- Where the face is: the frame of the scene (its stored frame-NN.jpg) and the box in its pixels.
ALTER TABLE scene_faces ADD COLUMN frame_idx int;
ALTER TABLE scene_faces ADD COLUMN box real[];
-- Storage key of a small JPEG crop of the face, shown on the People pages.
ALTER TABLE scene_faces ADD COLUMN crop_key text;

ALTER TABLE video_people ADD COLUMN descriptor vector(128);
