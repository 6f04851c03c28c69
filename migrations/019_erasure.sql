-- Erasure (issue 16): a memory's plaintext can be taken out of the log and every read model,
-- while the log keeps its shape and its hash chain still verifies.
--
-- How the log is redacted: an erasure rewrites the `data` of the events that held the erased
-- text (their positions, types, times, streams and actors stay), in one transaction that also
-- appends an `ErasureRecorded` event listing each rewritten position with the SHA-256 of its new
-- content. fl_events stays append-only for everything else: the guard below lets an UPDATE
-- through only while `factledger.erasing` is set for the transaction, and only if it changes
-- nothing but `data`.
--
-- Why the chain still verifies: a sealed event's content hash is sha256(salt || content), with a
-- random salt per event kept in fl_event_salts. Erasure deletes the salts of the rows it rewrites,
-- so their old content hashes (still in the chain, still linking it) can no longer be matched
-- against a guess of the erased text, and `log verify` checks a rewritten row against the hash its
-- erasure recorded instead (that erasure event is itself sealed and checked).

CREATE TABLE fl_event_salts (
  global_position bigint PRIMARY KEY,
  salt            bytea  NOT NULL
);

-- fl_guard_event_change: defined in migrations/functions/fl_guard_event_change.sql (its current definition).
-- A salt goes only with its event's erasure.
-- fl_guard_salt_change: defined in migrations/functions/fl_guard_salt_change.sql (its current definition).
DROP TRIGGER fl_events_no_update_delete ON fl_events;
CREATE TRIGGER fl_events_no_update_delete BEFORE UPDATE OR DELETE ON fl_events
  FOR EACH ROW EXECUTE FUNCTION fl_guard_event_change();
CREATE TRIGGER fl_event_salts_no_update_delete BEFORE UPDATE OR DELETE ON fl_event_salts
  FOR EACH ROW EXECUTE FUNCTION fl_guard_salt_change();
CREATE TRIGGER fl_event_salts_no_truncate BEFORE TRUNCATE ON fl_event_salts
  FOR EACH STATEMENT EXECUTE FUNCTION fl_reject_event_change();

-- The chain sealed before this migration had no salts: it is made again, salted, by the next
-- seal (the log itself is untouched).
DROP TRIGGER fl_event_chain_no_truncate ON fl_event_chain;
TRUNCATE fl_event_chain;
CREATE TRIGGER fl_event_chain_no_truncate BEFORE TRUNCATE ON fl_event_chain
  FOR EACH STATEMENT EXECUTE FUNCTION fl_reject_event_change();

-- fl_seal: defined in migrations/functions/fl_seal.sql (its current definition).

-- An erasure looks through the tenant's message records for those that name an erased memory;
-- without this it reads the whole log. One index entry per message, none for any other event.
CREATE INDEX fl_events_messages ON fl_events (tenant, global_position) WHERE type = 'MessageIngested';

-- The erased memories, so that reads can say a memory was erased (rather than never existed),
-- and so that nothing written after the erasure (an index entry, a trace) brings one back.
-- Part of the fact projection: rebuilt from the log's MemoryErased events.
CREATE TABLE fl_erased_memories (
  tenant     text        NOT NULL,
  memory_id  text        NOT NULL,
  stream_id  text        NOT NULL,
  erasure_id text        NOT NULL,
  erased_at  timestamptz NOT NULL,
  position   bigint      NOT NULL,
  actor      text,
  PRIMARY KEY (tenant, memory_id)
);

-- Takes erased memories out of every read model the log feeds: the fact projection's rows, the
-- recall index (with BM25's stem counts; a stem no remaining version holds goes, since a stem is
-- a word of the text) and the recall traces that show them. One home for "what erasing a
-- memory removes from the read side"; the fact projection calls it when it applies MemoryErased.
--
-- Nothing written after it can bring one back: it waits for a recall-index pass that is writing
-- (the indexer's lock, RecallIndexer: 'fl_projection:recall-index'), and holds trace inserts off
-- until it commits; the indexer and the trace writer leave out memories recorded as erased.
-- fl_forget_memories: defined in migrations/functions/fl_forget_memories.sql (its current definition).
