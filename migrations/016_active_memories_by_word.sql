-- Resolution looks up only active memories by word, so the word index (015) need not hold the
-- rest. Kept to active rows, it is not written again when a version is superseded, retracted or
-- quarantined (each a new row version of fl_memories, which a full index re-indexes word by word),
-- and a rebuild builds it over the active rows only.
DROP INDEX IF EXISTS fl_memories_words;
CREATE INDEX fl_memories_words ON fl_memories USING gin (to_tsvector('simple', text)) WHERE status = 'active';
