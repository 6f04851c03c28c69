-- Recall's fresh channel (versions the recall index may not hold yet) and its check that its
-- statements read one state of a tenant's facts both ask for a tenant's memories by the log
-- position that last changed them, so that neither reads the log itself: the log may live in
-- another store (KurrentDB), and the fact projection is where recall learns what changed.
CREATE INDEX fl_memories_position ON fl_memories (tenant, last_position);
