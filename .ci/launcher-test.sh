#!/usr/bin/env bash
# Checks the JVM options ./sluice picks for feed, visit and copy (through SLUICE_PRINT_COMMAND, so nothing runs): C1
# for a feed of a file under 256 MiB, with ChaCha20-Poly1305 over TLS, C2 for a larger one (inlining less up to
# 2 GiB); otherwise C1 over cleartext and C2 over TLS; and that no input makes the launcher itself fail. Needs the
# CLI jar built (./mvnw package), or builds it.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo '{"put":"id:ns:music::a","fields":{}}' > "$work/small.jsonl"
truncate -s 300M "$work/large.jsonl" # sparse: no disk used
truncate -s 3G "$work/huge.jsonl"
failures=0

# check NAME EXPECTED-OPTIONS UNEXPECTED-OPTIONS -- launcher arguments; options are space-separated
check() {
  local name="$1" expected="$2" unexpected="$3" command option
  shift 4
  if ! command="$(SLUICE_PRINT_COMMAND=1 ./sluice "$@" < /dev/null)"; then
    echo "FAIL $name: the launcher failed"
    failures=$((failures + 1))
    return
  fi
  for option in $expected; do
    grep -qxF -- "$option" <<<"$command" || { echo "FAIL $name: no $option in: $(tr '\n' ' ' <<<"$command")"; failures=$((failures + 1)); }
  done
  for option in $unexpected; do
    ! grep -qxF -- "$option" <<<"$command" || { echo "FAIL $name: $option in: $(tr '\n' ' ' <<<"$command")"; failures=$((failures + 1)); }
  done
  echo "ok   $name"
}

c1=-XX:TieredStopAtLevel=1
chacha=-Dsluice.feed.preferChaCha20=true
inline="-XX:MaxInlineLevel=6 -XX:FreqInlineSize=100"
check "feed, cleartext"               "$c1"         "$chacha $inline" -- feed --endpoint http://localhost:8080/ --file "$work/small.jsonl"
check "feed, cleartext, large file"   "$inline"     "$c1 $chacha" -- feed --endpoint http://localhost:8080/ --file "$work/large.jsonl"
check "feed, cleartext, huge file"    ""            "$c1 $chacha $inline" -- feed --endpoint http://localhost:8080/ --file "$work/huge.jsonl"
check "feed, cleartext, standard input" "$c1"       "$chacha" -- feed --endpoint http://localhost:8080/ --stdin
check "feed, TLS, small file"         "$c1 $chacha" ""        -- feed --endpoint https://localhost:8443/ --file "$work/small.jsonl"
check "feed, TLS, --file=small file"  "$c1 $chacha" ""        -- feed --endpoint=https://localhost:8443/ --file="$work/small.jsonl"
check "feed, TLS, large file"         "$inline"     "$c1 $chacha" -- feed --endpoint https://localhost:8443/ --file "$work/large.jsonl"
check "feed, TLS, standard input"     ""            "$c1 $chacha" -- feed --endpoint https://localhost:8443/ --stdin
check "feed, TLS, missing file"       ""            "$c1 $chacha" -- feed --endpoint https://localhost:8443/ --file "$work/none.jsonl"
check "visit, cleartext"              "$c1 -XX:+UseSerialGC -Xmn32m -Xms64m" "$chacha" -- visit --endpoint http://localhost:8080/
check "visit, TLS"                    "-XX:+UseSerialGC -Xmn32m" "$c1 $chacha" -- visit --endpoint https://localhost:8443/
check "copy, TLS source"              ""            "$c1 $chacha" -- copy --from https://localhost:8443/ --to http://localhost:8080/

# serve --ephemeral through the launcher, for real: the URL line, a put and a get, and both ways to stop it. The first
# run after removing the class-data archive is the one where the launcher stays as the JVM's parent (to keep the archive
# it writes at exit), so it must pass SIGTERM on; a later run is the JVM itself. Bounded: each wait is at most 60 s.
ephemeral_check() { # $1: name; $2: "stdin" to stop by closing standard input, "term" to stop by SIGTERM
  local name="$1" how="$2" url="" pid line
  if [[ "$how" == stdin ]]; then
    coproc server { exec ./sluice serve --ephemeral --port 0 --stop-on-stdin-eof 2>"$work/serve.err"; }
  else
    coproc server { exec ./sluice serve --ephemeral --port 0 < /dev/null 2>"$work/serve.err"; }
  fi
  pid=$server_PID
  while IFS= read -r -t 60 line <&"${server[0]}"; do
    if [[ "$line" == "sluice-url "* ]]; then url="${line#sluice-url }"; break; fi
  done
  if [[ -z "$url" ]]; then echo "FAIL $name: no sluice-url line"; cat "$work/serve.err"; failures=$((failures + 1)); kill "$pid" 2>/dev/null; return; fi
  curl -sf -X POST --data '{"fields":{"artist":"a"}}' "${url}document/v1/ns/music/docid/1" >/dev/null &&
    curl -sf "${url}document/v1/ns/music/docid/1" | grep -q '"artist":"a"' ||
    { echo "FAIL $name: put and get at $url"; failures=$((failures + 1)); }
  if [[ "$how" == stdin ]]; then exec {server[1]}>&-; else kill -TERM "$pid"; fi
  for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null || pgrep -f -- "serve --ephemeral --port 0" >/dev/null; then
    echo "FAIL $name: still running after the stop"; failures=$((failures + 1)); kill $(pgrep -P "$pid") "$pid" 2>/dev/null
  else
    echo "ok   $name"
  fi
  wait "$pid" 2>/dev/null || true
}
rm -f http-server/target/sluice-server-ephemeral.jsa
ephemeral_check "serve --ephemeral, writing the class-data archive, stopped by SIGTERM" term
ephemeral_check "serve --ephemeral, from the archive, stopped at the end of standard input" stdin

# The README's example of testing an application against Sluice, as written there.
example="$(awk '/^<!-- testing-example -->$/ { on = 1; next } /^<!-- \/testing-example -->$/ { on = 0 } on && !/^```/' README.md)"
if output="$(timeout 300 bash -euo pipefail -c "$example" 2>"$work/example.err")" && grep -qx '"documentCount":100' <<<"$output" \
   && grep -q '"injected":{"429":[1-9]' <<<"$output"; then
  echo "ok   README testing example"
else
  echo "FAIL README testing example: $output"; cat "$work/example.err"; failures=$((failures + 1))
fi

if ((failures > 0)); then
  echo "$failures launcher checks failed"
  exit 1
fi
echo "launcher checks passed"
