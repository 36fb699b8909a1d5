# shellcheck shell=bash disable=SC2034
# Shared helpers for the integration tests (sourced, not run).
# Each test calls it_init NAME first; it makes a work dir ($WORK) removed on exit,
# starts the clock, and it_finish prints the summary and sets the exit status.

# The option sets every dump comparison runs (each with --color=never).
DUMP_OPTION_SETS=(
  ""
  "-v"
  "--thread-ids"
  "--arg-names=no"
  "--call-nos=no"
  "--calls=frame"
  "--calls=draw"
  "--calls=0-100/3,200-"
  "--multiline=no"
)

IT_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IT_PASSED=0
IT_FAILED=0
IT_FAILURES=()
IT_CLEANUP=()

it_init() {
  IT_NAME=$1
  IT_START=$(date +%s.%N)
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/gltrace-$IT_NAME.XXXXXX")
  trap it_cleanup EXIT
  trap 'exit 130' INT TERM
}

it_cleanup() {
  local rc=$?
  local c
  for c in "${IT_CLEANUP[@]+"${IT_CLEANUP[@]}"}"; do
    eval "$c" || true
  done
  rm -rf "$WORK"
  return $rc
}

# it_on_exit CMD: runs CMD (a string) when the test ends, before the work dir goes.
it_on_exit() { IT_CLEANUP+=("$1"); }

die() {
  echo "$IT_NAME: FATAL: $*" >&2
  exit 2
}

# A tool the test cannot do without: missing means failure, never a silent pass.
require_tool() {
  local t
  for t in "$@"; do
    command -v "$t" >/dev/null 2>&1 ||
      die "required tool '$t' not found in PATH (install it: scripts/install-deps.sh)"
  done
}

require_file() {
  [ -e "$1" ] || die "required file '$1' not found${2:+ ($2)}"
}

pass() {
  IT_PASSED=$((IT_PASSED + 1))
  [ -n "${IT_VERBOSE:-}" ] && echo "PASS: $*"
  return 0
}

fail() {
  IT_FAILED=$((IT_FAILED + 1))
  IT_FAILURES+=("$*")
  echo "FAIL: $*"
  return 0
}

# run_py_checker WHAT SECONDS SCRIPT ARGS...: runs a Python checker of ours that ends
# with "N passed, M failed"; its other lines are shown, its counts added to ours (its
# failures as one entry, "WHAT: M checks"), a missing summary or an exit status without
# a failure fails
run_py_checker() {
  local what=$1 seconds=$2 out rc counts f
  shift 2
  set +e
  out=$(timeout "$seconds" python3 "$@" 2>&1)
  rc=$?
  set -e
  printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed$' || true
  counts=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -1)
  if [ -z "$counts" ]; then
    fail "$what: $(basename "$1") exits $rc without a summary"
    return 0
  fi
  IT_PASSED=$((IT_PASSED + ${counts%% passed*}))
  f=${counts#*, }
  f=${f%% failed*}
  if [ "$f" -gt 0 ]; then
    IT_FAILED=$((IT_FAILED + f))
    IT_FAILURES+=("$what: $f checks")
  elif [ "$rc" -ne 0 ]; then
    fail "$what: $(basename "$1") exits $rc"
  fi
  return 0
}

# browser_python: sets PY to a Python that has selenium, with chromium and chromedriver
# found; else the test is skipped (exit 77, ctest's SKIP_RETURN_CODE)
browser_python() {
  local p
  browser_skip() {
    echo "$IT_NAME: SKIP: $* (scripts/install-deps.sh installs chromium, chromium-driver and python3-selenium)"
    exit 77
  }
  command -v chromium >/dev/null 2>&1 || browser_skip "chromium not found"
  [ -x /usr/bin/chromedriver ] || command -v chromedriver >/dev/null 2>&1 ||
    browser_skip "chromedriver not found"
  # Debian's python3-selenium is in /usr/bin/python3's path; a python3 earlier in PATH
  # (pyenv, a virtual environment) may lack it
  PY=
  for p in /usr/bin/python3 python3; do
    if "$p" -c 'import selenium' >/dev/null 2>&1; then PY=$p; break; fi
  done
  [ -n "$PY" ] || browser_skip "Python's selenium module not found"
}

