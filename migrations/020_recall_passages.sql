-- A long memory's sentences, embedded one by one beside its whole text (see passageTexts in
-- libs/embeddings/src/embedding-text.ts): the embedding of a long conversation turn averages its
-- greetings with what it is about, and a question about that one sentence does not find it.
-- One row per passage of an indexed version; a memory of one sentence has none. The rows go
-- with their index row (re-indexed or forgotten). Only vectors are kept here, no text.
-- Rows indexed earlier have no passages until they are indexed again.
CREATE TABLE fl_recall_passages (
  tenant     text     NOT NULL,
  memory_id  text     NOT NULL,
  model      text     NOT NULL,
  n          smallint NOT NULL CHECK (n >= 0),
  dimensions integer  NOT NULL CHECK (dimensions > 0),
  embedding  vector   NOT NULL CHECK (vector_dims(embedding) = dimensions),
  PRIMARY KEY (tenant, memory_id, model, n),
  FOREIGN KEY (tenant, memory_id, model) REFERENCES fl_recall_index (tenant, memory_id, model) ON DELETE CASCADE
);
ALTER TABLE fl_recall_passages SET (toast_tuple_target = 8160);
CREATE INDEX fl_recall_passages_hnsw_512 ON fl_recall_passages USING hnsw ((embedding::vector(512)) vector_cosine_ops) WHERE dimensions = 512;
