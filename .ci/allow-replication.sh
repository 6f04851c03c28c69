#!/usr/bin/env bash
# Lets the local PostgreSQL server take replication connections from 127.0.0.1 (trust, as its
# other local connections here), so that the read-replica tests can make a hot standby of it with
# pg_basebackup (libs/testing/src/standby.ts). Idempotent; reloads the server's configuration.
set -euo pipefail
HBA=$(psql -U postgres -h 127.0.0.1 -Atc 'SHOW hba_file')
if ! grep -Eq '^host[[:space:]]+replication[[:space:]]+all[[:space:]]+127\.0\.0\.1/32' "$HBA"; then
  echo 'host replication all 127.0.0.1/32 trust' >> "$HBA"
  psql -U postgres -h 127.0.0.1 -Atc 'SELECT pg_reload_conf()' >/dev/null
fi
echo "replication from 127.0.0.1 allowed ($HBA)"
