-- fl_guard_salt_change: a salt of the hash chain goes only with its event's erasure.
-- The current definition: edit it here (see migrations.ts), never in a numbered migration.
CREATE OR REPLACE FUNCTION fl_guard_salt_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('factledger.erasing', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'fl_event_salts is append-only: % is not allowed', TG_OP USING ERRCODE = 'P0001';
END;
$$;
