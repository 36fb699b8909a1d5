#!/usr/bin/env bash
# qt_replay: our glretrace replays traces of Qt 5 programs like apitrace's glretrace,
# whether apitrace or gltrace recorded them.
#   usage: qt_replay.sh BIN_DIR
# Qt makes contexts current on drawables the trace never created (windows made with
# plain Xlib/xcb, GLX pbuffers of QOffscreenSurface), moves one context between them,
# and under xcb_egl binds contexts with EGL_NO_SURFACE before the window surface.
# Recorded under our own Xvfb (Mesa llvmpipe), by `apitrace trace` and by `gltrace -o`:
#   - hellogl2 (a QOpenGLWidget: an FBO on a pbuffer context, composed on the window);
#   - hellogl2 with QT_XCB_GL_INTEGRATION=xcb_egl (EGL; apitrace records with --api egl);
#   - threadedqopenglwidget (contexts on a render thread and the GUI thread);
#   - qopenglwindow (a QOpenGLWindow, animated);
#   - qmlscene on a small animated scene (Qt Quick's scene graph);
#   - read_drawable_app (tests/apps): glXMakeContextCurrent with separate draw and read
#     windows; our snapshots of its frames (under X and --headless) must show the read
#     window's red blitted onto the left half of the blue draw window (read_check).
# Each program is stopped by SIGTERM (both recorders flush on it) once the trace holds
# its number of swaps (polled with `gltrace dump --calls=frame`); 60 s without them is a
# failure (the safety net). Each trace then goes through retrace_check (retrace_lib.sh):
# clean replay, apitrace's frame count, the snapshots at the first, middle and last swap
# == apitrace's (<= 0.1% of pixels; frames apitrace does not reproduce itself are left
# out with a note), --headless the same as under X.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
# shellcheck source=tests/integration/retrace_lib.sh
. "$here/retrace_lib.sh"
it_init qt_replay

require_recorder "$@"
ours="$bin/glretrace"
require_file "$ours" "build glretrace first"
require_tool apitrace glretrace Xvfb qmlscene python3 timeout pgrep
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"
examples=/usr/lib/x86_64-linux-gnu/qt5/examples/opengl
require_file "$examples/hellogl2/hellogl2" "install qtbase5-examples"
require_file "$bin/read_drawable_app" "tests/apps needs the x11 and gl dev packages"
RL_ALL_SNAPSHOTS=0 # -S at the picks only: the threaded widget draws hundreds of frames

start_xvfb
export QT_QPA_PLATFORM=xcb
unset QT_XCB_GL_INTEGRATION || true

cat >"$WORK/scene.qml" <<'EOF'
import QtQuick 2.0
Rectangle {
    width: 320; height: 240; color: "navy"
    Rectangle {
        width: 100; height: 100; anchors.centerIn: parent; color: "orange"
        NumberAnimation on rotation { from: 0; to: 360; duration: 2000; loops: Animation.Infinite }
    }
}
EOF

