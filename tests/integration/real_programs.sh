#!/usr/bin/env bash
# real_programs: real Debian programs, recorded by both tracers.
#   usage: real_programs.sh BIN_DIR [NAME...]      (every program when no NAME is given)
# Long (downloads about 450 MB of packages once, then 10-20 minutes on 2 cores): not in the
# default ctest run. One command runs it: tests/integration/real_programs.sh build/bin
# (or `ctest -L long` in a tree configured with -DGLTRACE_LONG_TESTS=ON).
#
# Programs, each of a kind no other test records (packages installed with apt-get when
# missing, after one `apt-get update`; GLTRACE_NO_INSTALL=1 only checks they are there):
#   piglit_*    piglit's GL 4.5 direct state access tests (ARB_direct_state_access: texture
#               uploads, mipmaps, texture buffers, compressed images) and the
#               EXT_direct_state_access ones (glTextureImage*EXT, glMulti*EXT, glMatrix*EXT,
#               glProgramUniform*EXT), each a program with its own windowing (waffle, GLX)
#   goxel       a voxel editor on GLFW
#   openarena   ioquake3 (a Quake III engine game) playing its bundled demo in timedemo
#   endless_sky an SDL2 game on a GL 3 core context
#   openscad    a Qt 5 desktop application with a GL view (QGLWidget) of a model
#   chromium_bsu a fixed-function SDL2 game
# Every program runs under step_clock.so (tests/apps/step_clock.c: the clock it reads
# advances by a fixed step a reading) with a fresh HOME, and those that run until stopped
# are stopped once their recording holds a number of swaps. For each program:
#   1. recorded by `apitrace trace` and by `gltrace --backtrace=none`;
#   2. both recordings compared call by call (dump_diff.py and its written-down rules,
#      with per program: --any-order, --collapse-repeats, or a number of differences
#      allowed, each with its reason below);
#   3. both traces replayed by both replayers (our glretrace, apitrace's), each with exit 0
#      and a snapshot of every frame (apitrace's replayer failing on apitrace's own
#      recording is noted, not failed: not ours to fix);
#   4. no argument that apitrace's recording holds as a blob is an address in ours, nor a
#      string a blob (blob_address.py);
#   5. pixels: our replay of our recording against apitrace's replay of it, and against
#      apitrace's replay of apitrace's recording (frame by frame, the first frame left out:
#      both replayers draw it into a 32x32 window, see tests/apps/README.md), with
#      `gltrace diff-images` (5% fuzz).
# A table per program sums it up at the end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init real_programs
require_recorder "$@"
shift
only=("$@")
require_tool apitrace python3 Xvfb timeout
step_clock="$bin/../lib/libstep_clock.so"
require_file "$step_clock" "build the step_clock module (tests/apps)"
api_retrace=$(dirname "$(command -v apitrace)")/glretrace
require_file "$api_retrace" "apitrace's glretrace"

PACKAGES=(piglit goxel openarena endless-sky openscad chromium-bsu)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  [ -n "${GLTRACE_NO_INSTALL:-}" ] && die "packages missing: ${missing[*]}"
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  echo "real_programs: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq >"$WORK/apt.log" 2>&1 || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >>"$WORK/apt.log" 2>&1 || { tail -5 "$WORK/apt.log"; die "apt-get install failed"; }
fi
tracers=$(dirname "$(command -v apitrace)")/../lib/x86_64-linux-gnu/apitrace/wrappers
[ -f "$tracers/glxtrace.so" ] || tracers=/usr/lib/x86_64-linux-gnu/apitrace/wrappers
python3 "$here/apitrace_sigs.py" "$tracers/glxtrace.so" "$tracers/egltrace.so" \
  >"$WORK/sigs.txt" || die "cannot read apitrace's function signatures in $tracers"

start_xvfb 1024x768x24
ROWS=()

wanted() {
  local n
  [ "${#only[@]}" -eq 0 ] && return 0
  for n in "${only[@]}"; do [ "$n" = "$1" ] || [ "$n" = "${1%%_*}" ] && return 0; done
  return 1
}

