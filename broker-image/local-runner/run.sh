#!/usr/bin/env bash
# Starts the Keel local runner: plays EC2 against an emulator and runs a local stand-in broker (Apache Kafka from
# Maven Central) for every running Keel broker instance it finds.
#
#   broker-image/local-runner/run.sh <ec2-endpoint> <state-dir> [--region us-east-1] [--poll-seconds 2]
#   e.g. broker-image/local-runner/run.sh http://127.0.0.1:4566 .run/local-runner
#
# Builds the runner (and the agent) first if its jar is missing or older than the sources. Runs in the
# foreground; SIGTERM/SIGINT stops every broker it started. Status: <state-dir>/status.json.
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 <ec2-endpoint> <state-dir> [--region r] [--poll-seconds n]" >&2
  exit 2
fi
ENDPOINT="$1"; STATE_DIR="$2"; shift 2

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TARGET="$HERE/target"
JAR="$(ls "$TARGET"/keel-local-runner-*.jar 2>/dev/null | grep -v -- '-sources\|-tests' | head -1 || true)"

if [[ -z "${JAVA_HOME:-}" && -d /usr/lib/jvm/temurin-25-jdk-amd64 ]]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

stale() {
  [[ -z "$JAR" || ! -d "$TARGET/kafka-libs" || ! -d "$TARGET/lib" ]] && return 0
  [[ -n "$(find "$HERE/src/main" "$ROOT/broker-image/agent/src/main" "$HERE/pom.xml" -newer "$JAR" -print -quit)" ]]
}

if stale; then
  echo "keel-local-runner: building (mvn -pl broker-image/local-runner -am package)…" >&2
  (cd "$ROOT" && mvn -B -q -pl broker-image/local-runner -am -DskipTests package)
  JAR="$(ls "$TARGET"/keel-local-runner-*.jar | grep -v -- '-sources\|-tests' | head -1)"
fi

mkdir -p "$STATE_DIR"
exec "$JAVA" -Xmx256m -jar "$JAR" --ec2-endpoint "$ENDPOINT" --state-dir "$STATE_DIR" \
  --kafka-libs "$TARGET/kafka-libs" "$@"
