#!/usr/bin/env bash
# Visit throughput of Sluice (embedded store): N stored 1 KiB documents read back through /document/v1 paged
# (wantedDocumentCount per page, following continuation tokens) and streamed (stream=true), with 1, 4 and 8 slices
# fetched in parallel (the documented data-dump recipe, with curl), and with `./sluice visit` (JSONL to a file).
# Copies to a second server: `./sluice copy` (sluice-copy) against `./sluice visit` to a file then `./sluice feed` of
# it (dump-feed); both rewrite the same documents in the target every round.
# Prints a markdown table: MB/s (response bytes; JSONL bytes for the copies) and docs/s, median (min-max), server
# CPU seconds (median; both servers' for the copies) and client CPU seconds (median; curl and its loop, or the CLI).
#
# Usage: bench/visit.sh                    (from anywhere; builds the jars if needed; ~3 min by default)
# Environment (and bench/lib.sh's BENCH_SMOKE, BENCH_JAVA_OPTS, BENCH_ENGINE, BENCH_KEEP, BENCH_NO_BUILD):
#   DOCUMENTS=100000 ROUNDS=3              stored documents, runs per row
#   PAGE_DOCUMENTS=1000                    wantedDocumentCount of paged visits
#   SLICES="1 4 8"  MODES="paged streamed sluice-visit"   (also: sluice-copy dump-feed)
#   SLUICE_PORT=28200 SLUICE_TLS_PORT=28201 TARGET_PORT=28204 TARGET_TLS_PORT=28205   (the target: for the copies)
# shellcheck source=bench/lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [[ "$BENCH_SMOKE" == 1 ]]; then
  DOCUMENTS="${DOCUMENTS:-2000}" ROUNDS="${ROUNDS:-1}"
fi
DOCUMENTS="${DOCUMENTS:-100000}"
ROUNDS="${ROUNDS:-3}"
PAGE_DOCUMENTS="${PAGE_DOCUMENTS:-1000}"
SLICES="${SLICES:-1 4 8}"
MODES="${MODES:-paged streamed sluice-visit}"
SLUICE_PORT="${SLUICE_PORT:-28200}"
SLUICE_TLS_PORT="${SLUICE_TLS_PORT:-28201}"
TARGET_PORT="${TARGET_PORT:-28204}"
TARGET_TLS_PORT="${TARGET_TLS_PORT:-28205}"
DOCUMENT_BYTES=1024
MAX_REQUESTS_PER_SLICE=100000

bench_require openssl curl
bench_build "$bench_server_jar" http-server
bench_build "$bench_cli_jar" feed-cli
for port in "$SLUICE_PORT" "$SLUICE_TLS_PORT"; do bench_require_free_port "$port"; done

bench_make_certificate
bench_write_app "$bench_work/app" "$SLUICE_PORT" "$SLUICE_TLS_PORT" "$bench_work/data"
bench_start_sluice "$bench_work/app" "$SLUICE_PORT"
copies=false
[[ " $MODES " == *" sluice-copy "* || " $MODES " == *" dump-feed "* ]] && copies=true
target_pid=""
if $copies; then
  for port in "$TARGET_PORT" "$TARGET_TLS_PORT"; do bench_require_free_port "$port"; done
  bench_write_app "$bench_work/target-app" "$TARGET_PORT" "$TARGET_TLS_PORT" "$bench_work/target-data"
  # shellcheck disable=SC2086 # BENCH_JAVA_OPTS is a list of options
  bench_start target java $BENCH_JAVA_OPTS -jar "$bench_server_jar" serve --app "$bench_work/target-app"
  target_pid="$bench_last_pid"
  bench_wait_ready "$target_pid" "$TARGET_PORT" target
fi
bench_log "Feeding $DOCUMENTS documents of $DOCUMENT_BYTES bytes"
bench_generate_feed "$DOCUMENTS" "$DOCUMENT_BYTES" > "$bench_work/feed.jsonl"
"$bench_root/sluice" feed --endpoint "http://127.0.0.1:$SLUICE_PORT/" --file "$bench_work/feed.jsonl" --silent \
                     --exit-on-feed-errors 2> "$bench_work/preload.err" || { tail -n 20 "$bench_work/preload.err" >&2; bench_die "preload failed"; }
