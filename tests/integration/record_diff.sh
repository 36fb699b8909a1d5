#!/usr/bin/env bash
# record_diff: differential recording. The same program recorded by `apitrace trace` and
# by `gltrace --backtrace=none`, both traces dumped by `apitrace dump`, must give the same
# calls with the same argument text once dump_diff.py's written-down rules (addresses,
# functions apitrace does not wrap, ...) are applied. Any other difference fails: a
# recorder bug, or a rule to write down with its reason.
#   usage: record_diff.sh BIN_DIR
# Programs: this project's test programs (GLX and EGL, fixed function, GL 3.3 core,
# GLES 2, attribute lists, markers, client memory in every mode, buffer maps (and coherent
# maps' write patterns, GL_VMWX_map_buffer_debug), "all" bitmasks, separate
# draw and read drawables, the answers the recorder changes), mesa-utils (es2_info, eglinfo,
# glxinfo, glxdemo, es2tri, glxgears, es2gears_x11), heavy_app (two threads, shared
# contexts), dsa_app (GL 4.5, everything through direct state access; its gltrace
# recording is also replayed by both replayers, ours and apitrace's, to the frames the
# program saves itself), 14 glmark2 scenes and Qt 5's examples: hellogl2 (QOpenGLWidget,
# on GLX and on EGL), threadedqopenglwidget (a render thread) and qopenglwindow (animated through
# QDateTime, glyphs uploaded by QPainter). Every program runs with step_clock.so preloaded
# (tests/apps/step_clock.c): the clock it reads advances by a fixed step per reading, so
# programs animated by the wall clock make the same calls under both recorders (for Qt,
# also the wall clock libQt5Core reads for it; QT_HASH_SEED=0 fixes the order of its glyph
# cache). Threads are compared each in its own order. Programs that run until a signal
# stops them are stopped after a number of swaps (tests/apps/swap_stop.c: never after a
# number of seconds) and compared over the frames both recordings hold.
# Not here: client_arrays_app (apitrace's recording of it crashes) and mt_calls_app
# (millions of calls a second until a signal stops it: the signal tests' program).
# Also: apitrace dump of `--backtrace=none` traces has no Backtrace: lines.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init record_diff
require_recorder "$@"
require_tool apitrace Xvfb python3 readelf timeout es2_info eglinfo glxinfo glxdemo es2tri glxgears \
  es2gears_x11 glmark2
step_clock="$bin/../lib/libstep_clock.so"
require_file "$step_clock" "build the step_clock module (tests/apps)"
qt=/usr/lib/x86_64-linux-gnu/qt5/examples/opengl
require_file "$qt/hellogl2/hellogl2" "install qtbase5-examples"

tracers=$(dirname "$(command -v apitrace)")/../lib/x86_64-linux-gnu/apitrace/wrappers
[ -f "$tracers/glxtrace.so" ] || tracers=/usr/lib/x86_64-linux-gnu/apitrace/wrappers
python3 "$here/apitrace_sigs.py" "$tracers/glxtrace.so" "$tracers/egltrace.so" \
  >"$WORK/sigs.txt" || die "cannot read apitrace's function signatures in $tracers"
echo "record_diff: apitrace records $(wc -l <"$WORK/sigs.txt") functions"

start_xvfb

