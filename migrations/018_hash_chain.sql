-- A tamper-evident log (issue 16). Every event keeps two hashes:
--   content_hash = sha256 of what the row says (fl_event_content: its position, tenant, stream,
--                  version, ids, type, data, metadata, recorded time and actor, as canonical jsonb text);
--   hash         = sha256(previous event's hash || content_hash), the previous event being the one
--                  with the next lower position (the first event's previous hash is empty).
-- So the hashes chain the whole log in position order: altering a row breaks its content hash,
-- deleting or inserting one breaks the link of the event after it. `factledger log verify`
-- recomputes both. The chain is over content hashes so that erasure, which will take a row's
-- plaintext away, can leave its content hash (and so the chain) in place.

CREATE FUNCTION fl_event_content(
  p_position bigint, p_tenant text, p_stream text, p_version integer, p_event_id uuid, p_type text, p_data jsonb,
  p_command_id text, p_causation_id text, p_correlation_id text, p_batch text, p_recorded_at timestamptz, p_actor text
) RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT convert_to(jsonb_build_array(p_position, p_tenant, p_stream, p_version, p_event_id, p_type, p_data,
    p_command_id, p_causation_id, p_correlation_id, p_batch,
    -- Microseconds since the epoch: the same text whatever the session's time zone.
    (extract(epoch FROM p_recorded_at) * 1000000)::bigint, p_actor)::text, 'UTF8')
$$;

ALTER TABLE fl_events ADD COLUMN content_hash bytea, ADD COLUMN hash bytea;

-- Events written before the chain existed are chained now, in position order (the append-only
-- triggers are set aside for this one statement of the migration's own transaction).
ALTER TABLE fl_events DISABLE TRIGGER fl_events_no_update_delete;
WITH RECURSIVE ordered AS (
  SELECT global_position, row_number() OVER (ORDER BY global_position) AS n,
    sha256(fl_event_content(global_position, tenant, stream_id, stream_version, event_id, type, data, command_id, causation_id, correlation_id, batch, recorded_at, actor)) AS content_hash
  FROM fl_events),
chain AS (
  SELECT o.n, o.global_position, o.content_hash, sha256(o.content_hash) AS hash FROM ordered o WHERE o.n = 1
  UNION ALL
  SELECT o.n, o.global_position, o.content_hash, sha256(c.hash || o.content_hash) FROM chain c JOIN ordered o ON o.n = c.n + 1)
UPDATE fl_events e SET content_hash = chain.content_hash, hash = chain.hash FROM chain WHERE e.global_position = chain.global_position;
ALTER TABLE fl_events ENABLE TRIGGER fl_events_no_update_delete;

-- Every event from now on is chained by fl_append, the one statement that writes events: as in
-- migration 011, except that it draws its positions as one block under the ordering lock (held
-- from its insert to its commit, so the event before its first one is committed and final),
-- computes the content hashes in one pass, chains them in order and inserts the events with their
-- hashes and actor. A row inserted any other way has no hash, and verification says so.
CREATE OR REPLACE FUNCTION fl_append(
  p_tenant text, p_command_id text, p_causation_id text, p_correlation_id text, p_batch text,
  p_recorded_at timestamptz, p_streams jsonb, p_events jsonb, p_then regproc, p_then_payload jsonb
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_versions jsonb;
  v_missing record;
  v_positions bigint[];
  v_last bigint;
  v_then jsonb;
  v_actual int;
  v_count int;
  v_first bigint;
  v_actor text;
  v_previous bytea;
  v_streams text[];
  v_stream_versions int[];
  v_ids uuid[];
  v_types text[];
  v_data jsonb[];
  v_contents bytea[];
  v_hashes bytea[];
BEGIN
  -- The claim and the version checks run in a block of their own: on a version conflict the
  -- block undoes them and the caller gets, instead of an error, where the stream stands and (up
  -- to 1,000 events) the stream itself, so that it decides again without reading it back.
  BEGIN
  IF p_command_id IS NOT NULL THEN
    -- A concurrent retry blocks on this row until the first commits, then finds it.
    INSERT INTO fl_commands (tenant, command_id) VALUES (p_tenant, p_command_id) ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RETURN jsonb_build_object('duplicate', true, 'position',
        (SELECT last_position FROM fl_commands WHERE tenant = p_tenant AND command_id = p_command_id), 'versions', '{}'::jsonb);
    END IF;
  END IF;

  -- Stream rows are locked (in stream id order: one lock order for every writer) before any
  -- position is drawn, so within a stream the positions follow the versions.
  WITH i AS (SELECT * FROM jsonb_to_recordset(p_streams) AS i(s text, e int, n int)),
  created AS (
    INSERT INTO fl_streams (tenant, stream_id, version)
    SELECT p_tenant, i.s, i.n - 1 FROM i WHERE i.e = -1 ORDER BY i.s
    ON CONFLICT DO NOTHING
    RETURNING stream_id, version),
  bumped AS (
    -- The keys are looked up by the primary key (= ANY of the stream ids), whatever the cached
    -- plan guesses of jsonb_to_recordset's size or of the table's.
    UPDATE fl_streams f SET version = f.version + i.n FROM i
    WHERE f.tenant = p_tenant AND f.stream_id = ANY (ARRAY(SELECT s FROM i WHERE i.e >= 0))
      AND f.stream_id = i.s AND i.e >= 0 AND f.version = i.e
    RETURNING f.stream_id, f.version),
  unchecked AS (
    INSERT INTO fl_streams (tenant, stream_id, version)
    SELECT p_tenant, i.s, i.n - 1 FROM i WHERE i.e IS NULL ORDER BY i.s
    ON CONFLICT (tenant, stream_id) DO UPDATE SET version = fl_streams.version + excluded.version + 1
    RETURNING stream_id, version)
  SELECT coalesce(jsonb_object_agg(c.stream_id, c.version), '{}'::jsonb) INTO v_versions
  FROM (SELECT * FROM created UNION ALL SELECT * FROM bumped UNION ALL SELECT * FROM unchecked) c;

  SELECT i.s, i.e INTO v_missing FROM jsonb_to_recordset(p_streams) AS i(s text, e int, n int)
  WHERE NOT v_versions ? i.s LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'version conflict on stream %', v_missing.s USING ERRCODE = 'FL409';
  END IF;
  EXCEPTION WHEN SQLSTATE 'FL409' THEN
    v_actual := coalesce((SELECT version FROM fl_streams WHERE tenant = p_tenant AND stream_id = v_missing.s), -1);
    RETURN jsonb_build_object('conflict', jsonb_build_object('stream', v_missing.s, 'expected', v_missing.e, 'actual', v_actual,
      'events', CASE WHEN v_actual < 1000 THEN (
        SELECT coalesce(jsonb_agg(jsonb_build_object('global_position', e.global_position, 'transaction_id', e.transaction_id::text,
          'tenant', e.tenant, 'stream_id', e.stream_id, 'stream_version', e.stream_version, 'event_id', e.event_id::text, 'type', e.type,
          'data', e.data, 'command_id', e.command_id, 'causation_id', e.causation_id, 'correlation_id', e.correlation_id, 'batch', e.batch,
          'recorded_at', e.recorded_at) ORDER BY e.stream_version), '[]'::jsonb)
        FROM fl_events e WHERE e.tenant = p_tenant AND e.stream_id = v_missing.s) END));
  END;

  -- Held until commit: positions become visible in the order they were drawn, and the event
  -- before the first new one is committed (its hash final) when the new ones are chained to it.
  PERFORM pg_advisory_xact_lock(1718353921);
  v_count := jsonb_array_length(p_events);
  -- This append's positions, drawn as one block: no other append draws while the lock is held.
  v_first := nextval(pg_get_serial_sequence('fl_events', 'global_position'));
  IF v_count > 1 THEN PERFORM setval(pg_get_serial_sequence('fl_events', 'global_position'), v_first + v_count - 1); END IF;
  v_actor := nullif(current_setting('factledger.actor', true), '');
  SELECT e.hash INTO v_previous FROM fl_events e WHERE e.global_position < v_first ORDER BY e.global_position DESC LIMIT 1;

  -- Each event's stream version and content hash in one set-based pass, in the order given.
  SELECT array_agg(x.s ORDER BY x.ord), array_agg(x.v ORDER BY x.ord), array_agg(x.i ORDER BY x.ord), array_agg(x.t ORDER BY x.ord), array_agg(x.d ORDER BY x.ord),
    array_agg(sha256(fl_event_content(v_first + x.ord - 1, p_tenant, x.s, x.v, x.i, x.t, x.d, p_command_id, p_causation_id, p_correlation_id, p_batch, p_recorded_at, v_actor)) ORDER BY x.ord)
  INTO v_streams, v_stream_versions, v_ids, v_types, v_data, v_contents
  FROM (
    SELECT r.ord, r.s, r.i, r.t, r.d,
      ((v_versions ->> r.s)::int - count(*) OVER (PARTITION BY r.s) + row_number() OVER (PARTITION BY r.s ORDER BY r.ord))::int AS v
    FROM ROWS FROM (jsonb_to_recordset(p_events) AS (s text, i uuid, t text, d jsonb)) WITH ORDINALITY AS r(s, i, t, d, ord)) x;
  -- The chain, in position order: each hash over the one before it.
  v_hashes := ARRAY[]::bytea[];
  FOR k IN 1 .. v_count LOOP
    v_previous := sha256(coalesce(v_previous, ''::bytea) || v_contents[k]);
    v_hashes := v_hashes || v_previous;
  END LOOP;

  INSERT INTO fl_events (global_position, tenant, stream_id, stream_version, event_id, type, data, command_id, causation_id, correlation_id, batch, recorded_at, actor, content_hash, hash)
  SELECT v_first + u.ord - 1, p_tenant, u.s, u.v, u.i, u.t, u.d, p_command_id, p_causation_id, p_correlation_id, p_batch, p_recorded_at, v_actor, u.ch, u.h
  FROM unnest(v_streams, v_stream_versions, v_ids, v_types, v_data, v_contents, v_hashes) WITH ORDINALITY AS u(s, v, i, t, d, ch, h, ord)
  ORDER BY u.ord;
  v_positions := ARRAY(SELECT generate_series(v_first, v_first + v_count - 1));
  v_last := v_first + v_count - 1;

  IF p_command_id IS NOT NULL THEN
    UPDATE fl_commands SET last_position = v_last WHERE tenant = p_tenant AND command_id = p_command_id;
  END IF;
  -- The fact projection is called directly (its plans are cached); any other follow-up by name.
  IF p_then = 'fl_apply_fact_changes'::regproc THEN
    v_then := fl_apply_fact_changes(p_then_payload, v_positions);
  ELSIF p_then IS NOT NULL THEN
    EXECUTE format('SELECT %s($1, $2)', p_then) INTO v_then USING p_then_payload, v_positions;
  END IF;
  RETURN jsonb_build_object('duplicate', false, 'position', v_last, 'positions', to_jsonb(v_positions), 'versions', v_versions, 'then', v_then);
END;
$$;