rm -f "$bench_work/feed.jsonl"
base="http://127.0.0.1:$SLUICE_PORT/document/v1/?cluster=bench&timeout=60s"

# One slice with curl, to completion: prints "documents bytes requests". Fails on any status but 200.
visit_slice() {  # mode slices slice-id
  local mode="$1" slices="$2" id="$3" url continuation="" documents=0 bytes=0 requests=0 page status size count
  url="$base&slices=$slices&sliceId=$id"
  if [[ "$mode" == streamed ]]; then url="$url&stream=true"; else url="$url&wantedDocumentCount=$PAGE_DOCUMENTS"; fi
  page="$bench_work/page-$slices-$id.json"
  while (( requests < MAX_REQUESTS_PER_SLICE )); do
    read -r status size <<<"$(curl -s --max-time 120 -o "$page" -w '%{http_code} %{size_download}' "$url${continuation:+&continuation=$continuation}")"
    requests=$((requests + 1))
    if [[ "$status" != 200 ]]; then
      echo "slice $id of $slices ($mode): status $status: $(head -c 300 "$page")" >&2
      return 1
    fi
    # The count and the token are in the epilogue, after the documents: grep only the end of the page, as a dump
    # script would (a streamed page is one line of the whole slice, which grep -o took seconds to scan).
    tail -c 65536 "$page" > "$page.end"
    count="$(grep -oE '"documentCount":[0-9]+' "$page.end" | tail -n 1 | cut -d: -f2)"
    documents=$((documents + ${count:-0}))
    bytes=$((bytes + size))
    continuation="$(grep -oE '"continuation":"[^"]+"' "$page.end" | tail -n 1 | cut -d'"' -f4)"
    [[ -z "$continuation" ]] && { echo "$documents $bytes $requests"; return 0; }
  done
  echo "slice $id of $slices ($mode): not finished after $MAX_REQUESTS_PER_SLICE requests" >&2
  return 1
}

# One visit of every slice in parallel; prints "documents bytes".
visit_curl() {  # mode slices
  local mode="$1" slices="$2" id pids=() status=0
  for ((id = 0; id < slices; id++)); do
    visit_slice "$mode" "$slices" "$id" > "$bench_work/slice-$id.out" &
    pids+=($!)
  done
  for id in "${!pids[@]}"; do wait "${pids[$id]}" || status=1; done
  (( status == 0 )) || return 1
  cat "$bench_work"/slice-*.out | awk '{ d += $1; b += $2 } END { print d, b }'
  rm -f "$bench_work"/slice-*.out "$bench_work"/page-*.json "$bench_work"/page-*.json.end
}

# ./sluice visit with all slices in one process, JSONL into a file; prints "documents bytes" (of the JSONL).
visit_cli() {  # slices
  local out="$bench_work/visit.jsonl" result
  if ! SLUICE_JAVA_OPTS="${CLIENT_JAVA_OPTS:-}" "$bench_root/sluice" visit --endpoint "http://127.0.0.1:$SLUICE_PORT/" \
         --cluster bench --slices "$1" > "$out" 2> "$bench_work/visit.err"; then
    tail -n 20 "$bench_work/visit.err" >&2
    return 1
  fi
  result="$(wc -l < "$out") $(wc -c < "$out")"
  rm -f "$out"
  echo "$result"
}

# ./sluice copy of everything to the target; prints "documents bytes", the bytes being the corpus' JSONL (as dumped).
copy_cli() {  # slices
  local fed
  if ! SLUICE_JAVA_OPTS="${CLIENT_JAVA_OPTS:-}" "$bench_root/sluice" copy --from "http://127.0.0.1:$SLUICE_PORT/" \
         --to "http://127.0.0.1:$TARGET_PORT/" --content-cluster bench --slices "$1" 2> "$bench_work/copy.err" < /dev/null; then
    tail -n 20 "$bench_work/copy.err" >&2
    return 1
  fi
  fed="$(grep -oE '[0-9,]+ fed' "$bench_work/copy.err" | tail -n 1 | tr -d ', fed')"
  echo "${fed:-0} $corpus_bytes"
}

# ./sluice visit to a file, then ./sluice feed of that file to the target; prints "documents bytes" (of the JSONL).
dump_feed() {  # slices
  local out="$bench_work/dump.jsonl" result
  if ! SLUICE_JAVA_OPTS="${CLIENT_JAVA_OPTS:-}" "$bench_root/sluice" visit --endpoint "http://127.0.0.1:$SLUICE_PORT/" \
         --content-cluster bench --slices "$1" --silent > "$out" 2> "$bench_work/visit.err" ||
     ! SLUICE_JAVA_OPTS="${CLIENT_JAVA_OPTS:-}" "$bench_root/sluice" feed --endpoint "http://127.0.0.1:$TARGET_PORT/" \
         --file "$out" --silent --exit-on-feed-errors > /dev/null 2> "$bench_work/feed.err"; then
    tail -n 20 "$bench_work/visit.err" "$bench_work/feed.err" >&2
    return 1
  fi
  result="$(wc -l < "$out") $(wc -c < "$out")"
  rm -f "$out"
  echo "$result"
}

# The first ./sluice visit after a build also writes the CLI's class-data archive (see ./sluice), as it does for any
# user once; do that untimed, with a small slice of the corpus so the archive holds the classes of a whole visit.
if [[ " $MODES " == *" sluice-visit "* ]]; then
  "$bench_root/sluice" visit --endpoint "http://127.0.0.1:$SLUICE_PORT/" --cluster bench --slices 64 --slice-id 0 \
                       --silent > /dev/null 2> "$bench_work/visit.err" || { tail -n 20 "$bench_work/visit.err" >&2; bench_die "warm-up visit failed"; }
fi

corpus_bytes=0
if $copies; then
  # The corpus' size as JSONL, for the copies' MB/s; and the copy's class-data archive, untimed, as for visit above.
  "$bench_root/sluice" visit --endpoint "http://127.0.0.1:$SLUICE_PORT/" --content-cluster bench --silent > "$bench_work/corpus.jsonl" \
    2> "$bench_work/visit.err" || { tail -n 20 "$bench_work/visit.err" >&2; bench_die "sizing visit failed"; }
  corpus_bytes="$(wc -c < "$bench_work/corpus.jsonl")"
  rm -f "$bench_work/corpus.jsonl"
  "$bench_root/sluice" copy --from "http://127.0.0.1:$SLUICE_PORT/" --to "http://127.0.0.1:$TARGET_PORT/" --content-cluster bench \
                       --slices 64 --slice-id 0 --silent 2> "$bench_work/copy.err" < /dev/null || { tail -n 20 "$bench_work/copy.err" >&2; bench_die "warm-up copy failed"; }
fi

# CPU ticks of the servers a row loads: the source, and for the copies the target too.
servers_cpu_ticks() {  # mode
  local ticks
  ticks="$(bench_cpu_ticks "$sluice_pid")"
  [[ "$1" == sluice-copy || "$1" == dump-feed ]] && ticks=$((ticks + $(bench_cpu_ticks "$target_pid")))
  echo "$ticks"
}

failures=0
declare -A mbs docs cpus clients
TIMEFORMAT='%U %S'
rows=()
for mode in $MODES; do for slices in $SLICES; do rows+=("$mode|$slices"); done; done
for ((round = 1; round <= ROUNDS; round++)); do
  for row in "${rows[@]}"; do
    IFS='|' read -r mode slices <<<"$row"
    bench_require_alive "$sluice_pid" sluice
    [[ -n "$target_pid" ]] && bench_require_alive "$target_pid" target
    before="$(servers_cpu_ticks "$mode")"
    start="$(date +%s.%N)"
    # The client's CPU (user and system of every process the row ran: curl and its loop, or the CLI's JVM), from the
    # shell's own accounting of its children; the row's own messages on stderr pass through.
    { time {
      case "$mode" in
        sluice-visit) result="$(visit_cli "$slices")" || result="" ;;
        sluice-copy) result="$(copy_cli "$slices")" || result="" ;;
        dump-feed) result="$(dump_feed "$slices")" || result="" ;;
        *) result="$(visit_curl "$mode" "$slices")" || result="" ;;
      esac
    } 2>&3 ; } 3>&2 2> "$bench_work/time.txt"
    end="$(date +%s.%N)"
    clients[$row]="${clients[$row]:-} $(awk '{ printf "%.2f", $1 + $2 }' "$bench_work/time.txt")"
    after="$(servers_cpu_ticks "$mode")"
    read -r documents bytes <<<"${result:-0 0}"
    if [[ "$documents" != "$DOCUMENTS" ]]; then
      echo "$mode with $slices slices visited $documents of $DOCUMENTS documents" >&2
      failures=$((failures + 1))
    fi
    read -r mb doc <<<"$(awk -v b="$bytes" -v d="$documents" -v s="$start" -v e="$end" \
                             'BEGIN { t = e - s; printf "%.1f %.0f\n", b / t / 1e6, d / t }')"
    mbs[$row]="${mbs[$row]:-} $mb"
    docs[$row]="${docs[$row]:-} $doc"
    cpus[$row]="${cpus[$row]:-} $(awk -v t="$(( after - before ))" -v hz="$bench_clk_tck" 'BEGIN { printf "%.2f", t / hz }')"
    bench_log "round $round: $mode, $slices slices: $mb MB/s, $doc docs/s"
  done
