-- A tamper-evident log (issue 16). Every event gets two hashes, kept beside the log in
-- fl_event_chain (append-only like fl_events):
--   content_hash = sha256 of what the event's row says (fl_event_content: its position, tenant,
--                  stream, version, ids, type, data, metadata, recorded time and actor, as
--                  canonical jsonb text);
--   hash         = sha256(previous event's hash || content_hash), the previous event being the one
--                  with the next lower position (the first event's previous hash is empty).
-- So the hashes chain the whole log in position order: altering an event breaks its content hash,
-- deleting one leaves its chain row without an event, inserting one leaves an event without a
-- chain row among sealed ones, and altering a hash breaks the link after it.
--
-- The chain is made by fl_seal, not by the append: positions are drawn and committed in order
-- (migration 004's ordering lock), so the sealer reads the events after the last one it sealed,
-- in order, hashes them in one pass and chains them. Appends pay nothing; an event is sealed
-- within one background pass (FACTLEDGER_INDEX_INTERVAL_MS) of its commit, and `log verify`
-- seals what is left before checking. Erasure (which will take an event's plaintext away) leaves
-- its content hash in the chain, so the chain still verifies afterwards.

-- fl_event_content: defined in migrations/functions/fl_event_content.sql (its current definition).


CREATE TABLE fl_event_chain (
  global_position bigint PRIMARY KEY,
  content_hash    bytea NOT NULL,
  hash            bytea NOT NULL
);
CREATE TRIGGER fl_event_chain_no_update_delete BEFORE UPDATE OR DELETE ON fl_event_chain
  FOR EACH ROW EXECUTE FUNCTION fl_reject_event_change();
CREATE TRIGGER fl_event_chain_no_truncate BEFORE TRUNCATE ON fl_event_chain
  FOR EACH STATEMENT EXECUTE FUNCTION fl_reject_event_change();

-- Seals up to p_limit events after the last sealed one; returns how many. One sealer at a time.
-- fl_seal: defined in migrations/functions/fl_seal.sql (its current definition).
