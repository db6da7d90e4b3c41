#!/usr/bin/env bash
# h2load on /document/v1: Sluice (embedded store, fresh data directory) against the bare-Jetty ceiling (bench/ceiling),
# for GET of stored 1 KiB documents and POST of 1 KiB puts, over cleartext and TLS, in the connection shapes of Vespa's
# HTTP/2 article: HTTP/1.1 1 connection x 1, HTTP/1.1 128 connections, HTTP/2 1 connection x 256 streams, HTTP/2
# 4 connections x 256 streams. Servers alternate case by case (and which goes first alternates by round), so drift
# on a shared machine hits both. Prints a markdown table in bench/README.md's format: req/s median (min-max) of each,
# the ratio of the medians, and server CPU per request (median); and draws the medians as bars against the ceiling's
# ($BENCH_CHARTS/h2load.svg, from h2load.tsv beside it).
#
# Usage: bench/h2load.sh                   (from anywhere; builds the server jar if needed; ~16 min by default)
# Environment (and bench/lib.sh's BENCH_SMOKE, BENCH_JAVA_OPTS, BENCH_ENGINE, BENCH_KEEP, BENCH_NO_BUILD):
#   DURATION=5 WARMUP=3 ROUNDS=3           seconds measured and warmed up per run, rounds per case
#   PREWARM=60                             seconds of GET and of POST (h2c 4x256) each server gets before the rounds, so
#                                          the JIT has compiled the request path: Sluice has far more code to compile
#                                          than the ceiling; after 15 s of each, C2 still took 9-12 us per request and
#                                          throughput rose ~50% over the next three rounds (e25b204, 2026-11-26)
#   CASES='.'                              extended regex on case names ("GET h2 TLS 4x256"), e.g. 'GET .* 1x'
#   H2LOAD_THREADS=1                       h2load client threads (capped at the connection count)
#   GET_DOCUMENTS=1000 POST_IDS=20000      stored documents read by GET; distinct ids written by POST
#   CEILING_GET_BYTES=0                    if N > 0, the ceiling answers GETs with N bytes (Sluice's GET body is 1101):
#                                          what sending a document costs without Sluice's work; 0 is the put reply
#   ENGINES="$BENCH_ENGINE"                Sluice's engines, one server each, all interleaved with the ceiling in the
#                                          same rounds, e.g. ENGINES="memory embedded": their columns are then measured
#                                          in the same minutes, where engines run one after the other met different hosts
#   SLUICE_PORT=28080 SLUICE_TLS_PORT=28443 CEILING_PORT=29080 CEILING_TLS_PORT=29443  (the Nth engine's Sluice
#                                          listens on SLUICE_PORT + 10 * (N - 1) and SLUICE_TLS_PORT + 10 * (N - 1))
# shellcheck source=bench/lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [[ "$BENCH_SMOKE" == 1 ]]; then
  DURATION="${DURATION:-2}" WARMUP="${WARMUP:-1}" ROUNDS="${ROUNDS:-1}" PREWARM="${PREWARM:-2}"
fi
PREWARM="${PREWARM:-60}"
DURATION="${DURATION:-5}"
WARMUP="${WARMUP:-3}"
ROUNDS="${ROUNDS:-3}"
CASES="${CASES:-.}"
H2LOAD_THREADS="${H2LOAD_THREADS:-1}"
GET_DOCUMENTS="${GET_DOCUMENTS:-1000}"
POST_IDS="${POST_IDS:-20000}"
SLUICE_PORT="${SLUICE_PORT:-28080}"
SLUICE_TLS_PORT="${SLUICE_TLS_PORT:-28443}"
CEILING_PORT="${CEILING_PORT:-29080}"
CEILING_TLS_PORT="${CEILING_TLS_PORT:-29443}"
ENGINES="${ENGINES:-$BENCH_ENGINE}"
DOCUMENT_BYTES=1024