done

echo
echo "### Visiting and copying, against curl (bench/visit.sh)"
echo
echo "Engine $BENCH_ENGINE; $(bench_fmt "$DOCUMENTS") stored $DOCUMENT_BYTES-byte documents, visited whole $ROUNDS times per row;" \
     "paged = wantedDocumentCount=$PAGE_DOCUMENTS per request, streamed = stream=true, both with curl per slice in" \
     "parallel; sluice-visit = ./sluice visit (MB/s of its JSONL output); sluice-copy = ./sluice copy to a second" \
     "server, dump-feed = ./sluice visit to a file then ./sluice feed of it (MB/s of the corpus' JSONL; CPU of both" \
     "servers). Medians, (min–max)."
echo
echo "| mode | slices | MB/s | docs/s | server CPU s | client CPU s | run |"
echo "|---|---:|---:|---:|---:|---:|---|"
declare -A chart_mb=()
for row in "${rows[@]}"; do
  IFS='|' read -r mode slices <<<"$row"
  read -r m m_min m_max <<<"$(bench_stats "${mbs[$row]}")"
  read -r d d_min d_max <<<"$(bench_stats "${docs[$row]}")"
  read -r c _ <<<"$(bench_stats "${cpus[$row]}")"
  read -r k _ <<<"$(bench_stats "${clients[$row]}")"
  chart_mb[$row]="$m"
  echo "| $mode | $slices | $(bench_fmt "$m" 1) ($(bench_fmt "$m_min" 1)–$(bench_fmt "$m_max" 1)) |" \
       "$(bench_fmt "$d") ($(bench_fmt "$d_min")–$(bench_fmt "$d_max")) | $(bench_fmt "$c" 1) | $(bench_fmt "$k" 2) | a |"
