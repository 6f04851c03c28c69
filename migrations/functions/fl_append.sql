-- fl_append: one append, in one statement and one transaction. It claims the command id with the
-- command's fingerprint (the setting factledger.command_fingerprint, made by the caller's statement
-- like factledger.actor; migrations/027): a retried command appends nothing and answers with its
-- original position and the first claim's fingerprint, by which the caller tells another command
-- that reuses the id. It checks and bumps every stream's version (looked up by primary key: a plan
-- cached while fl_streams was small must not become a scan), takes the ordering lock just before
-- it inserts (APPEND_LOCK: positions become visible in the order they were drawn, see
-- postgres-event-store.ts), inserts the events and runs the follow-up (an inline projection) with
-- their positions. A stream not at its expected version writes nothing: the claim and the checks
-- are undone, and the reply carries the stream's version and (up to 1,000 of) its events, so the
-- writer decides again without reading it back.
-- The current definition: edit it here (see migrations.ts), never in a numbered migration.
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
BEGIN
  -- The claim and the version checks run in a block of their own: on a version conflict the
  -- block undoes them and the caller gets, instead of an error, where the stream stands and (up
  -- to 1,000 events) the stream itself, so that it decides again without reading it back.
  BEGIN
  IF p_command_id IS NOT NULL THEN
    -- A concurrent retry blocks on this row until the first commits, then finds it.
    INSERT INTO fl_commands (tenant, command_id, fingerprint)
    VALUES (p_tenant, p_command_id, nullif(current_setting('factledger.command_fingerprint', true), '')) ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RETURN (SELECT jsonb_build_object('duplicate', true, 'position', c.last_position, 'fingerprint', c.fingerprint, 'versions', '{}'::jsonb)
        FROM fl_commands c WHERE c.tenant = p_tenant AND c.command_id = p_command_id);
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

  -- Held until commit: positions become visible in the order they were drawn.
  PERFORM pg_advisory_xact_lock(1718353921);
  WITH written AS (
    INSERT INTO fl_events (tenant, stream_id, stream_version, event_id, type, data, command_id, causation_id, correlation_id, batch, recorded_at)
    SELECT p_tenant, r.s,
      (v_versions ->> r.s)::int - count(*) OVER (PARTITION BY r.s) + row_number() OVER (PARTITION BY r.s ORDER BY r.ord),
      r.i, r.t, r.d, p_command_id, p_causation_id, p_correlation_id, p_batch, p_recorded_at
    FROM ROWS FROM (jsonb_to_recordset(p_events) AS (s text, i uuid, t text, d jsonb)) WITH ORDINALITY AS r(s, i, t, d, ord)
    ORDER BY r.ord
    RETURNING global_position)
  SELECT array_agg(global_position ORDER BY global_position) INTO v_positions FROM written;
  v_last := v_positions[array_length(v_positions, 1)];

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
