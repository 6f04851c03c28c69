-- fl_restating: the memories in the read paths at p_now that a new statement may restate (frame
-- alignment, @factledger/domain restatement.ts), as a jsonb array of fl_memories rows, newest said first,
-- at most p_limit: prose and frame keys whose fl_frame_text starts with that of the statement's
-- subject and verb (p_stem), or, without a stem (Korean), with the statement's first word
-- (fl_frame_head); a range on index fl_memories_frame_text (byte order). One home for the look-up:
-- FactReader.restating reads it, and fl_apply_fact_changes checks an append's frame guards with it
-- (the memories a plan was made on are still these); what it finds after an append the ledger
-- guesses (restatingAfter), and the next guard checks the guess.
-- The current definition: edit it here (see migrations.ts), never in a numbered migration.
CREATE OR REPLACE FUNCTION fl_restating(p_tenant text, p_text text, p_stem text, p_now timestamptz, p_limit int)
RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_start text := CASE WHEN p_stem IS NULL THEN fl_frame_head(p_text) ELSE fl_frame_text(p_stem) END;
  v_from text := CASE WHEN p_stem IS NULL THEN v_start ELSE v_start || ' ' END;
  v_to text := CASE WHEN p_stem IS NULL THEN v_start || chr(1114111) ELSE v_start || '!' END;
BEGIN
  RETURN (
    SELECT coalesce(jsonb_agg(to_jsonb(m) ORDER BY m.said_at DESC, m.memory_id), '[]'::jsonb)
    FROM (
      SELECT * FROM fl_memories
      WHERE tenant = p_tenant AND status = 'active' AND (kind = 'prose' OR relation LIKE '%…%')
        AND fl_frame_text(text) ~>=~ v_from AND fl_frame_text(text) ~<~ v_to
        AND (valid_to IS NULL OR valid_to > p_now)
      ORDER BY said_at DESC, memory_id LIMIT p_limit) m);
END;
$$;
