#!/usr/bin/env bash
# frame_ranges: `gltrace --frames`, `--trigger`, `--quit-after` on a real program under
# our own Xvfb (Mesa llvmpipe). gl33_demo's frames depend only on the frame index, so
# the calls of frames A..B are the same in every run: a range trace is checked against
# a full recording of the same program.
#   usage: frame_ranges.sh BIN_DIR
# Checks:
#   - --frames=0-3,6-8 --quit-after writes NAME.0-3.trace and NAME.6-8.trace, no
#     NAME.trace, and the program exits 0 right after frame 8 (it was asked for 40);
#   - NAME.0-3.trace dumps (`gltrace dump` and `apitrace dump`) as the full recording's
#     frames 0-3 (same call numbers), and replays in our glretrace and apitrace's to the
#     full recording's snapshots of frames 1-3 (frame 0 differs in apitrace's replay:
#     its window starts at 32x32, see fake_calls.sh);
#   - NAME.6-8.trace holds 3 frames whose calls are the full recording's frames 6-8
#     (call numbers aside: the range trace counts from 0);
#   - --trigger=SIGUSR2: the first signal (to gltrace, which passes it on) starts a
#     range at a frame boundary, the second ends it; the trace is named for the frames
#     it holds (NAME.S-E.trace), holds E-S+1 frames, and its calls are the full
#     recording's frames S..E;
#   - the objects the recorder follows before a range (GLTRACE_CAPTURE_DEBUG=objects
#     prints them at the range's start) are those `gltrace leaks` finds alive in the
#     full recording cut before the range's first frame (trim --exact), for gl33_demo
#     alone and with its second thread and shared context (--thread);
#   - bad options (a range that ends before it starts, a signal that is none,
#     --quit-after without --frames, numbered ranges with a trigger) exit 2 before the
#     program runs, saying what is wrong.
# Not checked here: a range after frame 0 replaying alone (its state snapshot:
# snapshot*.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init frame_ranges

require_recorder "$@"
require_tool apitrace glretrace Xvfb python3 timeout
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"
app="$bin/gl33_demo"
require_file "$app" "tests/apps needs the x11 and gl dev packages"
ours="$bin/glretrace"
start_xvfb
cd "$WORK"

# frame_calls TRACE FIRST LAST: the calls of frames FIRST..LAST without call numbers,
# after the state snapshot of a range trace (its calls end with the marker; the
# snapshot's own checks are snapshot_*.sh)
frame_calls() {
  "$gltrace" dump --color=never --call-nos=no --frames="$2-$3" "$1" | after_snapshot | calls_only
}
after_snapshot() {
  awk 'FNR == 1 { n = 0 } { line[++n] = $0 } /glStringMarkerGREMEDY\(.*gltrace: end of the state snapshot/ { n = 0 }
       END { for (i = 1; i <= n; ++i) print line[i] }'
}
# calls_only: a dump without its properties (the command lines differ: --frames N) and
# with heap addresses as 0xADDR (each run has its own)
calls_only() { grep -v '^// ' | sed -E 's/0x[0-9a-f]{8,}/0xADDR/g' || true; }

same() { # same WHAT FILE_A FILE_B
  if cmp -s "$2" "$3"; then
    pass "$1"
  else
    fail "$1: first difference: $(first_diff "$2" "$3")"
  fi
}

# ---- numbered ranges ------------------------------------------------------------------
"$gltrace" -o full.trace --backtrace=none -- "$app" --frames 12 >/dev/null 2>full.log
set +e
timeout 120 "$gltrace" -o r.trace --backtrace=none --frames=0-3,6-8 --quit-after -- \
  "$app" --frames 40 >/dev/null 2>r.log
rc=$?
set -e
if [ "$rc" -eq 0 ] && grep -q "the program exits (--quit-after)" r.log; then
  pass "--quit-after: the program exits 0 after the last range"
else
  fail "--quit-after: exit $rc; $(tail -2 r.log)"
fi
if [ -s r.0-3.trace ] && [ -s r.6-8.trace ] && [ ! -e r.trace ]; then
  pass "--frames=0-3,6-8: r.0-3.trace and r.6-8.trace, no r.trace"
