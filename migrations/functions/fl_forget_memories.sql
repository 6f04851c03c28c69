-- fl_forget_memories: takes erased memories out of every read model the log feeds: the fact
-- projection's rows, the recall index (with BM25's stem counts; a stem no remaining version holds
-- goes, since a stem is a word of the text), the watermark of a stream left with no memory, and
-- the recall traces that show them. The fact
-- projection calls it when it applies MemoryErased.
--
-- Nothing written after it can bring one back: it waits for a recall-index pass that is writing
-- (the indexer's lock, 'fl_projection:recall-index'), and holds trace inserts off until it
-- commits; the indexer and the trace writer leave out memories recorded as erased.
-- The current definition: edit it here (see migrations.ts), never in a numbered migration.
CREATE OR REPLACE FUNCTION fl_forget_memories(p_tenant text, p_ids text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_streams text[];
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
  WITH gone AS (DELETE FROM fl_memories WHERE tenant = p_tenant AND memory_id = ANY (p_ids) RETURNING stream_id)
  SELECT array_agg(DISTINCT stream_id) INTO v_streams FROM gone;
  -- A stream left with no memory loses its watermark too, as a rebuild from the log would leave it
  -- (an erased event advances nothing there); a later event on it is applied from the start.
  DELETE FROM fl_projected_streams s WHERE s.tenant = p_tenant AND s.stream_id = ANY (v_streams)
    AND NOT EXISTS (SELECT 1 FROM fl_memories m WHERE m.tenant = p_tenant AND m.stream_id = s.stream_id);
  DELETE FROM fl_recall_traces t WHERE t.tenant = p_tenant
    AND EXISTS (SELECT 1 FROM unnest(p_ids) AS m(id) WHERE strpos(t.trace::text, '"' || m.id || '"') > 0);
END;
$$;
