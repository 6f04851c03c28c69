-- When a statement was said, beside when the ledger recorded it: a chat message carries its own
-- time (an imported chat, sent today, said weeks ago), and what means "when it was said" (recall's
-- day headings and turn neighbours, the order resolution and restatement compare in) reads this,
-- while as-of reads, history and audit stay on recorded (transaction) time. Every memory recorded
-- so far was said when it was recorded (its event says no other time), so the backfill is exact.
ALTER TABLE fl_memories ADD COLUMN said_at timestamptz;
UPDATE fl_memories SET said_at = recorded_at;
ALTER TABLE fl_memories ALTER COLUMN said_at SET NOT NULL;
-- `SELECT *` is expanded when a view is made: made again with the new column.
DROP VIEW fl_read_memories;
CREATE VIEW fl_read_memories AS SELECT * FROM fl_memories;

-- Recall's index rows carry the said time instead (migration 013: it never changes once recorded).
-- Rows indexed before 013 keep it empty, and recall looks it up in fl_memories as before. The
-- neighbours index (fl_recall_index_turns, 014) follows the renamed column.
ALTER TABLE fl_recall_index RENAME COLUMN recorded_at TO said_at;