else
  fail "--frames=0-3,6-8: files: $(ls)"
fi
grep -q "trace of a frame range written to r.6-8.trace" r.log &&
  pass "the launcher reports the range traces" ||
  fail "the launcher does not report r.6-8.trace: $(cat r.log)"

"$gltrace" dump --color=never --frames=0-3 full.trace | calls_only >want.txt
"$gltrace" dump --color=never r.0-3.trace | calls_only >got.txt
same "r.0-3.trace dumps as the full recording's frames 0-3" want.txt got.txt
apitrace dump --color=never r.0-3.trace 2>api.err | calls_only >api.txt || true
apitrace dump --color=never full.trace 2>/dev/null | calls_only >api_full.txt || true
head -n "$(wc -l <want.txt)" api_full.txt >api_want.txt
same "apitrace dump reads r.0-3.trace as the full recording's frames 0-3" api_want.txt api.txt

frame_calls full.trace 6 8 >want.txt
frame_calls r.6-8.trace 0 2 >got.txt
same "r.6-8.trace holds the calls of frames 6-8" want.txt got.txt
n=$("$gltrace" info r.6-8.trace | python3 -c 'import json,sys; print(json.load(sys.stdin)["FramesCount"])')
[ "$n" = 3 ] && pass "r.6-8.trace holds 3 frames" || fail "r.6-8.trace holds $n frames"

# snapshots of frames 1-3: the range trace in both replayers against the full trace
replay_frames "$ours" full.trace full
replay_frames "$ours" r.0-3.trace ours
replay_frames glretrace r.0-3.trace api
for f in 1 2 3; do
  png=$(printf '%010u.png' "$f")
  for who in ours api; do
    if python3 "$compare_png" "full/$png" "$who/$png" >cmp.txt 2>&1; then
      pass "frame $f of r.0-3.trace replayed by $who == the full recording's"
    else
      fail "frame $f of r.0-3.trace replayed by $who: $(cat cmp.txt)"
    fi
  done
done

# ---- a file at -o is left alone: ranges write NAME.A-B.trace, never NAME.trace ---------
printf 'keep me\n' >kept.trace
"$gltrace" -o kept.trace --backtrace=none --frames=1-1 --quit-after -- "$app" --frames 5 \
  >/dev/null 2>kept.log || true
if [ "$(cat kept.trace)" = "keep me" ] && [ -s kept.1-1.trace ]; then
  pass "--frames leaves the file named by -o as it was (kept.1-1.trace written)"
else
  fail "--frames with -o kept.trace: kept.trace now holds $(stat -c %s kept.trace) bytes; $(ls kept.*)"
fi
printf 'keep me too\n' >env.trace
GLTRACE_OUTPUT="$PWD/env.trace" GLTRACE_FRAMES=1-1 GLTRACE_QUIT_AFTER=1 \
  LD_PRELOAD="$bin/../lib/libgltrace.so" "$app" --frames 5 >/dev/null 2>env.log || true
if [ "$(cat env.trace)" = "keep me too" ] && [ -s env.1-1.trace ]; then
  pass "GLTRACE_FRAMES with GLTRACE_OUTPUT by hand leaves that file as it was"
else
  fail "GLTRACE_FRAMES by hand: env.trace now holds $(stat -c %s env.trace) bytes; $(ls env.*)"
fi

# ---- a trigger ------------------------------------------------------------------------
tr=$(trigger_range t "$app" --frames 1000000)
grep -q "send SIGUSR2 to" t.log && pass "the launcher says which signal starts recording" ||
  fail "no word about the trigger: $(cat t.log)"
if [[ "$tr" =~ ^t\.([0-9]+)-([0-9]+)\.trace$ ]]; then
  s=${BASH_REMATCH[1]} e=${BASH_REMATCH[2]}
  pass "the trigger's trace is named for its frames: $tr"
  n=$("$gltrace" info "$tr" | python3 -c 'import json,sys; print(json.load(sys.stdin)["FramesCount"])')
  [ "$n" = $((e - s + 1)) ] && pass "$tr holds $n frames" || fail "$tr holds $n frames"
  "$gltrace" -o full2.trace --backtrace=none -- "$app" --frames $((e + 1)) >/dev/null 2>&1
  frame_calls full2.trace "$s" "$e" >want.txt
  frame_calls "$tr" 0 $((e - s)) >got.txt
  same "$tr holds the calls of frames $s-$e" want.txt got.txt
