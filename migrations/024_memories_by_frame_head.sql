-- Restatement (R28) looks up the tenant's statements that begin as a new one does (fl_frame_head):
-- prose and the keys frame alignment made (their relation marks the value's place with "…"), in
-- the read paths, newest first. An exact look-up, whatever words the tenant's texts share; kept to
-- those rows, so that structured facts (most of a large store) cost it nothing to maintain or rebuild.
CREATE INDEX fl_memories_frame_head ON fl_memories (tenant, fl_frame_head(text), recorded_at DESC)
  WHERE status = 'active' AND (kind = 'prose' OR relation LIKE '%…%');
