#!/usr/bin/env bash
# README command 1: install dependencies, build, and run the main job on the bundled
# demo: record the GL 3.3 demo app (tests/apps/gl33_demo.c) with `gltrace`, then read
# the trace back (dump, info) and check apitrace reads it the same. Without a
# display, a private Xvfb is started for the recording and stopped afterwards.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
"$top/scripts/build.sh" "$top/build" -DGLTRACE_WERROR=ON

out="$top/build/demo"
bin="$top/build/bin"
mkdir -p "$out"

xvfb_pid=
cleanup() { [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null; true; }
trap cleanup EXIT
if [ -z "${DISPLAY:-}" ] || ! xdpyinfo >/dev/null 2>&1; then
  for n in $(seq 90 150); do
    [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || break
  done
  Xvfb ":$n" -screen 0 1024x768x24 -nolisten tcp >/dev/null 2>&1 &
  xvfb_pid=$!
  export DISPLAY=":$n"
  for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
fi
export LIBGL_ALWAYS_SOFTWARE=1

echo "== gltrace -o $out/gl33_demo.trace gl33_demo --frames 5" >&2
"$bin/gltrace" -o "$out/gl33_demo.trace" "$bin/gl33_demo" --frames 5 --save "$out/frame"
echo "== gltrace info" >&2
"$bin/gltrace" info "$out/gl33_demo.trace"
echo "== gltrace dump (first frame)" >&2
"$bin/gltrace" dump --color=never --calls=0-200 "$out/gl33_demo.trace" | sed '/glXSwapBuffers/q'
if cmp -s <(apitrace dump --color=never "$out/gl33_demo.trace" 2>/dev/null) \
          <("$bin/gltrace" dump --color=never "$out/gl33_demo.trace" 2>/dev/null); then
  echo "== apitrace dump prints the same text" >&2
else
  echo "== apitrace dump differs!" >&2
  exit 1
fi
echo "== the app's own frames: $out/frame*.png; the trace: $out/gl33_demo.trace" >&2
