#!/usr/bin/env bash
# client_memory: every way a program hands the GL client memory is recorded as apitrace
# records it, and both replayers replay both recordings to the program's own frames.
#   usage: client_memory.sh BIN_DIR
# Under our own Xvfb (Mesa llvmpipe), for each mode of tests/apps/client_memory_app.c
# (interleaved, lock, arrays, multidraw, coherent, pixels, lists, indirect, select), FRAMES
# frames with --warmup:
#   - the app's own frames (--save);
#   - recorded by gltrace (--backtrace=none) and by `apitrace trace`: both exit 0;
#   - `apitrace dump -v` of both: exit 0, nothing on stderr, equal once normalised (norm
#     below; each rule says why it is there);
#   - coherent: the fake memcpy calls (the call before which each comes, its size) equal
#     apitrace's, and there are some;
#   - both traces replayed by our glretrace (BIN_DIR/glretrace) and apitrace's
#     (`glretrace` on PATH): exit 0, FRAMES + 1 frames, and snapshot k + 1 equal to the
#     app's frame k (tests/apps/compare_png.py; snapshot 0 is the warm-up frame);
#   - select: our glretrace replays the gltrace trace under valgrind without an invalid
#     write: the selection buffer the GL fills at glRenderMode must outlive
#     glSelectBuffer's call (a freed one was written quietly, glibc does not fault).
# indirect: apitrace writes the address of draw commands in client memory, which no
# replayer can read, and no client arrays for indirect draws; gltrace writes the commands
# as blobs and the arrays as for other draws. So there the dumps are compared without
# call numbers, with `indirect = blob(N)` as PTR and the fake calls before the indirect
# draws left out, and apitrace's trace is not replayed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init client_memory

require_recorder "$@"
app="$bin/client_memory_app"
ours="$bin/glretrace"
require_file "$app" "tests/apps needs the x11 and gl dev packages"
require_file "$ours" "build glretrace first"
require_tool apitrace glretrace Xvfb python3 timeout valgrind
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"
FRAMES=3
MODES=(interleaved lock arrays multidraw coherent pixels lists indirect select)

start_xvfb

# run WHAT CMD...: CMD under timeout 120, output in $WORK/run.log; a pass or a failure
run() {
  local what=$1
  shift
  set +e
  timeout 120 "$@" >"$WORK/run.log" 2>&1
  local rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then
    pass "$what: exit 0"
  else
    fail "$what: exit $rc: $(tail -3 "$WORK/run.log" | tr '\n' ' ' | cut -c1-300)"
  fi
  return "$rc"
}

# norm DUMP: the dump with what may differ between two recordings of one program
# normalised, on stdout. Each rule and why:
#   - addresses (hex of 6 digits or more) -> PTR: the process's own pointers (display,
#     context, map pointers and memcpy destinations: apitrace's are its shadow's) differ
#     from run to run and recorder to recorder;
#   - our "// process.commandLine" line dropped (apitrace 11 records none);
#   - glGetString(GL_EXTENSIONS)'s answer -> EXTENSIONS: the driver's list with the
#     extensions each recorder adds (the same ones today, GL_VMWX_map_buffer_debug
#     included), not what this test is about.
norm() {
  sed -E -e 's/\b0x[0-9a-f]{6,}\b/PTR/g' -e '/^\/\/ process\.commandLine/d' \
    -e 's/^([0-9]+ glGetString\(name = GL_EXTENSIONS\)) = .*/\1 = EXTENSIONS/' "$1"
}

# indirect_norm NORMALISED-DUMP: what apitrace writes of the indirect mode (see above)
indirect_norm() {
  python3 - "$1" <<'PYEOF'
import re, sys
lines = [re.sub(r'^\d+ ', '', l.rstrip('\n')) for l in open(sys.argv[1])]
out = []
for l in lines:
    if re.match(r'glDraw\w*Indirect\(', l):
        while out and out[-1].endswith(' // fake'):
            out.pop()
        l = re.sub(r'indirect = blob\(\d+\)', 'indirect = PTR', l)
    out.append(l)
print('\n'.join(out))
PYEOF
}

# memcpys DUMP: each fake memcpy as "size before NEXT-CALL", one a line
memcpys() {
  python3 - "$1" <<'PYEOF'
import re, sys
pending = []
for line in open(sys.argv[1], errors='replace'):
    m = re.match(r'^\d+ (\w+)\((.*)', line)
    if not m:
        continue
    if m.group(1) == 'memcpy':
        pending.append(re.search(r'n = (\d+)', line).group(1))
        continue
    for n in pending:
        print('%s before %s' % (n, m.group(1)))
    pending = []
PYEOF
}

