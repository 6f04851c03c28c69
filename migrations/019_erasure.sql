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

CREATE FUNCTION fl_guard_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('factledger.erasing', true) = 'on'
     AND (NEW.global_position, NEW.transaction_id, NEW.tenant, NEW.stream_id, NEW.stream_version, NEW.event_id, NEW.type,
          NEW.command_id, NEW.causation_id, NEW.correlation_id, NEW.batch, NEW.recorded_at, NEW.actor)
         IS NOT DISTINCT FROM
         (OLD.global_position, OLD.transaction_id, OLD.tenant, OLD.stream_id, OLD.stream_version, OLD.event_id, OLD.type,
          OLD.command_id, OLD.causation_id, OLD.correlation_id, OLD.batch, OLD.recorded_at, OLD.actor) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'fl_events is append-only: % is not allowed', TG_OP USING ERRCODE = 'P0001';
END;
$$;
-- A salt goes only with its event's erasure.
CREATE FUNCTION fl_guard_salt_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('factledger.erasing', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'fl_event_salts is append-only: % is not allowed', TG_OP USING ERRCODE = 'P0001';
END;
$$;
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

CREATE OR REPLACE FUNCTION fl_seal(p_limit int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  v_last bigint;
  v_previous bytea;
  v_positions bigint[];
  v_salts bytea[];
  v_contents bytea[];
  v_hashes bytea[];
  v_count int;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('fl_seal'));
  SELECT c.global_position, c.hash INTO v_last, v_previous FROM fl_event_chain c ORDER BY c.global_position DESC LIMIT 1;
  SELECT array_agg(e.global_position ORDER BY e.global_position), array_agg(e.salt ORDER BY e.global_position),
    array_agg(sha256(e.salt || fl_event_content(e.global_position, e.tenant, e.stream_id, e.stream_version, e.event_id, e.type, e.data,
      e.command_id, e.causation_id, e.correlation_id, e.batch, e.recorded_at, e.actor)) ORDER BY e.global_position)
  INTO v_positions, v_salts, v_contents
  FROM (SELECT *, uuid_send(gen_random_uuid()) AS salt FROM fl_events WHERE global_position > coalesce(v_last, 0) ORDER BY global_position LIMIT p_limit) e;
  v_count := coalesce(array_length(v_positions, 1), 0);
  IF v_count = 0 THEN RETURN 0; END IF;
  v_hashes := array_fill(NULL::bytea, ARRAY[v_count]);
  FOR k IN 1 .. v_count LOOP
    v_previous := sha256(coalesce(v_previous, ''::bytea) || v_contents[k]);
    v_hashes[k] := v_previous;
  END LOOP;
  INSERT INTO fl_event_salts (global_position, salt) SELECT * FROM unnest(v_positions, v_salts);
  INSERT INTO fl_event_chain (global_position, content_hash, hash)
  SELECT * FROM unnest(v_positions, v_contents, v_hashes);
  RETURN v_count;
END;
$$;

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
CREATE FUNCTION fl_forget_memories(p_tenant text, p_ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('fl_projection:recall-index'));
  LOCK TABLE fl_recall_traces IN SHARE ROW EXCLUSIVE MODE;
  WITH old AS (
    DELETE FROM fl_recall_index i WHERE i.tenant = p_tenant AND i.memory_id = ANY (p_ids) RETURNING i.model, i.stems),
  terms AS (
    UPDATE fl_recall_terms s SET docs = s.docs - g.n
    FROM (SELECT old.model, x.lexeme AS stem, count(*)::int AS n FROM old, unnest(old.stems) x GROUP BY 1, 2) g
    WHERE s.tenant = p_tenant AND s.model = g.model AND s.stem = g.stem)
  UPDATE fl_recall_corpus c SET docs = c.docs - o.n, stems = c.stems - o.len
  FROM (SELECT model, count(*)::int AS n, sum(length(stems)) AS len FROM old GROUP BY 1) o
  WHERE c.tenant = p_tenant AND c.model = o.model;
  DELETE FROM fl_recall_terms WHERE tenant = p_tenant AND docs <= 0;
  DELETE FROM fl_fact_history WHERE tenant = p_tenant AND memory_id = ANY (p_ids);
  DELETE FROM fl_memories WHERE tenant = p_tenant AND memory_id = ANY (p_ids);
  DELETE FROM fl_recall_traces t WHERE t.tenant = p_tenant
    AND EXISTS (SELECT 1 FROM unnest(p_ids) AS m(id) WHERE strpos(t.trace::text, '"' || m.id || '"') > 0);
END;
$$;
