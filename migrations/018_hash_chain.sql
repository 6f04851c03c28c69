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

CREATE FUNCTION fl_event_content(
  p_position bigint, p_tenant text, p_stream text, p_version integer, p_event_id uuid, p_type text, p_data jsonb,
  p_command_id text, p_causation_id text, p_correlation_id text, p_batch text, p_recorded_at timestamptz, p_actor text
) RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT convert_to(jsonb_build_array(p_position, p_tenant, p_stream, p_version, p_event_id, p_type, p_data,
    p_command_id, p_causation_id, p_correlation_id, p_batch,
    -- Microseconds since the epoch: the same text whatever the session's time zone.
    (extract(epoch FROM p_recorded_at) * 1000000)::bigint, p_actor)::text, 'UTF8')
$$;


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
CREATE FUNCTION fl_seal(p_limit int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  v_last bigint;
  v_previous bytea;
  v_positions bigint[];
  v_contents bytea[];
  v_hashes bytea[];
  v_count int;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('fl_seal'));
  SELECT c.global_position, c.hash INTO v_last, v_previous FROM fl_event_chain c ORDER BY c.global_position DESC LIMIT 1;
  SELECT array_agg(e.global_position ORDER BY e.global_position),
    array_agg(sha256(fl_event_content(e.global_position, e.tenant, e.stream_id, e.stream_version, e.event_id, e.type, e.data,
      e.command_id, e.causation_id, e.correlation_id, e.batch, e.recorded_at, e.actor)) ORDER BY e.global_position)
  INTO v_positions, v_contents
  FROM (SELECT * FROM fl_events WHERE global_position > coalesce(v_last, 0) ORDER BY global_position LIMIT p_limit) e;
  v_count := coalesce(array_length(v_positions, 1), 0);
  IF v_count = 0 THEN RETURN 0; END IF;
  v_hashes := array_fill(NULL::bytea, ARRAY[v_count]);
  FOR k IN 1 .. v_count LOOP
    v_previous := sha256(coalesce(v_previous, ''::bytea) || v_contents[k]);
    v_hashes[k] := v_previous;
  END LOOP;
  INSERT INTO fl_event_chain (global_position, content_hash, hash)
  SELECT * FROM unnest(v_positions, v_contents, v_hashes);
  RETURN v_count;
END;
$$;
