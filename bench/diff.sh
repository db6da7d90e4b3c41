#!/usr/bin/env bash
# `./sluice diff A B` against what it costs to read both endpoints: two Sluice servers hold the same N 1 KiB documents,
# then B gets k mutations (a third removes, a third changed documents, a third new ones) and the diff's wall time is
# compared with `./sluice visit` of both endpoints to /dev/null, both at once (what the diff reads, as it reads it)
# and one after the other. Every diff must find exactly k differences (exit code 1, or 0 for k = 0), or the script fails.
# Prints a markdown table: wall seconds, median (min-max) over the rounds, and the ratio of the medians.
#
# Usage: bench/diff.sh                       (from anywhere; builds the jars if needed; ~2 min at 100,000 documents)
# Environment (and bench/lib.sh's BENCH_SMOKE, BENCH_JAVA_OPTS, BENCH_ENGINE, BENCH_KEEP, BENCH_NO_BUILD):
#   DOCUMENTS=100000 DOCUMENT_BYTES=1024 ROUNDS=3 KS="0 1 1000" SLICES=8
#   A_PORT=28210 B_PORT=28212              (each server also takes the next port, for TLS)
# On a quiet machine, for the 1M row: DOCUMENTS=1000000 BENCH_JAVA_OPTS=-Xmx2g bench/diff.sh
# shellcheck source=bench/lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [[ "$BENCH_SMOKE" == 1 ]]; then
  DOCUMENTS="${DOCUMENTS:-2000}" ROUNDS="${ROUNDS:-1}" KS="${KS:-0 30}"
fi
DOCUMENTS="${DOCUMENTS:-100000}"
DOCUMENT_BYTES="${DOCUMENT_BYTES:-1024}"
ROUNDS="${ROUNDS:-3}"
KS="${KS:-0 1 1000}"
SLICES="${SLICES:-8}"
A_PORT="${A_PORT:-28210}"
B_PORT="${B_PORT:-28212}"
sluice="$bench_root/sluice"

bench_require openssl
bench_build "$bench_server_jar" http-server
bench_build "$bench_cli_jar" feed-cli
for port in "$A_PORT" $((A_PORT + 1)) "$B_PORT" $((B_PORT + 1)); do bench_require_free_port "$port"; done
bench_make_certificate
bench_write_app "$bench_work/a-app" "$A_PORT" $((A_PORT + 1)) "$bench_work/a-data"
bench_write_app "$bench_work/b-app" "$B_PORT" $((B_PORT + 1)) "$bench_work/b-data"
bench_start_sluice "$bench_work/a-app" "$A_PORT" a
a_pid="$sluice_pid"
bench_start_sluice "$bench_work/b-app" "$B_PORT" b
b_pid="$sluice_pid"
a="http://127.0.0.1:$A_PORT/"
b="http://127.0.0.1:$B_PORT/"

bench_log "Feeding $DOCUMENTS documents of $DOCUMENT_BYTES bytes to both servers"
bench_generate_feed "$DOCUMENTS" "$DOCUMENT_BYTES" > "$bench_work/feed.jsonl"
for endpoint in "$a" "$b"; do
  "$sluice" feed --endpoint "$endpoint" --file "$bench_work/feed.jsonl" --silent --exit-on-feed-errors 2> "$bench_work/preload.err" \
    || { tail -n 20 "$bench_work/preload.err" >&2; bench_die "preload of $endpoint failed"; }
done
rm -f "$bench_work/feed.jsonl"

# Runs "$@": the seconds it took, wall clock, in bench_seconds, its exit code in bench_status, its output in
# $bench_work/last.{out,err}.
timed() {
  local start end
  start=$(date +%s%N)
  bench_status=0
  "$@" > "$bench_work/last.out" 2> "$bench_work/last.err" || bench_status=$?
  end=$(date +%s%N)
  bench_seconds=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", (e - s) / 1e9 }')
}

