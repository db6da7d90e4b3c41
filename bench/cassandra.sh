#!/usr/bin/env bash
# Sluice on Apache Cassandra (content-cassandra): put and get throughput over HTTP/2 (h2c), and visit throughput with
# 1 and 8 slices through 1 and 2 Sluice servers sharing the cluster, on a 1-node cluster (replication factor 1) and a
# 3-node cluster on 127.0.0.1-3 (replication factor 3, LOCAL_QUORUM). Per cluster: feed N 1 KiB documents with
# `./sluice feed` (puts: one timestamped write each by default), GET random stored ids with h2load, then visit
# everything with stream=true, one curl loop per slice in parallel, slice i on server i mod servers. Prints a table:
# ops/s or MB/s, wall seconds, and the CPU seconds of the Sluice servers and of the Cassandra nodes over each step.
#
# Cassandra comes from Maven Central's cassandra-all (5.0.x): the nodes are content-cassandra's test harness nodes
# (CassandraCluster, NodeMain; 512 MB heap, generated cassandra.yaml), started in child JVMs by its ClusterMain, with
# no Docker and no other download. The script builds the server, the CLI and the harness (test classes and
# target/cassandra-lib) with ./mvnw when they are missing or stale.
#
# Usage: bench/cassandra.sh                (from anywhere; ~12 min by default on 2 cores, one minute in smoke mode)
# Environment (and bench/lib.sh's BENCH_SMOKE, BENCH_JAVA_OPTS, BENCH_KEEP, BENCH_NO_BUILD):
#   NODES="1 3"                           cluster sizes, one after the other; replication factor = size
#   DOCUMENTS=20000                       1 KiB documents fed, then read and visited
#   PUT_WARMUP=10000                      documents fed (the first ones of the same feed, so the measured feed
#                                         overwrites them) before the measured puts, so that these measure warm JITs
#                                         in Sluice and the nodes, as the GETs' WARMUP does; 0 measures a cold start
#   DURATION=20 WARMUP=30                 GET: seconds measured after seconds of warm-up (the feed leaves the
#                                         read path cold: over the first 5 s of GETs a node spent ~90 µs of CPU per
#                                         GET, ~45 after 30 s, as its JIT and Sluice's compiled it)
#   H2LOAD_CONNECTIONS=4 H2LOAD_STREAMS=64
#   GET_IDS=20000                         length of h2load's list of random stored ids
#   VISITS="1x1 1x8 2x2 2x8"              servers x slices (at most 2 servers)
#   DISTRIBUTION_BITS                     the engine's distribution-bits (default: the engine's, 16)
#   COMPACTION                            the engine's compaction: size-tiered or leveled (default: the engine's, leveled)
#   GET_CONSISTENCY                       the engine's get-consistency, e.g. LOCAL_ONE (default: the engine's,
#                                         its consistency, LOCAL_QUORUM)
#   SETTLE_SECONDS=120                    before GETs and each visit, wait at most this long for the nodes to go idle
#   CASSANDRA_NODE_OPTS="-XX:TieredStopAtLevel=4"   extra JVM options of every node (the harness runs C1 only)
#   PROFILE                               if set, JFR recordings of the first server over the puts and the GETs:
#                                         $PROFILE-put-<cluster>.jfr, $PROFILE-get-<cluster>.jfr
#   PAXOS_VARIANT=v2                      the nodes' paxos_variant (v2 as in the earlier tables; Cassandra's default is v1)
#   COMMITLOG_SYNC=batch                  the nodes' commitlog_sync: batch (fsynced before each acknowledgement, the
#                                         harness's default), group (10 ms window) or periodic (Cassandra's default:
#                                         acknowledged before the fsync, every 10 s)
#   CLIENT_JAVA_OPTS                      JVM options of ./sluice feed (after the launcher's own)
#   SLUICE_PORT=38080 SLUICE2_PORT=38081  cleartext ports of the two servers
# shellcheck source=bench/lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [[ "$BENCH_SMOKE" == 1 ]]; then
  NODES="${NODES:-1}" DOCUMENTS="${DOCUMENTS:-500}" PUT_WARMUP="${PUT_WARMUP:-100}" DURATION="${DURATION:-2}" WARMUP="${WARMUP:-1}"
  VISITS="${VISITS:-1x1 2x2}" SETTLE_SECONDS="${SETTLE_SECONDS:-10}"
