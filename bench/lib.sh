# Shared by bench/h2load.sh, bench/feed.sh and bench/visit.sh (sourced, not run): building, certificates, the
# benchmark application package, starting and stopping processes, CPU and memory readings, and statistics.
#
# Environment read here:
#   BENCH_SMOKE=1        smoke mode: a few seconds per case and one round; scripts check that everything works, the
#                        numbers mean nothing
#   BENCH_JAVA_OPTS      JVM options for the servers (default -Xmx1g)
#   BENCH_ENGINE         Sluice's content engine: embedded (default, fresh data directory per server start) or memory
#   BENCH_KEEP=1         keep the work directory (logs, generated documents) instead of deleting it
#   BENCH_NO_BUILD=1     use the jars as they are instead of rebuilding stale ones with ./mvnw
#   BENCH_SERVER_JAR     the server jar to run instead of http-server's (used as it is, never built): for comparing
#                        builds, e.g. an older commit's jar, on the same script and machine
#   BENCH_CHARTS         where the scripts write their charts (SVG) and the charts' data (TSV); default bench/charts,
#                        the files bench/README.md shows (a smoke run writes into its work directory instead)
# shellcheck shell=bash disable=SC2034 # its variables are used by the scripts that source it

set -euo pipefail

bench_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_SMOKE="${BENCH_SMOKE:-0}"
BENCH_JAVA_OPTS="${BENCH_JAVA_OPTS:--Xmx1g}"
BENCH_ENGINE="${BENCH_ENGINE:-embedded}"
bench_server_jar="${BENCH_SERVER_JAR:-$bench_root/http-server/target/sluice-server.jar}"
bench_cli_jar="$bench_root/feed-cli/target/sluice-cli.jar"
bench_clk_tck="$(getconf CLK_TCK)"
bench_work="$(mktemp -d "${TMPDIR:-/tmp}/sluice-bench.XXXXXX")"
bench_pids=()
# shellcheck source=bench/chart.sh
source "$bench_root/bench/chart.sh"
if [[ "$BENCH_SMOKE" == 1 ]]; then bench_charts="${BENCH_CHARTS:-$bench_work/charts}"; else bench_charts="${BENCH_CHARTS:-$bench_root/bench/charts}"; fi
mkdir -p "$bench_charts"

# The settings a benchmark script reads from the environment; those given are part of the command each results table
# names (ports, build switches and the work directory's fate do not change a number, so they are left out).
bench_settings=(BENCH_ENGINE BENCH_JAVA_OPTS BENCH_SERVER_JAR ENGINES CASES DURATION WARMUP ROUNDS PREWARM
  H2LOAD_THREADS GET_DOCUMENTS POST_IDS CEILING_GET_BYTES HEAP DOCUMENTS TRANSPORTS FEEDERS CLIENT_JAVA_OPTS
  WARM_UP_PUTS VESPACLI_VERSION SYNC ENGINE_OPTIONS READS GETS WARM_UP WARM_UP_SECONDS WARM_UP_COMPILER_PERCENT
  WARM_UP_MAX_SECONDS PAGE_DOCUMENTS SLICES MODES NODES PUT_WARMUP GET_IDS VISITS DISTRIBUTION_BITS COMPACTION
  SETTLE_SECONDS CASSANDRA_NODE_OPTS PAXOS_VARIANT COMMITLOG_SYNC GET_CONSISTENCY H2LOAD_CONNECTIONS H2LOAD_STREAMS)
bench_command="$(
  for name in "${bench_settings[@]}"; do
    value="$(printenv "$name")" || continue
    [[ "$name" == BENCH_SERVER_JAR ]] && value="<jar>"
    if [[ "$value" =~ ^[A-Za-z0-9_./:=,+-]+$ ]]; then printf '%s=%s ' "$name" "$value"; else printf "%s='%s' " "$name" "$value"; fi
  done
  printf 'bench/%s' "$(basename "$0")"
)"

