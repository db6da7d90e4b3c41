#!/usr/bin/env bash
# The embedded store under a real feed: `./sluice feed` (its defaults, h2c) of N new 1 KiB documents into a fresh Sluice
# with the DEFAULT /document/v1 configuration (no maxpendingdocs raised), then reads of the fed store. Prints one
# markdown table of:
#   - server CPU per put (user + system of the server process over the feed, from /proc), ops/s, wall seconds; and
#     per put over the feed and the flushes and compactions it left, until the server went idle, and idle again after
#     the store's own compaction of what a feed leaves (it begins 10-11 s after the last write: the L0 files, and all
#     levels into the bottom one when a fifth of the store lies above it), with how long
#     that took after the feed;
#   - steadiness: the lowest and the median 5-second window rate (the server's succeeded-put counter, sampled every
#     0.5 s) and their ratio; the 429s the feeder saw;
#   - stored bytes per document (the data directory after those compactions and a graceful stop, which flushes the
#     memtables);
#   - after a restart on the fed store: GETs/s of random stored ids (h2load 4 x 32, h2c: within what the default
#     configuration admits; warmed up with the same GETs) and a streamed 1-slice visit
#     in MB/s and docs/s (curl), with server CPU per GET.
#
# Usage: bench/store.sh                       (from anywhere; builds the jars if needed)
# Environment (and bench/lib.sh's BENCH_SMOKE, BENCH_JAVA_OPTS, BENCH_KEEP, BENCH_NO_BUILD):
#   DOCUMENTS=1000000      documents fed
#   WARM_UP=50000          documents fed first, untimed, so the JIT has compiled the server's path: to a second
#                          content cluster of its own store (document type warmup, the fields of article), so the
#                          measured store holds the measured feed alone ...
#   WARM_UP_SECONDS=20     ... and fed again until this long has passed: after one feed of 50,000 the server's C2
#                          compiler still took 0.3-0.9 of a core over the first 7 s of the measured feed (~650
#                          compilations there), and those seconds were the feed's slowest ...
#   WARM_UP_COMPILER_PERCENT=3 WARM_UP_MAX_SECONDS=120
#                          ... and until the server's JIT compiler threads took under this share of its CPU over the
#                          last round, for at most this long: after 20 s, the server's handler was still C1 code with
#                          C2 busy elsewhere, and it was compiled by C2 in the measured feed (113388f, 2026-11-28). The
#                          metrics the feed's steadiness is sampled from are sampled during the warm-up too. Then the
#                          server is left to go idle (its compactions and compilations done, at most 60 s) before the
#                          feed.
#   SYNC=true              <embedded sync="..."/>: true (the default configuration) acknowledges a write once the
#                          write-ahead log holding it is fsynced; false acknowledges before. The table reports the log
#                          writes (with true, its fsyncs) per second of the feed and the puts each carried
#   ENGINE_OPTIONS=""      more attributes of <embedded>, e.g. 'write-buffers="128m"' 
#   READS=1                0 skips the read part
#   GETS=200000            GET requests after the feed
#   STORE_PORT=28090
#   PROFILE=0              1: record the server with JFR during the feed (jfr summary and top frames in the log)
# shellcheck source=bench/lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [[ "$BENCH_SMOKE" == 1 ]]; then
  DOCUMENTS="${DOCUMENTS:-5000}" GETS="${GETS:-2000}" WARM_UP="${WARM_UP:-1000}" WARM_UP_SECONDS="${WARM_UP_SECONDS:-0}"
  WARM_UP_MAX_SECONDS="${WARM_UP_MAX_SECONDS:-0}"
fi
DOCUMENTS="${DOCUMENTS:-1000000}"
WARM_UP="${WARM_UP:-50000}"
WARM_UP_SECONDS="${WARM_UP_SECONDS:-20}"
WARM_UP_COMPILER_PERCENT="${WARM_UP_COMPILER_PERCENT:-3}"
WARM_UP_MAX_SECONDS="${WARM_UP_MAX_SECONDS:-120}"
SYNC="${SYNC:-true}"
ENGINE_OPTIONS="${ENGINE_OPTIONS:-}"
READS="${READS:-1}"
GETS="${GETS:-200000}"
STORE_PORT="${STORE_PORT:-28090}"
PROFILE="${PROFILE:-0}"
DOCUMENT_BYTES=1024

