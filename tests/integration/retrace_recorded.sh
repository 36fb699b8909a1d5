#!/usr/bin/env bash
# retrace_recorded: our glretrace replays freshly recorded traces of real programs like
# apitrace's glretrace, whether apitrace or gltrace recorded them.
#   usage: retrace_recorded.sh BIN_DIR
# Under our own Xvfb (Mesa llvmpipe), recorded twice, by `apitrace trace` and by
# `gltrace -o`: glxgears and es2gears_x11 (stopped after 60 swaps), the ten glmark2 scenes
# of the recording issue (build, texture, shading, bump, effect2d, buffer with
# update-method=subdata, terrain, jellyfish, refract, shadow; short runs at 256x192), and
# the demo apps gl33_demo (GLX) and es2_demo (EGL) with --warmup --frames 5 --save.
# Each trace goes through retrace_check (retrace_lib.sh): clean replay, -b frame count
# and -s snapshot names == apitrace's glretrace's, the snapshots at the first, middle and
# last swap == apitrace's (glmark2 animates by the wall clock while recording, but a
# replay of one trace is deterministic: both replayers must agree; frames apitrace does
# not reproduce between two of its own runs are left out with a note), and --headless
# (no DISPLAY) takes the same snapshots as under X. The demo apps also: every frame the
# app saved itself equals our glretrace's snapshot of it, under X and --headless
# (--warmup: app frame i is the snapshot i + 1, in call-number order).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
# shellcheck source=tests/integration/retrace_lib.sh
. "$here/retrace_lib.sh"
it_init retrace_recorded

require_recorder "$@"
ours="$bin/glretrace"
require_file "$ours" "build glretrace first"
require_tool apitrace glretrace Xvfb glxgears es2gears_x11 glmark2 python3 timeout
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"
DEMO_FRAMES=5
RL_ALL_SNAPSHOTS=0 # -S at the picks only: thousands of PNGs per gears trace cost minutes

start_xvfb

elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# record RECORDER NAME API [PREFIX...] -- PROGRAM [ARGS...]: PREFIX... then
# `apitrace trace [--api egl] -o T` or `gltrace -o T --` running PROGRAM ARGS...; T is
# $WORK/RECORDER_NAME.trace, appended to $recorded when it holds something
recorded=()
record() {
  local recorder=$1 name=$2 api=$3
  shift 3
  local prefix=()
  while [ "$1" != "--" ]; do
    prefix+=("$1")
    shift
  done
  shift
  local t="$WORK/${recorder}_$name.trace" t0 rc
  local rec=("$gltrace" -o "$t" --)
  if [ "$recorder" = apitrace ]; then
    rec=(apitrace trace -o "$t")
    [ "$api" = egl ] && rec=(apitrace trace --api egl -o "$t")
  fi
  t0=$(date +%s.%N)
  set +e
  "${prefix[@]}" "${rec[@]}" "$@" >"$WORK/${recorder}_$name.rec.log" 2>&1
  rc=$?
  set -e
  echo "retrace_recorded: $recorder recorded $name in $(elapsed "$t0") s (exit $rc, $(stat -c %s \
    "$t" 2>/dev/null || echo 0) bytes)"
  if [ ! -s "$t" ]; then
    fail "$recorder: $name: no trace written (exit $rc); log:"
    tail -10 "$WORK/${recorder}_$name.rec.log" | sed 's/^/    /'
    return 0
  fi
  pass "$recorder: $name: recorded"
  recorded+=("${recorder}_$name")
}

glmark2_scenes=("${GLMARK2_SCENES[@]}")
demos=()
for app in gl33_demo es2_demo; do
  if [ -x "$bin/$app" ]; then
    demos+=("$app")
  else
    fail "$app: $bin/$app not built (tests/apps needs the x11, gl, egl, glesv2 dev packages)"
  fi
done

for recorder in apitrace gltrace; do
  swap_stop 60
  record "$recorder" glxgears glx -- "${SWAP_STOP[@]}" glxgears
  record "$recorder" es2gears egl -- "${SWAP_STOP[@]}" es2gears_x11
  for scene in "${glmark2_scenes[@]}"; do
    record "$recorder" "glmark2_${scene%%:*}" glx timeout 60 -- \
      glmark2 --size 256x192 -b "$scene"
  done
  for app in "${demos[@]+"${demos[@]}"}"; do
    api=glx
    [ "$app" = es2_demo ] && api=egl
    mkdir -p "$WORK/own_${recorder}_$app"
    record "$recorder" "$app" "$api" timeout 60 -- "$bin/$app" --frames "$DEMO_FRAMES" \
      --warmup --save "$WORK/own_${recorder}_$app/"
  done
done

# ---- replays -----------------------------------------------------------------------
for name in "${recorded[@]}"; do
  t0=$(date +%s.%N)
  retrace_check "$name" "$WORK/$name.trace"
  echo "retrace_recorded: $name checked in $(elapsed "$t0") s"
done

# ---- the demo apps' own frames against our snapshots --------------------------------
for name in "${recorded[@]}"; do
  case $name in *_demo) ;; *) continue ;; esac
  own="$WORK/own_$name"
  w="$WORK/rl/$name"
  mkdir -p "$w/gall" "$w/hall"
  rl_run "$name: glretrace -s" "$w/gall.log" "$ours" -s "$w/gall/" "$WORK/$name.trace"
  rl_run "$name: glretrace --headless -s" "$w/hall.log" env -u DISPLAY "$ours" --headless \
    -s "$w/hall/" "$WORK/$name.trace"
  for mode in gall hall; do
    snaps=() # glob order: the zero-padded call numbers, ascending
    for f in "$w/$mode"/*.png; do
      [ -e "$f" ] && snaps+=("${f##*/}")
    done
    label="under X"
    [ "$mode" = hall ] && label="--headless"
    if [ "${#snaps[@]}" -ne $((DEMO_FRAMES + 1)) ]; then
      fail "$name ($label): ${#snaps[@]} snapshots, expected $((DEMO_FRAMES + 1)) (warm-up + $DEMO_FRAMES frames)"
      continue
    fi
    for ((i = 0; i < DEMO_FRAMES; i++)); do
      f=$(printf '%s/%010u.png' "$own" "$i")
      if [ ! -s "$f" ]; then
        fail "$name: the app saved no frame $i"
        continue
      fi
      RL_SNAPS=$((RL_SNAPS + 1))
      if out=$(python3 "$compare_png" "$f" "$w/$mode/${snaps[i + 1]}" 2>&1); then
        pass "$name: app frame $i == our snapshot ${snaps[i + 1]} ($label)"
      else
        fail "$name: app frame $i differs from our snapshot ${snaps[i + 1]} ($label): ${out//"$WORK/"/}"
      fi
    done
  done
done
retrace_summary

it_finish
