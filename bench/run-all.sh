#!/usr/bin/env bash
# Runs every benchmark with its default settings and prints one markdown report (about 30 minutes on 2 cores):
# the JMH microbenchmarks, then bench/h2load.sh, bench/feed.sh and bench/visit.sh. Paste the report into
# bench/README.md's "Latest results". Progress goes to stderr.
#
# Usage: bench/run-all.sh > results.md
# Environment: JMH_ARGS (default: every benchmark with its own settings), e.g. JMH_ARGS='-e EmbeddedBackendBenchmark'
#              SKIP="h2load feed"  parts to leave out (jmh, h2load, feed, visit)
#              WITH_CASSANDRA=1    also run bench/cassandra.sh (Cassandra nodes in child JVMs, about 10 more minutes)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
skip=" ${SKIP:-} "
failed=()

echo "## Results of $(date -u '+%Y-%m-%d %H:%M') UTC"
echo
echo "Machine: $(nproc) cores ($(grep -m 1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)," \
     "JDK $(java -version 2>&1 | head -n 1 | sed -E 's/.*version "([^"]+)".*/\1/'), load average before the run $(cut -d' ' -f1-3 /proc/loadavg)," \
     "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with local changes)')."

if [[ "$skip" != *" jmh "* ]]; then
  echo "=== jmh" >&2
  ./mvnw -q -B -DskipTests package -pl jmh-benchmarks -am >&2
  jmh_out="$(mktemp)"
  # shellcheck disable=SC2086 # JMH_ARGS is a list of arguments
  java -jar jmh-benchmarks/target/benchmarks.jar -foe true ${JMH_ARGS:-} 2>&1 | tee "$jmh_out" >&2
  [[ "${PIPESTATUS[0]}" == 0 ]] || failed+=(jmh)
  echo
  echo "### JMH microbenchmarks (ops/s; higher is better)"
  echo
  echo '```'
  sed -n '/^Benchmark /,$p' "$jmh_out"
  echo '```'
  rm -f "$jmh_out"
fi
parts=(h2load feed visit)
[[ "${WITH_CASSANDRA:-0}" == 1 ]] && parts+=(cassandra)
for part in "${parts[@]}"; do
  [[ "$skip" == *" $part "* ]] && continue
  echo "=== $part" >&2
  bench/"$part".sh || failed+=("$part")
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo
  echo "Failed: ${failed[*]} (see stderr)."
  exit 1
fi
