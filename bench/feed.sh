#!/usr/bin/env bash
# Feeds N generated 1 KiB documents to Sluice (embedded store) with `./sluice feed`, with the official Vespa CLI
# (`vespa feed`, the Go binary that PyPI's vespacli package ships; installed into a venv by this script) and with a
# driver on the official com.yahoo.vespa:vespa-feed-client library (bench/official-feeder: JsonFeeder over
# FeedClientBuilder, every default), over h2c and TLS, rotating the feeders (and which goes first by round). Every feed gets a fresh server with a
# fresh data directory, so each one inserts new documents; before each feed, h2load warms the server up with untimed
# puts of other ids over the same transport (the JIT of a cold server otherwise sets both feeders' ramp-up). Prints a
# markdown table: ops/s median (min-max), client CPU seconds and peak RSS (medians), server CPU seconds during the
# feed (median), peak ops/s (the best 5-second window of the server's succeeded-put count, sampled every 0.5 s) and
# the seconds from starting the feeder (JVM start included) until a 2-second window first reached 90% of that peak
# (medians), and the ratios of Sluice to the Vespa CLI and to the official Java client, in bench/README.md's format;
# and draws each transport's feed rate over time, one line per feeder ($BENCH_CHARTS/feed-rate-<transport>.svg).
#
# Usage: bench/feed.sh                     (from anywhere; builds the jars if needed; ~5 min by default)
# Environment (and bench/lib.sh's BENCH_SMOKE, BENCH_JAVA_OPTS, BENCH_ENGINE, BENCH_KEEP, BENCH_NO_BUILD):
#   DOCUMENTS=100000 ROUNDS=3              documents per feed, feeds per feeder and transport
#   FEEDERS="sluice vespa official"        which feeders to run (sluice always; it is the numerator of the ratios)
#   VESPACLI_VENV=~/.cache/sluice-bench/vespacli   where the vespacli venv lives (created with pip when missing)
#   VESPACLI_VERSION=8.763.13              the vespacli release pip installs there
#   TRANSPORTS="h2c tls"                   which transports to run
#   CLIENT_JAVA_OPTS=""                    JVM options for both feeders (default: none, as each ships)
#   WARM_UP_PUTS=50000                     untimed h2load puts before each feed
#   SLUICE_PORT=28080 SLUICE_TLS_PORT=28443
# shellcheck source=bench/lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [[ "$BENCH_SMOKE" == 1 ]]; then
  DOCUMENTS="${DOCUMENTS:-2000}" ROUNDS="${ROUNDS:-1}" WARM_UP_PUTS="${WARM_UP_PUTS:-1000}"
fi
DOCUMENTS="${DOCUMENTS:-100000}"
ROUNDS="${ROUNDS:-3}"
TRANSPORTS="${TRANSPORTS:-h2c tls}"
FEEDERS="${FEEDERS:-sluice vespa official}"
[[ " $FEEDERS " == *" sluice "* ]] || FEEDERS="sluice $FEEDERS"
VESPACLI_VENV="${VESPACLI_VENV:-$HOME/.cache/sluice-bench/vespacli}"
VESPACLI_VERSION="${VESPACLI_VERSION:-8.763.13}"
CLIENT_JAVA_OPTS="${CLIENT_JAVA_OPTS:-}"
WARM_UP_PUTS="${WARM_UP_PUTS:-50000}"
SLUICE_PORT="${SLUICE_PORT:-28080}"
SLUICE_TLS_PORT="${SLUICE_TLS_PORT:-28443}"
DOCUMENT_BYTES=1024
official_jar="$bench_root/bench/official-feeder/target/official-feeder.jar"

bench_require openssl curl h2load
bench_build "$bench_server_jar" http-server
bench_build "$bench_cli_jar" feed-cli
if [[ " $FEEDERS " == *" official "* && "${BENCH_NO_BUILD:-0}" != 1 && ( ! -f "$official_jar" || -n "$(find "$bench_root/bench/official-feeder/pom.xml" \
      "$bench_root/bench/official-feeder/src" -newer "$official_jar" -print -quit)" ) ]]; then
  bench_log "Building bench/official-feeder ..."
  (cd "$bench_root" && ./mvnw -q -B -f bench/official-feeder/pom.xml package) >&2
