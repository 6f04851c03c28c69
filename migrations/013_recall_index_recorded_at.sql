-- Recall's index rows carry their memory's recorded time, which never changes once recorded, so
-- that a retriever shows what it found from the index row and the version's history row alone:
-- one lookup per candidate, where a second one, into fl_memories, had been needed just for this
-- date. The indexer fills it from now on. Rows indexed earlier keep it empty, and recall looks
-- the date up for them as before, until they are indexed again: filling 100k rows here would
-- rewrite every row and every index entry of the table (two minutes on the bench machine).
ALTER TABLE fl_recall_index ADD COLUMN recorded_at timestamptz;
