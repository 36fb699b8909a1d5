#!/usr/bin/env bash
# bench_trim: `gltrace trim` and `gltrace sed` against `apitrace trim` and `apitrace sed`
# on the same traces. A benchmark, not a test (never registered with ctest). See README.md.
#
# usage: bench_trim.sh [-n RUNS] [-o TABLE.md] [-b BIN_DIR] [-c CORPUS_DIR] [-m MIN_KIB] [TRACE...]
#   -n RUNS      timed runs per tool and trace (default 5); the tools alternate
#   -o FILE      also write the results as a markdown table to FILE
#   -b BIN_DIR   where gltrace is (default: <repo>/build/bin)
#   -c DIR       the corpus (default: <repo>/../shared/corpus); its apitrace/*.trace
#                files of at least MIN_KIB KiB are measured (default 200; -c '' for none)
# Per trace (frames F/2 .. F/2+2 of its F): the median seconds of `apitrace trim`,
# `gltrace trim --exact` (the same output) and `gltrace trim` (three passes, keeping the
# dependencies), of `apitrace sed` and `gltrace sed` with an expression that replaces
# GL_TRIANGLES, the ratios apitrace/gltrace (above 1: gltrace is faster), and the sizes
# of the trimmed traces. The last line holds the median ratios over all traces.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tests/bench/bench_lib.sh
. "$here/bench_lib.sh"

runs=5
out=
bin="$top/build/bin"
corpus="$top/../shared/corpus"
min_kib=200
while getopts "n:o:b:c:m:h" opt; do
  case $opt in
  n) runs=$OPTARG ;;
  o) out=$OPTARG ;;
  b) bin=$OPTARG ;;
  c) corpus=$OPTARG ;;
  m) min_kib=$OPTARG ;;
  h) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))

gltrace="$bin/gltrace"
[ -x "$gltrace" ] || { echo "bench_trim: $gltrace not found (build first, or -b)" >&2; exit 2; }
for t in apitrace python3; do
  command -v "$t" >/dev/null || { echo "bench_trim: '$t' not found" >&2; exit 2; }
done
bench_workdir bench-trim

traces=("$@")
if [ -n "$corpus" ]; then
  for t in "$corpus"/apitrace/*.trace; do
    [ "$(($(stat -c %s "$t") / 1024))" -ge "$min_kib" ] && traces+=("$t")
  done
fi
[ ${#traces[@]} -gt 0 ] || { echo "bench_trim: no traces" >&2; exit 2; }

# median_time CMD...: the median wall seconds of RUNS runs (after one warm-up)
median_time() {
  "$@" >/dev/null 2>&1 || true
  local i times=()
  for ((i = 0; i < runs; i++)); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s.%N)
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

rows=()
for t in "${traces[@]}"; do
  name=$(basename "$t" .trace)
  f=$("$gltrace" info "$t" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["FramesCount"])')
  [ "$f" -ge 6 ] || continue
  sel="--frames=$((f / 2))-$((f / 2 + 2))"
  at=$(median_time apitrace trim "$sel" -o "$work/a.trace" "$t")
  ge=$(median_time "$gltrace" trim --exact "$sel" -o "$work/e.trace" "$t")
  gd=$(median_time "$gltrace" trim "$sel" -o "$work/d.trace" "$t")
  as=$(median_time apitrace sed -e s/GL_TRIANGLES/GL_POINTS/ -o "$work/as.trace" "$t")
  gs=$(median_time "$gltrace" sed -e s/GL_TRIANGLES/GL_POINTS/ -o "$work/gs.trace" "$t")
  row=$(awk -v n="$name" -v at="$at" -v ge="$ge" -v gd="$gd" -v as="$as" -v gs="$gs" \
    -v sa="$(stat -c %s "$work/a.trace")" -v sd="$(stat -c %s "$work/d.trace")" \
    'BEGIN { printf "| %s | %.3f | %.3f | %.2f | %.3f | %.3f | %.3f | %.2f | %d | %d |", n, at, ge, at / ge, gd, as, gs, as / gs, sa, sd }')
  rows+=("$row")
  echo "$row"
done
[ ${#rows[@]} -gt 0 ] || { echo "bench_trim: no trace with 6 frames or more" >&2; exit 2; }
summary=$(printf '%s\n' "${rows[@]}" | awk -F'|' '{ t[NR] = $5; s[NR] = $9 }
  function med(a, n,   i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x } return a[int((n + 1) / 2)] }
  END { printf "median apitrace/gltrace: trim --exact %.2f, sed %.2f (%d traces)", med(t, NR), med(s, NR), NR }')
echo "$summary"
if [ -n "$out" ]; then
  {
    echo "| trace | apitrace trim s | gltrace trim --exact s | ratio | gltrace trim s | apitrace sed s | gltrace sed s | ratio | apitrace trim bytes | gltrace trim bytes |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "$summary"
  } >"$out"
fi