fi
[[ " $FEEDERS " != *" official "* || -f "$official_jar" ]] || bench_die "$official_jar is missing"
# The vespacli package's `vespa` is a Python wrapper around a Go binary it ships per platform; the benchmark runs that
# binary directly, so the Vespa CLI is not charged for starting Python.
vespa_binary() {
  find "$VESPACLI_VENV" -path '*/go-binaries/*linux_amd64/bin/vespa' -type f 2>/dev/null | head -n 1
}
if [[ " $FEEDERS " == *" vespa "* ]]; then
  if [[ -z "$(vespa_binary)" ]] || ! grep -qx "Version: $VESPACLI_VERSION" <<<"$("$VESPACLI_VENV/bin/pip" show vespacli 2>/dev/null)"; then
    bench_require python3
    bench_log "Installing vespacli $VESPACLI_VERSION from PyPI into $VESPACLI_VENV ..."
    python3 -m venv "$VESPACLI_VENV" >&2 && "$VESPACLI_VENV/bin/pip" install -q "vespacli==$VESPACLI_VERSION" >&2 ||
      bench_die "could not install vespacli into $VESPACLI_VENV"
  fi
  vespa_cli="$(vespa_binary)"
  [[ -x "$vespa_cli" ]] || bench_die "vespacli has no linux/amd64 vespa binary under $VESPACLI_VENV"
  vespa_version="$("$vespa_cli" version 2>/dev/null | sed -nE 's/^Vespa CLI version ([^ ]+).*/\1/p' | head -n 1)"
fi
for port in "$SLUICE_PORT" "$SLUICE_TLS_PORT"; do bench_require_free_port "$port"; done

bench_make_certificate
bench_write_app "$bench_work/app" "$SLUICE_PORT" "$SLUICE_TLS_PORT" "$bench_work/data"
bench_log "Generating $DOCUMENTS documents of $DOCUMENT_BYTES bytes"
bench_generate_feed "$DOCUMENTS" "$DOCUMENT_BYTES" > "$bench_work/feed.jsonl"
bench_generate_body "$DOCUMENT_BYTES" > "$bench_work/body.json"
for transport in $TRANSPORTS; do  # h2load -i: the first line carries scheme, host and port
  if [[ "$transport" == tls ]]; then base="https://127.0.0.1:$SLUICE_TLS_PORT"; else base="http://127.0.0.1:$SLUICE_PORT"; fi
  awk -v base="$base" -v count="$WARM_UP_PUTS" \
      'BEGIN { for (i = 0; i < count; i++) printf "%s/document/v1/bench/article/docid/warm-up-%d\n", (i ? "" : base), i }' \
      > "$bench_work/warm-up-$transport"
done

# h2load puts of warm-up documents to the server over $transport: warm_up_puts COUNT [H2LOAD_OPTION...]
warm_up_puts() {
  local count="$1" warm_up
  shift
  warm_up="$(h2load -n "$count" -c 4 -m 64 -i "$bench_work/warm-up-$transport" -d "$bench_work/body.json" \
                    -H 'Content-Type: application/json' "$@" 2>&1)"
  # A busy machine may get some warm-up puts a 429 (the server sheds load): that still warms it up; none succeeding does not.
  if ! grep -q "status codes: $count 2xx" <<<"$warm_up"; then
    grep -E 'requests:|status codes:' <<<"$warm_up" >&2
    grep -qE "status codes: [1-9][0-9]* 2xx" <<<"$warm_up" || bench_die "warm-up puts over $transport failed"
    bench_log "(not every warm-up put succeeded; going on)"
  fi
}