# record WHO NAME FRAMES CMD...: one recording into $WORK/NAME.WHO.trace (WHO: a for
# apitrace, g for gltrace), with a fresh HOME. FRAMES "all": the program ends by itself;
# a number N: the program gets $STOP_SIGNAL (default TERM) once the growing trace holds N
# swaps (both tracers write each frame out at its swap). Not swap_stop.so: these programs
# reach glXSwapBuffers through dlopen'd libGL (GLFW, SDL2), where apitrace hands them its
# own function and swap_stop never sees a swap. dump_diff.py --frames compares the frames
# both recordings hold (R8). A program still there 20 s after the signal is killed.
record() {
  local who=$1 name=$2 frames=$3
  shift 3
  local t="$WORK/$name.$who.trace" pidfile="$WORK/$name.$who.pid" rpid i j n last=0 idle=0
  # shellcheck disable=SC2016 # expanded by that sh: its pid, the program's after exec
  local run=(sh -c 'echo $$ >"$0"; exec "$@"' "$pidfile" "$@")
  rm -rf "${WORK:?}/home" "$pidfile"
  mkdir -p "$WORK/home"
  if [ "$who" = a ]; then
    HOME=$WORK/home LD_PRELOAD=$step_clock timeout -k 10 900 apitrace trace --api gl -o "$t" \
      "${run[@]}" >"$WORK/$name.$who.log" 2>&1 &
  else
    HOME=$WORK/home LD_PRELOAD=$step_clock timeout -k 10 900 "$gltrace" --backtrace=none -o "$t" \
      -- "${run[@]}" >"$WORK/$name.$who.log" 2>&1 &
  fi
  rpid=$!
  if [ "$frames" != all ]; then
    for ((i = 0; i < 1200; i++)); do # 10 minutes at most
      kill -0 "$rpid" 2>/dev/null || break
      if [ -s "$t" ]; then
        n=$(trace_swaps "$t")
        [ "$n" -gt "$last" ] && last=$n idle=0
        idle=$((idle + 1))
      fi
      # enough swaps, or none for $IDLE_STOP s (a program that draws only when it must)
      if [ "$last" -ge "$frames" ] || { [ -n "${IDLE_STOP:-}" ] && [ "$last" -gt 0 ] &&
        [ "$idle" -ge $((IDLE_STOP * 2)) ]; }; then
        kill -"${STOP_SIGNAL:-TERM}" "$(cat "$pidfile")" 2>/dev/null || true
        for ((j = 0; j < 40; j++)); do
          kill -0 "$(cat "$pidfile")" 2>/dev/null || break
          sleep 0.5
        done
        kill -KILL "$(cat "$pidfile")" 2>/dev/null || true
        break
      fi
      sleep 0.5
    done
  fi
  wait "$rpid" || true
}

# replay TRACE DIR REPLAYER: snapshots of every frame into DIR; prints the exit status.
replay() {
  local rc
  mkdir -p "$2"
  set +e
  timeout -k 10 600 "$3" -s "$2/" "$1" >"$2.log" 2>&1
  rc=$?
  set -e
  echo "$rc"
}

# frames_of DIR OUT: DIR's snapshots (call-numbered) copied to OUT as frame-numbered
# files, the first frame left out.
frames_of() {
  local f i=0
  mkdir -p "$2"
  for f in "$1"/*.png; do
    [ -e "$f" ] || continue
    [ "$i" -gt 0 ] && cp "$f" "$(printf '%s/%06d.png' "$2" "$i")"
    i=$((i + 1))
  done
}

# pixels REF SRC: "M/N" frames that match (gltrace diff-images), or "-" with no frames.
pixels() {
  local out n m
  out=$("$gltrace" diff-images -o "$WORK/diff.html" "$1/" "$2/" 2>&1 | tail -1 || true)
  n=$(sed -n 's/^\([0-9]*\) images:.*/\1/p' <<<"$out")
  m=$(sed -n 's/^[0-9]* images: \([0-9]*\) match.*/\1/p' <<<"$out")
  if [ -z "$n" ] || [ "$n" -eq 0 ]; then echo "-"; else echo "$m/$n"; fi
}

