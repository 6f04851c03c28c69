-- fl_apply_fact_changes: the fact projection's changes for one append (PostgresFactProjection.inline)
-- or one batch of the runner (apply), as one jsonb. Inline, it first checks in one statement that
-- every stream's stored watermark is the one the changes were folded from (a lateral primary-key
-- lookup per stream, locking it): if not, it applies nothing and the runner catches up instead.
-- Before that, inline, it checks the append's frame guards (the Ledger's restatement plans: the
-- memories fl_restating finds for each statement must still be the ones the plan was made on; the
-- append lock is held, so no other append can change them before this one commits): if one has
-- changed, it raises FL412 with every changed guard and its memories as they stand (the DETAIL,
-- jsonb), the append writes nothing, and the ledger plans again on them without reading them back.
-- Then it closes and drops history rows, upserts the memories, inserts the new history rows, moves
-- the watermarks and, when the checkpoint stood right before the append, the checkpoint too. What
-- the look-up finds once the append is applied the ledger works out itself (restatingAfter), and
-- the next append's guard checks that guess.
-- The current definition: edit it here (see migrations.ts), never in a numbered migration.
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
  v_guards jsonb := coalesce(p -> 'guards', '[]'::jsonb);
  v_changed jsonb;
BEGIN
  IF p_positions IS NOT NULL AND jsonb_array_length(v_guards) > 0 THEN
    -- Each guard's look-up run once (LATERAL), its memories compared with those expected by id.
    SELECT jsonb_agg(jsonb_build_object('guard', x.guard, 'rows', f.rows) ORDER BY x.n) INTO v_changed
    FROM jsonb_array_elements(v_guards) WITH ORDINALITY AS x(guard, n),
      LATERAL (SELECT fl_restating(x.guard ->> 'tenant', x.guard ->> 'text', x.guard ->> 'stem', (x.guard ->> 'now')::timestamptz, (x.guard ->> 'limit')::int) AS rows) f
    WHERE (SELECT coalesce(array_agg(r ->> 'memory_id' ORDER BY r ->> 'memory_id'), '{}') FROM jsonb_array_elements(f.rows) r)
      IS DISTINCT FROM (SELECT coalesce(array_agg(e ORDER BY e), '{}') FROM jsonb_array_elements_text(x.guard -> 'expect') e);
    IF v_changed IS NOT NULL THEN
      RAISE EXCEPTION 'the memories a restatement was planned on have changed' USING ERRCODE = 'FL412', DETAIL = v_changed::text;
    END IF;
  END IF;
  IF p_positions IS NOT NULL THEN
    IF jsonb_array_length(v_expect) > 0 THEN
      -- One statement both locks the watermarks we rely on (so that a runner cannot move them
      -- under us) and compares them. Each is looked up by its primary key (the lateral join),
      -- whatever the planner guesses of jsonb_to_recordset or of the table's size.
      SELECT bool_or(coalesce(w.version, -1) <> x.version) INTO v_mismatch
      FROM jsonb_to_recordset(v_expect) AS x(tenant text, "streamId" text, version int)
      LEFT JOIN LATERAL (
        SELECT s.version FROM fl_projected_streams s WHERE s.tenant = x.tenant AND s.stream_id = x."streamId" FOR UPDATE
      ) w ON true;
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
    WHERE h.tenant = c.tenant AND h.memory_id = c."memoryId" AND h.opened_by = c."openedBy"
      -- By the primary key, whatever the planner guesses of jsonb_to_recordset (100 rows): with
      -- that guess alone a hash join over a sequential scan won on a history of ~10k–60k rows,
      -- and every supersession read the whole table (4 ms at 16k rows).
      AND h.tenant = ANY (ARRAY(SELECT x.tenant FROM jsonb_to_recordset(v_closes) AS x(tenant text)))
      AND h.memory_id = ANY (ARRAY(SELECT x."memoryId" FROM jsonb_to_recordset(v_closes) AS x("memoryId" text)));
  END IF;

  IF jsonb_array_length(v_drops) > 0 THEN
    DELETE FROM fl_fact_history h
    USING jsonb_to_recordset(v_drops) AS d(tenant text, "memoryId" text, "openedBy" bigint)
    WHERE h.tenant = d.tenant AND h.memory_id = d."memoryId" AND h.opened_by = d."openedBy"
      AND h.tenant = ANY (ARRAY(SELECT x.tenant FROM jsonb_to_recordset(v_drops) AS x(tenant text)))
      AND h.memory_id = ANY (ARRAY(SELECT x."memoryId" FROM jsonb_to_recordset(v_drops) AS x("memoryId" text)));
  END IF;

  IF jsonb_array_length(v_memories) > 0 THEN
    INSERT INTO fl_memories SELECT * FROM jsonb_populate_recordset(NULL::fl_memories, v_memories)
    ON CONFLICT (tenant, memory_id) DO UPDATE SET
      type = excluded.type, status = excluded.status, valid_from = excluded.valid_from, valid_to = excluded.valid_to,
      confirmations = excluded.confirmations, quarantined = excluded.quarantined, corrected = excluded.corrected,
      withdrawn = excluded.withdrawn, retracted = excluded.retracted, overruled = excluded.overruled,
      superseded_by = excluded.superseded_by, updated_at = excluded.updated_at, last_position = excluded.last_position,
      hidden_parts = excluded.hidden_parts, unconfirmed = excluded.unconfirmed;
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
