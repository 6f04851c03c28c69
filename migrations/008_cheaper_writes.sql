-- Cheaper writes, same behaviour (both functions first appear in migration 004):
--   fl_append also returns every new event's position, in append order, so a writer can keep the
--   streams it just wrote in memory with their real positions and decide its next command on them
--   without reading them back; and it calls the fact projection directly instead of through
--   dynamic SQL, which was planned again on every append.
--   fl_apply_fact_changes takes each part out of its payload once and skips the statements whose
--   part is empty (an ingest record alone projects no rows but still moves the checkpoint).
-- fl_append returns {"duplicate", "position", "positions": [position, …], "versions", "then"}.

CREATE OR REPLACE FUNCTION fl_apply_fact_changes(p jsonb, p_positions bigint[]) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_mismatch boolean;
  v_moved boolean := false;
  v_memories jsonb := p -> 'memories';
  -- Each part taken out of the payload once (a large payload is decompressed on every access).
  v_expect jsonb := p -> 'expect';
  v_closes jsonb := p -> 'closes';
  v_drops jsonb := p -> 'drops';
  v_inserts jsonb := p -> 'inserts';
  v_watermarks jsonb := p -> 'watermarks';
BEGIN
  IF p_positions IS NOT NULL THEN
    IF jsonb_array_length(v_expect) > 0 THEN
      -- Lock the watermarks we rely on, so that a runner cannot move them under us.
      PERFORM 1 FROM fl_projected_streams w
        JOIN jsonb_to_recordset(v_expect) AS x(tenant text, "streamId" text, version int)
          ON w.tenant = x.tenant AND w.stream_id = x."streamId"
        FOR UPDATE OF w;
      SELECT bool_or(coalesce(w.version, -1) <> x.version) INTO v_mismatch
      FROM jsonb_to_recordset(v_expect) AS x(tenant text, "streamId" text, version int)
      LEFT JOIN fl_projected_streams w ON w.tenant = x.tenant AND w.stream_id = x."streamId";
      IF v_mismatch THEN
        RETURN jsonb_build_object('projected', false, 'checkpoint', false);
      END IF;
    END IF;
    IF jsonb_array_length(v_memories) > 0 THEN
      SELECT coalesce(jsonb_agg(CASE WHEN (m ->> 'last_position')::bigint < 0
          THEN jsonb_set(m, '{last_position}', to_jsonb(p_positions[-(m ->> 'last_position')::int])) ELSE m END), '[]'::jsonb)
        INTO v_memories FROM jsonb_array_elements(v_memories) m;
    END IF;
  END IF;

  -- Close before insert, so that no two open rows ever overlap.
  IF jsonb_array_length(v_closes) > 0 THEN
    UPDATE fl_fact_history h
    SET tx = tstzrange(lower(h.tx), c."txTo", '[)'),
        closed_by = CASE WHEN c."closedBy" < 0 THEN p_positions[-c."closedBy"] ELSE c."closedBy" END,
        closed_event_type = c."closedEventType"
    FROM jsonb_to_recordset(v_closes)
      AS c(tenant text, "memoryId" text, "openedBy" bigint, "txTo" timestamptz, "closedBy" bigint, "closedEventType" text)
    WHERE h.tenant = c.tenant AND h.memory_id = c."memoryId" AND h.opened_by = c."openedBy";
  END IF;

  IF jsonb_array_length(v_drops) > 0 THEN
    DELETE FROM fl_fact_history h
    USING jsonb_to_recordset(v_drops) AS d(tenant text, "memoryId" text, "openedBy" bigint)
    WHERE h.tenant = d.tenant AND h.memory_id = d."memoryId" AND h.opened_by = d."openedBy";
  END IF;

  IF jsonb_array_length(v_memories) > 0 THEN
    INSERT INTO fl_memories SELECT * FROM jsonb_populate_recordset(NULL::fl_memories, v_memories)
    ON CONFLICT (tenant, memory_id) DO UPDATE SET
      type = excluded.type, status = excluded.status, valid_from = excluded.valid_from, valid_to = excluded.valid_to,
      confirmations = excluded.confirmations, quarantined = excluded.quarantined, corrected = excluded.corrected,
      withdrawn = excluded.withdrawn, retracted = excluded.retracted, overruled = excluded.overruled,
      superseded_by = excluded.superseded_by, updated_at = excluded.updated_at, last_position = excluded.last_position;
  END IF;

  IF jsonb_array_length(v_inserts) > 0 THEN
    INSERT INTO fl_fact_history (tenant, memory_id, opened_by, opened_event_type, stream_id, element, kind, cardinality, subject, relation,
      subject_norm, scope, value, text, type, speaker, source, status, valid, tx, closed_by, closed_event_type)
    SELECT r.tenant, r."memoryId", CASE WHEN r."openedBy" < 0 THEN p_positions[-r."openedBy"] ELSE r."openedBy" END,
      r."openedEventType", r."streamId", r.element, r.kind, r.cardinality, r.subject, r.relation,
      r."subjectNorm", r.scope, r.value, r.text, r.type, r.speaker, r.source, r.status,
      tstzrange(r."validFrom", r."validTo", '[)'), tstzrange(r."txFrom", r."txTo", '[)'),
      CASE WHEN r."closedBy" < 0 THEN p_positions[-r."closedBy"] ELSE r."closedBy" END, r."closedEventType"
    FROM jsonb_to_recordset(v_inserts) AS r(
      tenant text, "memoryId" text, "openedBy" bigint, "openedEventType" text, "streamId" text, element text, kind text, cardinality text,
      subject text, relation text, "subjectNorm" text, scope jsonb, value text, text text, type text, speaker text, source text,
      status text, "validFrom" timestamptz, "validTo" timestamptz, "txFrom" timestamptz, "txTo" timestamptz,
      "closedBy" bigint, "closedEventType" text);
  END IF;

  IF jsonb_array_length(v_watermarks) > 0 THEN
    INSERT INTO fl_projected_streams (tenant, stream_id, version)
    SELECT w.tenant, w."streamId", w.version FROM jsonb_to_recordset(v_watermarks) AS w(tenant text, "streamId" text, version int)
    ON CONFLICT (tenant, stream_id) DO UPDATE SET version = excluded.version;
  END IF;

  IF p_positions IS NOT NULL AND p ? 'checkpoint' THEN
    UPDATE fl_checkpoints SET commit = pg_current_xact_id(), prepare = p_positions[array_length(p_positions, 1)], updated_at = now()
    WHERE name = p ->> 'checkpoint'
      AND prepare = coalesce((SELECT max(global_position) FROM fl_events WHERE global_position < p_positions[1]), 0);
    v_moved := FOUND;
  END IF;
  RETURN jsonb_build_object('projected', true, 'checkpoint', v_moved);
END;
$$;

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
    UPDATE fl_streams f SET version = f.version + i.n FROM i
    WHERE f.tenant = p_tenant AND f.stream_id = i.s AND i.e >= 0 AND f.version = i.e
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
    RAISE EXCEPTION 'version conflict on stream %', v_missing.s USING ERRCODE = 'FL409',
      DETAIL = jsonb_build_object('stream', v_missing.s, 'expected', v_missing.e,
        'actual', coalesce((SELECT version FROM fl_streams WHERE tenant = p_tenant AND stream_id = v_missing.s), -1))::text;
  END IF;

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