# The line under a results table that names its run: "<key>: `command`, commit, date, machine". A results table's
# rows end with the key of the run that measured them, so rows of several runs can share a table on bench/README.md.
bench_run_note() {
  local key="${1:-a}" commit java_version
  commit="$(git -C "$bench_root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  git -C "$bench_root" diff --quiet HEAD 2>/dev/null || commit+=" with local changes"
  [[ -n "${BENCH_SERVER_JAR:-}" ]] && commit+=" (scripts; server: $BENCH_SERVER_JAR)"
  java_version="$(java -version 2>&1 | head -n 1 | sed -E 's/.*version "([^"]+)".*/\1/')"
  echo "$key: \`$bench_command\`, $commit, $(date -u +%Y-%m-%d), $(nproc) cores, JDK $java_version."
}

bench_log() {
  echo "[$(date +%H:%M:%S)] $*" >&2
}

bench_die() {
  echo "error: $*" >&2
  exit 1
}

# Stops every process this script started (TERM, then KILL after 10 s) and removes the work directory.
bench_cleanup() {
  local pid
  for pid in "${bench_pids[@]+"${bench_pids[@]}"}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${bench_pids[@]+"${bench_pids[@]}"}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [[ "${BENCH_KEEP:-0}" == 1 ]]; then echo "Work directory kept: $bench_work" >&2; else rm -rf "$bench_work"; fi
}
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

# Whether jar $1 is missing, or a pom or module source is newer than it (as ./sluice decides).
bench_stale() {
  [[ ! -f "$1" ]] && return 0
  [[ -n "$(find "$bench_root/pom.xml" "$bench_root"/*/pom.xml "$bench_root"/*/src -newer "$1" -print -quit 2>/dev/null)" ]]
}

# Builds module $2 (with what it depends on) unless jar $1 is up to date.
bench_build() {
  local jar="$1" module="$2"
  if [[ "${BENCH_NO_BUILD:-0}" == 1 || "$jar" == "${BENCH_SERVER_JAR:-}" ]]; then # used as it is
    [[ -f "$jar" ]] || bench_die "$jar is missing (BENCH_NO_BUILD=1 or BENCH_SERVER_JAR: not built here)"
    return 0
  fi
  if bench_stale "$jar"; then
    bench_log "Building $module ..."
    (cd "$bench_root" && ./mvnw -q -B -DskipTests package -pl "$module" -am) >&2
  fi
}

# Makes sure commands exist; h2load comes from Debian's nghttp2-client, installed when missing and we are root.
bench_require() {
  local command missing=()
  for command in "$@"; do command -v "$command" >/dev/null 2>&1 || missing+=("$command"); done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  local packages=()
  for command in "${missing[@]}"; do
    case "$command" in
      h2load) packages+=(nghttp2-client) ;;
      *) packages+=("$command") ;;
    esac
  done
  if command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
    bench_log "Installing ${packages[*]} with apt-get ..."
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >&2
  else
    bench_die "missing ${missing[*]}: install ${packages[*]} (e.g. sudo apt-get install ${packages[*]})"
  fi
}

# A throw-away self-signed certificate for 127.0.0.1 and localhost: $bench_work/key.pem and cert.pem.
bench_make_certificate() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost \
          -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
          -keyout "$bench_work/key.pem" -out "$bench_work/cert.pem" 2>/dev/null
}

# Fails when something already listens on port $1 of the loopback interface.
bench_require_free_port() {
  if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
    bench_die "port $1 is in use; choose other ports (see the script's environment variables)"
  fi
}

# Writes an application package to directory $1: the <server> elements $2 in <http>, the <document-api> element $3,
# and content cluster "bench" with the article schema, min-redundancy $5 (default 1), stored by the engine element $4.
# Every benchmark's package comes from here, so they differ only in what they pass.
bench_write_package() {
  local app="$1" servers="$2" document_api="$3" engine="$4" copies="${5:-1}"
  mkdir -p "$app/schemas"
  cp "$bench_root/bench/app/schemas/article.sd" "$app/schemas/"
  cat > "$app/services.xml" <<XML
<services version="1.0">
  <container id="bench" version="1.0">
    <http>
      $servers
    </http>
    $document_api
  </container>
  <content id="bench" version="1.0">
    <min-redundancy>$copies</min-redundancy>
    <documents>
      <document type="article" mode="index"/>
    </documents>
    <nodes>
      <node hostalias="node1" distribution-key="0"/>
    </nodes>
    <engine>
      $engine
    </engine>
  </content>
</services>
XML
}

# Writes the package of the throughput benchmarks to directory $1: cleartext port $2 and TLS port $3 (with
# bench_make_certificate's certificate), the DEFAULT /document/v1 limits (admission follows the heap and the age of pending work), and the
# engine BENCH_ENGINE (embedded, with its data in directory $4, or memory).
bench_write_app() {
  local app="$1" port="$2" tls_port="$3" data="$4" engine
  case "$BENCH_ENGINE" in
    embedded) engine="<embedded data-directory=\"$data\"/>" ;;
    memory) engine="<memory/>" ;;
    *) bench_die "BENCH_ENGINE must be embedded or memory, not '$BENCH_ENGINE'" ;;
  esac
  bench_write_package "$app" "<server id=\"plain\" port=\"$port\"/>
      <server id=\"tls\" port=\"$tls_port\">
        <ssl>
          <private-key-file>$bench_work/key.pem</private-key-file>
          <certificate-file>$bench_work/cert.pem</certificate-file>
        </ssl>
      </server>" "<document-api/>" "$engine"
}

