#!/usr/bin/env bash
# demo: traces written by our own writer (build/bin/demo_trace) read as apitrace reads them.
#   usage: demo.sh BIN_DIR
# demo_trace writes a trace with every value kind, two threads, a fake call,
# backtraces and an incomplete last call.  For its default length and for 10 frames:
#   - gltrace dump == apitrace dump, byte for byte, for every option set
#     (including -v and --thread-ids);
#   - `gltrace repack` + `apitrace dump` == `apitrace dump` of the original;
#   - `gltrace info` is valid JSON and agrees with `apitrace info`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init demo

[ $# -ge 1 ] || die "usage: $0 BIN_DIR"
gltrace="$1/gltrace"
demo_trace="$1/demo_trace"
require_file "$gltrace" "build gltrace first"
require_file "$demo_trace" "build demo_trace first"
require_tool apitrace python3 cmp timeout

for frames in default 10; do
  t="$WORK/demo_$frames.trace"
  args=("$t")
  [ "$frames" = default ] || args+=("$frames")
  run_timed /dev/null "$WORK/demo.err" "$demo_trace" "${args[@]}"
  if [ "$RC" -ne 0 ] || [ ! -s "$t" ]; then
    fail "demo_trace ${args[*]} exits $RC"
    sed 's/^/    stderr: /' "$WORK/demo.err" | head -5
    continue
  fi
  pass "demo_trace writes $(basename "$t") ($(stat -c %s "$t") bytes)"
  name="demo ($frames frames)"
  for opts in "${DUMP_OPTION_SETS[@]}"; do
    # shellcheck disable=SC2086
    dump_vs_apitrace "$name: dump ${opts:-(defaults)} vs apitrace" "$t" "$gltrace" $opts
  done
  repack_vs_apitrace "$name" "$t" "$gltrace"
  info_vs_apitrace "$name" "$t" "$gltrace"
done

it_finish
