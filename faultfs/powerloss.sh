#!/usr/bin/env bash
# Power-loss test of the embedded store (see faultfs/README.md): builds faultfs, checks its model with its self-test,
# then runs faultfs/powerloss.py twice on stores on a faultfs mount:
#   1. the default, <embedded sync="true"/>: CYCLES cycles (default 50) of feed, SIGKILL + power cut, restart, check;
#      must lose no acknowledged write;
#   2. the control, <embedded sync="false"/>: CONTROL_CYCLES cycles (default 5); MUST lose acknowledged writes, or
#      the test cannot tell the two modes apart and fails.
# Environment: CYCLES, CONTROL_CYCLES, SEED (default: the time). Needs root or a user allowed to mount FUSE, /dev/fuse,
# and the packages fuse3 and libfuse3-dev (gcc, pkg-config), python3 and a JDK. Builds the server jar if stale.
# Exit status 0 only when the default lost nothing and the control lost something.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cycles="${CYCLES:-50}"
control_cycles="${CONTROL_CYCLES:-5}"
seed="${SEED:-$(date +%s)}"
jar="$root/http-server/target/sluice-server.jar"
binary="$root/faultfs/build/faultfs"

fail() { echo "powerloss: $*" >&2; exit 2; }
[[ -c /dev/fuse ]] ||
  fail "/dev/fuse is missing: this test needs FUSE (in a container: --device /dev/fuse --cap-add SYS_ADMIN)"
command -v fusermount3 >/dev/null || fail "fusermount3 is missing: apt-get install fuse3"
pkg-config --exists fuse3 2>/dev/null || fail "libfuse3's headers are missing: apt-get install libfuse3-dev pkg-config"

mkdir -p "$root/faultfs/build"
# shellcheck disable=SC2046 # pkg-config prints a list of flags
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$binary.partial" "$root/faultfs/faultfs.c" \
    $(pkg-config --cflags --libs fuse3)
mv -f "$binary.partial" "$binary"

newer="$(find "$root/pom.xml" "$root"/*/pom.xml "$root"/*/src -newer "$jar" -print -quit 2>/dev/null || true)"
if [[ ! -f "$jar" || -n "$newer" ]]; then
  echo "Building the server jar ..."
  (cd "$root" && ./mvnw -B -q -pl http-server -am package -DskipTests)
fi

# Everything goes under one scratch directory; whatever happens, nothing stays mounted there.
scratch="$(mktemp -d -t sluice-powerloss.XXXXXX)"
cleanup() {
  local mount
  for mount in $(awk -v prefix="$scratch/" 'index($2, prefix) == 1 {print $2}' /proc/mounts); do
    fusermount3 -u "$mount" 2>/dev/null || fusermount3 -u -z "$mount" 2>/dev/null || true
  done
  if [[ "${status:-1}" == 0 ]]; then
    rm -rf "$scratch"
  else
    echo "powerloss: server logs, histories and stores kept in $scratch"
  fi
}
trap cleanup EXIT
# Bash runs a trap only once its foreground command ends, so each run goes in the background and is waited for; on
# TERM or INT the run is told to stop (powerloss.py then kills its server and unmounts) before the scratch goes.
child=""
stop() {
  if [[ -n "$child" ]]; then kill -TERM "$child" 2>/dev/null || true; wait "$child" || true; fi
  exit 143
}
trap stop TERM INT

export TMPDIR="$scratch"
python3 "$root/faultfs/selftest.py" "$binary"

status=0
run() { # mode name, then powerloss.py's arguments; bounded at 3 minutes a cycle
  local name="$1" count="$2"
  shift 2
  timeout --signal=TERM "$((180 * count + 120))" python3 "$root/faultfs/powerloss.py" --faultfs "$binary" --jar "$jar" \
    --seed "$seed" --cycles "$count" --summary "$scratch/$name.summary" "$@" &
  child=$!
  wait "$child" || status=1
  child=""
}
started=$SECONDS
run default "$cycles" --sync true
run control "$control_cycles" --sync false --expect-loss
echo
echo "=== power-loss test, seed $seed (rerun with SEED=$seed), $((SECONDS - started)) s"
cat "$scratch/default.summary" "$scratch/control.summary" 2>/dev/null || true
exit "$status"