# Runs a command; sets wall_seconds, cpu_seconds (user + system) and rss_kib (peak), with its stdout in $1.
measure() {
  local out="$1"
  shift
  if [[ -x /usr/bin/time ]]; then
    local status=0
    /usr/bin/time -f '%e %U %S %M' -o "$bench_work/time.out" "$@" > "$out" 2> "$bench_work/feeder.err" || status=$?
    read -r wall_seconds user system rss_kib <<<"$(tail -n 1 "$bench_work/time.out")"
    cpu_seconds="$(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }')"
    return "$status"
  fi
  # No GNU time: CPU from the shell's children times, peak RSS from polling the kernel's high-water mark.
  local before after start pid status=0
  before="$(times | tail -n 1)"
  start="$(date +%s.%N)"
  "$@" > "$out" 2> "$bench_work/feeder.err" &
  pid=$!
  rss_kib=0
  while kill -0 "$pid" 2>/dev/null; do
    rss_kib="$(awk -v a="$rss_kib" -v b="$(bench_peak_rss_kib "$pid")" 'BEGIN { print (b + 0 > a + 0) ? b : a }')"
    sleep 0.2
  done
  wait "$pid" || status=$?
  wall_seconds="$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')"
  after="$(times | tail -n 1)"
  cpu_seconds="$(awk -v b="$before" -v a="$after" 'function secs(t,   m) { split(t, m, /[ms]/); return m[1] * 60 + m[2] }
    BEGIN { split(b, x, " "); split(a, y, " "); print secs(y[1]) + secs(y[2]) - secs(x[1]) - secs(x[2]) }')"
  return "$status"
}

# A stats value from the official stats JSON format ("key" : value, or "key": value from the Vespa CLI).
stat_value() {  # key file
  sed -nE "s/^ *\"$1\" ?: ([0-9.]+).*/\1/p" "$2" | head -n 1
}

