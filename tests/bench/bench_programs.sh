#!/usr/bin/env bash
# bench_programs: real programs' frame rates untraced, under gltrace and under
# `apitrace trace`: glmark2 scenes (glmark2-x11), each for a few seconds, its own FPS
# score. A benchmark, not a test (never registered with ctest). See README.md.
#
# usage: bench_programs.sh [-n RUNS] [-d SECONDS] [-b BIN_DIR] [-o TABLE.md] [SCENE...]
#   -n RUNS      runs per variant (default 3), interleaved: untraced, gltrace, apitrace
#   -d SECONDS   duration of each scene (default 4)
#   -b BIN_DIR   where gltrace is (default: <repo>/build/bin)
#   -o FILE      also write the table as markdown to FILE
#   SCENE...     glmark2 benchmarks (default: build:use-vbo=false, texture, shading,
#                buffer:update-method=subdata, desktop)
# Under its own Xvfb, LIBGL_ALWAYS_SOFTWARE=1 (Mesa llvmpipe), 800x600. Per scene: the
# median FPS of each variant, gltrace's and apitrace's as a fraction of untraced.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tests/bench/bench_lib.sh
. "$here/bench_lib.sh"

runs=3
secs=4
bin="$top/build/bin"
out=
while getopts "n:d:b:o:h" opt; do
  case $opt in
  n) runs=$OPTARG ;;
  d) secs=$OPTARG ;;
  b) bin=$OPTARG ;;
  o) out=$OPTARG ;;
  h)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
scenes=("$@")
[ ${#scenes[@]} -gt 0 ] || scenes=(build:use-vbo=false texture shading buffer:update-method=subdata desktop)
for t in glmark2 apitrace Xvfb; do
  command -v "$t" >/dev/null || { echo "bench_programs: '$t' not found" >&2; exit 2; }
done
[ -x "$bin/gltrace" ] || { echo "bench_programs: $bin/gltrace not found (build first, or -b)" >&2; exit 2; }

bench_workdir bench-programs
bench_xvfb bench_programs 1024x768x24
unset GLTRACE_OUTPUT TRACE_FILE || true

# One run: the FPS glmark2 prints for the scene ("... FPS: 123 FrameTime: ...").
fps() {
  local how=$1 scene=$2
  local cmd=(glmark2 -s 800x600 -b "$scene:duration=$secs")
  case $how in
  untraced) "${cmd[@]}" ;;
  gltrace) "$bin/gltrace" -o "$work/g.trace" -- "${cmd[@]}" ;;
  apitrace) apitrace trace -o "$work/a.trace" "${cmd[@]}" ;;
  esac 2>/dev/null | sed -n 's/.* FPS: \([0-9.]*\).*/\1/p' | head -1
  rm -f "$work/g.trace" "$work/a.trace"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

table="| scene | untraced FPS | gltrace FPS | apitrace FPS | gltrace/untraced | apitrace/untraced |
|---|---:|---:|---:|---:|---:|"
for scene in "${scenes[@]}"; do
  declare -A got=([untraced]="" [gltrace]="" [apitrace]="")
  for ((i = 1; i <= runs; i++)); do
    for how in untraced gltrace apitrace; do
      got[$how]+="$(fps "$how" "$scene") "
    done
  done
  u=$(tr ' ' '\n' <<<"${got[untraced]}" | grep . | median)
  g=$(tr ' ' '\n' <<<"${got[gltrace]}" | grep . | median)
  a=$(tr ' ' '\n' <<<"${got[apitrace]}" | grep . | median)
  row=$(awk -v s="$scene" -v u="$u" -v g="$g" -v a="$a" \
    'BEGIN {printf "| %s | %s | %s | %s | %.2f | %.2f |", s, u, g, a, g / u, a / u}')
  echo "bench_programs: $row" >&2
  table+=$'\n'"$row"
done
echo "glmark2 scenes, ${secs} s each, $runs runs per variant (interleaved), medians; Mesa llvmpipe on Xvfb"
echo
echo "$table"
[ -z "$out" ] || printf '%s\n' "$table" >"$out"
