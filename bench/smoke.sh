#!/usr/bin/env bash
# Runs every benchmark for a few seconds so none of them can rot: JMH with one short iteration of a few benchmarks,
# then bench/h2load.sh, bench/feed.sh, bench/store.sh, bench/visit.sh and bench/cassandra.sh in smoke mode (BENCH_SMOKE=1). Fails
# when a benchmark errors, never because of its numbers. CI runs this after the tests; it takes about 6 minutes
# (bench/cassandra.sh about one: a 1-node cluster and 500 documents).
#
# Usage: bench/smoke.sh [jmh] [h2load] [feed] [store] [visit] [cassandra]      (default: all six)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
parts=("$@")
[[ ${#parts[@]} -gt 0 ]] || parts=(jmh h2load feed store visit cassandra)
export BENCH_SMOKE=1

for part in "${parts[@]}"; do
  echo "=== smoke: $part" >&2
  case "$part" in
    jmh)
      ./mvnw -q -B -DskipTests package -pl jmh-benchmarks -am
      # -foe: a benchmark that throws fails the run; the lock only guards numbers, which a smoke run does not have.
      java -Djmh.ignoreLock=true -jar jmh-benchmarks/target/benchmarks.jar -f 1 -wi 0 -i 1 -r 1s -foe true -p bytes=1024 \
           'DocumentJsonBenchmark.readPut|DocumentIdBenchmark.bucketId|SelectionBenchmark.evaluate|ContinuationTokenBenchmark.parseAndCheck|DocumentV1ApiHandlerBenchmark'
      ;;
    h2load) bench/h2load.sh ;;
    feed) bench/feed.sh ;;
    store) bench/store.sh ;;
    visit) bench/visit.sh ;;
    cassandra) bench/cassandra.sh ;;
    *) echo "Unknown part '$part': use jmh, h2load, feed, store, visit or cassandra" >&2; exit 2 ;;
  esac
done
echo "=== smoke: all passed" >&2
