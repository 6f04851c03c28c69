#!/usr/bin/env bash
# Idempotently build+install pgvector (from Debian trixie *source* package) for the local PostgreSQL server.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
LOG=${PGVECTOR_LOG:-/tmp/install-pgvector.log}; WORK=${PGVECTOR_WORK:-/tmp/pgvector-build}
log() { echo "[pgvector] $*"; }
run() { "$@" >>"$LOG" 2>&1 || { log "FAILED: $*"; tail -n 40 "$LOG"; exit 1; }; }
q() { psql -U postgres -d postgres -XAtc "$1"; }
: >"$LOG"

# 1. Make sure a cluster is running (start any that are down).
command -v pg_lsclusters >/dev/null || { log "postgresql-common not installed"; exit 1; }
pg_lsclusters -h | while read -r ver name _port status _rest; do
  if [ "$status" != online ]; then log "starting cluster $ver/$name"; pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" start; fi
done
for _ in $(seq 30); do q 'select 1' >/dev/null 2>&1 && break; sleep 1; done
MAJOR=$(( $(q 'SHOW server_version_num') / 10000 ))
PG_CONFIG=/usr/lib/postgresql/$MAJOR/bin/pg_config
log "server major version: $MAJOR"

# 2. Contrib extensions must ship with the server package.
for ext in btree_gist pg_trgm; do
  [ "$(q "SELECT 1 FROM pg_available_extensions WHERE name='$ext'")" = 1 ] || { log "missing contrib extension $ext"; exit 1; }
done

# 3. Fast path: already installed.
if [ "$(q "SELECT 1 FROM pg_available_extensions WHERE name='vector'")" = 1 ]; then
  log "vector already available ($(q "SELECT default_version FROM pg_available_extensions WHERE name='vector'")); nothing to do"; exit 0
fi

# 4. Source-only trixie entry, reusing this machine's Debian mirror.
CODENAME=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
MIRROR=$(awk -v c="$CODENAME" '/^URIs:/{u=$2} /^Suites:/{for(i=2;i<=NF;i++) if($i==c){print u; exit}}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[ -n "$MIRROR" ] || MIRROR=$(awk -v c="$CODENAME" '$1=="deb" && $0~" "c" "{for(i=2;i<=NF;i++) if($i~/^[a-z]+:\/\//){print $i; exit}}' /etc/apt/sources.list 2>/dev/null || true)
MIRROR=${MIRROR:-http://deb.debian.org/debian}
log "adding deb-src trixie ($MIRROR)"
cat >/etc/apt/sources.list.d/pgvector-trixie-src.sources <<SRC
Types: deb-src
URIs: $MIRROR
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC

# 5. Build dependencies, source, build, install.
log "apt-get update + install build deps (log: $LOG)"
run apt-get update
run apt-get install -y --no-install-recommends --no-upgrade "postgresql-server-dev-$MAJOR" build-essential dpkg-dev
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"; chown _apt "$WORK" 2>/dev/null || true  # lets apt download sandboxed
log "apt-get source pgvector"
run apt-get source pgvector
cd "$(find "$WORK" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n1)"
log "building $(basename "$PWD") against $PG_CONFIG"
run make PG_CONFIG="$PG_CONFIG" OPTFLAGS=""
run make install PG_CONFIG="$PG_CONFIG"
[ "$(q "SELECT 1 FROM pg_available_extensions WHERE name='vector'")" = 1 ] || { log "vector still not available"; exit 1; }
log "done: vector $(q "SELECT default_version FROM pg_available_extensions WHERE name='vector'") installed"