# replay WHAT REPLAYER TRACE OWN_DIR: exit 0, FRAMES + 1 snapshots, frame k == snapshot k+1
replay() {
  local what=$1 replayer=$2 trace=$3 own=$4
  rm -rf "$WORK/snap" && mkdir -p "$WORK/snap"
  run "$what" "$replayer" -s "$WORK/snap/" "$trace" || return 0
  local snaps=()
  local f
  for f in "$WORK"/snap/*.png; do [ -e "$f" ] && snaps+=("$f"); done
  if [ "${#snaps[@]}" -ne $((FRAMES + 1)) ]; then
    fail "$what: ${#snaps[@]} snapshots, expected $((FRAMES + 1))"
    return 0
  fi
  local i verdict rc
  for ((i = 0; i < FRAMES; i++)); do
    set +e
    verdict=$(python3 "$compare_png" "$(printf '%s/%010u.png' "$own" "$i")" "${snaps[i + 1]}" 2>&1)
    rc=$?
    set -e
    if [ "$rc" -eq 0 ]; then
      pass "$what: frame $i == the app's"
    else
      fail "$what: frame $i differs from the app's: ${verdict//"$WORK/"/}"
    fi
  done
}

# memcheck WHAT TRACE: our glretrace replays TRACE under valgrind with no invalid write
# (ld.so's own strncmp reads are valgrind's known false alarms, so reads are not judged)
memcheck() {
  local log="$WORK/valgrind.log"
  set +e
  valgrind --trace-children=yes --log-file="$log" "$ours" "$2" >/dev/null 2>&1
  local rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    fail "$1: exit $rc under valgrind"
  elif grep -q 'Invalid write\|Invalid free' "$log"; then
    fail "$1: $(grep -m1 -A4 'Invalid write\|Invalid free' "$log" | tr '\n' ' ')"
  else
    pass "$1"
  fi
}

for mode in "${MODES[@]}"; do
  args=(--"$mode" --frames "$FRAMES" --warmup)
  own="$WORK/own.$mode"
  mkdir -p "$own"
  run "$mode: the app" "$app" "${args[@]}" --save "$own/" || continue
  g="$WORK/$mode.gltrace.trace" a="$WORK/$mode.apitrace.trace"
  run "$mode: gltrace records" "$gltrace" --backtrace=none -o "$g" -- "$app" "${args[@]}" || continue
  run "$mode: apitrace records" apitrace trace -o "$a" "$app" "${args[@]}" || continue
  ok=1
  for who in gltrace apitrace; do
    t="$WORK/$mode.$who.trace"
    set +e
    timeout 60 apitrace dump -v --color=never "$t" >"$t.txt" 2>"$t.err"
    rc=$?
    set -e
    if [ "$rc" -ne 0 ] || [ -s "$t.err" ]; then
      fail "$mode: apitrace dump of the $who trace exits $rc: $(head -c 300 "$t.err")"
      ok=0
    else
      pass "$mode: apitrace dump of the $who trace exits 0, stderr empty"
      norm "$t.txt" >"$t.norm"
    fi
  done
  if [ "$ok" -eq 1 ] && [ "$mode" = indirect ]; then
    indirect_norm "$g.norm" >"$g.inorm"
    sed -E 's/^[0-9]+ //' "$a.norm" >"$a.inorm"
    compare_files "$mode: dump -v equal to apitrace's but for the indirect draws" \
      "$a.inorm" "$g.inorm"
    n=$(grep -cE 'glDraw(Arrays|Elements)Indirect\(.*indirect = blob\((16|20)\)' "$g.txt" || true)
    [ "$n" -eq $((2 * FRAMES)) ] && pass "$mode: $n indirect draws with their commands as blobs" ||
      fail "$mode: $n indirect draws with their commands as blobs, expected $((2 * FRAMES))"
  elif [ "$ok" -eq 1 ]; then
    compare_files "$mode: dump -v equal to apitrace's (normalised)" "$a.norm" "$g.norm"
    if [ "$mode" = coherent ]; then
      memcpys "$a.txt" >"$a.memcpy"
      memcpys "$g.txt" >"$g.memcpy"
      if [ -s "$a.memcpy" ]; then
        compare_files "$mode: memcpy calls (size, next call) equal to apitrace's" \
          "$a.memcpy" "$g.memcpy"
      else
        fail "$mode: apitrace's trace holds no memcpy"
      fi
    fi
  fi
  for who in gltrace apitrace; do
    replay "$mode: our glretrace replays the $who trace" "$ours" "$WORK/$mode.$who.trace" "$own"
    replay "$mode: apitrace's glretrace replays the $who trace" glretrace \
      "$WORK/$mode.$who.trace" "$own"
    if [ "$mode" = indirect ]; then break; fi # apitrace's trace: addresses no replayer reads
  done
  if [ "$mode" = select ]; then
    memcheck "select: our glretrace writes no freed memory (valgrind)" "$WORK/select.gltrace.trace"
  fi
done

it_finish
