#!/bin/bash
# Run once by the primary's image when it makes its data folder (/docker-entrypoint-initdb.d):
# lets the standby connect for streaming replication, with the same password as everything else.
set -e
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "$PGDATA/pg_hba.conf"
