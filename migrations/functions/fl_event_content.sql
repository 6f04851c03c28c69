-- fl_event_content: what the hash chain hashes of an event (fl_seal, EventStore.verify): its position,
-- tenant, stream, version, ids, type, data, command, causation and correlation ids, batch,
-- recorded time (microseconds since the epoch: the same text in any time zone) and actor, as
-- canonical jsonb text. A sealed event's content hash is sha256(its salt || this).
-- The current definition: edit it here (see migrations.ts), never in a numbered migration.
CREATE OR REPLACE FUNCTION fl_event_content(
  p_position bigint, p_tenant text, p_stream text, p_version integer, p_event_id uuid, p_type text, p_data jsonb,
  p_command_id text, p_causation_id text, p_correlation_id text, p_batch text, p_recorded_at timestamptz, p_actor text
) RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT convert_to(jsonb_build_array(p_position, p_tenant, p_stream, p_version, p_event_id, p_type, p_data,
    p_command_id, p_causation_id, p_correlation_id, p_batch,
    -- Microseconds since the epoch: the same text whatever the session's time zone.
    (extract(epoch FROM p_recorded_at) * 1000000)::bigint, p_actor)::text, 'UTF8')
$$;
