#!/usr/bin/env bash
# record_gltrace: the recording acceptance test. Real GL programs are recorded by
# `gltrace -o X.trace` under our own Xvfb (Mesa llvmpipe), and apitrace must take the
# traces as its own.
#   usage: record_gltrace.sh BIN_DIR
# Recorded: glxgears (GLX) and es2gears_x11 (EGL + GLES2), both stopped by SIGTERM after
# their 100th swap (swap_stop in lib.sh; calls cut mid-way are signal_faults.sh's); ten glmark2 scenes, one run each (build,
# texture, shading, bump, effect2d, buffer with update-method=subdata, terrain,
# jellyfish, refract, shadow); the demo apps gl33_demo (GLX, GL 3.3 core) and es2_demo
# (EGL, GLES2) from BIN_DIR, 5 frames, plain and with --warmup.
# Checks:
#   - the recording: gltrace's exit status is the program's (0; 128 + 15 for the
#     SIGTERM-stopped ones) and the trace exists; plus exit statuses 3 and 2 passing
#     through for a shell and a demo app given a bad argument;
#   - `apitrace dump` reads each trace with exit 0 and prints nothing on stderr, and the
#     trace holds at least one swap (the demo apps: exactly their number of swaps);
#   - `gltrace dump` == `apitrace dump`, byte for byte, with options "" and "-v";
#   - `glretrace` (checking GL errors, no -b) replays each trace with exit 0, no line of
#     its output contains "error" or "warning" (any case), and it renders as many frames
#     as the trace holds swaps;
#   - the demo apps: the frames the app saves itself (--save) equal glretrace's
#     snapshots of our trace (compare_png.py: <= 0.1% of pixels differ by > 2/255).
#     The comparison uses the --warmup runs: glretrace starts with a 32x32 window and
#     Mesa's llvmpipe only resizes its back buffer at the next swap, so the first frame
#     of any trace (apitrace's own too) replays into a 32x32 corner; --warmup puts an
#     unsaved cleared swap first, so app frame i is the snapshot i + 1 (in call-number
#     order). See tests/apps/README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init record_gltrace

require_recorder "$@"
require_tool apitrace glretrace Xvfb glxgears es2gears_x11 glmark2 python3 cmp timeout
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"
DEMO_FRAMES=5

# ---- our own X server --------------------------------------------------------------
start_xvfb

elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# ---- recording ---------------------------------------------------------------------
# record NAME EXPECTED_STATUS [PREFIX...] -- PROGRAM [ARGS...]: runs
# PREFIX... gltrace -o $WORK/NAME.trace -- PROGRAM ARGS... (PREFIX: timeout and its options)
recorded=()
record() {
  local name=$1 expect=$2
  shift 2
  local prefix=()
  while [ "$1" != "--" ]; do
    prefix+=("$1")
    shift
  done
  shift
  local t0
  t0=$(date +%s.%N)
  set +e
  "${prefix[@]}" "$gltrace" -o "$WORK/$name.trace" -- "$@" >"$WORK/$name.rec.log" 2>&1
  local rc=$?
  set -e
  echo "record_gltrace: recorded $name.trace in $(elapsed "$t0") s (exit $rc, $(stat -c %s \
    "$WORK/$name.trace" 2>/dev/null || echo 0) bytes)"
  if [ "$rc" -ne "$expect" ]; then
    fail "$name: gltrace exits $rc, expected $expect (the program's status); log:"
    tail -15 "$WORK/$name.rec.log" | sed 's/^/    /'
  else
    pass "$name: exit status $rc"
  fi
  if [ ! -s "$WORK/$name.trace" ]; then
    fail "$name: no trace written ($WORK/$name.trace missing or empty); log:"
    tail -15 "$WORK/$name.rec.log" | sed 's/^/    /'
    return 0
  fi
  pass "$name: trace written"
  recorded+=("$name")
}

