-- Recall's lexical retriever becomes Okapi BM25 over English stems (R21). Stems: the English
-- configuration folds "painting", "painted" and "paints" together and drops words that carry no
-- topic; names, numbers, identifiers and other scripts pass through as written (trigrams still
-- catch a Korean word with its particle). The 'simple' lexemes are replaced, not kept beside.
-- A fact's key is searched with its text (`key_text`: its relation, and its subject unless that
-- is the user or the assistant): "What's my job?" finds "I teach biology" kept as (user, job, …).
-- Adding a stored column rewrites the table once (and rebuilds its indexes).
ALTER TABLE fl_recall_index DROP COLUMN lexemes;
ALTER TABLE fl_recall_index ADD COLUMN key_text text;
ALTER TABLE fl_recall_index ADD COLUMN stems tsvector NOT NULL
  GENERATED ALWAYS AS (to_tsvector('english', text || ' ' || coalesce(key_text, ''))) STORED;
-- The key's stems alone: a question that names a memory's key ("How do I get to work?" of a
-- commute) asks for that memory even when its words are far from the question's.
ALTER TABLE fl_recall_index ADD COLUMN key_stems tsvector NOT NULL
  GENERATED ALWAYS AS (to_tsvector('english', coalesce(key_text, ''))) STORED;
CREATE INDEX fl_recall_index_stems ON fl_recall_index USING gin (stems) WITH (fastupdate = off);

-- BM25 needs each stem's rarity: in how many of the tenant's indexed versions it occurs (and how
-- many versions there are, and how many stems they hold in all). Kept by the indexer in the
-- transaction that writes the rows, per tenant (a tenant's scores never depend on another's
-- text) and per model (the rows the retrievers search). Versions that are no longer visible still
-- count, as deleted documents do in a search engine until they are merged away.
CREATE TABLE fl_recall_terms (
  tenant text    NOT NULL,
  model  text    NOT NULL,
  stem   text    NOT NULL,
  docs   integer NOT NULL CHECK (docs >= 0),
  PRIMARY KEY (tenant, model, stem)
);
CREATE TABLE fl_recall_corpus (
  tenant text    NOT NULL,
  model  text    NOT NULL,
  docs   integer NOT NULL CHECK (docs >= 0),
  stems  bigint  NOT NULL CHECK (stems >= 0),
  PRIMARY KEY (tenant, model)
);
INSERT INTO fl_recall_terms (tenant, model, stem, docs)
  SELECT i.tenant, i.model, s.lexeme, count(*) FROM fl_recall_index i, unnest(i.stems) s GROUP BY 1, 2, 3;
INSERT INTO fl_recall_corpus (tenant, model, docs, stems)
  SELECT tenant, model, count(*), sum(length(stems)) FROM fl_recall_index GROUP BY 1, 2;

-- A conversation turn is read with its neighbours: the prose memories recorded just before and
-- just after it in the same tenant (a short reply such as "Yes, last Tuesday!" answers the turn
-- before it). The index row says whether its memory is prose; rows indexed before this migration
-- leave it empty and get no neighbours until they are indexed again.
ALTER TABLE fl_recall_index ADD COLUMN kind text;
CREATE INDEX fl_recall_index_turns ON fl_recall_index (tenant, model, recorded_at, memory_id) WHERE kind = 'prose';
