-- fl_guard_event_change: fl_events is append-only. The one exception is an erasure
-- (EventStore.redact): while `factledger.erasing` is set for the transaction, an UPDATE may change
-- an event's data and nothing else.
-- The current definition: edit it here (see migrations.ts), never in a numbered migration.
CREATE OR REPLACE FUNCTION fl_guard_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
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
