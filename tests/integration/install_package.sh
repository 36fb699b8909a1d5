#!/usr/bin/env bash
# install_package: gltrace as a user installs it. Both ways must give a working tool:
#   - `cmake --install BUILD --prefix P`: P/bin/gltrace, P/bin/glretrace and
#     P/lib/gltrace/libgltrace.so, libgltrace_replay.so (convert's replayer) and
#     libgltrace_view.so (view's server), P/share/gltrace/view/ (view's page);
#   - the Debian package `cpack` makes from BUILD (CPackConfig.cmake): its control data
#     (package name, Depends on the SDL2 and libepoxy libraries found by dpkg-shlibdeps)
#     and its files unpacked into a staging folder (dpkg-deb -x: no root, no chroot),
#     usr/bin and usr/lib/gltrace.
# With each, under our own Xvfb and with GLTRACE_PRELOAD unset (the launcher must find
# its library from its own path): the installed gltrace records gl33_demo (BIN_DIR) for
# 3 frames, its dump holds 3 swaps, the installed glretrace replays the trace to 3 frames,
# `gltrace convert` (which replays the trace in process) writes a Chrome JSON timeline,
# `gltrace view` serves the installed page and the trace's summary, and `gltrace --help`
# answers.
#   usage: install_package.sh BIN_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init install_package

require_recorder "$@"
build=$(cd "$bin/.." && pwd)
require_file "$build/CPackConfig.cmake" "configure the build with CMake"
require_file "$bin/gl33_demo" "tests/apps needs the x11 and gl dev packages"
require_tool cmake cpack dpkg-deb Xvfb python3 timeout
unset GLTRACE_PRELOAD GLTRACE_OUTPUT GLTRACE_TIMELINE || true

start_xvfb

# exercise WHAT PREFIX: record, dump, replay and convert with PREFIX/bin's programs
exercise() {
  local what=$1 p=$2 t="$WORK/$1.trace" rc
  for f in bin/gltrace bin/glretrace lib/gltrace/libgltrace.so lib/gltrace/libgltrace_replay.so \
    lib/gltrace/libgltrace_view.so share/gltrace/view/index.html; do
    if [ -e "$p/$f" ]; then pass "$what: $f installed"; else fail "$what: no $f"; fi
  done
  set +e
  timeout 120 "$p/bin/gltrace" -o "$t" -- "$bin/gl33_demo" --frames 3 >"$WORK/$what.rec.log" 2>&1
  rc=$?
  set -e
  if [ "$rc" -ne 0 ] || [ ! -s "$t" ]; then
    fail "$what: recording exits $rc: $(tail -3 "$WORK/$what.rec.log" | tr '\n' ' ')"
    return 0
  fi
  pass "$what: the installed gltrace records gl33_demo"
  local swaps frames
  swaps=$("$p/bin/gltrace" dump --color=never "$t" | grep -c 'glXSwapBuffers' || true)
  [ "$swaps" -eq 3 ] && pass "$what: the dump holds 3 swaps" ||
    fail "$what: the dump holds $swaps swaps, expected 3"
  frames=$(timeout 120 "$p/bin/glretrace" -b "$t" 2>&1 | sed -n 's/^Rendered \([0-9]*\) frames.*/\1/p')
  [ "$frames" = 3 ] && pass "$what: the installed glretrace replays 3 frames" ||
    fail "$what: the installed glretrace replays '${frames}' frames, expected 3"
  if timeout 120 "$p/bin/gltrace" convert "$t" -o "$WORK/$what.json" >"$WORK/$what.conv.log" 2>&1 &&
    python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["traceEvents"]' \
      "$WORK/$what.json" 2>/dev/null; then
    pass "$what: gltrace convert replays the trace into a timeline"
  else
    fail "$what: gltrace convert: $(tail -2 "$WORK/$what.conv.log" | tr '\n' ' ')"
  fi
  if python3 - "$p/bin/gltrace" "$t" "$p/share/gltrace/view/index.html" <<'EOF'; then
import subprocess, sys, urllib.request, json
gltrace, trace, page = sys.argv[1:4]
s = subprocess.Popen([gltrace, 'view', trace], stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, text=True)
try:
    url = s.stdout.readline().strip()
    assert urllib.request.urlopen(url, timeout=30).read() == open(page, 'rb').read()
    summary = json.loads(urllib.request.urlopen(url + 'api/summary', timeout=30).read())
    assert summary['frames'] >= 3, summary
finally:
    s.send_signal(2)
    assert s.wait(timeout=30) == 0
EOF
    pass "$what: gltrace view serves the installed page"
  else
    fail "$what: gltrace view does not serve the installed page"
  fi
  if "$p/bin/gltrace" --help 2>&1 | grep 'convert' >/dev/null; then pass "$what: --help"; else
    fail "$what: gltrace --help does not list its commands"; fi
}

# ---- cmake --install ----------------------------------------------------------------
if cmake --install "$build" --prefix "$WORK/prefix" >"$WORK/install.log" 2>&1; then
  pass "cmake --install --prefix"
  exercise prefix "$WORK/prefix"
else
  fail "cmake --install: $(tail -3 "$WORK/install.log" | tr '\n' ' ')"
fi

# ---- the Debian package -------------------------------------------------------------
mkdir -p "$WORK/pkg"
if (cd "$WORK/pkg" && cpack --config "$build/CPackConfig.cmake" -B "$WORK/pkg") \
  >"$WORK/cpack.log" 2>&1; then
  deb=$(find "$WORK/pkg" -maxdepth 1 -name 'gltrace_*.deb' | head -1)
else
  deb=
fi
if [ -z "$deb" ]; then
  fail "cpack made no .deb: $(tail -5 "$WORK/cpack.log" | tr '\n' ' ')"
else
  pass "cpack: $(basename "$deb")"
  dpkg-deb -f "$deb" Package Depends >"$WORK/control.txt"
  grep -qx 'Package: gltrace' "$WORK/control.txt" && pass "package name gltrace" ||
    fail "package name: $(head -1 "$WORK/control.txt")"
  for lib in libsdl2 libepoxy0 libsnappy1v5; do
    grep -q "$lib" "$WORK/control.txt" && pass "Depends names $lib" ||
      fail "Depends lacks $lib: $(tail -1 "$WORK/control.txt")"
  done
  dpkg-deb -x "$deb" "$WORK/stage"
  exercise deb "$WORK/stage/usr"
fi

it_finish