fi
NODES="${NODES:-1 3}"
DOCUMENTS="${DOCUMENTS:-20000}"
PUT_WARMUP="${PUT_WARMUP:-10000}"
DURATION="${DURATION:-20}"
WARMUP="${WARMUP:-30}"
H2LOAD_CONNECTIONS="${H2LOAD_CONNECTIONS:-4}"
H2LOAD_STREAMS="${H2LOAD_STREAMS:-64}"
GET_IDS="${GET_IDS:-20000}"
VISITS="${VISITS:-1x1 1x8 2x2 2x8}"
COMPACTION="${COMPACTION:-}"
GET_CONSISTENCY="${GET_CONSISTENCY:-}"
DISTRIBUTION_BITS="${DISTRIBUTION_BITS:-}"
SETTLE_SECONDS="${SETTLE_SECONDS:-120}"
CASSANDRA_NODE_OPTS="${CASSANDRA_NODE_OPTS:--XX:TieredStopAtLevel=4}"
CLIENT_JAVA_OPTS="${CLIENT_JAVA_OPTS:-}"
PAXOS_VARIANT="${PAXOS_VARIANT:-v2}"
COMMITLOG_SYNC="${COMMITLOG_SYNC:-batch}"
PROFILE="${PROFILE:-}"
SLUICE_PORT="${SLUICE_PORT:-38080}"
SLUICE2_PORT="${SLUICE2_PORT:-38081}"
DOCUMENT_BYTES=1024
CLUSTER_START_SECONDS=900   # a 3-node cluster starts node after node; minutes on a busy 2-core machine
FEED_SECONDS=3600
MAX_REQUESTS_PER_SLICE=100000
harness_classes="$bench_root/content-cassandra/target/test-classes"
cassandra_lib="$bench_root/content-cassandra/target/cassandra-lib"
cluster_main=io.sluice.content.cassandra.harness.ClusterMain

for size in $NODES; do [[ "$size" =~ ^[1-8]$ ]] || bench_die "NODES must hold sizes 1..8, not '$size'"; done
for visit in $VISITS; do [[ "$visit" =~ ^[12]x[1-9][0-9]*$ ]] || bench_die "VISITS must hold SERVERSxSLICES with 1 or 2 servers, not '$visit'"; done
(( DOCUMENTS > 0 && DURATION > 0 && GET_IDS > 0 )) || bench_die "DOCUMENTS, DURATION and GET_IDS must be positive"
[[ "$PUT_WARMUP" =~ ^[0-9]+$ ]] || bench_die "PUT_WARMUP must be a number of documents, not '$PUT_WARMUP'"
(( PUT_WARMUP > DOCUMENTS )) && PUT_WARMUP="$DOCUMENTS"
[[ "$COMMITLOG_SYNC" =~ ^(batch|group|periodic)$ ]] || bench_die "COMMITLOG_SYNC must be batch, group or periodic, not '$COMMITLOG_SYNC'"
[[ "$PAXOS_VARIANT" == v1 || "$PAXOS_VARIANT" == v2 ]] || bench_die "PAXOS_VARIANT must be v1 or v2, not '$PAXOS_VARIANT'"
[[ -z "$COMPACTION" || "$COMPACTION" == leveled || "$COMPACTION" == size-tiered ]] || bench_die "COMPACTION must be leveled or size-tiered, not '$COMPACTION'"
[[ -z "$GET_CONSISTENCY" || "$GET_CONSISTENCY" =~ ^[A-Za-z_]+$ ]] || bench_die "GET_CONSISTENCY must be a consistency level, not '$GET_CONSISTENCY'"
[[ -z "$DISTRIBUTION_BITS" || "$DISTRIBUTION_BITS" =~ ^[1-9][0-9]?$ ]] || bench_die "DISTRIBUTION_BITS must be a number, not '$DISTRIBUTION_BITS'"