bench_require curl h2load
bench_build "$bench_server_jar" http-server
bench_build "$bench_cli_jar" feed-cli
bench_require_free_port "$STORE_PORT"

app="$bench_work/app" data="$bench_work/data" warm_up_data="$bench_work/warm-up-data"
bench_write_plain_app "$app" "$STORE_PORT" "<embedded data-directory=\"$data\" sync=\"$SYNC\"${ENGINE_OPTIONS:+ $ENGINE_OPTIONS}/>"
sed 's/article/warmup/g' "$app/schemas/article.sd" > "$app/schemas/warmup.sd"
warm_up_cluster="  <content id=\"warmup\" version=\"1.0\">
    <min-redundancy>1</min-redundancy>
    <documents>
      <document type=\"warmup\" mode=\"index\"/>
    </documents>
    <nodes>
      <node hostalias=\"node1\" distribution-key=\"0\"/>
    </nodes>
    <engine>
      <embedded data-directory=\"$warm_up_data\" sync=\"$SYNC\"${ENGINE_OPTIONS:+ $ENGINE_OPTIONS}/>
    </engine>
  </content>"
awk -v cluster="$warm_up_cluster" '/^<\/services>/ { print cluster } { print }' "$app/services.xml" > "$app/services.xml.new"
mv "$app/services.xml.new" "$app/services.xml"

bench_log "Generating $DOCUMENTS documents of $DOCUMENT_BYTES bytes"
bench_generate_feed "$DOCUMENTS" "$DOCUMENT_BYTES" > "$bench_work/feed.jsonl"
bench_generate_feed "$WARM_UP" "$DOCUMENT_BYTES" | sed 's/^{"put":"id:bench:article::/{"put":"id:bench:warmup::/' \
    > "$bench_work/warm-up.jsonl"

java_opts="$BENCH_JAVA_OPTS"
[[ "$PROFILE" == 1 ]] && java_opts="$java_opts -XX:StartFlightRecording=filename=$bench_work/feed.jfr,settings=profile"
BENCH_JAVA_OPTS="$java_opts" bench_start_sluice "$app" "$STORE_PORT"

# The measured store's write-ahead log writes since it opened (content.wal_writes; with sync="true", its fsyncs).
wal_writes() {
  curl -sf "http://127.0.0.1:$STORE_PORT/state/v1/metrics?format=prometheus" |
    awk '/^content_wal_writes_last\{.*clusterId="bench"/ { printf "%.0f\n", $(NF - 1); found = 1 } END { if (!found) print 0 }'
}

