#!/usr/bin/env bash
# README command 1: install dependencies, build, and run the main job on the bundled
# demo. Until recording lands, the demo trace comes from gltrace's own writer
# (tests/apps/demo_trace.c); then we read it back: dump, info, repack.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
"$top/scripts/build.sh" "$top/build" -DGLTRACE_WERROR=ON

out="$top/build/demo"
mkdir -p "$out"
bin="$top/build/bin"
"$bin/demo_trace" "$out/demo.trace" 3
echo "== gltrace dump $out/demo.trace" >&2
"$bin/gltrace" dump --color=never "$out/demo.trace"
echo "== gltrace info $out/demo.trace" >&2
"$bin/gltrace" info "$out/demo.trace"
"$bin/gltrace" repack "$out/demo.trace" "$out/demo.repacked.trace"
if command -v apitrace >/dev/null; then
  if cmp -s <(apitrace dump --color=never "$out/demo.trace" 2>/dev/null) \
            <("$bin/gltrace" dump --color=never "$out/demo.trace" 2>/dev/null); then
    echo "== apitrace dump prints the same text" >&2
  else
    echo "== apitrace dump differs!" >&2
    exit 1
  fi
fi
