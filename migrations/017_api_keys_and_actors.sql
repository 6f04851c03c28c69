-- API keys (issue 16): one row a key, the secret kept only as its SHA-256 (hex). A key is
-- revoked by stamping revoked_at, never deleted, so the log's actor ids always name a known key.
CREATE TABLE fl_api_keys (
  key_id      text        PRIMARY KEY,
  tenant      text        NOT NULL,
  scopes      text[]      NOT NULL,
  name        text,
  secret_hash text        NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz,
  revoked_at  timestamptz
);

-- Who caused each event: the key id of the request (never its secret), or an actor id a host
-- application passed. The append sets it for its own transaction (set_config(..., true)), and the
-- column takes it as its default, so fl_append and every statement that inserts events stay as they
-- are; an event written with no actor set has none.
ALTER TABLE fl_events ADD COLUMN actor text DEFAULT nullif(current_setting('factledger.actor', true), '');