# Stopped by SIGTERM after their 100th swap: the program dies of it and gltrace exits
# 128 + 15, the program's status.
swap_stop 100
record glxgears 143 -- "${SWAP_STOP[@]}" glxgears
record es2gears 143 -- "${SWAP_STOP[@]}" es2gears_x11

glmark2_scenes=("${GLMARK2_SCENES[@]}")
for scene in "${glmark2_scenes[@]}"; do
  record "glmark2_${scene%%:*}" 0 timeout 60 -- glmark2 --size 256x192 -b "$scene"
done

demos=()
for app in gl33_demo es2_demo; do
  if [ ! -x "$bin/$app" ]; then
    fail "$app: $bin/$app not built (tests/apps needs the x11, gl, egl, glesv2 dev packages)"
    continue
  fi
  demos+=("$app")
  record "$app" 0 timeout 60 -- "$bin/$app" --frames "$DEMO_FRAMES"
  record "${app}_warmup" 0 timeout 60 -- "$bin/$app" --frames "$DEMO_FRAMES" --warmup
done

# other exit statuses pass through too (no GL here: no trace is expected)
exit_status() {
  local what=$1 expect=$2
  shift 2
  set +e
  timeout 60 "$gltrace" -o "$WORK/status.trace" -- "$@" >"$WORK/status.log" 2>&1
  local rc=$?
  set -e
  if [ "$rc" -eq "$expect" ]; then
    pass "$what: exit status $rc passes through"
  else
    fail "$what: gltrace exits $rc, the program $expect; log:"
    tail -5 "$WORK/status.log" | sed 's/^/    /'
  fi
}
exit_status "sh -c 'exit 3'" 3 sh -c 'exit 3'
for app in "${demos[@]+"${demos[@]}"}"; do
  exit_status "$app --frames 0 (bad argument)" 2 "$bin/$app" --frames 0
done

# ---- checks ------------------------------------------------------------------------
# swaps NAME: the number of swap calls `apitrace dump` of NAME's trace shows
swaps() {
  grep -cE '^[0-9]+ (glXSwapBuffers|eglSwapBuffers)\(' "$WORK/$1.dump.txt" || true
}

# retrace WHAT TRACE FRAMES [GLRETRACE OPTIONS...]: glretrace exits 0, says nothing with
# "error" or "warning" in it, and reports "Rendered FRAMES frames"
retrace() {
  local what=$1 trace=$2 frames=$3
  shift 3
  local t0
  t0=$(date +%s.%N)
  set +e
  timeout 120 glretrace "$@" "$trace" >"$WORK/retrace.log" 2>&1
  local rc=$?
  set -e
  echo "record_gltrace: $what: glretrace $* took $(elapsed "$t0") s (exit $rc)"
  if [ "$rc" -ne 0 ]; then
    fail "$what: glretrace exits $rc; its output ends:"
    tail -8 "$WORK/retrace.log" | cut -c1-300 | sed 's/^/    /'
  else
    pass "$what: glretrace exits 0"
  fi
  local bad
  bad=$(grep -ciE 'error|warning' "$WORK/retrace.log" || true)
  if [ "$bad" -ne 0 ]; then
    fail "$what: glretrace printed $bad line(s) with error/warning; the first:"
    grep -iE 'error|warning' "$WORK/retrace.log" | head -8 | cut -c1-300 | sed 's/^/    /'
  else
    pass "$what: glretrace prints no error or warning"
  fi
  local rendered
  rendered=$(sed -n 's/^Rendered \([0-9]*\) frames.*/\1/p' "$WORK/retrace.log" | tail -1)
  if [ "$rendered" = "$frames" ]; then
    pass "$what: glretrace rendered $frames frames"
  else
    fail "$what: glretrace rendered ${rendered:-no} frames, the trace holds $frames swaps"
  fi
}