# Writes a cleartext-only package to directory $1: port $2, the DEFAULT /document/v1 limits, stored by the engine
# element $3 (e.g. '<embedded data-directory="..."/>'). What a new user runs, unlike bench_write_app's TLS server.
bench_write_plain_app() {
  bench_write_package "$1" "<server id=\"plain\" port=\"$2\"/>" "<document-api/>" "$3"
}

# Starts a command in the background with its output in $bench_work/$1.log; its pid is left in bench_last_pid.
bench_start() {
  local name="$1"
  shift
  "$@" > "$bench_work/$name.log" 2>&1 &
  bench_last_pid=$!
  bench_pids+=("$bench_last_pid")
}

# Stops process $1 (started by bench_start) and waits for it.
bench_stop() {
  local pid="$1" kept=() other
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  for other in "${bench_pids[@]}"; do [[ "$other" == "$pid" ]] || kept+=("$other"); done
  bench_pids=("${kept[@]+"${kept[@]}"}")
}

# Waits (at most 120 s) until http://127.0.0.1:$2/status.html answers, while process $1 lives; log name $3.
bench_wait_ready() {
  local pid="$1" port="$2" name="$3"
  for _ in $(seq 1 600); do
    curl -s --max-time 5 -o /dev/null "http://127.0.0.1:$port/status.html" && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 30 "$bench_work/$name.log" >&2
      bench_die "$name exited before it answered on port $port"
    fi
    sleep 0.2
  done
  tail -n 30 "$bench_work/$name.log" >&2
  bench_die "$name did not answer on port $port within 120 s"
}

# Starts Sluice on application $1 (ports in its services.xml; $2 is the cleartext one) and waits until it answers;
# its log is $bench_work/$3.log (default sluice.log), its pid left in sluice_pid.
bench_start_sluice() {
  local app="$1" port="$2" name="${3:-sluice}"
  # shellcheck disable=SC2086 # BENCH_JAVA_OPTS is a list of options
  bench_start "$name" java $BENCH_JAVA_OPTS -jar "$bench_server_jar" serve --app "$app"
  sluice_pid="$bench_last_pid"
  bench_wait_ready "$sluice_pid" "$port" "$name"
}

# Starts the ceiling (bare Jetty with Sluice's connectors) on cleartext port $1 and TLS port $2, and waits for it.
# CEILING_GET_BYTES=N makes it answer GETs with N-byte bodies instead of the small put reply it answers everything with.
bench_start_ceiling() {
  [[ "${CEILING_GET_BYTES:-0}" =~ ^[0-9]+$ ]] || bench_die "CEILING_GET_BYTES must be a byte count, not '$CEILING_GET_BYTES'"
  # shellcheck disable=SC2086
  bench_start ceiling java $BENCH_JAVA_OPTS ${CEILING_GET_BYTES:+-Dceiling.getBytes=$CEILING_GET_BYTES} \
              -cp "$bench_server_jar" "$bench_root/bench/ceiling/CeilingServer.java" \
              "$1" "$2" "$bench_work/key.pem" "$bench_work/cert.pem"
  ceiling_pid="$bench_last_pid"
  bench_wait_ready "$ceiling_pid" "$1" ceiling
}

# Fails, showing the end of its log, unless process $1 (started as $2) still runs.
bench_require_alive() {
  if ! kill -0 "$1" 2>/dev/null; then
    tail -n 30 "$bench_work/$2.log" >&2
    bench_die "$2 (pid $1) is no longer running"
  fi
}

# User plus system CPU time of process $1 so far, in clock ticks ($bench_clk_tck per second).
bench_cpu_ticks() {
  local stat
  stat="$(cat "/proc/$1/stat")"
  # Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  awk '{ print $12 + $13 }' <<<"${stat##*) }"
}

