-- Restatement's look-up by the subject and verb (fl_frame_text), not by the first two words
-- (fl_frame_head, 024): with the first two words, the statements that begin alike ("The owner of
-- repository repo-1 is …", "The owner of repository repo-2 is …") came back newest first, fifty at
-- most, and a restatement of an older one was not among them (the bench's prose asserts: a third
-- of the restatements found). A prefix look-up (text_pattern_ops: byte order, whatever the
-- collation) finds exactly those of the same subject and verb; a Korean statement's first word is
-- a prefix too.
DROP INDEX IF EXISTS fl_memories_frame_head;
CREATE INDEX fl_memories_frame_text ON fl_memories (tenant, fl_frame_text(text) text_pattern_ops)
  WHERE status = 'active' AND (kind = 'prose' OR relation LIKE '%…%');