else
  fail "no trace named t.S-E.trace from the trigger: $(ls)"
fi

# ---- the objects followed before a range ---------------------------------------------
# live_from_leaks TRACE: "KIND: NAMES" per kind with objects, from `gltrace leaks`
live_from_leaks() {
  "$gltrace" leaks "$1" | python3 -c '
import re, sys
live = {}
for line in sys.stdin:
    m = re.match(r"\d+: error: (.+) (\d+) was not destroyed", line)
    if m:
        live.setdefault(m.group(1), []).append(int(m.group(2)))
for k in sorted(live):
    print("%s: %s" % (k, " ".join(str(n) for n in sorted(live[k]))))'
}
tracked() { # tracked FIRST APP_ARGS...: the tracker's report at frame FIRST's range
  local first=$1
  shift
  GLTRACE_CAPTURE_DEBUG=objects "$gltrace" -o tr.trace --backtrace=none \
    --frames="$first-$first" --quit-after -- "$app" "$@" 2>&1 >/dev/null |
    sed -n "s/^gltrace: frame $first: live \(.*\): \(.\+\)$/\1: \2/p"
  rm -f tr.*.trace
}
for variant in "6 --frames 12" "3 --thread --frames 12"; do
  read -r first args <<<"$variant"
  # shellcheck disable=SC2086
  "$gltrace" -o v.trace --backtrace=none -- "$app" $args >/dev/null 2>&1
  "$gltrace" trim --exact --frames=0-$((first - 1)) -o cut.trace v.trace >/dev/null 2>&1
  live_from_leaks cut.trace >want.txt
  # shellcheck disable=SC2086
  tracked "$first" $args >got.txt
  if [ -s want.txt ] && cmp -s want.txt got.txt; then
    pass "gl33_demo $args: the objects followed at frame $first are leaks' ($(wc -l <got.txt) kinds)"
  else
    fail "gl33_demo $args: objects at frame $first: $(first_diff want.txt got.txt)"
  fi
done

# ---- bad options ----------------------------------------------------------------------
bad() { # bad WHAT EXPECTED_TEXT ARGS...
  local what=$1 want=$2 rc
  shift 2
  set +e
  "$gltrace" -o bad.trace "$@" -- "$app" --frames 1 >/dev/null 2>bad.log
  rc=$?
  set -e
  if [ "$rc" -eq 2 ] && grep -q "$want" bad.log && [ ! -e bad.trace ]; then
    pass "$what: exit 2, \"$want\""
  else
    fail "$what: exit $rc: $(cat bad.log)"
  fi
}
bad "--frames=5-3" "ends before it starts" --frames=5-3
bad "--frames=1-2,2-3" "must ascend" --frames=1-2,2-3
bad "--trigger=SIGNOPE" "not a signal" --trigger=SIGNOPE
bad "--quit-after alone" "needs --frames" --quit-after
bad "--frames=1-2 with a trigger" "not frame numbers" --frames=1-2 --trigger=USR2
GLTRACE_FRAMES=4-2 bad "GLTRACE_FRAMES=4-2 (the launcher reads it as --frames)" "ends before it starts"

# the variables stand for the options: GLTRACE_FRAMES=0-1 records frames 0-1 only
GLTRACE_FRAMES=0-1 GLTRACE_QUIT_AFTER=1 "$gltrace" -o e.trace --backtrace=none -- "$app" --frames 6 \
  >/dev/null 2>e.log || true
n=$("$gltrace" info e.0-1.trace 2>/dev/null |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["FramesCount"])' 2>/dev/null || echo none)
[ "$n" = 2 ] && pass "GLTRACE_FRAMES=0-1 through the launcher: e.0-1.trace with 2 frames" ||
  fail "GLTRACE_FRAMES=0-1 through the launcher: $n frames; $(ls e.* 2>&1 | tr '\n' ' ')"

it_finish