failures=0
declare -A rates client_cpus rsss server_cpus peaks ramps
feed() {  # feeder transport
  local feeder="$1" transport="$2" endpoint tls=() vespa_tls=() ok errors seconds before after
  if [[ "$transport" == tls ]]; then
    endpoint="https://127.0.0.1:$SLUICE_TLS_PORT/" tls=(--ca-certificates "$bench_work/cert.pem")
    # Without a client key pair the Vespa CLI dials cleartext even for https:// (Sluice ignores the certificate).
    vespa_tls=("VESPA_CLI_DATA_PLANE_CA_CERT_FILE=$bench_work/cert.pem" "VESPA_CLI_DATA_PLANE_CERT_FILE=$bench_work/cert.pem"
               "VESPA_CLI_DATA_PLANE_KEY_FILE=$bench_work/key.pem")
  else
    endpoint="http://127.0.0.1:$SLUICE_PORT/"
  fi
  rm -rf "$bench_work/data"
  bench_start_sluice "$bench_work/app" "$SLUICE_PORT"
  if [[ "$transport" == tls ]]; then
    # Half over AES-GCM, half over ChaCha20-Poly1305: the feeders differ in what they negotiate (the Vespa CLI and the
    # official client AES-GCM, ./sluice feed of a small file ChaCha20), and each should meet a server warm for its own.
    warm_up_puts $((WARM_UP_PUTS / 2)) --tls13-ciphers=TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384
    warm_up_puts $((WARM_UP_PUTS - WARM_UP_PUTS / 2)) --tls13-ciphers=TLS_CHACHA20_POLY1305_SHA256
  else
    warm_up_puts "$WARM_UP_PUTS"
  fi
  before="$(bench_cpu_ticks "$sluice_pid")"
  local command=()
  if [[ "$feeder" == sluice ]]; then
    command=(env SLUICE_JAVA_OPTS="$CLIENT_JAVA_OPTS" "$bench_root/sluice" feed --endpoint "$endpoint"
             --file "$bench_work/feed.jsonl" --benchmark --silent "${tls[@]+"${tls[@]}"}")
  elif [[ "$feeder" == vespa ]]; then
    command=(env "VESPA_CLI_HOME=$bench_work/vespa-home" "${vespa_tls[@]+"${vespa_tls[@]}"}"
             "$vespa_cli" feed --target "$endpoint" "$bench_work/feed.jsonl")
  else
    # shellcheck disable=SC2206 # CLIENT_JAVA_OPTS is a list of options
    command=(java $CLIENT_JAVA_OPTS -jar "$official_jar" --endpoint "$endpoint" --file "$bench_work/feed.jsonl"
             "${tls[@]+"${tls[@]}"}")
  fi
  local samples="$bench_work/samples-$feeder-$transport-$round"
  bench_sample_puts "$SLUICE_PORT" "$samples"
  if ! measure "$bench_work/stats.json" "${command[@]}"; then
    echo "$feeder feed over $transport failed:" >&2
    tail -n 20 "$bench_work/feeder.err" >&2
    failures=$((failures + 1))
  fi
  bench_require_alive "$sluice_pid" sluice
  after="$(bench_cpu_ticks "$sluice_pid")"
  bench_stop "$bench_sampler_pid"
  local peak ramp
  read -r peak ramp <<<"$(bench_ramp "$samples")"
  bench_stop "$sluice_pid"
  ok="$(stat_value feeder.ok.count "$bench_work/stats.json")"
  errors="$(stat_value feeder.error.count "$bench_work/stats.json")"
  seconds="$(stat_value feeder.seconds "$bench_work/stats.json")"
  if [[ "${ok:-0}" != "$DOCUMENTS" || "${errors:-1}" != 0 ]]; then
    echo "$feeder over $transport: ${ok:-no} ok and ${errors:-no} failed of $DOCUMENTS" >&2
    head -c 2000 "$bench_work/feeder.err" >&2
    failures=$((failures + 1))
    ok=0 seconds=1
  fi
  local key="$feeder/$transport" rate
  rate="$(awk -v n="$ok" -v s="$seconds" 'BEGIN { printf "%.1f", (s > 0 ? n / s : 0) }')"
  rates[$key]="${rates[$key]:-} $rate"
  client_cpus[$key]="${client_cpus[$key]:-} $cpu_seconds"
  rsss[$key]="${rsss[$key]:-} $(( rss_kib / 1024 ))"
  peaks[$key]="${peaks[$key]:-} $peak"
  ramps[$key]="${ramps[$key]:-} $ramp"
  server_cpus[$key]="${server_cpus[$key]:-} $(awk -v t="$(( after - before ))" -v hz="$bench_clk_tck" 'BEGIN { printf "%.2f", t / hz }')"
  bench_log "round $round: $feeder over $transport: $rate ops/s, client CPU ${cpu_seconds}s, peak RSS $(( rss_kib / 1024 )) MiB, wall ${wall_seconds}s, peak $peak ops/s, 90% of it after ${ramp}s"
}

# The first ./sluice feed after a build also writes the CLI's class-data archive (see ./sluice), as it does for any
# user once; do that untimed, with a small feed over the transport that loads the most classes.
head -n 2000 "$bench_work/feed.jsonl" > "$bench_work/warm-up.jsonl"
rm -rf "$bench_work/data"
bench_start_sluice "$bench_work/app" "$SLUICE_PORT"
if [[ " $TRANSPORTS " == *" tls "* ]]; then
  warm_up=(--endpoint "https://127.0.0.1:$SLUICE_TLS_PORT/" --ca-certificates "$bench_work/cert.pem")
else
  warm_up=(--endpoint "http://127.0.0.1:$SLUICE_PORT/")
fi
"$bench_root/sluice" feed "${warm_up[@]}" --file "$bench_work/warm-up.jsonl" --silent > /dev/null 2> "$bench_work/feeder.err" ||
  { tail -n 20 "$bench_work/feeder.err" >&2; bench_die "warm-up feed failed"; }
bench_stop "$sluice_pid"

