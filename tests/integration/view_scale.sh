#!/usr/bin/env bash
# view_scale: `gltrace view`'s state requests on a larger trace (huge traces):
# one call back within a frame from the replay held at the frame's start, a client's
# requests in a row superseded, the state replay's peak memory against the thumbnail
# replay's. view_scale.py does the checks and prints the times measured.
#   usage: view_scale.sh BIN_DIR CORPUS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init view_scale

it_bin_corpus "$@"
require_file "$bin/gltrace" "build gltrace first"
require_file "$bin/glretrace" "build glretrace first"
require_tool python3 timeout
export XDG_CACHE_HOME="$WORK/cache"

# a glmark2 trace of 30k calls in frames of ~220 (the corpus's with the most calls)
name=glmark2_desktop.trace
[ -f "$corpus/$name" ] || die "corpus trace $name missing"
cp "$corpus/$name" "$WORK/$name"
run_py_checker "$name" 900 "$here/view_scale.py" "$bin" "$WORK/$name"
it_finish
