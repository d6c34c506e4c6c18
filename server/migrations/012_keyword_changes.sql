-- Keyword search in memory (issue 17, docs/decisions/keyword-lists-in-memory.md): each server
-- process keeps the term lists it has read and brings them up to date from a log of the videos
-- whose documents were added or removed, instead of reading them again after every indexing.

-- The version of a team's and kind's documents: one more for each statement that adds or removes
-- some. The statement takes the row's lock until its transaction ends, so versions are given in
-- commit order, one after another: a reader that sees version v sees every change up to v.
ALTER TABLE search_corpus_stats ADD COLUMN version bigint NOT NULL DEFAULT 0;

-- The videos whose documents a version added or removed (a re-index is a removal, then an
-- addition). Kept a day (the vacuum-search job prunes it); a process further behind reads again.
CREATE TABLE search_changes (
  team_id uuid NOT NULL,
  kind smallint NOT NULL,
  version bigint NOT NULL,
  video_id uuid NOT NULL,
  added boolean NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, kind, version, video_id)
);
CREATE INDEX search_changes_at_idx ON search_changes (at);

CREATE OR REPLACE FUNCTION search_documents_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_corpus_stats AS s (team_id, kind, n_docs, total_len, version)
  SELECT team_id, kind, count(*), sum(doc_len), 1 FROM added GROUP BY team_id, kind
  ORDER BY team_id, kind
  ON CONFLICT (team_id, kind)
  DO UPDATE SET n_docs = s.n_docs + EXCLUDED.n_docs, total_len = s.total_len + EXCLUDED.total_len,
                version = s.version + 1;
  INSERT INTO search_changes (team_id, kind, version, video_id, added)
  SELECT DISTINCT a.team_id, a.kind, s.version, a.video_id, true
  FROM added a JOIN search_corpus_stats s ON s.team_id = a.team_id AND s.kind = a.kind;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION search_documents_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_corpus_stats s
  SET n_docs = s.n_docs - r.n, total_len = s.total_len - r.len, version = s.version + 1
  FROM (SELECT team_id, kind, count(*) AS n, sum(doc_len) AS len FROM removed GROUP BY team_id, kind) r
  WHERE s.team_id = r.team_id AND s.kind = r.kind;
  INSERT INTO search_changes (team_id, kind, version, video_id, added)
  SELECT DISTINCT r.team_id, r.kind, s.version, r.video_id, false
  FROM removed r JOIN search_corpus_stats s ON s.team_id = r.team_id AND s.kind = r.kind;
  RETURN NULL;
END;
$$;

-- The videos a search must leave out (not finished: analysing again, failed) are few; this finds
-- them without reading every video of the team.
CREATE INDEX videos_unfinished_idx ON videos (team_id) WHERE status <> 'completed';