# program NAME FRAMES CMD...: the five checks above, and a row of the table.
program() {
  local name=$1 frames=$2
  shift 2
  wanted "$name" || return 0
  local t0 a="$WORK/$name.a" g="$WORK/$name.g" who rc calls_a calls_g verdict blob opt=()
  t0=$(date +%s)
  echo "real_programs: $name: recording"
  record a "$name" "$frames" "$@"
  record g "$name" "$frames" "$@"
  if [ ! -s "$a.trace" ] || [ ! -s "$g.trace" ]; then
    fail "$name: no trace (apitrace: $(tail -1 "$a.log"); gltrace: $(tail -1 "$g.log"))"
    ROWS+=("$name|-|-|no trace|-|-|-|-")
    return 0
  fi
  apitrace dump -v --thread-ids=yes "$a.trace" >"$a.dump" 2>/dev/null || true
  apitrace dump -v --thread-ids=yes "$g.trace" >"$g.dump" 2>/dev/null || true
  calls_a=$(grep -c '^[0-9]' "$a.dump" || true)
  calls_g=$(grep -c '^[0-9]' "$g.dump" || true)

  [ "$frames" != all ] && opt=(--frames)
  [ -n "${ANY_ORDER:-}" ] && opt+=(--any-order)
  [ -n "${COLLAPSE:-}" ] && opt+=(--collapse-repeats)
  set +e
  python3 "$here/dump_diff.py" "$a.dump" "$g.dump" "$WORK/sigs.txt" "${opt[@]}" >"$WORK/$name.diff"
  rc=$?
  set -e
  local ndiff
  ndiff=$(sed -n 's/^dump_diff: thread [0-9]*: \([0-9]*\) difference.*/\1/p' "$WORK/$name.diff" |
    awk '{ n += $1 } END { print n + 0 }')
  if [ "$rc" -eq 0 ]; then
    verdict="same ($(sed -n 's/^dump_diff: \(.*\) calls alike.*/\1/p' "$WORK/$name.diff" | head -1))"
    pass "$name: the recordings are alike: $(head -1 "$WORK/$name.diff")"
  elif [ -n "${ALLOW_DIFF:-}" ] && [ "$ndiff" -gt 0 ] && [ "$ndiff" -le "${ALLOW_DIFF%%:*}" ]; then
    verdict="$ndiff allowed"
    pass "$name: $ndiff difference(s), allowed: ${ALLOW_DIFF#*:}"
    sed 's/^/    /' "$WORK/$name.diff" | cut -c1-200
  else
    verdict=differ
    fail "$name: the recordings differ:"
    sed 's/^/    /' "$WORK/$name.diff" | cut -c1-400
  fi

  set +e
  python3 "$here/blob_address.py" "$a.dump" "$g.dump" >"$WORK/$name.blobs"
  rc=$?
  set -e
  grep 'note:' "$WORK/$name.blobs" | sed 's/^/    /' || true
  if [ "$rc" -eq 0 ]; then
    blob=none
    pass "$name: $(tail -1 "$WORK/$name.blobs")"
  else
    blob=$(grep -vc 'note:' "$WORK/$name.blobs" || true)
    fail "$name: arguments apitrace records as data are not the same data in ours:"
    grep -v 'note:' "$WORK/$name.blobs" | sed 's/^/    /'
  fi

  local replays="" trace replayer snaps
  for trace in a g; do
    for who in ours apitrace; do
      replayer=$bin/glretrace
      [ "$who" = apitrace ] && replayer=$api_retrace
      snaps="$WORK/$name.$trace.$who"
      rc=$(replay "$WORK/$name.$trace.trace" "$snaps" "$replayer")
      replays+="${replays:+ }$rc"
      if [ "$rc" -eq 0 ]; then
        pass "$name: $who replays $([ $trace = a ] && echo "apitrace's" || echo our) recording"
      elif [ "$trace$who" = aapitrace ]; then # apitrace's own limits, not ours: noted only
        echo "real_programs: $name: note: apitrace's glretrace exits $rc on apitrace's recording: $(grep -v '^Wrote' "$snaps.log" | tail -1 | cut -c1-200)"
      else
        fail "$name: $who's glretrace exits $rc on $([ $trace = a ] && echo "apitrace's" || echo our) recording: $(grep -v '^Wrote' "$snaps.log" | tail -1 | cut -c1-200)"
      fi
      frames_of "$snaps" "$snaps.frames"
    done
  done
  local same_trace cross
  same_trace=$(pixels "$WORK/$name.g.apitrace.frames" "$WORK/$name.g.ours.frames")
  cross=$(pixels "$WORK/$name.a.apitrace.frames" "$WORK/$name.g.ours.frames")
  if [ "$same_trace" = - ]; then # piglit's tests swap no frame with -auto
    echo "real_programs: $name: no frame past the first to compare"
  elif [ "${same_trace%/*}" != "${same_trace#*/}" ]; then
    fail "$name: our replay of our recording differs from apitrace's replay of it: $same_trace frames match"
  else
    pass "$name: our replay of our recording is apitrace's ($same_trace frames)"
  fi
  echo "real_programs: $name: done in $(($(date +%s) - t0)) s"
  ROWS+=("$name|$calls_a / $calls_g|$(stat -c %s "$a.trace") / $(stat -c %s "$g.trace")|$verdict|$replays|$blob|$same_trace|$cross")
}

