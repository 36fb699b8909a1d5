#!/usr/bin/env bash
# roundtrip: traces rewritten by our writer read back the same, in apitrace and in gltrace.
#   usage: roundtrip.sh BIN_DIR CORPUS_DIR
# For every X.trace in the corpus: `gltrace repack X.trace OUT` exits 0, then
# `apitrace dump --color=never OUT` and `gltrace dump --color=never OUT` both equal
# X.trace.dump.txt byte for byte; a second repack of OUT gives the same bytes as OUT.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init roundtrip

it_bin_corpus "$@"
gltrace="$bin/gltrace"
require_file "$gltrace" "build gltrace first"
require_tool apitrace python3 cmp timeout

traces=("$corpus"/*.trace)
echo "roundtrip: ${#traces[@]} traces in $corpus"
out="$WORK/out.trace"
for t in "${traces[@]}"; do
  name=$(basename "$t")
  ref="$t.dump.txt"
  rm -f "$out" "$WORK/out2.trace"
  run_timed /dev/null "$WORK/repack.err" "$gltrace" repack "$t" "$out"
  if [ "$RC" -ne 0 ] || [ ! -s "$out" ]; then
    fail "$name: gltrace repack exits $RC"
    sed 's/^/    stderr: /' "$WORK/repack.err" | head -5
    continue
  fi
  pass "$name: repack"
  if [ ! -f "$ref" ]; then
    fail "$name: reference dump $ref is missing"
    continue
  fi
  for tool in apitrace gltrace; do
    cmd=(apitrace)
    [ "$tool" = gltrace ] && cmd=("$gltrace")
    run_timed "$WORK/dump.txt" "$WORK/dump.err" "${cmd[@]}" dump --color=never "$out"
    if [ "$RC" -ne 0 ]; then
      fail "$name: $tool dump of the repacked trace exits $RC"
      sed 's/^/    stderr: /' "$WORK/dump.err" | head -5
    else
      compare_files "$name: $tool dump of the repacked trace" "$ref" "$WORK/dump.txt"
    fi
  done
  # repacking our own output is stable
  run_timed /dev/null "$WORK/repack2.err" "$gltrace" repack "$out" "$WORK/out2.trace"
  if [ "$RC" -ne 0 ]; then
    fail "$name: second repack exits $RC"
  elif cmp -s "$out" "$WORK/out2.trace"; then
    pass "$name: repack of the repacked trace is identical"
  else
    fail "$name: repack of the repacked trace gives different bytes"
  fi
done

it_finish