visit_both_at_once() {
  "$sluice" visit --endpoint "$a" --slices "$SLICES" --silent > /dev/null &
  local first=$!
  "$sluice" visit --endpoint "$b" --slices "$SLICES" --silent > /dev/null || { wait "$first"; return 1; }
  wait "$first"
}

visit_one_then_the_other() {
  "$sluice" visit --endpoint "$a" --slices "$SLICES" --silent > /dev/null
  "$sluice" visit --endpoint "$b" --slices "$SLICES" --silent > /dev/null
}

# Applies k mutations to B, from an equal state: removes, changed documents and new documents, a third each.
mutate_b() {
  local k="$1"
  awk -v k="$k" 'BEGIN {
    for (i = 0; i < k; i++) {
      if (i % 3 == 0) printf "{\"remove\":\"id:bench:article::%d\"}\n", i
      else if (i % 3 == 1) printf "{\"put\":\"id:bench:article::%d\",\"fields\":{\"title\":\"changed %d\",\"year\":1}}\n", i, i
      else printf "{\"put\":\"id:bench:article::extra-%d\",\"fields\":{\"title\":\"extra %d\",\"year\":2}}\n", i, i
    } }' > "$bench_work/mutations.jsonl"
  [[ "$k" == 0 ]] && return 0
  "$sluice" feed --endpoint "$b" --file "$bench_work/mutations.jsonl" --silent --exit-on-feed-errors > /dev/null 2> "$bench_work/mutate.err" \
    || { tail -n 20 "$bench_work/mutate.err" >&2; bench_die "mutating B failed"; }
}

# Makes B equal to A again (not timed), and checks that it is.
repair_b() {
  "$sluice" diff "$a" "$b" --slices "$SLICES" --repair --delete-extra --silent > /dev/null 2> "$bench_work/repair.err" || true
  "$sluice" diff "$a" "$b" --slices "$SLICES" --silent > /dev/null 2> "$bench_work/repair.err" \
    || { tail -n 20 "$bench_work/repair.err" >&2; bench_die "B is not equal to A after a repair"; }
}

echo "| k | documents | visit A and B at once (s) | visit A, then B (s) | diff (s) | diff / at once | diff / one then other |"
echo "|---|---|---|---|---|---|---|"
for k in $KS; do
  repair_b
  mutate_b "$k"
  together="" sequential="" diffs=""
  for ((round = 1; round <= ROUNDS; round++)); do
    bench_wait_idle 30 servers "$a_pid" "$b_pid" || true
    timed visit_both_at_once
    together+=" $bench_seconds"
    ((bench_status == 0)) || { cat "$bench_work/last.err" >&2; bench_die "visiting failed"; }
    timed visit_one_then_the_other
    sequential+=" $bench_seconds"
    ((bench_status == 0)) || { cat "$bench_work/last.err" >&2; bench_die "visiting failed"; }
    timed "$sluice" diff "$a" "$b" --slices "$SLICES" --silent
    diffs+=" $bench_seconds"
    expected=$(( k == 0 ? 0 : 1 ))
    ((bench_status == expected)) || { cat "$bench_work/last.err" "$bench_work/last.out" >&2; bench_die "diff exited $bench_status, not $expected, for k=$k"; }
    found=$(sed -E 's/.*"onlyInA":([0-9]+),"onlyInB":([0-9]+),"differing":([0-9]+).*/\1 \2 \3/' "$bench_work/last.out" | awk '{ print $1 + $2 + $3 }')
    [[ "$found" == "$k" ]] || bench_die "diff found $found differences, not $k: $(cat "$bench_work/last.out")"
  done
  read -r tm tlo thi <<<"$(bench_stats "$together")"
  read -r sm slo shi <<<"$(bench_stats "$sequential")"
  read -r dm dlo dhi <<<"$(bench_stats "$diffs")"
  echo "| $k | $(bench_fmt "$DOCUMENTS") | $tm ($tlo-$thi) | $sm ($slo-$shi) | $dm ($dlo-$dhi) | $(bench_ratio "$dm" "$tm") | $(bench_ratio "$dm" "$sm") |"
done