# piglit's tests, in a window of their own (-auto: they check their results and swap no
# frame). Not ext_direct_state_access-textures: both tracers crash in it (SIGSEGV reading
# the pixels of a glTextureImage2DEXT call, the same size by both tracers' rules).
export PIGLIT_PLATFORM=glx
piglit=/usr/lib/x86_64-linux-gnu/piglit/bin
for t in arb_direct_state_access-texturesubimage arb_direct_state_access-gettextureimage-targets \
  arb_direct_state_access-generatetexturemipmap arb_direct_state_access-texture-buffer \
  arb_direct_state_access-getcompressedtextureimage ext_direct_state_access-multi-texture \
  ext_direct_state_access-compressedtextureimage ext_direct_state_access-program-uniform \
  ext_direct_state_access-matrix-commands; do
  short=${t/arb_direct_state_access-/arb_}
  program "piglit_${short/ext_direct_state_access-/ext_}" all "$piglit/$t" -auto
done
program goxel 30 goxel
# timedemo: every frame advances the demo by one snapshot, whatever the clock. Stopped by
# SIGUSR1: on SIGTERM ioquake3 shuts its renderer down from its signal handler and hangs
# there; SIGUSR1 it leaves to its default action (both tracers flush on it).
# The one difference allowed: ioquake3 seeds rand() from /dev/urandom (Com_InitRand), and
# the roll of a muzzle flash is random, so its matrix differs between two runs.
STOP_SIGNAL=USR1 ALLOW_DIFF="10:ioquake3's rand() is seeded from /dev/urandom (muzzle flash roll)" \
  program openarena 80 /usr/games/openarena +set com_hunkmegs 256 +set r_mode -1 \
  +set r_customwidth 320 +set r_customheight 240 +set r_fullscreen 0 +set s_initsound 0 \
  +set com_introplayed 1 +set timedemo 1 +demo demo088-test1
# endless-sky loads its images on worker threads and uploads each when it is ready: the
# same uploads in another order (dump_diff.py R15, --any-order)
ANY_ORDER=1 program endless_sky 60 /usr/games/endless-sky
cat >"$WORK/model.scad" <<'EOF'
difference() { cube(20, center = true); sphere(13); }
translate([25, 0, 0]) cylinder(h = 20, r1 = 8, r2 = 3, center = true);
EOF
# openscad draws when it must: stopped at 12 swaps or after 20 s without one (its preview,
# OpenCSG's ARB vertex programs, drawn once its model is compiled); it redraws the empty view
# as often as its events come until then (dump_diff.py R16, --collapse-repeats)
QT_QPA_PLATFORM=xcb QT_HASH_SEED=0 STEP_CLOCK_OBJECTS=libQt5Core IDLE_STOP=20 COLLAPSE=1 \
  program openscad 12 \
  openscad "$WORK/model.scad"
# chromium-bsu paces itself by SDL_GetTicks, which step_clock.so steps for it
program chromium_bsu 100 /usr/games/chromium-bsu

echo
echo "real_programs: calls and sizes apitrace / gltrace; replays: exit statuses of apitrace's"
echo "recording by ours and apitrace's glretrace, then of ours; pixels: frames matching, our"
echo "replay of our recording against apitrace's replay of it, and of apitrace's recording"
printf '%-37s %-15s %-21s %-13s %-9s %-6s %-8s %s\n' program calls bytes recordings replays \
  blobs pixels "pixels(a)"
for row in "${ROWS[@]+"${ROWS[@]}"}"; do
  IFS='|' read -r n c s v r b p x <<<"$row"
  printf '%-37s %-15s %-21s %-13s %-9s %-6s %-8s %s\n' "$n" "$c" "$s" "${v%% (*}" "$r" "$b" "$p" "$x"
done
it_finish
