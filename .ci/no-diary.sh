#!/usr/bin/env bash
# Keeps the repository about the product: fails when a tracked file speaks of how the work on it was organised
# (counters of work periods: an ordinal or "this", "next", "last" before the word for a work period; numbered issues or tickets of our own; notes
# kept beside the work) instead of what the code does and why. A public reference such as vespa-engine/vespa#20788 is
# fine; so are HTTP/2, TLS and Cassandra sessions, which these patterns do not match.
#
# Usage: .ci/no-diary.sh   (from anywhere in the repository; exit 1 and one file:line per hit when something is found)
set -euo pipefail
cd "$(dirname "$0")/.."
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "error: .ci/no-diary.sh reads git ls-files: run it in a git checkout" >&2; exit 2; }

ordinal='first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|[a-z]+teenth|[a-z]+tieth'
patterns=(
  "\\b($ordinal|last|this|next|previous|earlier|today's|yesterday's|same) (work )?(session|stop)s?\\b"
  "\\bsessions? [0-9]+\\b"
  "\\bsession('s)? notes?\\b"
  "\\bissues? #?[0-9]+\\b"
  "\\bissue [0-9]+'s\\b"
  "\\btickets? #?[0-9]+\\b"
  "\\b(sub-?agents?|other helpers)\\b"
)
regex="$(IFS='|'; echo "${patterns[*]}")"

hits="$(git ls-files -z -- ':!.ci/no-diary.sh' | xargs -0 grep -nIiE -- "$regex" 2>/dev/null || true)"
if [[ -n "$hits" ]]; then
  echo "error: these lines speak of how the work was organised, not of the product; say what the code does and why:" >&2
  while IFS= read -r hit; do
    echo "  ${hit%%:*}:$(cut -d: -f2 <<<"$hit"): $(cut -d: -f3- <<<"$hit" | sed -E 's/^[[:space:]]+//' | cut -c1-160)" >&2
  done <<<"$hits"
  echo "$(wc -l <<<"$hits") line(s); the check is .ci/no-diary.sh." >&2
  exit 1
fi
echo "no-diary: no work-organisation wording in $(git ls-files | wc -l) tracked files"
