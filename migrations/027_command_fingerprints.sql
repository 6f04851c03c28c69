-- What each claimed command id is bound to: the fingerprint of the command that first used it (the
-- ledger's hash of the kind of write and its input), so that a retry is told from another command
-- that reuses the id (fl_append answers a duplicate with it). Null for ids claimed before this
-- migration, or by a caller that gives none: those take any retry, as before.
ALTER TABLE fl_commands ADD COLUMN fingerprint text;
