-- The fact projection as other libs read it (recall): views over the projection's tables, owned
-- by the projections lib, so that nothing outside it names those tables (lint refuses them). They
-- are plain views: the planner reads through them, and a statement over a view is planned as the
-- same statement over the table. `SELECT *` is expanded when a view is made, so a migration that
-- changes one of these tables makes its view again. A rebuild that swaps the tables in
-- (libs/projections/src/rebuild.ts) makes the views that depend on them again in the same
-- transaction. `row_version` is a checkpoint row's xmin: it changes whenever the row does.
CREATE VIEW fl_read_memories AS SELECT * FROM fl_memories;
CREATE VIEW fl_read_history AS SELECT * FROM fl_fact_history;
CREATE VIEW fl_read_erased AS SELECT * FROM fl_erased_memories;
CREATE VIEW fl_read_checkpoints AS SELECT name, commit, prepare, updated_at, xmin::text AS row_version FROM fl_checkpoints;
