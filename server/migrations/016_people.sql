-- People (issue 30, docs/decisions/people-groups.md): the team's named people and the unnamed
-- groups of faces that recur, each face of a scene belonging to at most one of them. Everything is
-- scoped to a team; faces of two teams are never compared. Face data lives and dies with its
-- video (scene_faces cascades from videos), and a person left without faces or people images is
-- removed by the trigger below, so deleting videos, accounts or expired videos leaves no group.

CREATE TABLE people (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  -- NULL: an unnamed group.
  name text,
  cover_face_id bigint REFERENCES scene_faces (id) ON DELETE SET NULL,
  -- Kept by people_refresh() after every change, so the People page needs no count over faces.
  face_count int NOT NULL DEFAULT 0,
  scene_count int NOT NULL DEFAULT 0,
  video_count int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX people_team_name_key ON people (team_id, lower(name)) WHERE name IS NOT NULL;
-- The People page's unnamed groups: biggest first, then newest.
CREATE INDEX people_team_groups_idx ON people (team_id, face_count DESC, created_at DESC)
  WHERE name IS NULL;

ALTER TABLE scene_faces ADD COLUMN person_id uuid REFERENCES people (id) ON DELETE SET NULL;
CREATE INDEX scene_faces_person_idx ON scene_faces (person_id, id);
ALTER TABLE video_people ADD COLUMN person_id uuid REFERENCES people (id) ON DELETE SET NULL;
CREATE INDEX video_people_person_idx ON video_people (person_id);

-- "Not this person": the face is never assigned to that person again.
CREATE TABLE face_rejections (
  face_id bigint NOT NULL REFERENCES scene_faces (id) ON DELETE CASCADE,
  person_id uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  PRIMARY KEY (face_id, person_id)
);
CREATE INDEX face_rejections_person_idx ON face_rejections (person_id);

ALTER TABLE teams ADD COLUMN face_grouping boolean NOT NULL DEFAULT true;

-- The nearest faces of a new face (server/src/people/assign.ts): HNSW on the Euclidean distance
-- the descriptor is calibrated for, on a table of its own that is only inserted into. A face's
-- scene_faces row changes with every name, merge and "not this person", and each change of a row
-- under an HNSW index inserts it into the graph again (1,000 faces renamed at 100,000: 1.5 to 13 s
-- with the index on scene_faces, 0.18 s without; bench/figures/people.md). Filled by the
-- assignment; goes with its face.
CREATE TABLE face_vectors (
  face_id bigint PRIMARY KEY REFERENCES scene_faces (id) ON DELETE CASCADE,
  team_id uuid NOT NULL,
  video_id uuid NOT NULL,
  descriptor vector(128) NOT NULL
);
CREATE INDEX face_vectors_hnsw ON face_vectors USING hnsw (descriptor vector_l2_ops);

-- Brings the counts and the cover of these people up to date and deletes the unnamed groups
-- (with named_too, also the named people) left with no face and no people image.
CREATE FUNCTION people_refresh(ids uuid[], named_too boolean) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM people p
  WHERE p.id = ANY (ids) AND (named_too OR p.name IS NULL)
    AND NOT EXISTS (SELECT 1 FROM scene_faces f WHERE f.person_id = p.id)
    AND NOT EXISTS (SELECT 1 FROM video_people v WHERE v.person_id = p.id);
  UPDATE people p
  SET face_count = c.faces, scene_count = c.scenes, video_count = c.videos,
      cover_face_id = CASE WHEN c.covered THEN p.cover_face_id ELSE c.first_face END
  FROM (
    SELECT q.id,
           count(f.id)::int AS faces,
           count(DISTINCT (f.video_id, f.scene_idx))::int AS scenes,
           count(DISTINCT f.video_id)::int AS videos,
           bool_or(f.id = q.cover) AS covered,
           min(f.id) FILTER (WHERE f.crop_key IS NOT NULL) AS first_face
    FROM (SELECT id, cover_face_id AS cover FROM people WHERE id = ANY (ids)) q
    LEFT JOIN scene_faces f ON f.person_id = q.id
    GROUP BY q.id
  ) c
  WHERE p.id = c.id;
END;
$$;

-- Faces or people images deleted (a video, an account, the retention job, a re-analysis): their
-- people are refreshed in the same statement, so a person left with no face data goes with them.
CREATE FUNCTION people_faces_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM people_refresh(
    ARRAY(SELECT DISTINCT person_id FROM gone WHERE person_id IS NOT NULL), true);
  RETURN NULL;
END;
$$;

CREATE TRIGGER scene_faces_removed_trg AFTER DELETE ON scene_faces
REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION people_faces_removed();

CREATE TRIGGER video_people_removed_trg AFTER DELETE ON video_people
REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION people_faces_removed();
