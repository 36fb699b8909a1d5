#!/usr/bin/env bash
# view_api: `gltrace view`'s HTTP API (cli/view/API.md) on corpus traces, against the
# command line: summary numbers are `gltrace info`'s, frames' call ranges `info
# --dump-frames`'s, a frame's call texts `gltrace dump --calls=A-B`'s lines, search finds
# dump's calls; a wrong token gets 403, bad numbers and calls past the end 400, a damaged
# trace JSON errors while the server keeps serving; thumbnails, the timeline and the GL
# state (glretrace --state-server, equal to glretrace -D) are replayed headless (no X);
# the frames' CPU/GPU times equal sums of the timeline's Chrome JSON; api/diff runs
# gltrace diff-images on copies of the thumbnails (one changed) and serves its verdicts,
# report and difference mask; SIGINT exits 0 and no replay outlives the server.
# view_api.py does the checks.
#   usage: view_api.sh BIN_DIR CORPUS_DIR
# Traces are copied to the work dir: the server writes TRACE.idx and TRACE.view/ beside them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init view_api

[ $# -eq 2 ] || die "usage: $0 BIN_DIR CORPUS_DIR"
bin=$1
require_file "$bin/gltrace" "build gltrace first"
require_file "$bin/glretrace" "build glretrace first"
require_tool python3 timeout
corpus=$(corpus_apitrace_dir "$2")
# the caches go into the work dir whatever happens
export XDG_CACHE_HOME="$WORK/cache"

# run_py NAME MODE: view_api.py on the copy of corpus trace NAME; its counts added to ours
run_py() {
  local name=$1 mode=$2 out rc
  set +e
  out=$(timeout 600 python3 "$here/view_api.py" "$bin" "$WORK/$name" "$mode" 2>&1)
  rc=$?
  set -e
  printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed$' || true
  local counts
  counts=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -1)
  if [ -z "$counts" ]; then
    fail "$name ($mode): view_api.py exits $rc without a summary"
    return 0
  fi
  IT_PASSED=$((IT_PASSED + ${counts%% passed*}))
  local f=${counts#*, }
  f=${f%% failed*}
  if [ "$f" -gt 0 ]; then
    IT_FAILED=$((IT_FAILED + f))
    IT_FAILURES+=("$name ($mode): $f checks")
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    fail "$name ($mode): view_api.py exits $rc"
  fi
  return 0
}

# full: replays too (thumbnails, timeline, state); basic: the trace tools' answers only
# (glthreads: several threads; glxdemo_zlib: a container that cannot seek, read from the
# start; glmark2_shading: a larger trace)
for spec in glxgears.trace:full tri.trace:full glthreads.trace:basic glxdemo_zlib.trace:basic \
  glmark2_shading.trace:basic; do
  name=${spec%%:*}
  [ -f "$corpus/$name" ] || die "corpus trace $name missing"
  cp "$corpus/$name" "$WORK/$name"
  run_py "$name" "${spec##*:}"
done

# damaged: not a trace at all, and a trace whose header is overwritten
head -c 4096 /dev/urandom >"$WORK/garbage.trace"
run_py garbage.trace damaged
cp "$corpus/tri.trace" "$WORK/broken.trace"
printf 'XXXXXXXXXXXXXXXX' | dd of="$WORK/broken.trace" bs=1 seek=0 conv=notrunc status=none
run_py broken.trace damaged
# damaged in the middle of its stream: no index can be built, the server still answers
cp "$corpus/glmark2_shading.trace" "$WORK/middle.trace"
printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' | dd of="$WORK/middle.trace" bs=1 seek=300000 conv=notrunc status=none
run_py middle.trace damaged
# cut short: a warning, not an error; the frames before the cut are served as info counts them
head -c 400000 "$corpus/glmark2_shading.trace" >"$WORK/cut.trace"
run_py cut.trace basic

it_finish
