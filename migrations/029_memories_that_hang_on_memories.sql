-- Memories that hang on memories (R32): the memories a statement depends on (from its
-- FactAsserted), and, while one of them has changed since, why it is no longer confirmed
-- (MemoryUnconfirmed: the premise, what took its place, where in the log). Both are the fold's,
-- like every column here; the cascade finds a premise's dependents by depends_on.
ALTER TABLE fl_memories ADD COLUMN depends_on jsonb NOT NULL DEFAULT '[]';
ALTER TABLE fl_memories ADD COLUMN unconfirmed jsonb;
CREATE INDEX fl_memories_depends_on ON fl_memories USING gin (depends_on) WHERE depends_on <> '[]'::jsonb;
-- The few memories marked unconfirmed (recall asks of every memory it may show whether it is one),
-- and the rules for later of a tenant (the cascade reads them at each change of a value): both a
-- small part of the table, found without reading the rest of it.
CREATE INDEX fl_memories_unconfirmed ON fl_memories (tenant, memory_id) WHERE unconfirmed IS NOT NULL;
CREATE INDEX fl_memories_rules ON fl_memories (tenant, memory_id) WHERE type = 'rule';
-- `SELECT *` is expanded when a view is made: made again with the new columns.
DROP VIEW fl_read_memories;
CREATE VIEW fl_read_memories AS SELECT * FROM fl_memories;
