#!/usr/bin/env bash
# record_apitrace: record real GL programs with apitrace under our own Xvfb (Mesa
# llvmpipe), then check gltrace against apitrace on the fresh traces.
#   usage: record_apitrace.sh BIN_DIR
# Recorded: glxgears (GLX, stopped by SIGTERM after its 100th swap: swap_stop in lib.sh),
# es2gears_x11 (EGL + GLES2, stopped the same way), glmark2 with several scenes in a
# window, and one glmark2 scene rendering off-screen (no swaps: 0 frames).
# For each trace:
#   - gltrace dump == apitrace dump, byte for byte, for every option set;
#   - `gltrace repack` + `apitrace dump` == `apitrace dump` of the original;
#   - `gltrace info` prints valid JSON (python3 -m json.tool) and every key that
#     `apitrace info` prints (FramesCount, ContainerType, ContainerVersion, API,
#     ActualDataSize, ContainerSize, FileName) has apitrace's value.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init record_apitrace

[ $# -ge 1 ] || die "usage: $0 BIN_DIR"
bin=$(cd "$1" && pwd)
gltrace="$bin/gltrace"
require_file "$gltrace" "build gltrace first"
require_tool apitrace Xvfb glxgears es2gears_x11 glmark2 python3 cmp timeout

# ---- our own X server --------------------------------------------------------------
start_xvfb

# ---- recording ---------------------------------------------------------------------
# record NAME EXPECTED_STATUS CMD...: apitrace trace -o $WORK/NAME.trace CMD...
recorded=()
record() {
  local name=$1 expect=$2
  shift 2
  local t0 t1
  t0=$(date +%s.%N)
  set +e
  "$@" >"$WORK/$name.rec.log" 2>&1
  local rc=$?
  set -e
  t1=$(date +%s.%N)
  echo "record_apitrace: recorded $name.trace in $(awk -v a="$t0" -v b="$t1" \
    'BEGIN { printf "%.1f", b - a }') s (exit $rc, $(stat -c %s "$WORK/$name.trace" \
    2>/dev/null || echo 0) bytes)"
  if [ "$rc" -ne "$expect" ] || [ ! -s "$WORK/$name.trace" ]; then
    fail "$name: recording failed (exit $rc, expected $expect); log:"
    tail -15 "$WORK/$name.rec.log" | sed 's/^/    /'
    return 0
  fi
  pass "$name: recorded"
  recorded+=("$name")
}

# glxgears runs forever: SIGTERM after its 100th swap (swap_stop in lib.sh), 128 + 15
swap_stop 100
record glxgears 143 apitrace trace -o "$WORK/glxgears.trace" "${SWAP_STOP[@]}" glxgears
record es2gears 143 apitrace trace --api egl -o "$WORK/es2gears.trace" "${SWAP_STOP[@]}" \
  es2gears_x11
record glmark2 0 timeout 60 apitrace trace -o "$WORK/glmark2.trace" \
  glmark2 --size 256x192 \
  -b build:use-vbo=true:duration=0.3 \
  -b texture:texture-filter=mipmap:duration=0.3 \
  -b shading:shading=phong:duration=0.3 \
  -b desktop:effect=blur:windows=4:duration=0.3 \
  -b buffer:update-method=subdata:duration=0.2
record glmark2_offscreen 0 timeout 60 apitrace trace -o "$WORK/glmark2_offscreen.trace" \
  glmark2 --off-screen --size 256x192 -b effect2d:duration=0.2

# ---- checks ------------------------------------------------------------------------
for name in "${recorded[@]}"; do
  t="$WORK/$name.trace"
  for opts in "${DUMP_OPTION_SETS[@]}"; do
    # shellcheck disable=SC2086
    dump_vs_apitrace "$name: dump ${opts:-(defaults)} vs apitrace" "$t" "$gltrace" $opts
  done

  repack_vs_apitrace "$name" "$t" "$gltrace"
  info_vs_apitrace "$name" "$t" "$gltrace"
done

it_finish