done
echo
bench_run_note a
# MB/s by slice count: the visiting modes as bars, curl's streamed visit (the reference) last, in grey.
chart_modes=()
for mode in sluice-visit paged streamed; do [[ " $MODES " == *" $mode "* ]] && chart_modes+=("$mode"); done
if (( ${#chart_modes[@]} > 0 )); then
  chart_data="$bench_charts/visit.tsv"
  {
    printf 'slices'
    for mode in "${chart_modes[@]}"; do
      case "$mode" in sluice-visit) printf '\t./sluice visit' ;; paged) printf '\tcurl, paged' ;; streamed) printf '\tcurl, streamed' ;; esac
    done
    printf '\n'
    for slices in $SLICES; do
      printf '%s slice%s' "$slices" "$([[ "$slices" == 1 ]] || echo s)"
      for mode in "${chart_modes[@]}"; do printf '\t%s' "${chart_mb[$mode|$slices]:-0}"; done
      printf '\n'
    done
  } > "$chart_data"
  reference=""; [[ "${chart_modes[-1]}" == streamed ]] && reference=last
  CHART_REFERENCE="$reference" chart_bars "$chart_data" "$bench_charts/visit.svg" \
    "Visiting $(bench_fmt "$DOCUMENTS") documents: MB/s by slices ($(git -C "$bench_root" rev-parse --short HEAD 2>/dev/null), $(date -u +%Y-%m-%d))" \
    "MB/s (median of $ROUNDS)" || true
fi
if (( failures > 0 )); then
  echo
  echo "$failures visits failed or were incomplete (see above)."
  exit 1
fi