# check NAME API FRAMES CMD...: record CMD with both recorders (API: gl or egl, for
# apitrace's --api), dump both, compare. FRAMES: "all" (the program ends by itself:
# every call) or a number N (a program that runs until a signal stops it: stopped after
# its N-th swap by swap_stop, the frames both recordings hold compared).
check() {
  local name=$1 api=$2 frames=$3
  shift 3
  local a="$WORK/$name.a" g="$WORK/$name.g" rc stop=()
  if [ "$frames" != all ]; then
    swap_stop "$frames"
    stop=("${SWAP_STOP[@]}")
  fi
  set +e
  LD_PRELOAD=$step_clock apitrace trace --api "$api" -o "$a.trace" "${stop[@]}" "$@" >"$a.log" 2>&1
  LD_PRELOAD=$step_clock "$gltrace" --backtrace=none -o "$g.trace" -- "${stop[@]}" "$@" >"$g.log" 2>&1
  set -e
  if [ ! -s "$a.trace" ] || [ ! -s "$g.trace" ]; then
    fail "$name: no trace (apitrace: $(tail -1 "$a.log"); gltrace: $(tail -1 "$g.log"))"
    return 0
  fi
  apitrace dump -v --thread-ids=yes "$a.trace" >"$a.dump" 2>"$a.err" || true
  apitrace dump -v --thread-ids=yes "$g.trace" >"$g.dump" 2>"$g.err" || true
  if grep -q '^Backtrace:' "$g.dump"; then
    fail "$name: --backtrace=none trace has backtraces"
  fi
  local opt=() who n
  if [ "$frames" != all ]; then
    opt=(--frames)
    for who in a g; do
      n=$(grep -cE '^[0-9]+ @[0-9]+ (glX|egl)SwapBuffers' "$WORK/$name.$who.dump" || true)
      [ "$n" -ge "$frames" ] ||
        fail "$name: $n swaps in $([ $who = a ] && echo "apitrace's" || echo "gltrace's") recording, wanted $frames"
    done
  fi
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

# replay_own_frames NAME FRAMES APP [ARGS...]: check's gltrace recording of NAME (APP ARGS,
# a demo app run with --warmup: the warm-up swap is the first snapshot, see
# tests/apps/README.md) replayed by our glretrace and apitrace's, each with exit 0 and a
# snapshot of every frame equal to the frame the app saves itself (compare_png.py). A
# pointer recorded as an address instead of its bytes crashes a replay or changes pixels.
replay_own_frames() {
  local name=$1 frames=$2
  shift 2
  local t="$WORK/$name.g.trace" own="$WORK/$name.own" who replayer dir rc i verdict snaps
  [ -s "$t" ] || return 0 # check already failed
  mkdir -p "$own"
  if ! timeout 120 "$@" --save "$own/" >"$own.log" 2>&1; then
    fail "$name --save: the app fails: $(tail -1 "$own.log")"
    return 0
  fi
  for who in gltrace apitrace; do
    replayer=$bin/glretrace
    [ "$who" = apitrace ] && replayer=$(dirname "$(command -v apitrace)")/glretrace
    dir="$WORK/$name.snap.$who"
    mkdir -p "$dir"
    set +e
    timeout 120 "$replayer" -s "$dir/" "$t" >"$dir.log" 2>&1
    rc=$?
    set -e
    if [ "$rc" -ne 0 ]; then
      fail "$name: $who's glretrace exits $rc on gltrace's recording: $(tail -1 "$dir.log")"
      continue
    fi
    snaps=("$dir"/*.png) # glob order: the zero-padded call numbers, ascending
    if [ "${#snaps[@]}" -ne $((frames + 1)) ]; then
      fail "$name: $who's glretrace took ${#snaps[@]} snapshots, wanted $((frames + 1))"
      continue
    fi
    for ((i = 0; i < frames; i++)); do
      set +e
      verdict=$(python3 "$here/../apps/compare_png.py" "$(printf '%s/%010u.png' "$own" "$i")" \
        "${snaps[i + 1]}" 2>&1)
      rc=$?
      set -e
      if [ "$rc" -eq 0 ]; then
        pass "$name: $who's replay of gltrace's recording: frame $i is the app's"
      else
        fail "$name: $who's replay of gltrace's recording: frame $i: ${verdict//"$WORK/"/}"
      fi
    done
  done
}

b=$bin
check es2_demo egl all "$b/es2_demo" --frames 3
check gl33_demo gl all "$b/gl33_demo" --frames 3
check markers_app gl all "$b/markers_app" --frames 2
check attrib_lists_glx gl all "$b/attrib_lists_app" glx
check attrib_lists_egl egl all "$b/attrib_lists_app" egl
for mode in interleaved arrays lock multidraw coherent pixels lists indirect select; do
  check "client_memory_$mode" gl all "$b/client_memory_app" "--$mode" --frames 2
done
check read_drawable_app gl all "$b/read_drawable_app"
check map_app gl all "$b/map_app" --frames 3
check coherent_app gl all "$b/coherent_app"
check bitmask_app gl all "$b/bitmask_app"
check heavy_app gl all "$b/heavy_app" --frames 3
check dsa_app gl all "$b/dsa_app" --frames 3 --warmup
replay_own_frames dsa_app 3 "$b/dsa_app" --frames 3 --warmup
# apitrace's answers fail the program's own consistency checks (it exits 3): R10
check answers_app gl all "$b/answers_app" --frames 2
check es2_info egl all es2_info
check eglinfo egl all eglinfo
check glxinfo gl all glxinfo
check es2tri egl 1 es2tri
check glxdemo gl 1 glxdemo
check glxgears gl 300 glxgears
check es2gears_x11 egl 300 es2gears_x11
scenes=()
for s in "${GLMARK2_SCENES[@]}" conditionals:duration=0.3 function:duration=0.3 \
  loop:duration=0.3 pulsar:duration=0.3; do
  scenes+=(-b "$s")
done
# 10 ms a clock reading: about 30 frames a 0.3 s scene
STEP_CLOCK_US=10000 check glmark2 gl all glmark2 --size 256x192 "${scenes[@]}"
export QT_QPA_PLATFORM=xcb QT_HASH_SEED=0 STEP_CLOCK_OBJECTS=libQt5Core
check qt_hellogl2 gl 2 "$qt/hellogl2/hellogl2"
QT_XCB_GL_INTEGRATION=xcb_egl check qt_hellogl2_egl egl 2 "$qt/hellogl2/hellogl2"
check qt_threaded gl 100 "$qt/threadedqopenglwidget/threadedqopenglwidget"
check qt_qopenglwindow gl 100 "$qt/qopenglwindow/qopenglwindow"

it_finish