# Waits until processes $3... together use less than a fifth of a core over 2 s, at most $1 seconds; $2 names them in
# the log. Returns 0 once idle, 1 if still busy at the end (the caller measures anyway).
bench_wait_idle() {
  local most="$1" name="$2" waited before after pid
  shift 2
  for ((waited = 0; waited < most; waited += 2)); do
    before=0 after=0
    for pid in "$@"; do before=$(( before + $(bench_cpu_ticks "$pid") )); done
    sleep 2
    for pid in "$@"; do after=$(( after + $(bench_cpu_ticks "$pid") )); done
    if (( (after - before) * 5 < 2 * bench_clk_tck )); then
      (( waited > 0 )) && bench_log "$name idle after ${waited}s"
      return 0
    fi
  done
  bench_log "$name still busy after ${most}s; measuring anyway"
  return 1
}

# Peak resident set size of process $1 so far, in KiB.
bench_peak_rss_kib() {
  awk '/^VmHWM:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0
}

# "median min max" of the numbers in $1 (space separated).
bench_stats() {
  tr ' ' '\n' <<<"$1" | awk 'NF' | sort -g | awk '{ v[NR] = $1 }
    END { if (NR == 0) { print "0 0 0"; exit }
          m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf "%s %s %s\n", m, v[1], v[NR] }'
}

# Formats a number with thousands separators and $2 decimals (default 0).
bench_fmt() {
  awk -v x="$1" -v d="${2:-0}" 'BEGIN {
    s = sprintf("%." d "f", x); sign = ""; if (substr(s, 1, 1) == "-") { sign = "-"; s = substr(s, 2) }
    p = index(s, "."); whole = p ? substr(s, 1, p - 1) : s; frac = p ? substr(s, p) : ""
    out = ""; while (length(whole) > 3) { out = "," substr(whole, length(whole) - 2) out; whole = substr(whole, 1, length(whole) - 3) }
    print sign whole out frac }'
}

# $1 / $2 with two decimals, or n/a (when $2 is not positive or $1 is negative, e.g. a ramp that never ended).
bench_ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a >= 0) printf "%.2f", a / b; else printf "n/a" }'
}

# Writes $1 generated article documents as JSONL feed operations ({"put":"id:bench:article::<prefix><n>","fields":…}),
# each fields object {"fields":{…}} exactly $2 bytes, the same for the same arguments; id prefix $3.
bench_generate_feed() {
  awk -v mode=feed -v count="$1" -v bytes="$2" -v prefix="${3:-}" -f "$bench_root/bench/generate.awk"
}

# Writes one put body {"fields":{…}} of exactly $1 bytes.
bench_generate_body() {
  awk -v mode=body -v count=1 -v bytes="$1" -f "$bench_root/bench/generate.awk"
}

# Starts sampling Sluice's count of succeeded puts (/state/v1/metrics on port $1) every 0.5 s, as "seconds count"
# lines into file $2, seconds counted from now; the sampler's pid is in bench_sampler_pid. Stop it with bench_stop.
bench_sample_puts() {
  local port="$1" out="$2"
  local start
  start="$(date +%s.%N)"
  (
    while :; do
      local now count
      now="$(date +%s.%N)"
      count="$(curl -sf "http://127.0.0.1:$port/state/v1/metrics?format=prometheus" |
               sed -nE 's/^httpapi_operations_count\{operation="put",outcome="succeeded",?\} ([0-9]+).*/\1/p')" || true
      awk -v s="$start" -v n="$now" -v c="${count:-0}" 'BEGIN { printf "%.3f %d\n", n - s, c }' >> "$out"
      sleep 0.5
    done
  ) &
  bench_sampler_pid=$!
  bench_pids+=("$bench_sampler_pid")
}

# "peak seconds_to_90%" from a bench_sample_puts file $1: the peak is the highest rate over any 5-second window (short
# spikes do not count); the time is when the first 2-second window reaching 90% of that peak ended (from the start of
# sampling). Feeds shorter than that use their whole span as the window. "0 -1" when there is nothing to measure.
bench_ramp() {
  awk 'function rate(i, span,   j) { for (j = i - 1; j >= 1; j--) if (t[i] - t[j] >= span) return (c[i] - c[j]) / (t[i] - t[j]); return -1 }
    { t[NR] = $1; c[NR] = $2 }
    END {
      if (NR < 2 || t[NR] <= t[1]) { print "0 -1"; exit }
      long = t[NR] - t[1] < 5 ? t[NR] - t[1] : 5
      short = long < 2 ? long : 2
      peak = 0
      for (i = 1; i <= NR; i++) { r = rate(i, long); if (r > peak) peak = r }
      at = -1
      for (i = 1; i <= NR && at < 0 && peak > 0; i++) if (rate(i, short) >= 0.9 * peak) at = t[i]
      printf "%.0f %.1f\n", peak, at }' "$1"
}
