#!/usr/bin/env bash
# Admission with the DEFAULT /document/v1 limits on the embedded store: h2load GET and 1 KiB POST at 4 x 256 and
# 16 x 256 streams (expect no 429), then a flood of 64 x 1024 POSTs of 64 KiB (expect only 2xx and 429, a bounded
# heap), sampled meanwhile by one curl at a time, then 4 x 256 POSTs again (expect the throughput of before).
# Prints h2load's status counts and the heap in use after each run, as a table in bench/README.md's format.
#
# Usage: bench/admission.sh        (builds the server jar if needed; ~2 min)
# Environment: PORT=27280, HEAP=1g (the server's -Xmx; the default admission bound follows it), and bench/lib.sh's.
# shellcheck source=bench/lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PORT="${PORT:-27280}"
HEAP="${HEAP:-1g}"
bench_require h2load curl jcmd python3
bench_build "$bench_server_jar" http-server
bench_require_free_port "$PORT"

app="$bench_work/app"
bench_write_plain_app "$app" "$PORT" "<embedded data-directory=\"$bench_work/data\"/>"
# shellcheck disable=SC2086 # BENCH_JAVA_OPTS is a list of options
bench_start sluice java "-Xmx$HEAP" $BENCH_JAVA_OPTS -jar "$bench_server_jar" serve --app "$app"
sluice_pid="$bench_last_pid"
bench_wait_ready "$sluice_pid" "$PORT" sluice

bench_generate_body 1024 > "$bench_work/body.json"
bench_generate_body 65536 > "$bench_work/big.json"
base="http://127.0.0.1:$PORT/document/v1/bench/article/docid"
awk -v base="$base" 'BEGIN { for (i = 0; i < 1000; i++) printf "%s/g-%d\n", base, i }' > "$bench_work/get"
awk -v base="$base" 'BEGIN { for (i = 0; i < 20000; i++) printf "%s/p-%d\n", base, i }' > "$bench_work/post"
h2load -n 1000 -c 1 -m 64 -i "$bench_work/get" -d "$bench_work/body.json" -H 'Content-Type: application/json' \
  | grep -q 'status codes: 1000 2xx' || bench_die "preload failed"

heap_used() { jcmd "$sluice_pid" GC.heap_info | awk '/heap/ && /used/ { for (i = 1; i <= NF; i++) if ($i == "used") { print $(i + 1); exit } }'; }
run() {  # label h2load-options...
  local label="$1" out
  shift
  out="$(h2load "$@" 2>&1)"
  echo "| $label | $(grep -E '^status codes' <<<"$out" | sed 's/status codes: //') | $(heap_used) | a |"
}
post=(-d "$bench_work/body.json" -H 'Content-Type: application/json')
echo
echo "### Admission under load and overload (bench/admission.sh)"
echo
echo "Embedded engine, default \`<document-api>\` limits, -Xmx$HEAP. Expected: no 429 at 4×256 and 16×256; only 2xx and 429"
echo "in the flood, with the heap bounded; after it, the rate of before."
echo
echo "| step | h2load status codes | heap used after | run |"
echo "|---|---|---:|---|"
for connections in 4 16; do
  run "GET ${connections}x256, 10 s" "-c$connections" -m256 -D 10 -i "$bench_work/get"
  run "POST ${connections}x256, 10 s" "-c$connections" -m256 -D 10 -i "$bench_work/post" "${post[@]}"
done
( sleep 5
  for i in $(seq 1 100); do
    curl -s -o /dev/null -w '%{http_code}\n' --max-time 30 -H 'Content-Type: application/json' \
         --data-binary "@$bench_work/big.json" "$base/c-$i"
  done | sort | uniq -c | awk '{ printf "%s%s x %s", (NR > 1 ? ", " : ""), $1, $2 }' > "$bench_work/sample" ) &
sampler=$!
run "POST 64x1024 of 64 KiB, 20 s" -c64 -m1024 -D 20 -i "$bench_work/post" -d "$bench_work/big.json" -H 'Content-Type: application/json'
wait "$sampler"
run "POST 4x256 after the flood, 10 s" -c4 -m256 -D 10 -i "$bench_work/post" "${post[@]}"
echo
echo "One curl at a time during the flood (statuses): $(cat "$bench_work/sample")."
echo
bench_run_note a