# One Sluice server per engine: named "sluice" when there is one (the table's columns say Sluice), else by its engine.
read -r -a engines <<<"$ENGINES"
(( ${#engines[@]} > 0 )) || bench_die "ENGINES names no engine"
declare -A engine_of port_of tls_port_of pid_of label_of
sluices=()
for i in "${!engines[@]}"; do
  engine="${engines[$i]}"
  [[ "$engine" == embedded || "$engine" == memory ]] || bench_die "ENGINES may name embedded and memory, not '$engine'"
  if (( ${#engines[@]} == 1 )); then name=sluice label=Sluice; else name="$engine" label="Sluice $engine"; fi
  [[ -z "${engine_of[$name]:-}" ]] || bench_die "ENGINES names $engine twice"
  sluices+=("$name")
  engine_of[$name]="$engine" label_of[$name]="$label"
  port_of[$name]=$(( SLUICE_PORT + 10 * i )) tls_port_of[$name]=$(( SLUICE_TLS_PORT + 10 * i ))
done
port_of[ceiling]="$CEILING_PORT" tls_port_of[ceiling]="$CEILING_TLS_PORT" label_of[ceiling]=ceiling
servers=("${sluices[@]}" ceiling)

bench_require h2load openssl curl
bench_build "$bench_server_jar" http-server
for server in "${servers[@]}"; do
  bench_require_free_port "${port_of[$server]}"
  bench_require_free_port "${tls_port_of[$server]}"
done

bench_make_certificate
for server in "${sluices[@]}"; do
  BENCH_ENGINE="${engine_of[$server]}" bench_write_app "$bench_work/app-$server" "${port_of[$server]}" \
                                                      "${tls_port_of[$server]}" "$bench_work/data-$server"
  bench_start_sluice "$bench_work/app-$server" "${port_of[$server]}" "$server"
  pid_of[$server]="$sluice_pid"
done
bench_start_ceiling "$CEILING_PORT" "$CEILING_TLS_PORT"
pid_of[ceiling]="$ceiling_pid"
bench_generate_body "$DOCUMENT_BYTES" > "$bench_work/body.json"

# URI lists for h2load -i: the first line carries scheme, host and port, the rest are paths. Every h2load connection
# walks the list from the top, so connections start on the same ids; Sluice runs operations on one id in order, which
# makes the first requests of a POST run wait, but the connections drift apart within the warm-up.
uris() {  # request (GET|POST) base-url
  local prefix count
  if [[ "$1" == GET ]]; then prefix=g count="$GET_DOCUMENTS"; else prefix=p count="$POST_IDS"; fi
  awk -v base="$2" -v prefix="$prefix" -v count="$count" \
      'BEGIN { for (i = 0; i < count; i++) printf "%s/document/v1/bench/article/docid/%s-%d\n", (i ? "" : base), prefix, i }'
}
for server in "${servers[@]}"; do
  for transport in clear tls; do
    if [[ "$transport" == tls ]]; then base="https://127.0.0.1:${tls_port_of[$server]}"; else base="http://127.0.0.1:${port_of[$server]}"; fi
    for request in GET POST; do uris "$request" "$base" > "$bench_work/uris-$server-$transport-$request"; done
  done
done

bench_log "Preloading $GET_DOCUMENTS documents of $DOCUMENT_BYTES bytes"
for server in "${sluices[@]}"; do
  preload="$(h2load -n "$GET_DOCUMENTS" -c 1 -m 64 --connection-inactivity-timeout=60 -i "$bench_work/uris-$server-clear-GET" \
                    -d "$bench_work/body.json" -H 'Content-Type: application/json' 2>&1)"
  grep -q "status codes: $GET_DOCUMENTS 2xx" <<<"$preload" || { grep -E 'requests:|status codes:' <<<"$preload" >&2; bench_die "preload of $server failed"; }
  stored="$(curl -s --max-time 30 "http://127.0.0.1:${port_of[$server]}/document/v1/bench/article/docid/g-0")"
  [[ "$stored" == *'"id":"id:bench:article::g-0"'* ]] || bench_die "GET of a document preloaded into $server gave: ${stored:0:300}"
done

# name | h2load options | transport | protocol h2load must negotiate
shapes=(
  "h1 1x1|--h1 -c1 -m1|http/1.1"
  "h1 128x1|--h1 -c128 -m1|http/1.1"
  "h2 1x256|-c1 -m256|h2"
  "h2 4x256|-c4 -m256|h2"
)
cases=()
for request in GET POST; do
  for transport in clear tls; do
    for shape in "${shapes[@]}"; do
      IFS='|' read -r shape_name options protocol <<<"$shape"
      [[ "$transport" == clear && "$protocol" == h2 ]] && protocol=h2c
      name="$request $shape_name"
      [[ "$transport" == tls ]] && name="$name TLS"
      if [[ "$name" =~ $CASES ]]; then cases+=("$name|$request|$transport|$options|$protocol"); fi
    done
  done
done
[[ ${#cases[@]} -gt 0 ]] || bench_die "no case matches CASES='$CASES'"

failures=0
# Runs one case against one server; prints "2xx/s CPU-microseconds-per-2xx non-2xx-count", or "0 0 0" after
# reporting a failure.
run() {  # server pid request transport options protocol
  local server="$1" pid="$2" request="$3" transport="$4" options="$5" protocol="$6" threads out before after
  local post=() ok other failed errored conns streams
  conns="$(sed -E 's/.*-c([0-9]+).*/\1/' <<<"$options")"
  streams="$(sed -E 's/.*-m([0-9]+).*/\1/' <<<"$options")"
  threads=$(( conns < H2LOAD_THREADS ? conns : H2LOAD_THREADS ))
  [[ "$request" == POST ]] && post=(-d "$bench_work/body.json" -H 'Content-Type: application/json')
  # h2load 1.52 never finishes when its warm-up ends before every connection is up, which 128 TLS handshakes on a busy
  # 2-core box can take seconds to be; so those cases warm up longer, and every run is bounded.
  local warmup="$WARMUP"
  if [[ "$transport" == tls ]] && (( conns > 4 && warmup < 5 + conns / 32 )); then warmup=$(( 5 + conns / 32 )); fi
  # shellcheck disable=SC2086 # options is a list of options
  timeout $(( warmup + DURATION + 60 )) h2load $options -t "$threads" --warm-up-time="$warmup" -D "$DURATION" \
          -i "$bench_work/uris-$server-$transport-$request" "${post[@]}" > "$bench_work/h2load.out" 2>&1 &
  local h2load_pid=$!
  # Server CPU over the measured part only: the warm-up also holds the connection (and TLS handshake) cost.
  sleep "$warmup"
  before="$(bench_cpu_ticks "$pid")"
  wait "$h2load_pid" || true
  after="$(bench_cpu_ticks "$pid")"
  out="$(cat "$bench_work/h2load.out")"
  # Only 2xx responses count; others (e.g. 429 when operations wait too long) are reported next to the table. With
  # -D, requests still in flight when time is up count as failed (and as errored over TLS), so up to one per stream
  # is allowed.
  read -r ok other failed errored <<<"$(awk '
      /^requests:/ { failed = $10; errored = $12 }
      /^status codes:/ { ok = $3; other = $5 + $7 + $9 }
      END { print ok + 0, other + 0, failed + 0, errored + 0 }' <<<"$out")"
  if (( ok == 0 || errored > conns * streams || failed > conns * streams )) || ! grep -q "Application protocol: $protocol\$" <<<"$out"; then
    echo "h2load failed against $server ($request $transport $options, expecting $protocol):" >&2
    grep -E 'Application protocol|requests:|status codes:|error|fail' <<<"$out" | head -n 8 >&2
    echo "0 0 0"
    return 1
  fi
  awk -v ok="$ok" -v other="$other" -v d="$DURATION" -v ticks="$(( after - before ))" -v hz="$bench_clk_tck" \
      'BEGIN { printf "%.1f %.1f %d\n", ok / d, (ok > 0 ? ticks / hz * 1e6 / ok : 0), other }'
}

if (( PREWARM > 0 )); then
  bench_log "Prewarming each server with ${PREWARM}s of GET and of POST (h2c 4x256)"
  for server in "${servers[@]}"; do
    for request in GET POST; do
      post=()
      [[ "$request" == POST ]] && post=(-d "$bench_work/body.json" -H 'Content-Type: application/json')
      timeout $(( PREWARM + 60 )) h2load -c4 -m256 -t1 -D "$PREWARM" -i "$bench_work/uris-$server-clear-$request" "${post[@]}" > /dev/null 2>&1 || true
    done
  done
fi

declare -A rates cpus others
bench_log "${#cases[@]} cases x $ROUNDS rounds x ${#servers[@]} servers, ${WARMUP}s + ${DURATION}s each"
for ((round = 1; round <= ROUNDS; round++)); do
  for case in "${cases[@]}"; do
    IFS='|' read -r name request transport options protocol <<<"$case"
    order=("${servers[@]}")
    if (( round % 2 == 0 )); then order=(); for server in "${servers[@]}"; do order=("$server" "${order[@]}"); done; fi
    for server in "${order[@]}"; do
      pid="${pid_of[$server]}"
      bench_require_alive "$pid" "$server"
      result="$(run "$server" "$pid" "$request" "$transport" "$options" "$protocol")" || failures=$((failures + 1))
      read -r rate cpu other <<<"$result"
      (( other > 0 )) && others[$server/$name]=$(( ${others[$server/$name]:-0} + other ))
      rates[$server/$name]="${rates[$server/$name]:-} $rate"
      cpus[$server/$name]="${cpus[$server/$name]:-} $cpu"
    done
    line=""
    for server in "${servers[@]}"; do line+="${line:+, }${label_of[$server]} ${rates[$server/$name]##* } req/s"; done
    bench_log "round $round: $name: $line"
  done
done

ceiling_gets=""
if (( ${CEILING_GET_BYTES:-0} > 0 )); then ceiling_gets=", but GETs with $CEILING_GET_BYTES bytes"; fi
echo
echo "### /document/v1 against bare Jetty (bench/h2load.sh)"
echo
sync_note=""
if [[ " ${engines[*]} " == *" embedded "* ]]; then sync_note=' (embedded with its default sync="true": a put is acknowledged after its fsync)'; fi
echo "Engine ${engines[*]}$sync_note;" \
     "${PREWARM}s of GET and of POST first, then $ROUNDS rounds of ${DURATION}s after ${WARMUP}s" \
     "warm-up, servers interleaved; GET reads $GET_DOCUMENTS stored documents, POST puts $DOCUMENT_BYTES-byte documents" \
     "over $POST_IDS ids. req/s: median (min–max). CPU: server CPU µs per request (median). The ceiling answers every" \
     "request with a fixed small body$ceiling_gets."
echo
header="| case |" rule="|---|"
for server in "${servers[@]}"; do header+=" ${label_of[$server]} req/s |"; rule+="---:|"; done
for server in "${sluices[@]}"; do header+=" ${label_of[$server]} / ceiling |"; rule+="---:|"; done
for server in "${servers[@]}"; do header+=" ${label_of[$server]} CPU µs/req |"; rule+="---:|"; done
echo "$header run |"
echo "$rule---|"
chart_data="$bench_charts/h2load.tsv"
{ printf 'case'; for server in "${servers[@]}"; do printf '\t%s' "${label_of[$server]}"; done; printf '\n'; } > "$chart_data"
for case in "${cases[@]}"; do
  IFS='|' read -r name _ <<<"$case"
  declare -A median=()
  row="| $name |" ratios="" cpu_cells="" chart_row="$name"
  for server in "${servers[@]}"; do
    read -r m m_min m_max <<<"$(bench_stats "${rates[$server/$name]}")"
    read -r m_cpu _ <<<"$(bench_stats "${cpus[$server/$name]}")"
    median[$server]="$m"
    row+=" $(bench_fmt "$m") ($(bench_fmt "$m_min")–$(bench_fmt "$m_max")) |"
    cpu_cells+=" $(bench_fmt "$m_cpu" 0) |"
    chart_row+="$(printf '\t%.0f' "$m")"
  done
  for server in "${sluices[@]}"; do ratios+=" $(bench_ratio "${median[$server]}" "${median[ceiling]}") |"; done
  echo "$row$ratios$cpu_cells a |"
  printf '%s\n' "$chart_row" >> "$chart_data"
done
echo
bench_run_note a
CHART_REFERENCE=last chart_bars "$chart_data" "$bench_charts/h2load.svg" \
  "/document/v1 against bare Jetty: h2load, $(nproc) cores ($(git -C "$bench_root" rev-parse --short HEAD 2>/dev/null), $(date -u +%Y-%m-%d))" \
  "requests/s (median of $ROUNDS rounds)" || true
for key in "${!others[@]}"; do
  echo
  echo "Non-2xx responses (not counted): ${key/\// } ${others[$key]}."
done
if (( failures > 0 )); then
  echo
  echo "$failures runs failed (see above); their rates count as 0."
  exit 1
fi
