#!/usr/bin/env bash
# view_safety: `gltrace view` on a machine shared with other users:
# the cache beside the trace is never written through planted links nor another user's
# folder, and takes the trace's permissions; image comparisons walk only the prefix's
# folder (no links to folders, bounded) and serve only PNGs; --open keeps the token out
# of xdg-open's arguments; idle connections do not lock the user out; Host, Origin and
# %00 are checked, CSP and X-Frame-Options sent, a non-loopback --listen warns; a trace
# changed while served is said to be. view_safety.py does the checks, in the work dir
# (its own folders, links to its own files, 127.0.0.1 only).
#   usage: view_safety.sh BIN_DIR CORPUS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init view_safety

it_bin_corpus "$@"
require_file "$bin/gltrace" "build gltrace first"
require_file "$bin/glretrace" "build glretrace first"
require_tool python3 timeout
require_file "$corpus/tri.trace"
export XDG_CACHE_HOME="$WORK/cache"

run_py_checker view_safety 600 "$here/view_safety.py" "$bin" "$corpus/tri.trace" "$WORK"
it_finish
