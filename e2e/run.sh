#!/usr/bin/env bash
# Runs the browser tests against the whole product, as ./dev up runs it:
#   - needs the test stack (scripts/stack start --env test; ./dev test starts it): PostgreSQL, Keycloak,
#     LocalStack and the FSx emulator,
#   - starts the packaged backend jar on a free port with its own fresh database (keel_e2e) and the AWS driver
#     (provisioning into LocalStack and the emulator), and the local runner, which plays EC2 with stand-in brokers,
#   - onboards a customer's role and network into LocalStack (scripts/demo-account --no-register); the tests
#     connect the account in the browser with that role (E2E_ROLE_ARN, E2E_VPC_ID, E2E_SUBNETS),
#   - serves the built console with `vite preview` on :4173 (a redirect URI of the realm),
#     proxying /api to that backend and pointing at the test Keycloak through /config.json,
#   - runs Playwright on Debian's Chromium and prints "N passed, N failed, N skipped"; the tests find the local
#     runner's brokers in E2E_RUNNER_STATE (to make one fall silent), and run the keel CLI ./dev test built.
set -euo pipefail

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$E2E_DIR/.." && pwd)
JAVA_HOME=${KEEL_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
BACKEND_JAR=${KEEL_BACKEND_JAR:-$REPO_ROOT/backend/target/keel-backend.jar}
TEST_ENV=${KEEL_E2E_STACK_ENV:-$REPO_ROOT/.local/test/env}
RUN_DIR=$E2E_DIR/.run
CONSOLE_PORT=4173
E2E_DB=keel_e2e

log() { printf '[e2e] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

port_in_use() { timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

ensure_chromium() {
  [[ -x ${CHROMIUM_PATH:-/usr/bin/chromium} ]] && return 0
  log "installing Debian's Chromium (apt-get)"
  { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null; } ||
    die "cannot install chromium"
}

# Starts "$@" in its own session; the pid file holds the group leader, so stop() ends the whole group.
spawn() {
  local name=$1; shift
  # shellcheck disable=SC2016 # expanded by the inner bash
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$RUN_DIR/$name.pid" "$@" </dev/null >"$RUN_DIR/$name.log" 2>&1 &
  local waited=0
  until [[ -s $RUN_DIR/$name.pid ]] || ((waited++ > 50)); do sleep 0.1; done
}

stop() {
  local file=$RUN_DIR/$1.pid pid waited=0
  [[ -s $file ]] || return 0
  pid=$(<"$file")
  kill -TERM -- "-$pid" 2>/dev/null || true
  while pgrep -g "$pid" >/dev/null; do
    ((waited++ == 150)) && kill -KILL -- "-$pid" 2>/dev/null
    sleep 0.1
  done
  rm -f "$file"
}

# The run's database is new, so broker machines still running in the test LocalStack belong to earlier runs (a run
# that failed before its delete): terminated here, or the local runner would start their brokers too and load the
# machine with a second cluster.
terminate_leftovers() {
  local python=${KEEL_CACHE:-$HOME/.cache/keel}/localstack-4.13.1-venv/bin/python
  [[ -x $python ]] || die "no $python (scripts/stack installs it)"
  "$python" - <<'PY' || die "could not terminate the broker machines of earlier runs"
import os
import boto3

ec2 = boto3.client("ec2", endpoint_url=os.environ["KEEL_AWS_ENDPOINT"], region_name="us-east-1",
                   aws_access_key_id="test", aws_secret_access_key="test")
filters = [{"Name": "tag:byoc:managed-by", "Values": ["keel"]},
           {"Name": "instance-state-name", "Values": ["pending", "running"]}]
ids = [i["InstanceId"] for page in ec2.get_paginator("describe_instances").paginate(Filters=filters)
       for r in page["Reservations"] for i in r["Instances"]]
if ids:
    ec2.terminate_instances(InstanceIds=ids)
print(f"[e2e] terminated {len(ids)} broker machine(s) left by earlier runs")
PY
}

wait_http() {
  local name=$1 url=$2 started=$SECONDS
  until curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; do
    pgrep -g "$(<"$RUN_DIR/$name.pid")" >/dev/null || { tail -n 30 "$RUN_DIR/$name.log" >&2; die "$name exited, see $RUN_DIR/$name.log"; }
    ((SECONDS - started < 120)) || die "$name not ready after 120 s, see $RUN_DIR/$name.log"
    sleep 0.5
  done
  log "$name ready after $((SECONDS - started)) s"
}

main() {
  [[ -f $TEST_ENV ]] || die "no test stack env ($TEST_ENV): run scripts/stack start --env test (./dev test does)"
  [[ -f $BACKEND_JAR ]] || die "no $BACKEND_JAR: build it (mvn -DskipTests package)"
  [[ -f $REPO_ROOT/console/dist/index.html ]] || die "no console build: npm run build in console/"
  port_in_use "$CONSOLE_PORT" && die "port $CONSOLE_PORT (a redirect URI of the keel-console client) is taken"
  ensure_chromium
  [[ -d $E2E_DIR/node_modules/@playwright/test ]] || (cd "$E2E_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)

  set -a
  # shellcheck source=/dev/null
  . "$TEST_ENV"
  set +a
  local pg_port=${KEEL_DB_URL##*:}
  pg_port=${pg_port%%/*}
  # A database of its own, fresh every run (the Maven tests use "keel").
  psql -q -v ON_ERROR_STOP=1 "postgresql://$KEEL_DB_USERNAME:$KEEL_DB_PASSWORD@localhost:$pg_port/postgres" \
    -c "DROP DATABASE IF EXISTS $E2E_DB WITH (FORCE)" -c "CREATE DATABASE $E2E_DB" >/dev/null
  export KEEL_DB_URL=jdbc:postgresql://localhost:$pg_port/$E2E_DB

  terminate_leftovers
  mkdir -p "$RUN_DIR"
  rm -rf "$RUN_DIR/local-runner"
  trap 'stop console; stop local-runner; stop backend' EXIT
  local backend_port
  backend_port=$("$REPO_ROOT/scripts/free-port")
  log "starting the backend on :$backend_port (AWS driver: LocalStack and the FSx emulator)"
  # The registration URL sends buyers on to this run's console; metering and agreement events run every few
  # seconds, and an hour is metered seconds after its end, so the Marketplace test sees an ended hour metered and a
  # subscription turn ACTIVE without waiting minutes.
  SPRING_PROFILES_ACTIVE=local SERVER_PORT=$backend_port KEEL_MANAGEMENT_PORT=0 KEEL_PROVISIONING_DRIVER=aws \
    KEEL_AWS_WAIT_SCALE=0.02 KEEL_CONSOLE_URL=http://localhost:$CONSOLE_PORT KEEL_METERING_INTERVAL=2s \
    KEEL_METERING_MARGIN=5s KEEL_MARKETPLACE_QUEUE_POLL_INTERVAL=1s spawn backend "$JAVA_HOME/bin/java" -jar "$BACKEND_JAR"
  log "starting the local runner (plays EC2 with stand-in brokers)"
  spawn local-runner "$REPO_ROOT/broker-image/local-runner/run.sh" "$KEEL_AWS_ENDPOINT" "$RUN_DIR/local-runner"
  log "serving the console on :$CONSOLE_PORT"
  (cd "$REPO_ROOT/console" && KEEL_API_TARGET=http://localhost:$backend_port KEEL_KEYCLOAK_URL=$KEEL_KEYCLOAK_URL \
    spawn console node node_modules/vite/bin/vite.js preview --port "$CONSOLE_PORT" --strictPort)
  wait_http backend "http://localhost:$backend_port/readyz"
  wait_http console "http://localhost:$CONSOLE_PORT/config.json"
  log "onboarding the customer's role and network into LocalStack"
  KEEL_API_URL=http://localhost:$backend_port/api/v1 "$REPO_ROOT/scripts/demo-account" "$TEST_ENV" --no-register \
    >"$RUN_DIR/customer.env" || die "scripts/demo-account failed"
  # shellcheck source=/dev/null
  . "$RUN_DIR/customer.env"
  export E2E_ROLE_ARN=$DEMO_ROLE_ARN E2E_VPC_ID=$DEMO_VPC_ID \
    E2E_SUBNETS=$DEMO_SUBNET_A,$DEMO_SUBNET_B,$DEMO_SUBNET_C E2E_RUNNER_STATE=$RUN_DIR/local-runner
  # The registration URL is the backend's own (AWS posts to it, not to the console); the Marketplace test backdates
  # a subscription in the run's database to make an ended hour billable.
  # The keel CLI the tests run is the one ./dev test builds before them.
  export E2E_KEEL=${KEEL_E2E_CLI:-$REPO_ROOT/.local/test/bin/keel}
  [[ -x $E2E_KEEL ]] || die "no keel CLI at $E2E_KEEL: build it (./dev test does, before the browser tests)"
  export E2E_BACKEND_URL=http://localhost:$backend_port \
    E2E_DATABASE_URL=postgresql://$KEEL_DB_USERNAME:$KEEL_DB_PASSWORD@localhost:$pg_port/$E2E_DB

  local rc=0
  (cd "$E2E_DIR" && KEEL_CONSOLE_URL=http://localhost:$CONSOLE_PORT node node_modules/@playwright/test/cli.js test "$@") || rc=$?
  node "$E2E_DIR/scripts/summary.mjs" "$E2E_DIR/test-results/results.json"
  return $rc
}

main "$@"
