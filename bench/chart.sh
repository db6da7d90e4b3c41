#!/usr/bin/env bash
# Charts for the benchmark pages, drawn with gnuplot as SVG (small, and diffable in git). Sourced by bench/lib.sh, so
# every benchmark script can draw its own; also runnable on its own, to redraw a chart from its data file:
#
#   bench/chart.sh bars  DATA.tsv OUT.svg "title" "y label"              grouped bars, one group per row
#   bench/chart.sh lines OUT.svg "title" "x label" "y label" DATA.tsv LABEL [DATA.tsv LABEL ...]
#
# Bars: DATA.tsv is tab-separated with a header line; column 1 names each group (a case, a slice count), every other
# column is one series, titled by its header. CHART_REFERENCE=last draws the last series in grey, as the reference the
# others are measured against (the ceiling, curl). Lines: each DATA.tsv holds "x<TAB>y" rows, one line per file.
#
# gnuplot comes from Debian's gnuplot-nox; chart_require installs it with apt-get when it is missing and this runs as
# root. Without it, charts are skipped with a message and the benchmark's tables are still printed: a chart is never a
# reason for a benchmark to fail.
# shellcheck shell=bash

# The series colours, in order; the reference series (CHART_REFERENCE=last) is grey.
chart_colours=("#1f77b4" "#ff7f0e" "#2ca02c" "#d62728" "#9467bd" "#8c564b")
chart_reference_colour="#9a9a9a"

# Whether gnuplot can be run (installing Debian's gnuplot-nox when missing and running as root).
chart_require() {
  command -v gnuplot >/dev/null 2>&1 && return 0
  if command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
    echo "Installing gnuplot-nox with apt-get (for the charts) ..." >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnuplot-nox; } >&2 || true
  fi
  command -v gnuplot >/dev/null 2>&1 && return 0
  echo "gnuplot is missing (Debian: apt-get install gnuplot-nox); charts skipped, tables unaffected" >&2
  return 1
}

# The terminal, fonts and grid every chart shares; $1 = output file, $2 = title.
chart_preamble() {
  cat <<EOF
set terminal svg size 820,440 dynamic enhanced font "Helvetica,12" background "#ffffff"
set output "$1"
set title "$2"
set datafile separator "\\t"
set grid ytics lc rgb "#dddddd" lt 1
set border 3
set tics nomirror
set key top left opaque box lc rgb "#cccccc"
set yrange [0:*]
set format y "%.0s%c"
EOF
}

# Grouped bars from tab-separated DATA (header line; column 1 the group's name) into OUT.svg.
chart_bars() {
  local data="$1" out="$2" title="$3" ylabel="$4"
  chart_require || return 1
  local columns
  columns="$(head -n 1 "$data" | awk -F'\t' '{ print NF }')"
  (( columns >= 2 )) || { echo "chart_bars: $data has no series" >&2; return 1; }
  {
    chart_preamble "$out" "$title"
    echo "set ylabel \"$ylabel\""
    echo "set style data histograms"
    echo "set style histogram clustered gap 1"
    echo "set style fill solid 0.9 border rgb \"#ffffff\""
    echo "set boxwidth 0.9"
    echo "set xtics scale 0"
    local plot="plot " separator="" i colour
    for ((i = 2; i <= columns; i++)); do
      colour="${chart_colours[$(( (i - 2) % ${#chart_colours[@]} ))]}"
      [[ "${CHART_REFERENCE:-}" == last && $i == "$columns" ]] && colour="$chart_reference_colour"
      plot+="$separator\"$data\" using $i:xtic(1) title columnheader($i) lc rgb \"$colour\""
      separator=", "
    done
    echo "$plot"
  } | gnuplot || { echo "chart_bars: gnuplot failed for $out" >&2; return 1; }
  echo "chart: $out" >&2
}

# Lines into OUT.svg, one per "x<TAB>y" file, each followed by its label; empty files are left out.
chart_lines() {
  local out="$1" title="$2" xlabel="$3" ylabel="$4"
  shift 4
  local plot="plot " separator="" n=0
  while (( $# >= 2 )); do
    if [[ -s "$1" ]]; then
      plot+="$separator\"$1\" using 1:2 with lines lw 2 lc rgb \"${chart_colours[$(( n % ${#chart_colours[@]} ))]}\" title \"$2\""
      separator=", "
    fi
    n=$((n + 1))
    shift 2
  done
  [[ -n "$separator" ]] || { echo "chart_lines: no data for $out" >&2; return 1; }
  chart_require || return 1
  {
    chart_preamble "$out" "$title"
    echo "set xlabel \"$xlabel\""
    echo "set ylabel \"$ylabel\""
    echo "set xrange [0:*]"
    echo "set key outside below horizontal noopaque nobox"
    echo "$plot"
  } | gnuplot || { echo "chart_lines: gnuplot failed for $out" >&2; return 1; }
  echo "chart: $out" >&2
}

# "seconds<TAB>rate" rows from a bench_sample_puts file (seconds counter): the rate over each 1-second span of samples,
# placed at the span's end, so a feed's ramp-up and its stalls show.
chart_rate_series() {
  awk '{ t[NR] = $1; c[NR] = $2 }
    END { j = 1
          for (i = 2; i <= NR; i++) {
            while (j < i && t[i] - t[j + 1] >= 1) j++
            if (t[i] - t[j] >= 1 && c[i] >= c[j]) printf "%.1f\t%.0f\n", t[i], (c[i] - c[j]) / (t[i] - t[j])
          } }' "$1"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -euo pipefail
  case "${1:-}" in
    bars) shift; (( $# == 4 )) || { echo "usage: $0 bars DATA.tsv OUT.svg TITLE YLABEL" >&2; exit 2; }; chart_bars "$@" ;;
    lines) shift; (( $# >= 6 )) || { echo "usage: $0 lines OUT.svg TITLE XLABEL YLABEL DATA.tsv LABEL ..." >&2; exit 2; }; chart_lines "$@" ;;
    *) echo "usage: $0 bars|lines ... (see the comment at the top)" >&2; exit 2 ;;
  esac
fi
