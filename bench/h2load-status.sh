#!/usr/bin/env bash
# h2load on GET /status.html: Sluice against the bare-Jetty ceiling (bench/ceiling), interleaved so drift hits both.
# Prints a markdown table of mean req/s over the rounds and the Sluice/ceiling ratio.
#
# Usage: bench/h2load-status.sh            (from anywhere; builds the server jar if needed)
# Environment:
#   DURATION=10 WARMUP=5 ROUNDS=3          seconds measured and warmed up per run, rounds per case
#   H2LOAD_THREADS=1                       h2load client threads (capped at the connection count)
#   BENCH_JAVA_OPTS="-Xmx1g"               JVM options for both servers
#   SLUICE_PORT=18080 SLUICE_TLS_PORT=18443 CEILING_PORT=19080 CEILING_TLS_PORT=19443
#   SLUICE_SERVER_CMD                      how to start Sluice on $BENCH_APP (default: ./sluice serve --app "$BENCH_APP")
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DURATION="${DURATION:-10}"
WARMUP="${WARMUP:-5}"
ROUNDS="${ROUNDS:-3}"
H2LOAD_THREADS="${H2LOAD_THREADS:-1}"
BENCH_JAVA_OPTS="${BENCH_JAVA_OPTS:--Xmx1g}"
SLUICE_PORT="${SLUICE_PORT:-18080}"
SLUICE_TLS_PORT="${SLUICE_TLS_PORT:-18443}"
CEILING_PORT="${CEILING_PORT:-19080}"
CEILING_TLS_PORT="${CEILING_TLS_PORT:-19443}"
jar="$root/http-server/target/sluice-server.jar"

command -v h2load >/dev/null || { echo "h2load is missing: apt-get install nghttp2-client" >&2; exit 1; }
command -v openssl >/dev/null || { echo "openssl is missing" >&2; exit 1; }

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]+"${pids[@]}"}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]+"${pids[@]}"}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# A throw-away certificate for both servers' TLS ports.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost \
        -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null

export BENCH_APP="$work/app"
mkdir -p "$BENCH_APP"
cat > "$BENCH_APP/services.xml" <<XML
<services version="1.0">
  <container id="bench" version="1.0">
    <http>
      <server id="plain" port="$SLUICE_PORT"/>
      <server id="tls" port="$SLUICE_TLS_PORT">
        <ssl>
          <private-key-file>$work/key.pem</private-key-file>
          <certificate-file>$work/cert.pem</certificate-file>
        </ssl>
      </server>
    </http>
  </container>
</services>
XML

if [[ -z "${SLUICE_SERVER_CMD:-}" ]]; then
  (cd "$root" && ./mvnw -q -B -DskipTests package -pl http-server -am)
  SLUICE_SERVER_CMD="java $BENCH_JAVA_OPTS -jar $jar serve --app $BENCH_APP"
fi

wait_for() {  # port
  for _ in $(seq 1 300); do
    curl -s -o /dev/null "http://127.0.0.1:$1/status.html" && return 0
    sleep 0.2
  done
  echo "Nothing answered on port $1" >&2
  exit 1
}

bash -c "$SLUICE_SERVER_CMD" > "$work/sluice.log" 2>&1 &
pids+=($!)
# shellcheck disable=SC2086
java $BENCH_JAVA_OPTS -cp "$jar" "$root/bench/ceiling/CeilingServer.java" \
     "$CEILING_PORT" "$CEILING_TLS_PORT" "$work/key.pem" "$work/cert.pem" > "$work/ceiling.log" 2>&1 &
pids+=($!)
wait_for "$SLUICE_PORT"
wait_for "$CEILING_PORT"

# name | h2load options | scheme | which port (plain or tls) | protocol h2load must report
cases=(
  "h1 1x1|--h1 -c1 -m1|http|plain|http/1.1"
  "h1 128 conns|--h1 -c128 -m1|http|plain|http/1.1"
  "h2c 1x256|-c1 -m256|http|plain|h2c"
  "h2c 4x256|-c4 -m256|http|plain|h2c"
  "h2 TLS 4x256|-c4 -m256|https|tls|h2"
)

run() {  # options scheme port protocol -> req/s
  local options="$1" url="$2://127.0.0.1:$3/status.html" protocol="$4" conns threads out
  conns="$(sed -E 's/.*-c([0-9]+).*/\1/' <<<"$options")"
  threads=$(( conns < H2LOAD_THREADS ? conns : H2LOAD_THREADS ))
  # shellcheck disable=SC2086
  out="$(h2load $options -t "$threads" --warm-up-time="$WARMUP" -D "$DURATION" "$url" 2>&1)"
  if ! grep -q "succeeded, 0 failed, 0 errored" <<<"$out" && ! grep -qE "requests: .* 0 failed" <<<"$out"; then
    echo "h2load reported failures for $url ($options):" >&2
    grep -E "requests:|status codes:" <<<"$out" >&2
  fi
  grep -q "Application protocol: $protocol\$" <<<"$out" || echo "h2load did not negotiate $protocol with $url" >&2
  sed -nE 's/^finished in [^,]+, ([0-9.]+) req\/s.*/\1/p' <<<"$out"
}

declare -A sluice ceiling
for ((round = 1; round <= ROUNDS; round++)); do
  for case in "${cases[@]}"; do
    IFS='|' read -r name options scheme which protocol <<<"$case"
    if [[ "$which" == tls ]]; then sp="$SLUICE_TLS_PORT"; cp="$CEILING_TLS_PORT"; else sp="$SLUICE_PORT"; cp="$CEILING_PORT"; fi
    s="$(run "$options" "$scheme" "$sp" "$protocol")"
    c="$(run "$options" "$scheme" "$cp" "$protocol")"
    sluice[$name]="${sluice[$name]:-} $s"
    ceiling[$name]="${ceiling[$name]:-} $c"
    echo "round $round: $name sluice=$s ceiling=$c" >&2
  done
done

mean() { awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; printf "%.0f", NF ? s / NF : 0 }' <<<"$1"; }

echo
echo "GET /status.html, $ROUNDS rounds of ${DURATION}s (after ${WARMUP}s warm-up), interleaved; mean req/s"
echo
echo "| case | Sluice req/s | ceiling req/s | Sluice / ceiling |"
echo "|---|---:|---:|---:|"
for case in "${cases[@]}"; do
  IFS='|' read -r name _ <<<"$case"
  s="$(mean "${sluice[$name]}")"
  c="$(mean "${ceiling[$name]}")"
  ratio="$(awk -v s="$s" -v c="$c" 'BEGIN { printf (c > 0 ? "%.2f" : "n/a"), (c > 0 ? s / c : 0) }')"
  echo "| $name | $s | $c | $ratio |"
done