# swap_stop N: sets SWAP_STOP to a command prefix that runs the command after it with
# tests/apps/swap_stop.c's module first in LD_PRELOAD (ahead of a recorder's library,
# which the recorder put there) and SWAP_STOP_AFTER=N: the program gets SIGTERM after
# its N-th swap, so it records N frames however busy the machine is. Place it between
# the recorder's command line and the program's:
#   swap_stop 30; apitrace trace -o t.trace "${SWAP_STOP[@]}" glxgears
# The program runs under `timeout 120` (a safety net only: a program that never swaps).
swap_stop() {
  local so="$bin/../lib/libswap_stop.so"
  require_file "$so" "build the swap_stop module (tests/apps)"
  SWAP_STOP=(sh -c 'so=$1 n=$2; shift 2
    export LD_PRELOAD="$so${LD_PRELOAD:+:$LD_PRELOAD}" SWAP_STOP_AFTER="$n"
    exec timeout -k 10 120 "$@"' swap_stop "$so" "$1")
}

# trace_swaps TRACE: the swaps a (possibly growing) trace holds so far
trace_swaps() {
  "$gltrace" dump --color=never --calls=frame "$1" 2>/dev/null |
    grep -cE '^[0-9]+ (glX|egl)SwapBuffers' || true
}

# wait_swaps TRACE N: waits until gltrace's growing TRACE holds N swaps (its flusher writes
# what is pending every second); 60 s without them is the safety net, not a failure here.
wait_swaps() {
  local i
  for ((i = 0; i < 600; i++)); do
    [ -s "$1" ] && [ "$(trace_swaps "$1")" -ge "$2" ] && return 0
    sleep 0.1
  done
}

# first_diff A B: the first differing line of two files, as "line N" and both texts.
first_diff() {
  python3 - "$1" "$2" <<'EOF'
import sys
a = open(sys.argv[1], 'rb').read().split(b'\n')
b = open(sys.argv[2], 'rb').read().split(b'\n')
for i in range(max(len(a), len(b))):
    x = a[i] if i < len(a) else None
    y = b[i] if i < len(b) else None
    if x != y:
        show = lambda s: '<end of file>' if s is None else repr(s.decode('utf-8', 'replace'))[:400]
        print('    first difference at line %d' % (i + 1))
        print('      expected: %s' % show(x))
        print('      got:      %s' % show(y))
        break
EOF
}

# compare_files WHAT EXPECTED GOT: byte comparison, recorded as a pass or a failure.
compare_files() {
  local what=$1 expected=$2 got=$3
  if cmp -s "$expected" "$got"; then
    pass "$what"
  else
    fail "$what: output differs"
    first_diff "$expected" "$got"
  fi
}

# run_timed OUT ERR CMD...: runs CMD under timeout 20, stdout to OUT and stderr to ERR;
# sets RC. Exit codes 124/137 mean it hung; >= 128 means it crashed.
run_timed() {
  local out=$1 err=$2
  shift 2
  set +e
  timeout 20 "$@" >"$out" 2>"$err"
  RC=$?
  set -e
}

# dump_vs_apitrace WHAT TRACE GLTRACE [OPTIONS...]: gltrace dump and apitrace dump
# with the same options print the same bytes and gltrace's exit status is apitrace's.
dump_vs_apitrace() {
  local what=$1 trace=$2 gltrace=$3
  shift 3
  local a="$WORK/cmp.apitrace.txt" g="$WORK/cmp.gltrace.txt"
  run_timed "$a" "$WORK/cmp.apitrace.err" apitrace dump --color=never "$@" "$trace"
  local rca=$RC
  run_timed "$g" "$WORK/cmp.gltrace.err" "$gltrace" dump --color=never "$@" "$trace"
  local rcg=$RC
  if [ "$rcg" -ge 124 ]; then
    fail "$what: gltrace dump crashed or hung (exit $rcg)"
    sed 's/^/    stderr: /' "$WORK/cmp.gltrace.err" | head -5
    return 0
  fi
  if [ "$rca" -ne 0 ]; then
    echo "    note: $what: apitrace dump exits $rca" >&2
  fi
  if [ "$rca" -eq 0 ] && [ "$rcg" -ne 0 ]; then
    fail "$what: gltrace dump exits $rcg, apitrace dump exits 0"
    sed 's/^/    stderr: /' "$WORK/cmp.gltrace.err" | head -5
    return 0
  fi
  compare_files "$what" "$a" "$g"
}

it_finish() {
  local end
  end=$(date +%s.%N)
  local secs
  secs=$(awk -v a="$IT_START" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  if [ "$IT_FAILED" -gt 0 ]; then
    echo "---- $IT_NAME failures:"
    printf '  %s\n' "${IT_FAILURES[@]}"
  fi
  echo "$IT_NAME: $IT_PASSED passed, $IT_FAILED failed (${secs} s)"
  [ "$IT_FAILED" -eq 0 ]
}

# corpus_apitrace_dir DIR: the apitrace corpus folder (DIR itself or DIR/apitrace), as an
# absolute path (tests change directory).
corpus_apitrace_dir() {
  local d=$1
  if [ -d "$d/apitrace" ]; then d="$d/apitrace"; fi
  [ -d "$d" ] || die "corpus folder '$1' not found (set GLTRACE_CORPUS_DIR)"
  ls "$d"/*.trace >/dev/null 2>&1 || die "no .trace files in corpus folder '$d'"
  (cd "$d" && pwd)
}

# it_bin_corpus "$@": the arguments of a test run as `NAME.sh BIN_DIR CORPUS_DIR ...`:
# sets bin (BIN_DIR, absolute) and corpus (its apitrace folder); dies with the usage
# without them.
it_bin_corpus() {
  [ $# -ge 2 ] || die "usage: $0 BIN_DIR CORPUS_DIR"
  bin=$(cd "$1" && pwd)
  corpus=$(corpus_apitrace_dir "$2")
}

# info_vs_apitrace WHAT TRACE GLTRACE: `gltrace info` exits 0 and prints valid JSON
# (python3 -m json.tool) in which every key `apitrace info` prints has apitrace's value.
info_vs_apitrace() {
  local what=$1 trace=$2 gltrace=$3
  run_timed "$WORK/info.g.json" "$WORK/info.g.err" "$gltrace" info "$trace"
  if [ "$RC" -ne 0 ]; then
    fail "$what: gltrace info exits $RC"
    sed 's/^/    stderr: /' "$WORK/info.g.err" | head -5
    return 0
  fi
  if ! python3 -m json.tool "$WORK/info.g.json" >/dev/null 2>"$WORK/info.json.err"; then
    fail "$what: gltrace info prints invalid JSON: $(head -1 "$WORK/info.json.err")"
    return 0
  fi
  pass "$what: gltrace info is valid JSON"
  run_timed "$WORK/info.a.json" /dev/null apitrace info "$trace"
  python3 - "$WORK/info.a.json" "$WORK/info.g.json" >"$WORK/info.cmp" <<'PYEOF'
import json, sys
a = json.load(open(sys.argv[1]))
g = json.load(open(sys.argv[2]))
for k, v in a.items():
    if isinstance(v, (dict, list)):
        continue
    if k not in g:
        print('FAIL %s: apitrace info says %r, gltrace info lacks the key' % (k, v))
    elif g[k] != v:
        print('FAIL %s: apitrace info says %r, gltrace info says %r' % (k, v, g[k]))
    else:
        print('PASS %s' % k)
PYEOF
  local verdict rest
  while read -r verdict rest; do
    if [ "$verdict" = PASS ]; then
      pass "$what: info $rest"
    else
      fail "$what: info $rest"
    fi
  done <"$WORK/info.cmp"
  grep -q . "$WORK/info.cmp" || fail "$what: apitrace info printed no JSON object"
}

# repack_vs_apitrace WHAT TRACE GLTRACE: `gltrace repack TRACE OUT` exits 0 and
# `apitrace dump OUT` prints what `apitrace dump TRACE` prints.
repack_vs_apitrace() {
  local what=$1 trace=$2 gltrace=$3
  rm -f "$WORK/repacked.trace"
  run_timed /dev/null "$WORK/repack.err" "$gltrace" repack "$trace" "$WORK/repacked.trace"
  if [ "$RC" -ne 0 ]; then
    fail "$what: gltrace repack exits $RC"
    sed 's/^/    stderr: /' "$WORK/repack.err" | head -5
    return 0
  fi
  run_timed "$WORK/repack.orig.txt" /dev/null apitrace dump --color=never "$trace"
  run_timed "$WORK/repack.new.txt" "$WORK/repack.dump.err" apitrace dump --color=never \
    "$WORK/repacked.trace"
  if [ "$RC" -ne 0 ]; then
    fail "$what: apitrace dump of the repacked trace exits $RC"
    sed 's/^/    stderr: /' "$WORK/repack.dump.err" | head -5
  else
    compare_files "$what: apitrace dump of gltrace repack" "$WORK/repack.orig.txt" \
      "$WORK/repack.new.txt"
  fi
  rm -f "$WORK/repacked.trace"
}

# shellcheck source=tests/xvfb.sh
. "$(dirname "${BASH_SOURCE[0]}")/../xvfb.sh"

# start_xvfb [SCREEN]: starts a private Xvfb (xvfb_spawn, tests/xvfb.sh: the first free
# display of :90..:150, -screen 0 SCREEN, default 1024x768x24, its log in $WORK) and
# exports DISPLAY (and LIBGL_ALWAYS_SOFTWARE=1 for Mesa llvmpipe). The server is
# stopped when the test ends, and by a watchdog even if the test is killed outright
# (ctest's timeout).
# replay_frames REPLAYER TRACE DIR [TIMEOUT]: DIR/NNNNNNNNNN.png per frame, named by frame
# number (--call-nos=false); a replayer that fails is a failure
replay_frames() {
  mkdir -p "$3"
  timeout "${4:-120}" "$1" --call-nos=false -s "$3/" "$2" >"$3.log" 2>&1 ||
    fail "$1 $2 exits non-zero: $(tail -2 "$3.log")"
}

# same_frames NAME WANT_DIR GOT_DIR FIRST LAST OFFSET: for frames k = FIRST..LAST, GOT's
# frame k-OFFSET has exactly WANT's frame k's pixels (replay_frames' names; a frame
# range's trace counts from its first frame: OFFSET)
same_frames() {
  local name=$1 want=$2 got=$3 first=$4 last=$5 offset=$6 bad=0 f
  if [ "$first" -gt "$last" ]; then
    echo "$IT_NAME: $name: no frame to compare"
    return 0
  fi
  for ((f = first; f <= last; f++)); do
    if ! python3 "$IT_LIB_DIR/../apps/compare_png.py" --tolerance 0 --max-fraction 0 \
      "$(printf '%s/%010u.png' "$want" "$f")" "$(printf '%s/%010u.png' "$got" $((f - offset)))" \
      >"$WORK/cmp.txt" 2>&1; then
      fail "$name: frame $f: $(cat "$WORK/cmp.txt")"
      bad=1
    fi
  done
  [ "$bad" = 1 ] || pass "$name: frames $first-$last equal"
}

# trigger_range STEM APP [ARGS...]: runs APP under `gltrace --trigger=SIGUSR2 -o STEM.trace`,
# sends the signal twice (a range starts, then ends) and stops it; prints the range trace's
# name (STEM.S-E.trace, empty when none came). The launcher's stderr is in STEM.log.
trigger_range() {
  local stem=$1 pid child i
  shift
  "$gltrace" -o "$stem.trace" --backtrace=none --trigger=SIGUSR2 -- "$@" >/dev/null \
    2>"$stem.log" &
  pid=$!
  it_on_exit "kill -KILL $pid 2>/dev/null || true"
  # the library takes the signal once it is loaded (its constructor installs the handler)
  for ((i = 0; i < 100; i++)); do
    child=$(pgrep -P "$pid" || true)
    [ -n "$child" ] && grep -q libgltrace "/proc/$child/maps" 2>/dev/null && break
    sleep 0.1
  done
  sleep 1
  kill -USR2 "$pid"
  sleep 0.3
  kill -USR2 "$pid"
  for ((i = 0; i < 100; i++)); do
    ls "$stem".*-*.trace >/dev/null 2>&1 && ! ls "$stem".*-.trace >/dev/null 2>&1 && break
    sleep 0.1
  done
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  ls "$stem".*-*.trace 2>/dev/null | head -1 || true
}

start_xvfb() {
  xvfb_spawn "${1:-1024x768x24}" "$WORK" ||
    die "could not start Xvfb on any display :90..:150"
  (
    while kill -0 $$ 2>/dev/null; do sleep 1; done
    kill "$XVFB_PID" 2>/dev/null
    rm -rf "$WORK"
  ) >/dev/null 2>&1 </dev/null &
  local watchdog=$!
  it_on_exit "kill $XVFB_PID $watchdog 2>/dev/null; wait $XVFB_PID $watchdog 2>/dev/null"
  export LIBGL_ALWAYS_SOFTWARE=1
  unset WAYLAND_DISPLAY GLTRACE_OUTPUT || true
  echo "$IT_NAME: Xvfb on $DISPLAY (pid $XVFB_PID)"
}

# require_recorder BIN_DIR: sets $bin (absolute) and $gltrace, and fails unless
# gltrace and the recording library libgltrace.so are built.
require_recorder() {
  [ $# -ge 1 ] || die "usage: $0 BIN_DIR"
  bin=$(cd "$1" && pwd)
  gltrace="$bin/gltrace"
  require_file "$gltrace" "build gltrace first"
  require_file "$bin/../lib/libgltrace.so" "build libgltrace.so first (GLTRACE_RECORDING)"
}

# The glmark2 scenes the recording issue names, with durations short enough for CI
# (terrain needs 1 s to record more than one frame on llvmpipe).
GLMARK2_SCENES=(
  build:duration=0.3
  texture:duration=0.3
  shading:duration=0.3
  bump:duration=0.3
  effect2d:duration=0.3
  buffer:update-method=subdata:duration=0.3
  terrain:duration=1.0
  jellyfish:duration=0.3
  refract:duration=0.3
  shadow:duration=0.3
)
