-- Keyword search at scale (issue 17, docs/decisions/keyword-search-impacts.md): document
-- frequencies kept at indexing time instead of counted per query, and each posting's BM25 term
-- weight precomputed so a query reads only the head of each term's list.

-- Document frequency of each term per team and kind, kept by statement triggers on the postings
-- (so a cascade delete keeps it right too).
CREATE TABLE search_terms (
  team_id uuid NOT NULL,
  kind smallint NOT NULL,
  term text NOT NULL,
  df int NOT NULL,
  PRIMARY KEY (team_id, kind, term)
);
INSERT INTO search_terms (team_id, kind, term, df)
SELECT team_id, kind, term, count(*) FROM search_postings GROUP BY team_id, kind, term;

-- Terms are locked in term order so two indexing transactions never wait on each other in a cycle.
CREATE FUNCTION search_postings_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_terms AS s (team_id, kind, term, df)
  SELECT team_id, kind, term, count(*) FROM added GROUP BY team_id, kind, term
  ORDER BY team_id, kind, term
  ON CONFLICT (team_id, kind, term) DO UPDATE SET df = s.df + EXCLUDED.df;
  RETURN NULL;
END;
$$;

CREATE FUNCTION search_postings_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_terms s SET df = s.df - r.n
  FROM (SELECT team_id, kind, term, count(*) AS n FROM removed GROUP BY team_id, kind, term) r
  WHERE s.team_id = r.team_id AND s.kind = r.kind AND s.term = r.term;
  DELETE FROM search_terms s USING (SELECT DISTINCT team_id, kind, term FROM removed) r
  WHERE s.df <= 0 AND s.team_id = r.team_id AND s.kind = r.kind AND s.term = r.term;
  RETURN NULL;
END;
$$;

CREATE TRIGGER search_postings_added_trg AFTER INSERT ON search_postings
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION search_postings_added();

CREATE TRIGGER search_postings_removed_trg AFTER DELETE ON search_postings
REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION search_postings_removed();

-- The average document length the stored impacts were computed with. BM25 ranks with it; it is
-- brought back to the live average (and every impact of the team and kind recomputed) when
-- indexing finds it more than 0.5% away (server/src/search/impacts.ts).
ALTER TABLE search_corpus_stats ADD COLUMN impact_avgdl double precision;
UPDATE search_corpus_stats SET impact_avgdl = total_len::float8 / n_docs WHERE n_docs > 0;

-- A posting's BM25 term-frequency part divided by (k1 + 1), in 0..1: tf / (tf + k1 (1 - b + b
-- dl / avgdl)) with k1 = 1.2, b = 0.75 (server/src/search/sparse.ts). A term's weight in a query
-- is qtf * idf * (k1 + 1), so a document's score is the sum of weight * impact over the terms.
CREATE FUNCTION search_impact(tf int, doc_len int, avgdl double precision) RETURNS real
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT (tf::float8 / (tf + 1.2 * (0.25 + 0.75 * doc_len::float8 / avgdl)))::real $$;

ALTER TABLE search_postings ADD COLUMN impact real NOT NULL DEFAULT 0;
UPDATE search_postings p SET impact = search_impact(p.tf, p.doc_len, s.impact_avgdl)
FROM search_corpus_stats s WHERE s.team_id = p.team_id AND s.kind = p.kind;
ALTER TABLE search_postings ALTER COLUMN impact DROP DEFAULT;

-- Two indexes as before, keyed for the new reads: a term's list from its highest impact down
-- (ties in id order, the ranking's tie-break), and a document's own terms (exact scoring of a
-- candidate, "similar to", removal of a video).
ALTER TABLE search_postings DROP CONSTRAINT search_postings_pkey;
DROP INDEX search_postings_video_idx;
ALTER TABLE search_postings ADD PRIMARY KEY (video_id, scene_idx, term);
CREATE INDEX search_postings_impact_idx
  ON search_postings (team_id, kind, term, impact DESC, video_id, scene_idx);
