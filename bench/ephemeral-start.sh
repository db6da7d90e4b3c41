#!/usr/bin/env bash
# Start-up of an ephemeral server (./sluice serve --ephemeral), as an application's test suite sees it: the time from
# starting the process to the first 200 on /state/v1/health, over RUNS starts (default 10; the median and the range
# are printed), then the resident memory of one server after 10,000 puts of ~100-byte documents through ./sluice feed.
#
# Usage: bench/ephemeral-start.sh [RUNS]        JVM options for the server: SLUICE_JAVA_OPTS
# Needs curl. Every server listens on a free loopback port and is stopped by closing its standard input.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
runs="${1:-10}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

./sluice help >/dev/null
# Builds the jars if stale, and writes the launcher's class-data archive on the first run, which is not measured.
start_server() { # $1: url file; the server's standard input is this shell's fd 3 (a pipe), so closing 3 stops it
  exec 3> >(exec ./sluice serve --ephemeral --port 0 --stop-on-stdin-eof --url-file "$1" > "$work/out" 2> "$work/err")
}
wait_healthy() { # prints the ms from $2 (ns) to the first 200 of /state/v1/health, and the server's CPU ms by then
  local url_file="$1" started="$2" deadline=$((SECONDS + 60)) elapsed pid
  until [[ -s "$url_file" ]] && [[ "$(curl -s -o /dev/null -w '%{http_code}' "$(cat "$url_file")state/v1/health")" == 200 ]]; do
    ((SECONDS < deadline)) || { echo "no healthy server within 60 s:" >&2; cat "$work/err" >&2; exit 1; }
    sleep 0.005
  done
  elapsed=$(( ($(date +%s%N) - started) / 1000000 ))
  pid="$(pgrep -n -f -- "--url-file $url_file")"
  echo "$elapsed $(awk -v tick="$(getconf CLK_TCK)" '{ print int(($14 + $15) * 1000 / tick) }' "/proc/$pid/stat")"
}
stop_server() { # closes the server's standard input and waits for the process to go
  local pid
  pid="$(pgrep -f -- "--url-file $1" || true)"
  exec 3>&-
  for _ in $(seq 1 200); do [[ -z "$pid" ]] || ! kill -0 "$pid" 2>/dev/null && return 0; sleep 0.05; done
  echo "server $pid did not stop on end of input" >&2; exit 1
}

# Warm-up start (not measured): the launcher writes the class-data archive on the first run after a build.
start_server "$work/url-warm"; wait_healthy "$work/url-warm" "$(date +%s%N)" >/dev/null; stop_server "$work/url-warm"

times=() cpus=()
for i in $(seq 1 "$runs"); do
  started="$(date +%s%N)"
  start_server "$work/url-$i"
  read -r elapsed cpu < <(wait_healthy "$work/url-$i" "$started")
  times+=("$elapsed") cpus+=("$cpu")
  stop_server "$work/url-$i"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
echo "start to first 200 on /state/v1/health: median $(median "${times[@]}") ms of wall time, $(median "${cpus[@]}") ms of CPU ($runs starts, wall ${times[*]}; CPU ${cpus[*]})"
echo "load average when done: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

start_server "$work/url-rss"
wait_healthy "$work/url-rss" "$(date +%s%N)" >/dev/null
url="$(cat "$work/url-rss")"
pid="$(pgrep -f -- "--url-file $work/url-rss")"
awk 'BEGIN { for (i = 0; i < 10000; i++) printf "{\"put\":\"id:mynamespace:music::doc-%d\",\"fields\":{\"artist\":\"artist %d\",\"title\":\"title %d\",\"year\":%d}}\n", i, i, i, 1950 + i % 70 }' > "$work/docs.jsonl"
./sluice feed --endpoint "$url" --file "$work/docs.jsonl" > "$work/feed.out" 2>&1
stored="$(curl -s "${url}document/v1/?cluster=content&wantedDocumentCount=100000" | grep -o '"documentCount":[0-9]*' || true)"
echo "RSS after 10,000 puts: $(awk '/VmRSS/ { printf "%d MB", $2 / 1024 }' "/proc/$pid/status") (peak $(awk '/VmHWM/ { printf "%d MB", $2 / 1024 }' "/proc/$pid/status")); visited: $stored"
stop_server "$work/url-rss"
