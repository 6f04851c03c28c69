CREATE EXTENSION IF NOT EXISTS btree_gist;

-- Where each projection has read the log up to (a (commit, prepare) pair, see the store port).
CREATE TABLE fl_checkpoints (
  name       text        PRIMARY KEY,
  commit     xid8        NOT NULL DEFAULT '0',
  prepare    bigint      NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Last stream version applied per stream: replaying an event twice changes nothing.
CREATE TABLE fl_projected_streams (
  tenant    text    NOT NULL,
  stream_id text    NOT NULL,
  version   integer NOT NULL,
  PRIMARY KEY (tenant, stream_id)
);

-- Every memory version as it stands now (the decider's version state, made queryable).
CREATE TABLE fl_memories (
  tenant         text        NOT NULL,
  memory_id      text        NOT NULL,
  stream_id      text        NOT NULL,
  kind           text        NOT NULL,
  subject        text,
  relation       text,
  subject_norm   text,
  relation_norm  text,
  scope          jsonb       NOT NULL,
  scope_key      text        NOT NULL,
  value          text,
  text           text        NOT NULL,
  type           text        NOT NULL,
  original_type  text        NOT NULL,
  speaker        text        NOT NULL,
  source         text,
  authority      integer     NOT NULL,
  cardinality    text        NOT NULL,
  core           boolean     NOT NULL,
  status         text        NOT NULL CHECK (status IN ('active', 'quarantined', 'retired', 'overruled')),
  valid_from     timestamptz NOT NULL,
  valid_to       timestamptz,
  confirmations  integer     NOT NULL,
  quarantined    boolean     NOT NULL,
  corrected      boolean     NOT NULL,
  withdrawn      boolean     NOT NULL,
  retracted      boolean     NOT NULL,
  overruled      boolean     NOT NULL,
  superseded_by  text,
  recorded_at    timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  last_position  bigint      NOT NULL,
  PRIMARY KEY (tenant, memory_id)
);
CREATE INDEX fl_memories_stream ON fl_memories (tenant, stream_id);
CREATE INDEX fl_memories_subject ON fl_memories (tenant, subject_norm);
CREATE INDEX fl_memories_status ON fl_memories (tenant, status);

-- Bitemporal history: one row per state of a version, with its valid period and its
-- transaction period, both half-open [from, to). A change closes the open row's transaction
-- period and opens a new row; nothing is ever updated otherwise.
CREATE TABLE fl_fact_history (
  tenant            text      NOT NULL,
  memory_id         text      NOT NULL,
  opened_by         bigint    NOT NULL,
  opened_event_type text      NOT NULL,
  stream_id         text      NOT NULL,
  element           text      NOT NULL,
  kind              text      NOT NULL,
  cardinality       text      NOT NULL,
  subject           text,
  relation          text,
  subject_norm      text,
  scope             jsonb     NOT NULL,
  value             text,
  text              text      NOT NULL,
  type              text      NOT NULL,
  speaker           text      NOT NULL,
  source            text,
  status            text      NOT NULL CHECK (status IN ('active', 'quarantined', 'overruled')),
  valid             tstzrange NOT NULL,
  tx                tstzrange NOT NULL,
  closed_by         bigint,
  closed_event_type text,
  PRIMARY KEY (tenant, memory_id, opened_by),
  -- No two current versions of one key (one element of a set) overlap in valid time.
  CONSTRAINT fl_fact_history_no_overlap EXCLUDE USING gist (
    tenant WITH =, stream_id WITH =, element WITH =, valid WITH &&
  ) WHERE (status = 'active' AND upper_inf(tx))
);
CREATE INDEX fl_fact_history_stream ON fl_fact_history (tenant, stream_id);
CREATE INDEX fl_fact_history_open ON fl_fact_history (tenant, stream_id) WHERE upper_inf(tx);
CREATE INDEX fl_fact_history_subject ON fl_fact_history (tenant, subject_norm);
