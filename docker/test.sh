#!/usr/bin/env bash
# Builds the Sluice image with docker/build-local.sh (podman; Debian base images made with mmdebstrap, kept between
# runs) and checks what the image promises, through the published port with the Vespa CLI:
#   - it runs as uid 10001, on the jlinked runtime, with a heap of 60% of the container's memory limit;
#   - the health check passes once the server serves, and fails where no server runs;
#   - 1,000 documents fed with `vespa feed`, then `podman stop` (SIGTERM): the server stops gracefully (exit 143,
#     not a SIGKILL at the stop timeout), and a new container on the same volume returns all 1,000, field for field,
#     to `vespa visit`;
#   - a feed stopped by `podman stop` half-way: every document the server acknowledged (vespa feed --verbose) is
#     there, field for field, after a restart on the same volume.
# Prints the image size, the time from `podman run` to the first 200 of /state/v1/health, the stop time, and the
# total time. Bounded (SLUICE_DOCKER_TEST_TIMEOUT seconds, default 900); every container, volume and image it makes
# is removed at the end, also on failure or timeout (the base images are kept: they are the cache).
# Needs root (rootful podman). Installs podman, runc, mmdebstrap, curl, jq, python3-venv with apt-get and the Vespa
# CLI (vespacli, PyPI) in a virtual environment under ~/.cache/sluice when missing.
set -euo pipefail

if [[ -z "${SLUICE_DOCKER_TEST_BOUNDED:-}" ]]; then
  SLUICE_DOCKER_TEST_BOUNDED=1 exec timeout --kill-after=60 "${SLUICE_DOCKER_TEST_TIMEOUT:-900}" "$0" "$@"
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
run_id="sluice-test-$$"
image="localhost/$run_id:latest"
volume="$run_id-data"
work="$(mktemp -d)"
podman=(podman --runtime runc)
started=$SECONDS

log() { echo "docker/test.sh: $* ($(date -u +%H:%M:%S))"; }
fail() { echo "docker/test.sh: FAILED: $*" >&2; exit 1; }

