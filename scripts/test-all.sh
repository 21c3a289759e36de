#!/usr/bin/env bash
# The one test command (`npm test`): typecheck, lint, unit and integration tests (PGlite, and real
# Postgres when TEST_DATABASE_URL is set), then the Playwright specs against the built app, once on
# a fresh embedded PGlite and once on a fresh Postgres database. Every database it makes, it drops.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step typecheck
npx tsc --noEmit
step lint
npx eslint . --max-warnings 0

step "unit and integration tests"
npx vitest run

step build
npm run build > /tmp/multiverbe-build.log 2>&1 || { tail -50 /tmp/multiverbe-build.log; exit 1; }

e2e_run() {
  local label=$1 port=$2; shift 2
  step "e2e on $label"
  local log="/tmp/multiverbe-e2e-$label.log"
  if curl -fs "http://127.0.0.1:$port/api/health" > /dev/null 2>&1; then
    echo "port $port is already serving something; stop it first" >&2
    return 1
  fi
  # Its own process group, so stopping it also stops the server that npx starts.
  setsid env "$@" PORT="$port" APP_URL="http://127.0.0.1:$port" LOG_LEVEL=warn npx next start -p "$port" > "$log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 120); do
    curl -fs "http://127.0.0.1:$port/api/health" > /dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || { cat "$log"; return 1; }
    sleep 1
  done
  local status=0
  E2E_BASE_URL="http://127.0.0.1:$port" npx playwright test || status=$?
  kill -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  [ "$status" -eq 0 ] || { tail -40 "$log"; return "$status"; }
}

# The key that opens the whole dev mailbox, set here for the servers started below and read by
# e2e/mailbox.spec.ts (an owner reads the one printed at start).
DEV_MAILBOX_KEY=$(node -e "process.stdout.write(require('node:crypto').randomBytes(24).toString('base64url'))")
export DEV_MAILBOX_KEY
# Both servers below seed the demo: a spec that needs it fails without it instead of skipping (e2e/demo-session.ts).
export E2E_EXPECT_DEMO=1

data_dir=$(mktemp -d)
trap 'rm -rf "$data_dir"' EXIT
e2e_run pglite 3301 PGLITE_DIR="$data_dir/pglite" DEV_MAILBOX=1

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  db="mv_e2e_$(date +%s)_$$"
  psql "$TEST_DATABASE_URL" -qc "create database $db" > /dev/null
  url="${TEST_DATABASE_URL%/*}/$db"
  drop_db() { psql "$TEST_DATABASE_URL" -qc "drop database if exists $db with (force)" > /dev/null || true; rm -rf "$data_dir"; }
  trap drop_db EXIT
  DATABASE_URL="$url" npx tsx scripts/migrate.ts
  # Lighthouse runs once per npm test, in the PGlite pass above (e2e/a11y.spec.ts).
  E2E_SKIP_LIGHTHOUSE=1 e2e_run postgres 3302 DATABASE_URL="$url" SEED_DEMO=1 DEV_MAILBOX=1
fi

step "all tests passed"
