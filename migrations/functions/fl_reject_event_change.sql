-- fl_reject_event_change: what an append-only table answers to UPDATE, DELETE and TRUNCATE (the
-- hash chain, the salts' TRUNCATE).
-- The current definition: edit it here (see migrations.ts), never in a numbered migration.
CREATE OR REPLACE FUNCTION fl_reject_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'fl_events is append-only: % is not allowed', TG_OP USING ERRCODE = 'P0001';
END;
$$;