for ((round = 1; round <= ROUNDS; round++)); do
  for transport in $TRANSPORTS; do
    # shellcheck disable=SC2206 # FEEDERS is a list of names
    order=($FEEDERS)
    for ((shift = 0; shift < (round - 1) % ${#order[@]}; shift++)); do order=("${order[@]:1}" "${order[0]}"); done
    for feeder in "${order[@]}"; do feed "$feeder" "$transport"; done
  done
done

echo
echo "### Feeding: ./sluice feed, the Vespa CLI and the official Java client (bench/feed.sh)"
echo
echo "Engine $BENCH_ENGINE${vespa_version:+, Vespa CLI $vespa_version}; $(bench_fmt "$DOCUMENTS") puts of $DOCUMENT_BYTES-byte documents" \
     "per feed, $ROUNDS feeds per row, feeders rotating, a fresh server per feed; wall clock from process start." \
     "Medians; ops/s also (min–max). Client CPU µs/op = client CPU seconds / documents."
echo
echo "| feeder | transport | ops/s | client CPU s | client CPU µs/op | client peak RSS MiB | server CPU s | peak ops/s | s to 90% of peak | run |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
feeder_name() {
  case "$1" in
    sluice) echo './sluice feed' ;;
    vespa) echo 'Vespa CLI (`vespa feed`)' ;;
    official) echo 'official vespa-feed-client' ;;
  esac
}
median() {  # array key
  local -n values="$1"
  local m
  read -r m _ <<<"$(bench_stats "${values[$2]}")"
  echo "$m"
}
for transport in $TRANSPORTS; do
  for feeder in $FEEDERS; do
    key="$feeder/$transport"
    read -r r r_min r_max <<<"$(bench_stats "${rates[$key]}")"
    cpu="$(median client_cpus "$key")"
    per_op="$(awk -v c="$cpu" -v n="$DOCUMENTS" 'BEGIN { printf "%.1f", c * 1e6 / n }')"
    echo "| $(feeder_name "$feeder") | $transport | $(bench_fmt "$r") ($(bench_fmt "$r_min")–$(bench_fmt "$r_max")) |" \
         "$(bench_fmt "$cpu" 1) | $(bench_fmt "$per_op" 1) | $(bench_fmt "$(median rsss "$key")") |" \
         "$(bench_fmt "$(median server_cpus "$key")" 1) | $(bench_fmt "$(median peaks "$key")") | $(bench_fmt "$(median ramps "$key")" 1) | a |"
  done
  for anchor in $FEEDERS; do
    [[ "$anchor" == sluice ]] && continue
    s="sluice/$transport" a="$anchor/$transport"
    echo "| **Sluice / $(feeder_name "$anchor")** | $transport | **$(bench_ratio "$(median rates "$s")" "$(median rates "$a")")** |" \
         "| $(bench_ratio "$(median client_cpus "$s")" "$(median client_cpus "$a")") |" \
         "$(bench_ratio "$(median rsss "$s")" "$(median rsss "$a")") | | $(bench_ratio "$(median peaks "$s")" "$(median peaks "$a")") |" \
         "$(bench_ratio "$(median ramps "$s")" "$(median ramps "$a")") | a |"
  done
done
echo
bench_run_note a
# The feed rate over time, per transport, one line per feeder (each one's first round), from the server's put counter.
for transport in $TRANSPORTS; do
  lines=()
  for feeder in $FEEDERS; do
    series="$bench_charts/feed-rate-$transport-$feeder.tsv"
    if [[ -s "$bench_work/samples-$feeder-$transport-1" ]]; then chart_rate_series "$bench_work/samples-$feeder-$transport-1" > "$series"; else : > "$series"; fi
    lines+=("$series" "$(feeder_name "$feeder" | sed 's/`//g')")
  done
  chart_lines "$bench_charts/feed-rate-$transport.svg" \
    "$(bench_fmt "$DOCUMENTS") puts over $transport: rate over time, from the feeder's start ($(git -C "$bench_root" rev-parse --short HEAD 2>/dev/null), $(date -u +%Y-%m-%d))" \
    "seconds since the feeder started" "puts/s (1-second spans)" "${lines[@]}" || true
done
if (( failures > 0 )); then
  echo
  echo "$failures feeds failed (see above); they count as 0 ops/s."
  exit 1
fi
