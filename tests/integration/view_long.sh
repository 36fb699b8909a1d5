#!/usr/bin/env bash
# view_long: `gltrace view`'s page on a trace of 600,001 frames (demo_trace writes it in
# about 2 s, 45 MB): the last frame is reached by the scroll bar and by Go, and a link
# with #frame=N&call=M reopens it; and on a frame of 1,835,012 calls (demo_trace's frame
# doubled 18 times by trace_edit, 4 s): its last call likewise (view_long.py). A list
# drawn as one element would be 38 M px high, past the browser's cap, and frames past
# ~524k could not be reached. Skips (77) without Chromium, chromedriver or Selenium, as view_browser.
#   usage: view_long.sh BIN_DIR ARTIFACT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init view_long

[ $# -ge 2 ] || die "usage: $0 BIN_DIR ARTIFACT_DIR"
bin=$(cd "$1" && pwd)
artifacts=$2
require_file "$bin/gltrace" "build gltrace first"
require_file "$bin/demo_trace" "build demo_trace first"
require_file "$bin/trace_edit" "build trace_edit first"
browser_python
mkdir -p "$artifacts"
artifacts=$(cd "$artifacts" && pwd)
cd "$WORK"
"$bin/demo_trace" "$WORK/long.trace" 600001
# one frame of 7 x 2^18 + 5 calls: its calls 3-9 (marker to glClear's kin, before the
# swap) copied after themselves, 18 times
"$bin/demo_trace" "$WORK/big0.trace" 1
a=3 b=9 cur=big0.trace
for i in $(seq 1 18); do
  "$bin/trace_edit" "$WORK/$cur" "$WORK/big$i.trace" "copy=$a-$b@$((b + 1))" >/dev/null
  rm -f "$WORK/$cur"
  cur=big$i.trace
  b=$((b + b - a + 1))
done
export XDG_CACHE_HOME="$WORK/cache"
set +e
timeout -k 10 280 "$PY" "$here/view_long.py" --gltrace "$bin/gltrace" --trace "$WORK/long.trace" \
  --big-frame "$WORK/$cur" --artifacts "$artifacts"
rc=$?
set -e
[ "$rc" -eq 124 ] && echo "view_long: FAIL: the browser test ran past 280 s"
echo "view_long: screenshots in $artifacts"
exit "$rc"
