#!/usr/bin/env bash
# retrace_corpus: our glretrace replays every trace of the corpus like apitrace's
# glretrace.
#   usage: retrace_corpus.sh BIN_DIR CORPUS_DIR
# Under our own Xvfb (Mesa llvmpipe), for every CORPUS_DIR/*.trace, retrace_check
# (retrace_lib.sh): clean replay; -b frame count == apitrace's; -s snapshot names ==
# apitrace's; snapshots at the first, middle and last swap (traces without swaps: after
# the last draw call; neither swaps nor draws: clean replays only) equal apitrace's,
# frames apitrace does not reproduce between two of its own runs left out with a note;
# --headless (no DISPLAY): same frame count and the same snapshots as under X.
# Left out, with a printed reason:
#   - glmark2_shading_trim_frames10-12: apitrace trim kept no context, program or buffer
#     creation, so the trace cannot replay cleanly anywhere (both glretraces skip every
#     GL call for want of a context): both replays must exit 0 and take the same 3
#     frames, and ours must name the missing context once, nothing more is checked.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
# shellcheck source=tests/integration/retrace_lib.sh
. "$here/retrace_lib.sh"
it_init retrace_corpus

it_bin_corpus "$@"
ours="$bin/glretrace"
require_file "$ours" "build glretrace first"
require_tool apitrace glretrace Xvfb python3 timeout
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"

start_xvfb

count=0
for t in "$corpus"/*.trace; do
  [ -e "$t" ] || continue
  name=$(basename "$t" .trace)
  count=$((count + 1))
  case $name in
    glmark2_shading_trim_frames10-12)
      w="$WORK/$name"
      mkdir -p "$w"
      rl_run "$name: glretrace -b" "$w/g.bench" "$ours" -b "$t"
      rl_run "$name: apitrace glretrace -b" "$w/a.bench" glretrace -b "$t"
      rl_run "$name: glretrace" "$w/plain.log" "$ours" "$t"
      if [ "$RC" -eq 0 ] && [ "$(rl_frames_of "$w/g.bench")" = "$(rl_frames_of "$w/a.bench")" ] &&
        [ "$(grep -c 'no current context' "$w/plain.log")" = 1 ]; then
        pass "$name: replays its $(rl_frames_of "$w/a.bench") frames, names the missing context"
      else
        fail "$name: exit $RC, frames $(rl_frames_of "$w/g.bench") vs apitrace's $(rl_frames_of "$w/a.bench")"
        tail -n 3 "$w/g.bench" "$w/a.bench" 2>&1 | sed 's/^/    /' # what either replayer said
      fi
      rl_note "$name: trimmed without its context, program and buffers: nothing drawn, snapshots not compared"
      ;;
    *) retrace_check "$name" "$t" ;;
  esac
done
[ "$count" -ge 20 ] || fail "only $count traces in $corpus"
retrace_summary

it_finish
