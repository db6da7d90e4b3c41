#!/usr/bin/env bash
# The attack suite: builds the server jar if needed, then runs attack/attack.py against it (one line per case; exit 1 if
# a promise breaks). Loopback ports 28300-28399 only; every case bounded in count and time (~7 min in all).
#   attack/run.sh                       all cases
#   attack/run.sh --only gzip_bomb      some cases (attack/run.sh --list names them)
#   ATTACK_JAR=/path/to/jar attack/run.sh --no-host     another build, e.g. one from before a fix
# Needs python3 (standard library only) and java; nghttp (nghttp2-client) for the h2 case, which is skipped without it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="${ATTACK_JAR:-$root/http-server/target/sluice-server.jar}"
if [[ -z "${ATTACK_JAR:-}" ]]; then
  (cd "$root" && ./mvnw -B -q -DskipTests package -pl http-server -am)
fi
exec timeout 900 python3 "$root/attack/attack.py" --jar "$jar" "$@"
