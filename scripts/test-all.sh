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
  # Its own process group, so stopping it also stops the server that npx starts. Kept-alive connections
  # stay open as long as `npm start` keeps them (scripts/start.mjs): with Node's 5 s, a spec whose request
  # reused a connection at the moment the server closed it got ECONNRESET.
  # Google and GitHub are a stand-in that e2e/connections.spec.ts starts on this port (test/oauth-providers.ts).
  local oauth_port=$((port + 100)) oauth
  oauth="http://127.0.0.1:$oauth_port"
  setsid env "$@" PORT="$port" APP_URL="http://127.0.0.1:$port" LOG_LEVEL=warn \
    GOOGLE_CLIENT_ID=google-client.apps.test GOOGLE_CLIENT_SECRET=google-secret GITHUB_CLIENT_ID=Iv1.githubclient GITHUB_CLIENT_SECRET=github-secret \
    GOOGLE_ACCOUNTS_URL="$oauth" GOOGLE_OAUTH_URL="$oauth" GOOGLE_API_URL="$oauth" GITHUB_URL="$oauth" GITHUB_API_URL="$oauth" \
    npx next start -p "$port" --keepAliveTimeout 75000 > "$log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 120); do
    curl -fs "http://127.0.0.1:$port/api/health" > /dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || { cat "$log"; return 1; }
    sleep 1
  done
  local status=0
  E2E_BASE_URL="http://127.0.0.1:$port" E2E_OUTPUT_DIR="test-results/$label" E2E_OAUTH_PORT="$oauth_port" npx playwright test ${E2E_PROJECTS:-} || status=$?
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

# The two passes run side by side, each on its own server and database, one spec at a time each: a pass
# mostly waits on its browser and server, so together they take little longer than one alone. Every spec
# runs on both engines and at both sizes: the phone (390×844) on the embedded PGlite, with Lighthouse and
# the JavaScript budget, and the desktop on Postgres, which keeps CI under its 30 minutes. Without a Postgres server, both sizes on PGlite.
# Each pass writes to its own file, printed when both are done.
data_dir=$(mktemp -d)
trap 'rm -rf "$data_dir"' EXIT
pglite_projects=""
[ -z "${TEST_DATABASE_URL:-}" ] || pglite_projects="--project phone"
E2E_PROJECTS="$pglite_projects" e2e_run pglite 3301 PGLITE_DIR="$data_dir/pglite" DEV_MAILBOX=1 > "$data_dir/pglite.out" 2>&1 &
pglite_pass=$!
passes=(pglite)

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  db="mv_e2e_$(date +%s)_$$"
  psql "$TEST_DATABASE_URL" -qc "create database $db" > /dev/null
  url="${TEST_DATABASE_URL%/*}/$db"
  drop_db() { psql "$TEST_DATABASE_URL" -qc "drop database if exists $db with (force)" > /dev/null || true; rm -rf "$data_dir"; }
  trap drop_db EXIT
  # An install on its own Postgres is configured by env (.env.example): the keys that seal stored
  # tokens and the Web Push pair, which the embedded default generates by itself.
  secrets_keys="e2e:$(node -e "process.stdout.write(require('node:crypto').randomBytes(32).toString('base64'))")"
  vapid=$(node -e "const k=require('web-push').generateVAPIDKeys();process.stdout.write(k.publicKey+' '+k.privateKey)")
  (
    DATABASE_URL="$url" npm run --silent db:migrate
    E2E_PROJECTS="--project desktop" e2e_run postgres 3302 DATABASE_URL="$url" SEED_DEMO=1 DEV_MAILBOX=1 \
      SECRETS_KEYS="$secrets_keys" VAPID_PUBLIC_KEY="${vapid% *}" VAPID_PRIVATE_KEY="${vapid#* }"
  ) > "$data_dir/postgres.out" 2>&1 &
  postgres_pass=$!
  passes+=(postgres)
fi

failed=0
for pass in "${passes[@]}"; do
  pid_var="${pass}_pass"
  status=0
  wait "${!pid_var}" || status=$?
  cat "$data_dir/$pass.out"
  [ "$status" -eq 0 ] || { echo "e2e on $pass failed (exit $status)" >&2; failed=1; }
done
[ "$failed" -eq 0 ] || exit 1

step "all tests passed"