# "tid<TAB>name<TAB>user+system ticks" of each of the server's threads.
thread_ticks() {
  local task stat name
  for task in /proc/"$sluice_pid"/task/*; do
    stat="$(cat "$task/stat" 2>/dev/null)" || continue
    name="$(sed -E 's/^[0-9]+ \((.*)\) .*/\1/' <<<"$stat" | tr -d '0-9' | sed -E 's/[-:#]+$//')"
    awk -v id="${task##*/}" -v n="$name" '{ print id "\t" n "\t" $12 + $13 }' <<<"${stat##*) }"
  done
}
# "name<TAB>ticks between the snapshots $1 and $2" of each thread in $2 (all of its ticks if it began after $1).
thread_group_ticks() {
  awk -F'\t' 'NR == FNR { before[$1] = $3; next } { print $2 "\t" $3 - before[$1] }' "$1" "$2"
}

# The share, in percent, of the server's CPU its JIT compiler threads ("C CompilerThre" without digits) took between
# the thread_ticks snapshots $1 and $2.
compiler_percent() {
  thread_group_ticks "$1" "$2" |
    awk -F'\t' '{ all += $2 } $1 ~ /CompilerThre/ { jit += $2 } END { printf "%.1f", (all > 0 ? 100 * jit / all : 0) }'
}

# Whether a warm-up begun at second $1 is done: its last round's compiler share $2 is under WARM_UP_COMPILER_PERCENT,
# or it has taken WARM_UP_MAX_SECONDS.
warm_up_done() {
  awk -v p="$2" -v most="$WARM_UP_COMPILER_PERCENT" 'BEGIN { exit !(p < most) }' ||
    (( SECONDS - $1 >= WARM_UP_MAX_SECONDS ))
}

bench_log "Warming up with $WARM_UP documents of type warmup, fed again until ${WARM_UP_SECONDS}s have passed" \
          "and the server's JIT compilers took under ${WARM_UP_COMPILER_PERCENT}% of its CPU in a round" \
          "(at most ${WARM_UP_MAX_SECONDS}s)"
# The metrics are sampled during the warm-up as during the feed: their HTTP/1.1 requests share Jetty's code with the
# feed's HTTP/2 ones, and when they first arrived with the feed, C2 threw away code compiled for HTTP/2 alone.
bench_sample_puts "$STORE_PORT" "$bench_work/warm-up.samples"
warm_up_start="$SECONDS"
round=0
while :; do
  round=$(( round + 1 ))
  thread_ticks > "$bench_work/warm-up.before"
  "$bench_root/sluice" feed --endpoint "http://127.0.0.1:$STORE_PORT/" --file "$bench_work/warm-up.jsonl" \
      > /dev/null 2> "$bench_work/warm-up.err" ||
      { tail -n 20 "$bench_work/warm-up.err" >&2; bench_die "warm-up failed"; }
  thread_ticks > "$bench_work/warm-up.after"
  jit_percent="$(compiler_percent "$bench_work/warm-up.before" "$bench_work/warm-up.after")"
  bench_log "Warm-up round $round done after $(( SECONDS - warm_up_start ))s:" \
            "JIT compilers ${jit_percent}% of the server's CPU"
  (( SECONDS - warm_up_start >= WARM_UP_SECONDS )) && warm_up_done "$warm_up_start" "$jit_percent" && break
done
bench_stop "$bench_sampler_pid"
bench_wait_idle 60 "The server" "$sluice_pid" || true
# The warm-up's store compacts the L0 files the warm-up left 10-11 s after its last write: before the feed, not in it.
# (A smoke run checks the script, not the numbers, and skips both waits for that compaction.)
if [[ "$BENCH_SMOKE" != 1 ]]; then
  sleep 22
  bench_wait_idle 60 "The server (the warm-up store's L0 compaction)" "$sluice_pid" || true
fi
bench_log "Feeding $DOCUMENTS documents (sync=$SYNC)"
thread_ticks > "$bench_work/threads.before"
bench_sample_puts "$STORE_PORT" "$bench_work/puts.samples"
cpu_before="$(bench_cpu_ticks "$sluice_pid")"
wal_before="$(wal_writes)"
start="$(date +%s.%N)"
feed_status=0
"$bench_root/sluice" feed --endpoint "http://127.0.0.1:$STORE_PORT/" --file "$bench_work/feed.jsonl" \
    > "$bench_work/feed.out" 2> "$bench_work/feed.err" || feed_status=$?
wall="$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')"
cpu_after="$(bench_cpu_ticks "$sluice_pid")"
wal_after="$(wal_writes)"
bench_stop "$bench_sampler_pid"
[[ "$feed_status" == 0 ]] || { tail -n 20 "$bench_work/feed.err" >&2; bench_die "the feed failed ($feed_status)"; }
# The flushes and compactions the feed left behind are its cost too: measured until the server goes idle.
settle_start="$SECONDS"
bench_wait_idle 600 "The server (the feed's compactions)" "$sluice_pid" || true
if [[ "$BENCH_SMOKE" != 1 ]]; then
  sleep 22 # the embedded store compacts what the feed left once it has seen no write for 10-11 s
  bench_wait_idle 600 "The server (the compaction of the L0 files left)" "$sluice_pid" || true
fi
settle_seconds="$(( SECONDS - settle_start ))"
cpu_settled="$(bench_cpu_ticks "$sluice_pid")"
thread_ticks > "$bench_work/threads.after"
if [[ "$PROFILE" == 1 ]]; then
  jcmd "$sluice_pid" JFR.dump filename="$bench_work/feed.jfr" > /dev/null
  jfr print --events jdk.ExecutionSample "$bench_work/feed.jfr" |
    awk '/stackTrace = \[/ { getline; sub(/^[ \t]+/, ""); sub(/line:.*/, ""); top[$0]++; n++ }
         END { for (f in top) printf "%6.2f%% %s\n", 100 * top[f] / n, f }' | sort -rn | head -n 25 > "$bench_work/top-frames"
  jfr print --events jdk.NativeMethodSample "$bench_work/feed.jfr" |
    awk '/stackTrace = \[/ { getline; sub(/^[ \t]+/, ""); sub(/line:.*/, ""); top[$0]++; n++ }
         END { for (f in top) printf "%6.2f%% %s\n", 100 * top[f] / n, f }' | sort -rn | head -n 10 > "$bench_work/top-native"
  bench_log "Top frames of the server's Java threads during the feed ($bench_work/feed.jfr):"
  cat "$bench_work/top-frames" >&2
  bench_log "Top native methods Java threads were in (samples of threads in native code, incl. waiting):"
  cat "$bench_work/top-native" >&2
fi

# Where the server's CPU went over the feed and its compactions, by thread group (threads named alike, digits
# dropped; native RocksDB threads too): each thread's ticks after, less its ticks before the feed.
thread_group_ticks "$bench_work/threads.before" "$bench_work/threads.after" |
  awk -F'\t' -v t="$bench_clk_tck" -v d="$DOCUMENTS" '{ s[$1] += $2; all += $2 }
    END { for (n in s) if (s[n] > 0) printf "%7.1f µs/put %5.1f%%  %s\n", 1e6 * s[n] / t / d, 100 * s[n] / all, n }' |
  sort -rn > "$bench_work/threads"
bench_log "Server CPU by thread group over the feed and its compactions:"
head -n 12 "$bench_work/threads" >&2

server_cpu="$(awk -v a="$cpu_before" -v b="$cpu_after" -v t="$bench_clk_tck" 'BEGIN { print (b - a) / t }')"
us_per_put="$(awk -v c="$server_cpu" -v n="$DOCUMENTS" 'BEGIN { printf "%.1f", 1e6 * c / n }')"
us_per_put_settled="$(awk -v a="$cpu_before" -v b="$cpu_settled" -v t="$bench_clk_tck" -v n="$DOCUMENTS" \
                          'BEGIN { printf "%.1f", 1e6 * (b - a) / t / n }')"
rate="$(awk -v w="$wall" -v n="$DOCUMENTS" 'BEGIN { printf "%.0f", n / w }')"
log_writes_per_second="$(awk -v a="$wal_before" -v b="$wal_after" -v w="$wall" 'BEGIN { printf "%.0f", (b - a) / w }')"
puts_per_log_write="$(awk -v a="$wal_before" -v b="$wal_after" -v n="$DOCUMENTS" 'BEGIN { if (b > a) printf "%.1f", n / (b - a); else print "-" }')"
# 5-second windows over the feed, from the first sample that counted some of its puts (the counter includes the
# warm-up's) to the last one that added some. The sample before the first put may be up to 0.5 s older than the feed,
# and a window begun there counted that idle time as the feed's: a first window begins inside the feed instead,
# and leaves out the puts of its first half-second at most.
read -r window_min window_median <<<"$(awk '{ t[NR] = $1; c[NR] = $2 }
  END {
    first = 0; last = 0
    for (i = 2; i <= NR; i++) { if (c[i] > c[i - 1]) { if (!first) first = i; last = i } }
    n = 0
    for (i = first; i <= last; i++) for (j = i + 1; j <= last; j++) if (t[j] - t[i] >= 5) { r[++n] = (c[j] - c[i]) / (t[j] - t[i]); i = j - 1; break }
    if (n == 0) { print "0 0"; exit }
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (r[j] < r[i]) { x = r[i]; r[i] = r[j]; r[j] = x }
    printf "%.0f %.0f\n", r[1], (n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2) }' "$bench_work/puts.samples")"
steady="$(bench_ratio "$window_min" "$window_median")"
# 429s the feeder was answered (and retried): from its closing statistics, "http.response.code.counts" : { "429" : n }.
throttled="$(sed -nE 's/^ *"429" : ([0-9]+).*/\1/p' "$bench_work/feed.out" | head -n 1)"
throttled="${throttled:-0}"

bench_log "Stopping the server (flushes the memtables)"
bench_stop "$sluice_pid"
# The store's files, without the disk reserve (sluice-disk-reserve, zeros kept so the store can open on a full disk).
stored_bytes="$(du -sb --exclude=sluice-disk-reserve "$data" | awk '{ print $1 }')"
bytes_per_document="$(awk -v b="$stored_bytes" -v n="$DOCUMENTS" 'BEGIN { printf "%.0f", b / n }')"

get_rate="-" get_cpu="-" visit_mbs="-" visit_docs="-"
if [[ "$READS" == 1 ]]; then
  BENCH_JAVA_OPTS="$BENCH_JAVA_OPTS" bench_start_sluice "$app" "$STORE_PORT"
  awk -v base="http://127.0.0.1:$STORE_PORT" -v n="$DOCUMENTS" -v count="$GETS" 'BEGIN { srand(42);
      for (i = 0; i < count; i++) printf "%s/document/v1/bench/article/docid/%d\n", (i ? "" : base), int(rand() * n) }' \
      > "$bench_work/gets"
  # Each h2load connection requests the list's URIs from its start: the 4 connections read the first GETS/4 ids, 4
  # times each. Warm-up: the same GETs, so the measured ones find what a server that has been serving them holds in
  # its caches, for at least WARM_UP_SECONDS and until the JIT compilers took under WARM_UP_COMPILER_PERCENT of the
  # server's CPU in a round (at most WARM_UP_MAX_SECONDS), as for the feed. A round of a tenth of them, as before
  # 2026-11-28, read a tenth of those ids, and with 1,000,000 documents most measured GETs were first reads of their
  # block from a file; and a server warmed up for 12 s spent 21% of its CPU in the JIT compilers during the measured
  # GETs (async-profiler).
  warm_up_start="$SECONDS"
  round=0
  while :; do
    round=$(( round + 1 ))
    thread_ticks > "$bench_work/warm-up.before"
    h2load -n "$GETS" -c 4 -m 32 -i "$bench_work/gets" > /dev/null 2>&1 || true
    thread_ticks > "$bench_work/warm-up.after"
    jit_percent="$(compiler_percent "$bench_work/warm-up.before" "$bench_work/warm-up.after")"
    bench_log "GET warm-up round $round done after $(( SECONDS - warm_up_start ))s:" \
              "JIT compilers ${jit_percent}% of the server's CPU"
    (( SECONDS - warm_up_start >= WARM_UP_SECONDS )) && warm_up_done "$warm_up_start" "$jit_percent" && break
  done
  cpu_before="$(bench_cpu_ticks "$sluice_pid")"
  h2load -n "$GETS" -c 4 -m 32 -i "$bench_work/gets" > "$bench_work/h2load.out" 2>&1 || true
  cpu_after="$(bench_cpu_ticks "$sluice_pid")"
  get_rate="$(sed -nE 's/^finished in .*, ([0-9.]+) req\/s.*/\1/p' "$bench_work/h2load.out")"
  ok="$(sed -nE 's/^status codes: ([0-9]+) 2xx.*/\1/p' "$bench_work/h2load.out")"
  if [[ "${ok:-0}" -lt "$GETS" ]]; then
    grep -E '^(requests|status codes):' "$bench_work/h2load.out" >&2
    get_rate="$get_rate (only ${ok:-0} of $GETS 2xx)"
  fi
  get_cpu="$(awk -v a="$cpu_before" -v b="$cpu_after" -v t="$bench_clk_tck" -v n="$GETS" 'BEGIN { printf "%.1f", 1e6 * (b - a) / t / n }')"
  start="$(date +%s.%N)"
  bytes="$(curl -sf "http://127.0.0.1:$STORE_PORT/document/v1/?cluster=bench&stream=true&wantedDocumentCount=1000000" |
           wc -c)"
  seconds="$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')"
  visit_mbs="$(awk -v b="$bytes" -v s="$seconds" 'BEGIN { printf "%.1f", b / s / 1e6 }')"
  visit_docs="$(awk -v n="$DOCUMENTS" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')"
  bench_stop "$sluice_pid"
fi

echo
echo "### The embedded store: a feed of new documents, then reads (bench/store.sh)"
echo
echo "Default \`<document-api>\` limits; \`./sluice feed\` with its defaults over h2c after a warm-up into a second store;"
echo "server CPU from /proc; steady = the slowest 5-second window of the put counter over the median one."
echo
echo "| documents | sync | ops/s | server CPU µs/put | + compactions after: µs/put (s) | 5-s window min / median | steady | 429s | log writes/s (fsyncs with sync) | puts per log write | stored B/doc | GETs/s (4×32) | server CPU µs/GET | visit MB/s (1 slice) | visit docs/s | run |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
echo "| $(bench_fmt "$DOCUMENTS") | $SYNC | $(bench_fmt "$rate") | $us_per_put | $us_per_put_settled ($settle_seconds) | $(bench_fmt "$window_min") / $(bench_fmt "$window_median") | $steady | $throttled | $(bench_fmt "$log_writes_per_second") | $puts_per_log_write | $bytes_per_document | $get_rate | $get_cpu | $visit_mbs | $(bench_fmt "$visit_docs") | a |"
echo
bench_run_note a
exit 0