bench_require h2load curl
bench_build "$bench_server_jar" http-server
bench_build "$bench_cli_jar" feed-cli
# The harness: content-cassandra's test classes, and cassandra-all with its dependencies in target/cassandra-lib
# (resolved from Maven Central by the module's build at process-test-classes).
harness_stale() {
  [[ ! -f "$harness_classes/${cluster_main//.//}.class" ]] || ! compgen -G "$cassandra_lib/cassandra-all-*.jar" >/dev/null ||
    [[ -n "$(find "$bench_root/content-cassandra/src/test/java" -newer "$harness_classes/${cluster_main//.//}.class" -print -quit)" ]]
}
if harness_stale; then
  [[ "${BENCH_NO_BUILD:-0}" == 1 ]] && bench_die "the Cassandra test harness is not built (BENCH_NO_BUILD=1)"
  bench_log "Building content-cassandra's test harness ..."
  (cd "$bench_root" && ./mvnw -q -B -pl content-cassandra -am process-test-classes) >&2
fi
for port in "$SLUICE_PORT" "$SLUICE2_PORT"; do bench_require_free_port "$port"; done
cassandra_version="$(basename "$(compgen -G "$cassandra_lib/cassandra-all-*.jar" | head -n 1)" .jar)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

bench_log "Generating $DOCUMENTS documents of $DOCUMENT_BYTES bytes"
bench_generate_feed "$DOCUMENTS" "$DOCUMENT_BYTES" > "$bench_work/feed.jsonl"
head -n "$PUT_WARMUP" "$bench_work/feed.jsonl" > "$bench_work/warmup.jsonl"

# Starts a cluster of $1 nodes and waits until every node serves CQL; sets cluster_pid, contact_points, node_pids.
start_cluster() {
  local size="$1" line=""
  bench_log "Starting a $size-node Cassandra cluster"
  bench_start "cassandra-$size" java -Xmx128m -Dsluice.cassandra.lib="$cassandra_lib" \
              -Dsluice.cassandra.work="$bench_work/cassandra" -Dsluice.cassandra.node-options="$CASSANDRA_NODE_OPTS" \
              -Dsluice.cassandra.paxos-variant="$PAXOS_VARIANT" -Dsluice.cassandra.commitlog-sync="$COMMITLOG_SYNC" -cp "$harness_classes" "$cluster_main" "bench$size" "$size"
  cluster_pid="$bench_last_pid"
  for _ in $(seq 1 "$CLUSTER_START_SECONDS"); do
    line="$(grep -m 1 '^ready ' "$bench_work/cassandra-$size.log" || true)"
    [[ -n "$line" ]] && break
    bench_require_alive "$cluster_pid" "cassandra-$size"
    sleep 1
  done
  [[ -n "$line" ]] || { tail -n 30 "$bench_work/cassandra-$size.log" >&2; bench_die "the $size-node cluster did not start within ${CLUSTER_START_SECONDS}s"; }
  read -r _ contact_points node_pids <<<"$line"
  local pid
  for pid in $node_pids; do bench_pids+=("$pid"); done # stopped by pid on exit too, not only through the launcher
  bench_log "Cluster up: $contact_points (node pids $node_pids)"
}

# Stops the launcher, whose shutdown hook kills the nodes, then makes sure every node is gone.
stop_cluster() {
  local pid
  bench_stop "$cluster_pid"
  for pid in $node_pids; do bench_stop "$pid"; done
}

# Writes an application package to directory $1: cleartext port $2, /document/v1, content cluster "bench" with the
# article schema, stored in Cassandra at contact points $3 with replication factor $4.
write_app() {
  local app="$1" port="$2" contact="$3" copies="$4"
  bench_write_package "$app" "<server id=\"plain\" port=\"$port\"/>" \
    "<document-api><maxpendingdocs>4096</maxpendingdocs></document-api>" \
    "<cassandra contact-points=\"$contact\" local-datacenter=\"datacenter1\"${DISTRIBUTION_BITS:+ distribution-bits=\"$DISTRIBUTION_BITS\"}${COMPACTION:+ compaction=\"$COMPACTION\"}${GET_CONSISTENCY:+ get-consistency=\"$GET_CONSISTENCY\"}/>" \
    "$copies"
}

# Starts the two servers on the cluster (the first creates the keyspace, so the second starts after it).
start_servers() {  # size
  local size="$1"
  write_app "$bench_work/app-$size-1" "$SLUICE_PORT" "$contact_points" "$size"
  write_app "$bench_work/app-$size-2" "$SLUICE2_PORT" "$contact_points" "$size"
  # shellcheck disable=SC2086 # BENCH_JAVA_OPTS is a list of options
  bench_start "sluice-$size-1" java $BENCH_JAVA_OPTS -jar "$bench_server_jar" serve --app "$bench_work/app-$size-1"
  sluice1_pid="$bench_last_pid"
  bench_wait_ready "$sluice1_pid" "$SLUICE_PORT" "sluice-$size-1"
  # shellcheck disable=SC2086
  bench_start "sluice-$size-2" java $BENCH_JAVA_OPTS -jar "$bench_server_jar" serve --app "$bench_work/app-$size-2"
  sluice2_pid="$bench_last_pid"
  bench_wait_ready "$sluice2_pid" "$SLUICE2_PORT" "sluice-$size-2"
}

# Sum of the CPU clock ticks of processes $@ so far.
cpu_ticks() {
  local pid total=0
  for pid in "$@"; do total=$(( total + $(bench_cpu_ticks "$pid") )); done
  echo "$total"
}

# Starts and ends one measured step: sets step_wall, step_sluice and step_cassandra (seconds).
step_begin() {
  step_start="$(date +%s.%N)"
  step_sluice_ticks="$(cpu_ticks "$sluice1_pid" "$sluice2_pid")"
  # shellcheck disable=SC2086 # node_pids is a list
  step_cassandra_ticks="$(cpu_ticks $node_pids)"
}
step_end() {
  local sluice cassandra
  bench_require_alive "$sluice1_pid" sluice1
  bench_require_alive "$sluice2_pid" sluice2
  sluice="$(cpu_ticks "$sluice1_pid" "$sluice2_pid")"
  # shellcheck disable=SC2086
  cassandra="$(cpu_ticks $node_pids)"
  step_wall="$(awk -v s="$step_start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')"
  step_sluice="$(awk -v t="$(( sluice - step_sluice_ticks ))" -v hz="$bench_clk_tck" 'BEGIN { printf "%.1f", t / hz }')"
  step_cassandra="$(awk -v t="$(( cassandra - step_cassandra_ticks ))" -v hz="$bench_clk_tck" 'BEGIN { printf "%.1f", t / hz }')"
}

# Waits until the nodes use less than a fifth of a core (at most SETTLE_SECONDS), so that the flushes and compactions
# a feed leaves behind are not counted in the next step.
settle() {
  # shellcheck disable=SC2086 # node_pids is a list
  bench_wait_idle "$SETTLE_SECONDS" Cassandra $node_pids || true
}

failures=0
rows=()
# Adds a table row: cluster, step, throughput text.
row() {
  rows+=("| $1 | $2 | $3 | $step_wall | $step_sluice | $step_cassandra |")
  bench_log "$1: $2: $3 (wall ${step_wall}s, Sluice CPU ${step_sluice}s, Cassandra CPU ${step_cassandra}s)"
}
fail() {
  echo "$*" >&2
  failures=$((failures + 1))
}

plural() {  # count noun
  if (( $1 == 1 )); then echo "$2"; else echo "$2s"; fi
}

stat_value() {  # key file
  sed -nE "s/^ *\"$1\" : ([0-9.]+).*/\1/p" "$2" | head -n 1
}

# With PROFILE set, a JFR recording of server 1 from profile_begin to profile_end STEP: $PROFILE-STEP.jfr.
profile_begin() {
  [[ -z "$PROFILE" ]] || jcmd "$sluice1_pid" JFR.start name=step settings=profile >/dev/null
}
profile_end() {  # step
  local step="${1//[^a-zA-Z0-9-]/_}"
  [[ -z "$PROFILE" ]] || jcmd "$sluice1_pid" JFR.stop name=step filename="$PROFILE-$step.jfr" >/dev/null
}

# Feeds the first PUT_WARMUP documents through server 1, unmeasured, and waits for the nodes to go idle.
warm_up_puts() {  # cluster-label
  (( PUT_WARMUP > 0 )) || return 0
  bench_log "$1: warming up with $PUT_WARMUP puts"
  feed_file "$bench_work/warmup.jsonl" "$bench_work/warmup-stats.json" || fail "$1: the warm-up feed failed"
  settle
}

# Feeds file $1 through server 1 with ./sluice feed --benchmark, its statistics into $2; on failure, shows the
# feeder's last lines and returns non-zero. Through the launcher, with its JVM options (C1 only over cleartext, the
# serial collector): a plain `java -jar` spends a third of the client's CPU in C2 on these two shared cores.
feed_file() {  # feed-file stats-file
  timeout "$FEED_SECONDS" env SLUICE_JAVA_OPTS="$CLIENT_JAVA_OPTS" "$bench_root/sluice" feed \
          --endpoint "http://127.0.0.1:$SLUICE_PORT/" --file "$1" --benchmark --silent > "$2" 2> "$bench_work/feed.err" &&
    return 0
  tail -n 20 "$bench_work/feed.err" >&2
  return 1
}

# Feeds every document through server 1 with ./sluice feed (8 HTTP/2 connections, its own throttling).
measure_put() {  # cluster-label
  local ok errors seconds rate
  step_begin
  profile_begin
  feed_file "$bench_work/feed.jsonl" "$bench_work/stats.json" || true # counted as failed from its statistics below
  profile_end "put-$1"
  step_end
  ok="$(stat_value feeder.ok.count "$bench_work/stats.json")"
  errors="$(stat_value feeder.error.count "$bench_work/stats.json")"
  seconds="$(stat_value feeder.seconds "$bench_work/stats.json")"
  if [[ "${ok:-0}" != "$DOCUMENTS" || "${errors:-1}" != 0 ]]; then
    fail "$1: feed: ${ok:-no} ok and ${errors:-no} failed of $DOCUMENTS"
    ok=0 seconds=1
  fi
  rate="$(awk -v n="$ok" -v s="$seconds" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')"
  local codes
  codes="$(tr -d ' \n' < "$bench_work/stats.json" | grep -oE '"http.response.code.counts":\{[^}]*\}' | sed -E 's/.*\{(.*)\}/\1/; s/"//g')"
  row "$1" "put: \`./sluice feed\` $DOCUMENTS docs" "$(bench_fmt "$rate") ops/s (responses ${codes:-?})"
}

# GETs random stored ids with h2load over h2c; CPU counted over the measured part only.
measure_get() {  # cluster-label
  local out ok other rate
  awk -v base="http://127.0.0.1:$SLUICE_PORT" -v n="$DOCUMENTS" -v k="$GET_IDS" \
      'BEGIN { srand(20261122); for (i = 0; i < k; i++) printf "%s/document/v1/bench/article/docid/%d\n", (i ? "" : base), int(rand() * n) }' \
      > "$bench_work/uris"
  timeout $(( WARMUP + DURATION + 60 )) h2load -c "$H2LOAD_CONNECTIONS" -m "$H2LOAD_STREAMS" -t 1 --warm-up-time="$WARMUP" \
          -D "$DURATION" -i "$bench_work/uris" > "$bench_work/h2load.out" 2>&1 &
  local h2load_pid=$!
  sleep "$WARMUP"
  step_begin
  profile_begin
  wait "$h2load_pid" || true
  profile_end "get-$1"
  step_end
  out="$(cat "$bench_work/h2load.out")"
  read -r ok other <<<"$(awk '/^status codes:/ { ok = $3; other = $5 + $7 + $9 } END { print ok + 0, other + 0 }' <<<"$out")"
  if (( ok == 0 )) || ! grep -q 'Application protocol: h2c$' <<<"$out"; then
    fail "$1: h2load failed: $(grep -E 'Application protocol|requests:|status codes:' <<<"$out" | tr '\n' ' ')"
  fi
  (( other > 0 )) && fail "$1: $other GETs were not 2xx: $(grep 'status codes:' <<<"$out")"
  rate="$(awk -v ok="$ok" -v d="$DURATION" 'BEGIN { printf "%.0f", ok / d }')"
  row "$1" "get: h2load h2c ${H2LOAD_CONNECTIONS}x$H2LOAD_STREAMS, ${DURATION}s" "$(bench_fmt "$rate") ops/s"
}

# One slice with curl and stream=true, to completion: prints "documents bytes". Fails on any status but 200.
visit_slice() {  # port slices slice-id
  local url continuation="" documents=0 bytes=0 requests=0 page status size count
  url="http://127.0.0.1:$1/document/v1/?cluster=bench&timeout=60s&stream=true&slices=$2&sliceId=$3"
  page="$bench_work/page-$3.json"
  while (( requests < MAX_REQUESTS_PER_SLICE )); do
    read -r status size <<<"$(curl -s --max-time 120 -o "$page" -w '%{http_code} %{size_download}' "$url${continuation:+&continuation=$continuation}")"
    requests=$((requests + 1))
    if [[ "$status" != 200 ]]; then
      echo "slice $3 of $2 on port $1: status $status: $(head -c 300 "$page")" >&2
      return 1
    fi
    count="$(grep -oE '"documentCount":[0-9]+' "$page" | tail -n 1 | cut -d: -f2 || true)"
    documents=$((documents + ${count:-0}))
    bytes=$((bytes + size))
    continuation="$(grep -oE '"continuation":"[^"]+"' "$page" | tail -n 1 | cut -d'"' -f4 || true)"
    [[ -z "$continuation" ]] && { echo "$documents $bytes"; return 0; }
  done
  echo "slice $3 of $2 on port $1: not finished after $MAX_REQUESTS_PER_SLICE requests" >&2
  return 1
}

# Visits everything with $2 slices in parallel, slice i through server i mod $1.
measure_visit() {  # cluster-label servers slices
  local servers="$2" slices="$3" ports=("$SLUICE_PORT" "$SLUICE2_PORT") id pids=() status=0 documents bytes
  step_begin
  for ((id = 0; id < slices; id++)); do
    visit_slice "${ports[id % servers]}" "$slices" "$id" > "$bench_work/slice-$id.out" &
    pids+=($!)
  done
  for id in "${!pids[@]}"; do wait "${pids[$id]}" || status=1; done
  step_end
  read -r documents bytes <<<"$(cat "$bench_work"/slice-*.out | awk '{ d += $1; b += $2 } END { print d + 0, b + 0 }')"
  [[ "${BENCH_KEEP:-0}" == 1 ]] || rm -f "$bench_work"/slice-*.out "$bench_work"/page-*.json
  if (( status != 0 )) || [[ "$documents" != "$DOCUMENTS" ]]; then
    fail "$1: visit with $slices slices through $servers servers returned $documents of $DOCUMENTS documents"
  fi
  row "$1" "visit: $servers $(plural "$servers" server) × $slices $(plural "$slices" slice), streamed" \
      "$(awk -v b="$bytes" -v t="$step_wall" 'BEGIN { printf "%.1f", (t > 0 ? b / t / 1e6 : 0) }') MB/s ($(awk -v d="$documents" -v t="$step_wall" 'BEGIN { printf "%.0f", (t > 0 ? d / t : 0) }') docs/s)"
}

for size in $NODES; do
  label="$size $(plural "$size" node), RF $size"
  start_cluster "$size"
  start_servers "$size"
  warm_up_puts "$label"
  bench_log "$label: feeding $DOCUMENTS documents"
  measure_put "$label"
  settle
  bench_log "$label: GET for ${WARMUP}s + ${DURATION}s"
  measure_get "$label"
  for visit in $VISITS; do
    settle
    bench_log "$label: visit $visit"
    measure_visit "$label" "${visit%x*}" "${visit#*x}"
  done
  bench_stop "$sluice2_pid"
  bench_stop "$sluice1_pid"
  stop_cluster
done

echo
echo "### Cassandra, 1 and 3 nodes (bench/cassandra.sh)"
echo
echo "$(nproc) cores shared by Cassandra, Sluice and the clients (load average before:" \
     "$load_before), $cassandra_version (nodes in child JVMs, 512 MB heap," \
     "options '$CASSANDRA_NODE_OPTS', Paxos $PAXOS_VARIANT, commitlog_sync $COMMITLOG_SYNC), Sluice with '$BENCH_JAVA_OPTS'. $DOCUMENTS documents of $DOCUMENT_BYTES bytes;" \
     "puts through one server, GETs of random stored ids through one server, streamed visits with one curl per" \
     "slice${DISTRIBUTION_BITS:+, distribution-bits $DISTRIBUTION_BITS}${GET_CONSISTENCY:+, get-consistency $GET_CONSISTENCY}; the measured puts follow $PUT_WARMUP unmeasured" \
     "ones (the first documents of the same feed); puts, GETs and visits start once the nodes are idle. CPU: seconds over the step, both Sluice servers together and all nodes together. One run each."
echo
echo "| cluster | step | throughput | wall s | Sluice CPU s | Cassandra CPU s | run |"
echo "|---|---|---:|---:|---:|---:|---|"
printf '%s a |\n' "${rows[@]}"
echo
bench_run_note a
if (( failures > 0 )); then
  echo
  echo "$failures steps failed (see above)."
  exit 1
fi
