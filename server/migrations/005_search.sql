-- Search index. Dense: HNSW (cosine) on the 384-dimensional embeddings of videos and scenes.
-- Sparse: BM25 over postings kept in plain tables, tokenised in Node (server/src/search/
-- tokenize.ts) and scored in portable SQL, so PGlite and PostgreSQL rank identically
-- (docs/decisions/keyword-search-bm25.md).

CREATE INDEX videos_embedding_hnsw ON videos USING hnsw (embedding vector_cosine_ops);
CREATE INDEX scenes_embedding_hnsw ON scenes USING hnsw (embedding vector_cosine_ops);

-- One row per (document, term). A document is a video (scene_idx = -1) or one of its scenes.
-- team_id and the document length are repeated here so BM25 is computed from this table alone.
CREATE TABLE search_postings (
  team_id uuid NOT NULL,
  kind smallint NOT NULL, -- 0 video, 1 scene
  term text NOT NULL,
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  scene_idx int NOT NULL,
  tf int NOT NULL,
  doc_len int NOT NULL,
  PRIMARY KEY (team_id, kind, term, video_id, scene_idx)
);
CREATE INDEX search_postings_video_idx ON search_postings (video_id);

-- One row per indexed document: its length and its term frequencies' source (for "similar to").
CREATE TABLE search_documents (
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  scene_idx int NOT NULL,
  team_id uuid NOT NULL,
  kind smallint NOT NULL,
  doc_len int NOT NULL,
  PRIMARY KEY (video_id, scene_idx)
);

-- Corpus statistics per team and kind (document count, total length) for idf and avgdl.
-- Kept in step with the postings inside the same transaction as every (re)index and removal.
CREATE TABLE search_corpus_stats (
  team_id uuid NOT NULL,
  kind smallint NOT NULL,
  n_docs int NOT NULL DEFAULT 0,
  total_len bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (team_id, kind)
);

-- Statement triggers keep the statistics right even when a video row is deleted and its documents
-- go by ON DELETE CASCADE without passing through the application. Statement level with
-- transition tables: one update per statement, not one per row (bulk loads stay fast).
CREATE FUNCTION search_documents_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_corpus_stats AS s (team_id, kind, n_docs, total_len)
  SELECT team_id, kind, count(*), sum(doc_len) FROM added GROUP BY team_id, kind
  ON CONFLICT (team_id, kind)
  DO UPDATE SET n_docs = s.n_docs + EXCLUDED.n_docs, total_len = s.total_len + EXCLUDED.total_len;
  RETURN NULL;
END;
$$;

CREATE FUNCTION search_documents_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_corpus_stats s
  SET n_docs = s.n_docs - r.n, total_len = s.total_len - r.len
  FROM (SELECT team_id, kind, count(*) AS n, sum(doc_len) AS len FROM removed GROUP BY team_id, kind) r
  WHERE s.team_id = r.team_id AND s.kind = r.kind;
  RETURN NULL;
END;
$$;

CREATE TRIGGER search_documents_added_trg AFTER INSERT ON search_documents
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION search_documents_added();

CREATE TRIGGER search_documents_removed_trg AFTER DELETE ON search_documents
REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION search_documents_removed();
