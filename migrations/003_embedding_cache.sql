-- Embeddings already computed, keyed by the model and the SHA-256 (hex) of the exact text that
-- was embedded, so a text is embedded once per model however often it is indexed or rebuilt.
-- An embedding is a pure function of that key: the cache is shared by all tenants, holds no
-- text, and may be truncated at any time. `vector` without a length, so that one table serves
-- models of any dimension (the cache is looked up by key, never searched by similarity).
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE fl_embedding_cache (
  model       text        NOT NULL,
  text_sha256 text        NOT NULL CHECK (text_sha256 ~ '^[0-9a-f]{64}$'),
  dimensions  integer     NOT NULL CHECK (dimensions > 0),
  embedding   vector      NOT NULL CHECK (vector_dims(embedding) = dimensions),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (model, text_sha256)
);
