#!/usr/bin/env bash
# README command 1: install dependencies, build, and run the main job on the bundled
# demo: record the GL 3.3 demo app (tests/apps/gl33_demo.c) with `gltrace`, read the
# trace back (dump, info; apitrace must read it the same), then replay it with our
# `glretrace` (benchmark, then snapshots compared with the frames the app saved), and
# export the calls' timeline (CPU and GPU time per call) for Perfetto and chrome://tracing.
# Without a display, a private Xvfb is started and stopped afterwards.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
"$top/scripts/build.sh" "$top/build" -DGLTRACE_WERROR=ON

out="$top/build/demo"
bin="$top/build/bin"
mkdir -p "$out"

# shellcheck source=tests/xvfb.sh
. "$top/tests/xvfb.sh"
trap xvfb_stop EXIT
if [ -z "${DISPLAY:-}" ] || ! xdpyinfo >/dev/null 2>&1; then
  xvfb_spawn 1024x768x24 || { echo "demo: could not start Xvfb on any display :90..:150" >&2; exit 1; }
fi
export LIBGL_ALWAYS_SOFTWARE=1

echo "== gltrace -o $out/gl33_demo.trace --timeline=$out/gl33_demo.live.fxt gl33_demo --frames 5" >&2
rm -rf "$out/replay" "$out"/gl33_demo*.fxt "$out"/gl33_demo*.json
"$bin/gltrace" -o "$out/gl33_demo.trace" --timeline="$out/gl33_demo.live.fxt" \
  "$bin/gl33_demo" --warmup --frames 5 --debug-groups --save "$out/frame"
echo "== gltrace info" >&2
"$bin/gltrace" info "$out/gl33_demo.trace"
echo "== gltrace dump (first frame)" >&2
# through a file: a pipe into sed, which quits first, would end the dump by SIGPIPE
"$bin/gltrace" dump --color=never --calls=0-200 "$out/gl33_demo.trace" >"$out/gl33_demo.dump.txt"
sed '/glXSwapBuffers/q' "$out/gl33_demo.dump.txt"
if cmp -s <(apitrace dump --color=never "$out/gl33_demo.trace" 2>/dev/null) \
          <("$bin/gltrace" dump --color=never "$out/gl33_demo.trace" 2>/dev/null); then
  echo "== apitrace dump prints the same text" >&2
else
  echo "== apitrace dump differs!" >&2
  exit 1
fi
echo "== glretrace -b" >&2
"$bin/glretrace" -b "$out/gl33_demo.trace"
echo "== glretrace -s $out/replay/" >&2
"$bin/glretrace" -s "$out/replay/" "$out/gl33_demo.trace"
# the first snapshot is the app's --warmup swap; the rest are its five frames
mapfile -t snaps < <(ls "$out/replay/"*.png | sort)
for i in 0 1 2 3 4; do
  python3 "$top/tests/apps/compare_png.py" "$(printf '%s%010u.png' "$out/frame" "$i")" "${snaps[$((i + 1))]}"
done
echo "== glretrace --pcpu --pgpu --fxt $out/gl33_demo.fxt --chrome $out/gl33_demo.json" >&2
"$bin/glretrace" --pcpu --pgpu --fxt "$out/gl33_demo.fxt" --chrome "$out/gl33_demo.json" "$out/gl33_demo.trace"
for t in gl33_demo.fxt gl33_demo.json gl33_demo.live.fxt; do
  echo "== gltrace convert --strict --counts $t" >&2
  "$bin/gltrace" convert --strict --counts "$out/$t" | grep -v ' 0$' | tr '\n' ' ' >&2
  echo >&2
done
echo "== the app's own frames: $out/frame*.png; the replay's: $out/replay/; the trace: $out/gl33_demo.trace" >&2
echo "== timelines (open in ui.perfetto.dev or chrome://tracing): replayed $out/gl33_demo.fxt," \
  "$out/gl33_demo.json; as recorded $out/gl33_demo.live.fxt" >&2
