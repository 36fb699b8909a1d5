#!/usr/bin/env bash
# view_browser: `gltrace view`'s page in headless Chromium, driven by Selenium
# (view_browser.py): the frame list with thumbnails, a frame's calls as `gltrace dump`
# prints them (the lists are virtual: scrolled to the end, the last rows come), a call's
# state against `glretrace --headless -D` (progress bar, parameters table and its filter,
# a framebuffer image with zoom and pixel inspector), an API error shown in the page,
# search results streamed and followed to their call, the timeline download, each
# frame's CPU/GPU time in its row, Compare (the thumbnails against copies with one
# changed: the two images and the difference mask side by side), a wrong token's 403 page; the server stops on SIGINT with exit 0;
# a frame range's trace: where its state snapshot ends (view_browser_snapshot.py).
# Screenshots are kept in ARTIFACT_DIR (printed at the end). Skips (exit 77) only when Chromium, chromedriver or
# Selenium is missing (scripts/install-deps.sh installs them).
#   usage: view_browser.sh BIN_DIR CORPUS_DIR ARTIFACT_DIR   (VIEW_TRACES="NAME...": other corpus traces)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init view_browser

[ $# -ge 3 ] || die "usage: $0 BIN_DIR CORPUS_DIR ARTIFACT_DIR"
bin=$(cd "$1" && pwd)
corpus=$(corpus_apitrace_dir "$2")
artifacts=$3
require_file "$bin/gltrace" "build gltrace first"
require_file "$bin/glretrace" "build glretrace first"

browser_python

# two traces: glxgears (fixed function, 919 frames) and glmark2_texture (shaders,
# uniforms, mipmapped textures); the server writes its index and thumbnail cache beside
# the trace: private copies
traces=${VIEW_TRACES:-glxgears glmark2_texture}
mkdir -p "$artifacts"
artifacts=$(cd "$artifacts" && pwd)
cd "$WORK"
status=0
for t in $traces; do
  echo "view_browser: $t"
  cp "$corpus/$t.trace" "$WORK/$t.trace"
  set +e
  timeout -k 10 400 "$PY" "$here/view_browser.py" --gltrace "$bin/gltrace" --glretrace "$bin/glretrace" \
    --trace "$WORK/$t.trace" --artifacts "$artifacts/$t"
  rc=$?
  set -e
  [ "$rc" -eq 124 ] && echo "view_browser: FAIL: $t: the browser test ran past 400 s"
  [ "$rc" -ne 0 ] && status=1
done
# a frame range's trace (gltrace --frames=3-4 of gl33_demo, recorded under our own Xvfb):
# the program's frame numbers, the snapshot's calls muted, the separator after its end
# marker (view_browser_snapshot.py)
if [ -x "$bin/gl33_demo" ] && [ -f "$bin/../lib/libgltrace.so" ] && command -v Xvfb >/dev/null; then
  echo "view_browser: a frame range's trace"
  start_xvfb
  if timeout 120 "$bin/gltrace" -o "$WORK/range.trace" --frames=3-4 -- "$bin/gl33_demo" --frames 6 \
    >"$WORK/range.log" 2>&1 && [ -f "$WORK/range.3-4.trace" ]; then
    set +e
    timeout -k 10 200 "$PY" "$here/view_browser_snapshot.py" --gltrace "$bin/gltrace" \
      --trace "$WORK/range.3-4.trace" --artifacts "$artifacts/range"
    rc=$?
    set -e
    [ "$rc" -ne 0 ] && status=1
  else
    echo "view_browser: FAIL: gl33_demo --frames=3-4: no range trace: $(tail -3 "$WORK/range.log" | tr '\n' ' ')"
    status=1
  fi
else
  echo "    note: no recorder in this build: the page on a frame range's trace not checked" >&2
fi
echo "view_browser: screenshots in $artifacts"
exit "$status"
