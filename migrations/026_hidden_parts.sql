-- Statements inside a prose memory that a newer memory replaced (MemoryPartsSuperseded): spans of
-- its text, each with the memory that replaced it, from when it no longer holds (valid time,
-- ms), when that was decided and, after a rollback, when it was given back (transaction time,
-- ms). The text stays whole; a reader leaves out the spans hidden at its (validAt, knownAt).
-- Recall reads them with the version it shows (by the memory's primary key), exactly as the
-- projection has them, not as its index last saw them.
ALTER TABLE fl_memories ADD COLUMN hidden_parts jsonb NOT NULL DEFAULT '[]';
-- `SELECT *` is expanded when a view is made: made again with the new column.
DROP VIEW fl_read_memories;
CREATE VIEW fl_read_memories AS SELECT * FROM fl_memories;
