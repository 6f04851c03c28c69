-- Cheaper writes, same behaviour (both functions first appear in migration 004):
--   fl_append also returns every new event's position, in append order, so a writer can keep the
--   streams it just wrote in memory with their real positions and decide its next command on them
--   without reading them back; and it calls the fact projection directly instead of through
--   dynamic SQL, which was planned again on every append.
--   fl_apply_fact_changes takes each part out of its payload once and skips the statements whose
--   part is empty (an ingest record alone projects no rows but still moves the checkpoint).
-- fl_append returns {"duplicate", "position", "positions": [position, …], "versions", "then"}.

-- fl_apply_fact_changes: defined in migrations/functions/fl_apply_fact_changes.sql (its current definition).

-- fl_append: defined in migrations/functions/fl_append.sql (its current definition).