cleanup() {
  local status=$?
  set +e
  if ((status != 0)); then
    for container in $("${podman[@]}" ps -a --filter "label=sluice.test=$run_id" --format '{{.Names}}' 2>/dev/null); do
      echo "--- last lines of $container's log"
      "${podman[@]}" logs --tail 30 "$container" 2>&1
    done
  fi
  "${podman[@]}" rm --force --volumes --time 0 --filter "label=sluice.test=$run_id" >/dev/null 2>&1
  "${podman[@]}" volume rm --force "$volume" >/dev/null 2>&1
  "${podman[@]}" rmi --force "$image" >/dev/null 2>&1
  if [[ -s "$work/images-built.txt" ]]; then
    # Only those still there and untagged: the image's own layers went with it.
    comm -12 "$work/images-built.txt" <("${podman[@]}" images --all --quiet --no-trunc --filter dangling=true | sort) \
      | xargs --no-run-if-empty "${podman[@]}" rmi --force >/dev/null 2>&1
  fi
  rm -rf "$work"
  echo "docker/test.sh: $( ((status == 0)) && echo passed || echo "failed (exit $status)") in $((SECONDS - started)) s"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

missing=()
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v jq >/dev/null 2>&1 || missing+=(jq)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
python3 -c 'import ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
if ((${#missing[@]} > 0)); then
  log "installing ${missing[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sluice"
if [[ ! -x "$cache/vespacli/bin/vespa" ]]; then
  log "installing the Vespa CLI (pip install vespacli) in $cache/vespacli"
  mkdir -p "$cache"
  python3 -m venv "$cache/vespacli"
  "$cache/vespacli/bin/pip" install --quiet vespacli
fi
# The package's `vespa` is a Python wrapper that runs the Go binary as a child: use the binary itself, so that
# killing the feeder below kills the feed.
vespa="$(find "$cache/vespacli/lib" -path '*/go-binaries/*/bin/vespa' -type f | head -1)"
[[ -x "$vespa" ]] || fail "no Vespa CLI binary under $cache/vespacli"

# ---- build ----
build_started=$SECONDS
# The images a multi-stage build leaves besides the image itself (its other stages) are the ones that were not
# there before it; they are removed at the end with the image.
"${podman[@]}" images --all --quiet --no-trunc | sort > "$work/images-before.txt"
"$root/docker/build-local.sh" "$image"
"${podman[@]}" images --all --quiet --no-trunc | sort | comm -13 "$work/images-before.txt" - > "$work/images-built.txt"
build_seconds=$((SECONDS - build_started))
image_bytes="$("${podman[@]}" image inspect --format '{{.Size}}' "$image")"

# Ulimits no higher than this host's hard limits: podman's defaults can exceed them, and runc then fails to set
# them. Here runc could not raise nproc above 32768 even under a hard limit of 96369.
max_files="$(ulimit -Hn)"
max_procs="$(ulimit -Hu)"
if [[ "$max_files" == unlimited ]] || ((max_files > 1048576)); then max_files=1048576; fi
if [[ "$max_procs" == unlimited ]] || ((max_procs > 32768)); then max_procs=32768; fi
"${podman[@]}" volume create --label "sluice.test=$run_id" "$volume" >/dev/null

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Starts container $1 on the volume, published on a free loopback port (into $port), and waits for the first 200 of
# /state/v1/health (its time into $startup_ms).
start_server() {
  local name="$run_id-$1" begin deadline
  port="$(free_port)"
  begin=$(date +%s%N)
  "${podman[@]}" run --detach --name "$name" --label "sluice.test=$run_id" \
    --ulimit "nofile=$max_files:$max_files" --ulimit "nproc=$max_procs:$max_procs" \
    --memory 1g --publish "127.0.0.1:$port:8080" --volume "$volume:/data" "$image" >/dev/null
  deadline=$((SECONDS + 120))
  until curl -fsS -o /dev/null "http://127.0.0.1:$port/state/v1/health" 2>/dev/null; do
    ((SECONDS < deadline)) || fail "$name did not answer /state/v1/health within 120 s"
    [[ "$("${podman[@]}" inspect --format '{{.State.Running}}' "$name")" == true ]] || fail "$name exited"
    sleep 0.1
  done
  startup_ms=$((($(date +%s%N) - begin) / 1000000))
  log "$name serves on 127.0.0.1:$port, ${startup_ms} ms after podman run"
}

# Stops container $1 as `docker stop` does (SIGTERM, then SIGKILL after --time), and checks it stopped by itself.
stop_server() {
  local name="$run_id-$1" begin code
  begin=$(date +%s%N)
  "${podman[@]}" stop --time 40 "$name" >/dev/null
  stop_ms=$((($(date +%s%N) - begin) / 1000000))
  code="$("${podman[@]}" inspect --format '{{.State.ExitCode}}' "$name")"
  # 143: the JVM ran its shutdown hooks after SIGTERM and exited; 137 would be the SIGKILL at the stop timeout.
  [[ "$code" == 143 || "$code" == 0 ]] || fail "$name exited with $code after podman stop, not by the graceful stop"
  log "$name stopped gracefully in ${stop_ms} ms (exit $code)"
}

# Writes $2 put operations with ids $1, $1+1, ... as JSONL to stdout: every field type of the music schema.
documents() {
  python3 - "$1" "$2" <<'PY'
import json, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops (a killed feeder) ends this quietly
first, count = int(sys.argv[1]), int(sys.argv[2])
for i in range(first, first + count):
    print(json.dumps({"put": f"id:test:music::{i}", "fields": {
        "artist": f"Artist {i % 97}", "album": f"Album {i % 13}", "title": f"Title {i} \u00e5\u00e6\u00f8",
        "year": 1950 + i % 70, "duration": 1000 * i, "tags": ["t%d" % (i % 5), "t%d" % (i % 7)],
        "popularity": {"NO": i % 100, "SE": (i * 7) % 100},
        "credits": [{"name": f"Name {i}", "role": "producer"}], "links": {"home": f"https://example.com/{i}"},
        "embedding": {"values": [0.5, 0.25, 0.125, float(i % 3)]}}}))
PY
}

# Checks visit output $3 against the put operations of JSONL file $1: every id listed in file $2 is there, and every
# document visited was fed, with the fields it was fed with (a write in flight when a server stopped may be stored
# without having been acknowledged). Prints what it found; fails naming the first differences.
check_visited() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
fed = {}
for line in open(sys.argv[1]):
    try:
        op = json.loads(line)
    except ValueError:  # the line a killed feed's tee was writing
        continue
    fed[op["put"]] = op["fields"]
expected = {line.strip() for line in open(sys.argv[2]) if line.strip()}
visited = {}
for line in open(sys.argv[3]):
    if line.strip():
        doc = json.loads(line)
        visited[doc["id"]] = doc["fields"]
def normal(fields):
    # A tensor may come back in another of Vespa's JSON forms for its type: compare its values.
    fields = dict(fields)
    if isinstance(fields.get("embedding"), dict):
        fields["embedding"] = fields["embedding"].get("values", fields["embedding"])
    return fields
missing = sorted(expected - set(visited))
unknown = sorted(set(visited) - set(fed))
changed = sorted(i for i in set(visited) & set(fed) if normal(visited[i]) != normal(fed[i]))
if missing or changed or unknown:
    print(f"missing {len(missing)} {missing[:5]}, changed {len(changed)} {changed[:3]}, never fed {len(unknown)} {unknown[:5]}")
    for i in changed[:1]:
        print("fed:    ", json.dumps(normal(fed[i]), sort_keys=True))
        print("visited:", json.dumps(normal(visited[i]), sort_keys=True))
    sys.exit(1)
print(f"{len(expected)} expected, {len(visited)} visited")
PY
}

# ---- the image as it runs ----
start_server a
first_startup_ms=$startup_ms
name="$run_id-a"
uid="$("${podman[@]}" exec "$name" id -u)"
[[ "$uid" == 10001 ]] || fail "the server runs as uid $uid, not 10001"
heap="$("${podman[@]}" exec "$name" java -XX:+PrintFlagsFinal -version 2>/dev/null | awk '$2 == "MaxHeapSize" { print $4 }')"
# 60% of the 1 GiB limit, rounded to the heap's alignment.
((heap > 600 * 1024 * 1024 && heap <= 645 * 1024 * 1024)) || fail "MaxHeapSize is $heap with --memory 1g, not 60% of it"
"${podman[@]}" healthcheck run "$name" >/dev/null || fail "the image's health check fails while the server serves"
# ... and that it can fail: in a container of the image where no server runs, it does.
"${podman[@]}" run --detach --name "$run_id-idle" --label "sluice.test=$run_id" \
  --ulimit "nofile=$max_files:$max_files" --ulimit "nproc=$max_procs:$max_procs" --entrypoint sleep "$image" 300 >/dev/null
if "${podman[@]}" healthcheck run "$run_id-idle" >/dev/null 2>&1; then
  fail "the health check passes in a container where no server runs"
fi
"${podman[@]}" rm --force --volumes --time 0 "$run_id-idle" >/dev/null # and its anonymous /data

# ---- 1,000 documents survive a stop and a new container ----
documents 0 1000 > "$work/feed.jsonl"
"$vespa" feed --target "http://127.0.0.1:$port" "$work/feed.jsonl" > "$work/feed.json"
ok="$(jq '."feeder.ok.count"' "$work/feed.json")"
[[ "$ok" == 1000 ]] || fail "vespa feed: $ok of 1000 succeeded: $(cat "$work/feed.json")"
log "vespa feed: 1000 puts in $(jq '."feeder.seconds"' "$work/feed.json") s"
stop_server a
first_stop_ms=$stop_ms
start_server b
"$vespa" visit --target "http://127.0.0.1:$port" --content-cluster content > "$work/visit.jsonl"
jq -r '.put' "$work/feed.jsonl" > "$work/expected.txt"
found="$(check_visited "$work/feed.jsonl" "$work/expected.txt" "$work/visit.jsonl")" \
  || fail "after a stop and a new container: $found"
log "documents fed before podman stop, in a new container on the volume: $found"

# ---- acknowledged writes survive a stop in the middle of a feed ----
# The feed has no end the server could reach first (up to 10 million documents, written to feed2.jsonl as they are
# sent); the server is stopped once 500 of them are acknowledged, then the feeder is killed.
acks() { sed -n 's/^feed: got status 200 .* for put \(id:[^ ]*\)$/\1/p' "$work/feed2.err" 2>/dev/null; }
documents 1000 10000000 | tee "$work/feed2.jsonl" \
  | "$vespa" feed --verbose --connections 2 --target "http://127.0.0.1:$port" - > "$work/feed2.out" 2> "$work/feed2.err" &
feeder=$!
deadline=$((SECONDS + 120))
until (($(acks | wc -l) >= 500)); do
  ((SECONDS < deadline)) || fail "vespa feed had fewer than 500 documents acknowledged after 120 s"
  kill -0 "$feeder" 2>/dev/null || fail "vespa feed ended before the stop: $(tail -3 "$work/feed2.err")"
  sleep 0.1
done
stop_server b
kill "$feeder" 2>/dev/null || true
wait "$feeder" 2>/dev/null || true
# vespa feed --verbose prints "feed: got status 200 ... for put ID" for each acknowledged put; nothing else counts.
acks > "$work/acked.txt"
acked="$(wc -l < "$work/acked.txt")"
start_server c
"$vespa" visit --target "http://127.0.0.1:$port" --content-cluster content > "$work/visit2.jsonl"
cat "$work/feed.jsonl" "$work/feed2.jsonl" > "$work/all.jsonl"
cat "$work/acked.txt" >> "$work/expected.txt"
found="$(check_visited "$work/all.jsonl" "$work/expected.txt" "$work/visit2.jsonl")" \
  || fail "after a stop in the middle of a feed: $found"
log "after a stop in the middle of a feed ($acked acknowledged): $found"
"${podman[@]}" healthcheck run "$run_id-c" >/dev/null || fail "the health check fails on the restarted server"
memory="$("${podman[@]}" stats --no-stream --format '{{.MemUsage}}' "$run_id-c" 2>/dev/null || echo unknown)"

echo
echo "image $image: $((image_bytes / 1000000)) MB; docker/build-local.sh took ${build_seconds} s"
echo "start-up to the first 200 of /state/v1/health: ${first_startup_ms} ms (empty volume), ${startup_ms} ms (with $acked + 1000 documents)"
echo "graceful stop after feeding 1,000 documents: ${first_stop_ms} ms; in the middle of a feed: ${stop_ms} ms"
echo "memory of the restarted server (--memory 1g) after its visit: $memory"
echo "whole test: $((SECONDS - started)) s"
