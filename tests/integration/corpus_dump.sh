#!/usr/bin/env bash
# corpus_dump: gltrace dump against the corpus's reference dumps and against apitrace.
#   usage: corpus_dump.sh BIN_DIR CORPUS_DIR
# For every X.trace in the corpus:
#   1. `gltrace dump --color=never X.trace` is X.trace.dump.txt byte for byte, exit 0;
#   2. for each option set in DUMP_OPTION_SETS, gltrace dump prints what
#      `apitrace dump` prints with the same options (run live).
# Finally all traces in one invocation (several FILE arguments) against apitrace.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init corpus_dump

it_bin_corpus "$@"
gltrace="$bin/gltrace"
require_file "$gltrace" "build gltrace first"
require_tool apitrace python3 cmp timeout

traces=("$corpus"/*.trace)
echo "corpus_dump: ${#traces[@]} traces in $corpus"
for t in "${traces[@]}"; do
  name=$(basename "$t")
  ref="$t.dump.txt"
  if [ ! -f "$ref" ]; then
    fail "$name: reference dump $ref is missing"
  else
    run_timed "$WORK/out.txt" "$WORK/err.txt" "$gltrace" dump --color=never "$t"
    if [ "$RC" -ne 0 ]; then
      fail "$name: gltrace dump --color=never exits $RC (reference)"
      sed 's/^/    stderr: /' "$WORK/err.txt" | head -5
    else
      compare_files "$name: reference dump" "$ref" "$WORK/out.txt"
    fi
  fi
  for opts in "${DUMP_OPTION_SETS[@]}"; do
    # shellcheck disable=SC2086 # the option set is split on purpose
    dump_vs_apitrace "$name: dump ${opts:-(defaults)} vs apitrace" "$t" "$gltrace" $opts
  done
done

# several files in one invocation
a="$WORK/multi.apitrace.txt"
g="$WORK/multi.gltrace.txt"
run_timed "$a" /dev/null apitrace dump --color=never "${traces[@]}"
run_timed "$g" "$WORK/multi.err" "$gltrace" dump --color=never "${traces[@]}"
if [ "$RC" -ne 0 ]; then
  fail "all traces in one gltrace dump: exit $RC"
  sed 's/^/    stderr: /' "$WORK/multi.err" | head -5
else
  compare_files "all ${#traces[@]} traces in one dump vs apitrace" "$a" "$g"
fi

it_finish