for name in "${recorded[@]}"; do
  t="$WORK/$name.trace"
  # apitrace reads it without a word on stderr
  set +e
  timeout 60 apitrace dump --color=never "$t" >"$WORK/$name.dump.txt" 2>"$WORK/$name.dump.err"
  rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    fail "$name: apitrace dump exits $rc; stderr:"
    head -8 "$WORK/$name.dump.err" | cut -c1-300 | sed 's/^/    /'
  elif [ -s "$WORK/$name.dump.err" ]; then
    fail "$name: apitrace dump prints $(wc -l <"$WORK/$name.dump.err") line(s) on stderr; the first:"
    head -8 "$WORK/$name.dump.err" | cut -c1-300 | sed 's/^/    /'
  else
    pass "$name: apitrace dump exits 0, stderr empty"
  fi
  n=$(swaps "$name")
  case $name in
    *_demo) want=$DEMO_FRAMES ;;
    *_demo_warmup) want=$((DEMO_FRAMES + 1)) ;;
    *) want= ;;
  esac
  if [ -n "$want" ] && [ "$n" -ne "$want" ]; then
    fail "$name: the trace holds $n swaps, the program made $want"
  elif [ "$n" -lt 1 ]; then
    fail "$name: the trace holds no swap call (apitrace dump: $(wc -l <"$WORK/$name.dump.txt") lines)"
  else
    pass "$name: $n swaps"
  fi

  for opts in "" "-v"; do
    # shellcheck disable=SC2086
    dump_vs_apitrace "$name: dump ${opts:-(defaults)} vs apitrace" "$t" "$gltrace" $opts
  done

  retrace "$name" "$t" "$n"
done

# ---- the demo apps' own frames against glretrace's snapshots of our trace ----------
for app in "${demos[@]+"${demos[@]}"}"; do
  name="${app}_warmup"
  t="$WORK/$name.trace"
  [ -s "$t" ] || continue # its recording already failed
  rm -rf "$WORK/own" "$WORK/snap"
  mkdir -p "$WORK/own" "$WORK/snap"
  set +e
  timeout 60 "$bin/$app" --frames "$DEMO_FRAMES" --warmup --save "$WORK/own/" \
    >"$WORK/own.log" 2>&1
  rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    fail "$app --save: exits $rc; log:"
    tail -5 "$WORK/own.log" | sed 's/^/    /'
    continue
  fi
  retrace "$name (snapshots)" "$t" $((DEMO_FRAMES + 1)) -s "$WORK/snap/"
  snaps=() # glob order: the zero-padded call numbers, ascending
  for f in "$WORK"/snap/*.png; do
    [ -e "$f" ] && snaps+=("${f##*/}")
  done
  if [ "${#snaps[@]}" -ne $((DEMO_FRAMES + 1)) ]; then
    fail "$name: glretrace took ${#snaps[@]} snapshots, expected $((DEMO_FRAMES + 1)) (warm-up + $DEMO_FRAMES frames): ${snaps[*]+"${snaps[*]}"}"
  fi
  for ((i = 0; i < DEMO_FRAMES; i++)); do
    own=$(printf '%s/own/%010u.png' "$WORK" "$i")
    if [ ! -s "$own" ]; then
      fail "$app: frame $i: the app saved no $own"
      continue
    fi
    if [ $((i + 1)) -ge "${#snaps[@]}" ]; then
      fail "$app: frame $i: no glretrace snapshot for it"
      continue
    fi
    snap="$WORK/snap/${snaps[i + 1]}"
    set +e
    verdict=$(python3 "$compare_png" "$own" "$snap" 2>&1)
    rc=$?
    set -e
    if [ "$rc" -eq 0 ]; then
      pass "$app: frame $i == snapshot ${snaps[i + 1]}"
    else
      fail "$app: frame $i differs from glretrace snapshot ${snaps[i + 1]}: ${verdict//"$WORK/"/}"
    fi
  done
done

it_finish
