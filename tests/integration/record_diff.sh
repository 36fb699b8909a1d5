#!/usr/bin/env bash
# record_diff: differential recording. The same program recorded by `apitrace trace` and
# by `gltrace --backtrace=none`, both traces dumped by `apitrace dump`, must give the same
# calls with the same argument text once dump_diff.py's written-down rules (addresses,
# functions apitrace does not wrap, ...) are applied. Any other difference fails: a
# recorder bug, or a rule to write down with its reason.
#   usage: record_diff.sh BIN_DIR
# Programs: this project's test programs (GLX and EGL, fixed function, GL 3.3 core,
# GLES 2, attribute lists, markers, client memory), mesa-utils (es2_info, eglinfo,
# glxdemo, es2tri). Programs that run until a signal stops them are compared over the
# frames both recordings hold. Not here (yet): programs animated by the wall clock
# (glxgears, es2gears_x11, glmark2: their angles and uniforms differ run to run), glxinfo
# (glXQueryCurrentRendererIntegerMESA's outputs: apitrace sizes and names them by
# attribute) and map_app (coherent maps: gltrace also commits at glMemoryBarrier).
# Also: apitrace dump of `--backtrace=none` traces has no Backtrace: lines.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init record_diff
require_recorder "$@"
require_tool apitrace Xvfb python3 readelf timeout es2_info eglinfo glxdemo es2tri

tracers=$(dirname "$(command -v apitrace)")/../lib/x86_64-linux-gnu/apitrace/wrappers
[ -f "$tracers/glxtrace.so" ] || tracers=/usr/lib/x86_64-linux-gnu/apitrace/wrappers
python3 "$here/apitrace_sigs.py" "$tracers/glxtrace.so" "$tracers/egltrace.so" \
  >"$WORK/sigs.txt" || die "cannot read apitrace's function signatures in $tracers"
echo "record_diff: apitrace records $(wc -l <"$WORK/sigs.txt") functions"

start_xvfb

# check NAME API FRAMES CMD...: record CMD with both recorders (API: gl or egl, for
# apitrace's --api), dump both, compare. FRAMES: "all" (the program ends by itself:
# every call) or "frames" (stopped by timeout's signal: the frames both hold).
check() {
  local name=$1 api=$2 frames=$3
  shift 3
  local a="$WORK/$name.a" g="$WORK/$name.g" rc
  set +e
  apitrace trace --api "$api" -o "$a.trace" "$@" >"$a.log" 2>&1
  "$gltrace" --backtrace=none -o "$g.trace" "$@" >"$g.log" 2>&1
  set -e
  if [ ! -s "$a.trace" ] || [ ! -s "$g.trace" ]; then
    fail "$name: no trace (apitrace: $(tail -1 "$a.log"); gltrace: $(tail -1 "$g.log"))"
    return 0
  fi
  apitrace dump "$a.trace" >"$a.dump" 2>"$a.err" || true
  apitrace dump "$g.trace" >"$g.dump" 2>"$g.err" || true
  if grep -q '^Backtrace:\|^    #' "$g.dump"; then
    fail "$name: --backtrace=none trace has backtraces"
  fi
  local opt=()
  [ "$frames" = frames ] && opt=(--frames)
  set +e
  python3 "$here/dump_diff.py" "$a.dump" "$g.dump" "$WORK/sigs.txt" "${opt[@]}" >"$WORK/$name.diff"
  rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then
    pass "$name: same calls, same text ($(cat "$WORK/$name.diff" | sed 's/^dump_diff: //'))"
  else
    fail "$name: the recordings differ:"
    sed 's/^/    /' "$WORK/$name.diff"
  fi
}

b=$bin
check es2_demo egl all "$b/es2_demo" --frames 3
check gl33_demo gl all "$b/gl33_demo" --frames 3
check markers_app gl all "$b/markers_app" --frames 2
check attrib_lists_glx gl all "$b/attrib_lists_app" glx
check attrib_lists_egl egl all "$b/attrib_lists_app" egl
for mode in arrays lock multidraw pixels lists indirect; do
  check "client_memory_$mode" gl all "$b/client_memory_app" "--$mode" --frames 2
done
check es2_info egl all es2_info
check eglinfo egl all eglinfo
check es2tri egl frames timeout -k 5 -s INT 2 es2tri
check glxdemo gl frames timeout -k 5 2 glxdemo

it_finish
