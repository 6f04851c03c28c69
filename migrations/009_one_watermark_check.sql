-- The inline projection's watermark check in one statement instead of two: it locks and
-- compares each watermark through a lateral primary-key lookup. The two statements it replaces
-- joined jsonb_to_recordset (which the planner takes for 100 rows) with the whole table, and
-- each connection cached that plan: over a table that was small when the plan was made, every
-- write then scanned fl_projected_streams twice. Everything else is as in migration 008.

-- fl_apply_fact_changes: defined in migrations/functions/fl_apply_fact_changes.sql (its current definition).
