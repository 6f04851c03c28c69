-- fl_seal: chains up to p_limit events after the last sealed one into fl_event_chain, in position
-- order; returns how many. Each gets a random salt (fl_event_salts), content_hash =
-- sha256(salt || fl_event_content(...)) and hash = sha256(previous hash || content_hash). Safe
-- beside the appends because positions become visible in the order they were drawn: nothing can
-- appear behind the last sealed event later. One sealer at a time (an advisory lock).
-- The current definition: edit it here (see migrations.ts), never in a numbered migration.
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
