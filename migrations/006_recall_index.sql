-- Recall's own index, kept by a checkpointed indexer from the log, off the write path: one row
-- per memory version with the text it shows, a full-text vector ('simple': no stemming, so
-- names, numbers and Korean words are kept as written) and its embedding under one model.
-- Whether a version may be recalled (current, active, valid) is read from the fact history at
-- query time, so lifecycle changes need no re-indexing.
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE fl_recall_index (
  tenant     text        NOT NULL,
  memory_id  text        NOT NULL,
  model      text        NOT NULL,
  dimensions integer     NOT NULL CHECK (dimensions > 0),
  embedding  vector      NOT NULL CHECK (vector_dims(embedding) = dimensions),
  text       text        NOT NULL,
  lexemes    tsvector    NOT NULL GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED,
  indexed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant, memory_id, model)
);
CREATE INDEX fl_recall_index_lexemes ON fl_recall_index USING gin (lexemes);
CREATE INDEX fl_recall_index_trigrams ON fl_recall_index USING gin (text gin_trgm_ops);
-- Approximate nearest neighbours per vector length (the column is untyped so that one table
-- serves any model); the indexer creates the index for other lengths when it first meets them.
CREATE INDEX fl_recall_index_hnsw_512 ON fl_recall_index USING hnsw ((embedding::vector(512)) vector_cosine_ops) WHERE dimensions = 512;

-- The profile channel reads a tenant's core facts on every assembly.
CREATE INDEX fl_memories_core ON fl_memories (tenant) WHERE core;

-- Every context assembly, stage by stage (R13), kept for a retention period.
CREATE TABLE fl_recall_traces (
  id         uuid        PRIMARY KEY,
  tenant     text        NOT NULL,
  created_at timestamptz NOT NULL,
  query      text        NOT NULL,
  trace      jsonb       NOT NULL
);
CREATE INDEX fl_recall_traces_created ON fl_recall_traces (created_at);
