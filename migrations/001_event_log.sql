-- The event log: append-only, one row per event. global_position is drawn in commit order
-- (appends hold an advisory lock from insert to commit); transaction_id is kept for audit.
CREATE TABLE fl_events (
  global_position bigserial PRIMARY KEY,
  transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
  tenant          text        NOT NULL,
  stream_id       text        NOT NULL,
  stream_version  integer     NOT NULL,
  event_id        uuid        NOT NULL,
  type            text        NOT NULL,
  data            jsonb       NOT NULL,
  command_id      text,
  causation_id    text,
  correlation_id  text,
  batch           text,
  recorded_at     timestamptz NOT NULL,
  UNIQUE (tenant, stream_id, stream_version)
);
CREATE INDEX fl_events_batch ON fl_events (tenant, batch) WHERE batch IS NOT NULL;

-- Current version of each stream: the row that optimistic concurrency locks and bumps.
CREATE TABLE fl_streams (
  tenant    text    NOT NULL,
  stream_id text    NOT NULL,
  version   integer NOT NULL,
  PRIMARY KEY (tenant, stream_id)
);

-- Commands already appended, so that a retried command appends nothing twice.
CREATE TABLE fl_commands (
  tenant        text   NOT NULL,
  command_id    text   NOT NULL,
  last_position bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant, command_id)
);

-- Append-only in the database itself, not only in code.
-- fl_reject_event_change: defined in migrations/functions/fl_reject_event_change.sql (its current definition).
CREATE TRIGGER fl_events_no_update_delete BEFORE UPDATE OR DELETE ON fl_events
  FOR EACH ROW EXECUTE FUNCTION fl_reject_event_change();
CREATE TRIGGER fl_events_no_truncate BEFORE TRUNCATE ON fl_events
  FOR EACH STATEMENT EXECUTE FUNCTION fl_reject_event_change();
