#!/usr/bin/env bash
# cli_stdout: what a gltrace command writes to stdout must get there. With stdout on
# /dev/full (the machine's own; nothing is made in /dev) every command fails with a
# message naming stdout and the reason, never a silent exit 0:
#   a) the --help of every command `gltrace help` lists (all print it on stdout), of
#      `gltrace help` itself and of recording;
#   b) the data of each command that prints some: dump, info, convert --counts and
#      --print, dump-images, diff-images, and view's URL (the server stops at once).
#   usage: cli_stdout.sh BIN_DIR CORPUS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init cli_stdout

[ $# -ge 2 ] || die "usage: $0 BIN_DIR CORPUS_DIR"
bin=$(cd "$1" && pwd)
gltrace="$bin/gltrace"
require_file "$gltrace" "build gltrace first"
corpus=$(cd "$(corpus_apitrace_dir "$2")" && pwd)
require_tool Xvfb timeout
[ -c /dev/full ] || die "/dev/full is not a character device on this machine"
start_xvfb 640x480x24

failed_cleanly() { # WHAT RC
  if [ "$2" -ne 0 ] && [ "$2" -lt 124 ]; then pass "$1: exit $2"
  else fail "$1 >/dev/full: exit $2, expected a clean failure: $(head -c 300 "$WORK/err")"; fi
}

says_why() { # WHAT: stderr names stdout and the reason
  if grep -q "stdout.*No space left on device" "$WORK/err"; then pass "$1: names stdout"
  else fail "$1 >/dev/full: stderr lacks stdout and ENOSPC: $(head -c 300 "$WORK/err")"; fi
}

# full WHAT CMD...: CMD with stdout on /dev/full fails cleanly and says why.
full() {
  local what=$1
  shift
  local rc=0
  timeout 120 "$@" >/dev/full 2>"$WORK/err" || rc=$?
  failed_cleanly "$what" "$rc"
  says_why "$what"
}

# ---- a) every command's --help --------------------------------------------------------
cmds=$("$gltrace" help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
                              on && /^  [a-z]/ { print $1 }')
n=$(echo "$cmds" | wc -w)
[ "$n" -ge 10 ] && pass "gltrace help lists $n commands" || fail "gltrace help lists only: $cmds"
for c in $cmds; do
  full "gltrace $c --help" "$gltrace" "$c" --help
done
full "gltrace --help" "$gltrace" --help
full "gltrace -o x.trace --help (recording)" "$gltrace" -o "$WORK/x.trace" --help

# ---- b) each command's data -----------------------------------------------------------
tr="$WORK/tri.trace"
cp "$corpus/tri_glsl.trace" "$tr"
chmod u+w "$tr"
fxt="$(dirname "$corpus")/fxt/ftr_mix_3threads.fxt"
require_file "$fxt" "the corpus's FXT files"
full "gltrace dump" "$gltrace" dump "$tr"
full "gltrace info" "$gltrace" info "$tr"
full "gltrace convert --counts" "$gltrace" convert -q --counts "$fxt"
full "gltrace convert --print" "$gltrace" convert -q --print "$fxt"
full "gltrace dump-images" "$gltrace" dump-images -o "$WORK/img/a." "$tr"
ls "$WORK"/img/a.*.png >/dev/null 2>&1 && pass "dump-images wrote its images" ||
  fail "dump-images wrote no image: $(head -c 300 "$WORK/err")"
full "gltrace diff-images" "$gltrace" diff-images -o "$WORK/diff.html" "$WORK/img/a." "$WORK/img/a."

# view prints its URL, which holds the page's token: unprinted, the server stops at once
timeout 120 "$gltrace" view "$tr" >/dev/full 2>"$WORK/err" &
pid=$!
for _ in $(seq 1 300); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -INT "$pid" 2>/dev/null && fail "gltrace view >/dev/full still serves after 30 s"
rc=0
wait "$pid" || rc=$?
failed_cleanly "gltrace view" "$rc"
says_why "gltrace view"

it_finish