# stop_program PID RECORDER NAME: SIGTERM to the recorder's child (the program; `apitrace
# trace` does not pass signals on), then the recorder is waited for; SIGKILL after 20 s.
# Ours must have exited by then. apitrace's may not: its handler (lib/os/os_posix.cpp,
# signalHandler) flushes under the writer's mutex and then dumps a backtrace, so a
# SIGTERM that lands while the render thread of threadedqopenglwidget holds the mutex
# (or malloc's lock) never returns (seen in CI once in many runs). Its trace then holds
# what it wrote before, which the swap count below still checks; that is noted, not failed.
stop_program() {
  local pid=$1 recorder=$2 name=$3 child i
  child=$(pgrep -P "$pid" || true)
  kill -TERM ${child:-$pid} 2>/dev/null || true
  for ((i = 0; i < 200; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL ${child:-} "$pid" 2>/dev/null || true
    if [ "$recorder" = apitrace ]; then
      echo "qt_replay: note: apitrace: $name: still running 20 s after SIGTERM" \
        "(its signal handler waits on its own writer's lock); killed"
    else
      fail "$recorder: $name: still running 20 s after SIGTERM"
    fi
  fi
  wait "$pid" 2>/dev/null || true
}

# record RECORDER NAME API SWAPS [VAR=VALUE...] -- PROGRAM [ARGS...]: records PROGRAM
# until its trace $WORK/RECORDER_NAME.trace holds SWAPS swaps; appends it to $recorded
recorded=()
record() {
  local recorder=$1 name=$2 api=$3 want=$4
  shift 4
  local envs=()
  while [ "$1" != "--" ]; do
    envs+=("$1")
    shift
  done
  shift
  local t="$WORK/${recorder}_$name.trace" n=0 i
  local rec=("$gltrace" -o "$t" --)
  if [ "$recorder" = apitrace ]; then
    rec=(apitrace trace -o "$t")
    [ "$api" = egl ] && rec=(apitrace trace --api egl -o "$t")
  fi
  env ${envs[@]+"${envs[@]}"} "${rec[@]}" "$@" >"$WORK/${recorder}_$name.rec.log" 2>&1 &
  local pid=$!
  for ((i = 0; i < 600; i++)); do # 60 s: the safety net
    sleep 0.1
    kill -0 "$pid" 2>/dev/null || break
    [ -s "$t" ] && n=$(trace_swaps "$t")
    [ "$n" -ge "$want" ] && break
  done
  stop_program "$pid" "$recorder" "$name"
  n=$(trace_swaps "$t")
  echo "qt_replay: $recorder recorded $name: $n swaps, $(stat -c %s "$t" 2>/dev/null || echo 0) bytes"
  if [ "$n" -lt "$want" ]; then
    fail "$recorder: $name: $n swaps recorded, wanted $want; log:"
    tail -5 "$WORK/${recorder}_$name.rec.log" | sed 's/^/    /'
    return 0
  fi
  pass "$recorder: $name: recorded $n swaps"
  recorded+=("${recorder}_$name")
}

for recorder in apitrace gltrace; do
  record "$recorder" hellogl2 glx 2 -- "$examples/hellogl2/hellogl2"
  record "$recorder" hellogl2_egl egl 2 QT_XCB_GL_INTEGRATION=xcb_egl -- \
    "$examples/hellogl2/hellogl2"
  record "$recorder" threaded glx 30 -- "$examples/threadedqopenglwidget/threadedqopenglwidget"
  record "$recorder" qopenglwindow glx 10 -- "$examples/qopenglwindow/qopenglwindow"
  record "$recorder" qmlscene glx 10 QSG_RENDER_LOOP=basic -- qmlscene "$WORK/scene.qml"
  record "$recorder" read_drawable glx 5 -- "$bin/read_drawable_app"
done

# read_left_right PNG: "R,G,B R,G,B", the pixels at (10, 10) and (150, 10) from the bottom
read_left_right() {
  python3 - "$1" "$compare_png" <<'PYEOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("compare_png", sys.argv[2])
cp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cp)
w, h, rows = cp.decode_png(sys.argv[1])
print(" ".join(",".join(str(c) for c in rows[h - 11][3 * x:3 * x + 3]) for x in (10, 150)))
PYEOF
}

# read_check NAME TRACE: read_drawable_app's frames after the warm-up, as our glretrace
# snapshots them under X and --headless, show the read window's red on the left of the
# blue draw window. Not against apitrace's glretrace: Mesa drops the back buffer of a
# window a context leaves, and apitrace's replays of this trace come out either way
# from run to run (noted when they do not match ours).
read_check() {
  local name=$1 t=$2 mode f got n
  local w="$WORK/rl/$name"
  mkdir -p "$w/x" "$w/hl" "$w/a"
  rl_run "$name: glretrace -s" "$w/x.log" "$ours" -s "$w/x/" "$t"
  rl_run "$name: glretrace --headless -s" "$w/hl.log" env -u DISPLAY "$ours" --headless \
    -s "$w/hl/" "$t"
  for mode in x hl; do
    [ -z "$(rl_problems "$w/$mode.log")" ] || fail "$name ($mode): $(rl_problems "$w/$mode.log" | head -2)"
    n=0
    for f in $(cd "$w/$mode" && ls | tail -n +2); do
      n=$((n + 1))
      got=$(read_left_right "$w/$mode/$f")
      if [ "$got" = "255,0,0 0,0,255" ]; then
        pass "$name ($mode): $f reads the read window (red left, blue right)"
      else
        fail "$name ($mode): $f: left and right pixels $got, expected 255,0,0 0,0,255"
      fi
    done
    [ "$n" -eq 4 ] || fail "$name ($mode): $n frames after the warm-up, expected 4"
  done
  rl_run "$name: apitrace glretrace -s" "$w/a.log" glretrace -s "$w/a/" "$t"
  for f in $(cd "$w/x" && ls); do
    python3 "$compare_png" "$w/a/$f" "$w/x/$f" >/dev/null 2>&1 ||
      rl_note "$name: $f: apitrace's glretrace draws it otherwise this time"
  done
}

for name in "${recorded[@]}"; do
  case $name in
  *_read_drawable) read_check "$name" "$WORK/$name.trace" ;;
  *) retrace_check "$name" "$WORK/$name.trace" ;;
  esac
done
retrace_summary

it_finish
