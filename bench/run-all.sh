#!/usr/bin/env bash
# Runs every benchmark and prints bench/README.md's "Current results" section as markdown (about 70 minutes on 2
# cores; 85 with Cassandra): the JMH microbenchmarks, then bench/h2load.sh (both engines in the same rounds),
# bench/admission.sh, bench/feed.sh, bench/store.sh, bench/visit.sh (visits and copies) and, with WITH_CASSANDRA=1,
# bench/cassandra.sh. Each script prints its table in the page's format, each row naming its run (command, commit,
# date), and redraws its charts in bench/charts (SVG, with the data each was drawn from beside it as TSV): to update
# the page, replace its section with this report and commit the charts. Progress goes to stderr.
#
# Usage: bench/run-all.sh > results.md
# Environment: JMH_ARGS (default: every benchmark with its own settings), e.g. JMH_ARGS='-e EmbeddedBackendBenchmark'
#              SKIP="h2load feed"  parts to leave out (jmh, h2load, admission, feed, store, visit)
#              WITH_CASSANDRA=1    also run bench/cassandra.sh (Cassandra nodes in child JVMs, about 15 more minutes)
#              ENGINES, MODES      passed on (defaults here: ENGINES="memory embedded" for h2load.sh, and
#                                  MODES="paged streamed sluice-visit sluice-copy dump-feed" for visit.sh)
#              BENCH_CHARTS        where the charts go (default bench/charts, the ones the page shows)
# Needs a quiet machine: the numbers are only comparable between runs when nothing else competes for the cores.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
skip=" ${SKIP:-} "
failed=()

echo "## Current results"
echo
echo "Measured $(date -u '+%Y-%m-%d %H:%M') UTC by \`bench/run-all.sh\`."
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
parts=(h2load admission feed store visit)
[[ "${WITH_CASSANDRA:-0}" == 1 ]] && parts+=(cassandra)
for part in "${parts[@]}"; do
  [[ "$skip" == *" $part "* ]] && continue
  echo "=== $part" >&2
  case "$part" in
    h2load) ENGINES="${ENGINES:-memory embedded}" bench/h2load.sh || failed+=("$part") ;;
    visit) MODES="${MODES:-paged streamed sluice-visit sluice-copy dump-feed}" bench/visit.sh || failed+=("$part") ;;
    *) bench/"$part".sh || failed+=("$part") ;;
  esac
done
charts="${BENCH_CHARTS:-bench/charts}"
echo
echo "## Charts"
echo
echo "Drawn by the scripts above from the data beside each chart (\`$charts/*.tsv\`); \`bench/chart.sh\` redraws one."
link() { if [[ "$charts" -ef bench/charts ]]; then echo "charts/$1.svg"; else echo "$charts/$1.svg"; fi; }
# One chart per paragraph, but the two feed-rate charts on one line, so they show side by side.
for group in h2load visit "feed-rate-h2c feed-rate-tls"; do
  line=""
  for chart in $group; do
    if [[ -s "$charts/$chart.svg" ]]; then line+="${line:+ }![$chart]($(link "$chart"))"; fi
  done
  if [[ -n "$line" ]]; then echo; echo "$line"; fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo
  echo "Failed: ${failed[*]} (see stderr)."
  exit 1
fi
