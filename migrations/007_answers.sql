-- Recorded answers (R15): each answer as it stands, and which memory versions it cited, with the
-- log position it was recorded at (the re-review saga reopens only answers given before a change).
CREATE TABLE fl_answers (
  tenant        text        NOT NULL,
  answer_id     text        NOT NULL,
  question      text        NOT NULL,
  text          text        NOT NULL,
  citations     jsonb       NOT NULL,
  status        text        NOT NULL CHECK (status IN ('answered', 'reopened', 'reviewed')),
  reopened      jsonb,
  recorded_at   timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  position      bigint      NOT NULL,
  last_position bigint      NOT NULL,
  PRIMARY KEY (tenant, answer_id)
);
CREATE INDEX fl_answers_open ON fl_answers (tenant) WHERE status = 'reopened';

CREATE TABLE fl_answer_citations (
  tenant    text   NOT NULL,
  memory_id text   NOT NULL,
  answer_id text   NOT NULL,
  position  bigint NOT NULL,
  PRIMARY KEY (tenant, memory_id, answer_id)
);
