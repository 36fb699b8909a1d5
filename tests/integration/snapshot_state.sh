#!/usr/bin/env bash
# snapshot_state: the context state that a frame range's state snapshot writes back
# (wrappers/snap_state*.c, specs/state_setters.txt), checked against a full recording of
# the same deterministic program under our own Xvfb (Mesa llvmpipe).
#   usage: snapshot_state.sh BIN_DIR
# For state_app (GL 3.3 core: depth, stencil, sampler, transform feedback, VAO, program
# and texture bindings; with --textures --fbo, units 1 to 4 and a framebuffer), es2_demo
# (GLES 2 on EGL) and ff_state_app (compatibility: fixed-function state, lights,
# materials, matrices, a texture unit's, set before frame 3; frame 2 changes some), each
# recorded in full and as --frames=3-4:
#   - our `glretrace -D` at the end of frame 2 (its swap) in the full recording and at
#     the snapshot's last call in the range trace (the state before frame 3's first
#     call, which may use objects the range lacks) print the same state, but where a
#     value depends on objects the snapshot does not re-create yet
#     (snapshot_state_check.py names them) and the window's pixels;
#   - the bindings the snapshot writes are the program's, object by object (and
#     state_app --textures's unit 4 holds its 1D texture);
#   - the snapshot leaves out values equal to the GL defaults (no glDepthFunc(GL_LESS));
#   - ff_state_app's snapshot writes its light, matrices, material and fog;
#   - ff_state_app's range replays in our glretrace and apitrace's to the full
#     recording's frames 3 and 4 (frame 0 of any replay is drawn into a window that
#     starts at 32x32 in apitrace's: frame 4, the range's second, is compared there).
# While the snapshot's window-system part is not written, the range trace gets the full
# recording's calls up to its first MakeCurrent in front (trace_edit --copy-from).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init snapshot_state

require_recorder "$@"
require_tool glretrace Xvfb python3 timeout
compare_png="$here/../apps/compare_png.py"
check="$here/snapshot_state_check.py"
ours="$bin/glretrace"
edit="$bin/trace_edit"
for f in "$compare_png" "$check" "$bin/state_app" "$bin/es2_demo" "$bin/ff_state_app" "$edit"; do
  require_file "$f" "tests/apps needs the x11, gl and egl dev packages"
done
start_xvfb
cd "$WORK"

# record NAME APP [ARGS...]: NAME.trace (6 frames) and NAME.r.3-4.trace
record() {
  local name=$1 app=$2
  shift 2
  "$gltrace" -o "$name.trace" --backtrace=none -- "$bin/$app" --frames 6 "$@" >/dev/null \
    2>"$name.log" || fail "$name: the full recording fails: $(tail -2 "$name.log")"
  "$gltrace" -o "$name.r.trace" --backtrace=none --frames=3-4 -- "$bin/$app" --frames 6 "$@" \
    >/dev/null 2>"$name.r.log" || fail "$name --frames=3-4 fails: $(tail -2 "$name.r.log")"
}

# playable NAME: NAME.play.trace, the range trace with a context to replay in
playable() {
  local mc
  "$gltrace" dump --color=never "$1.r.3-4.trace" >"$1.dump"
  # through a file: grep -q quits at its match, and a pipe would end sed by SIGPIPE
  sed '/glStringMarkerGREMEDY/q' "$1.dump" >"$1.snap"
  if grep -q 'MakeCurrent(.*// fake$' "$1.snap"; then
    cp "$1.r.3-4.trace" "$1.play.trace"
    return
  fi
  "$gltrace" dump --color=never "$1.trace" >"$1.full.dump"
  mc=$(grep -m1 -o '^[0-9]\+ [A-Za-z]*MakeCurrent' "$1.full.dump" | cut -d' ' -f1)
  "$edit" "$1.r.3-4.trace" "$1.play.trace" --copy-from="$1.trace" "copy=0-$mc@0"
  "$gltrace" dump --color=never "$1.play.trace" >"$1.dump"
}

# compare_state NAME: the state at frame 3's start, full recording against range
compare_state() {
  local first marker
  "$gltrace" dump --color=never --frames=3 "$1.trace" >"$1.frame3.dump"
  first=$(grep -m1 -o '^[0-9]\+' "$1.frame3.dump")
  marker=$(grep -m1 'glStringMarkerGREMEDY' "$1.dump" | grep -o '^[0-9]\+')
  # the state after frame 2's swap, and after the snapshot's last call (our glretrace
  # -D on the end marker, a call it skips, dumps after the next call it makes)
  if ! timeout 60 "$ours" -D $((first - 1)) "$1.trace" >"$1.full.json" 2>"$1.full.err" ||
    ! timeout 60 "$ours" -D $((marker - 1)) "$1.play.trace" >"$1.range.json" \
      2>"$1.range.err"; then
    fail "$1: glretrace -D fails: $(tail -1 "$1.full.err") $(tail -1 "$1.range.err")"
    return
  fi
  if python3 "$check" "$1.full.json" "$1.range.json" "$1.dump" >"$1.check" 2>&1; then
    pass "$1: the state after the snapshot is frame 3's ($(tail -1 "$1.check"))"
  else
    fail "$1: the state after the snapshot differs from frame 3's:" \
      "$(head -8 "$1.check" | tr '\n' ';')"
  fi
}

for variant in "state_app state_app" "state_app_more state_app --textures --fbo" \
  "es2_demo es2_demo" "ff_state_app ff_state_app"; do
  read -r name app args <<<"$variant"
  # shellcheck disable=SC2086
  record "$name" "$app" $args
  [ -s "$name.r.3-4.trace" ] || { fail "$name: no range trace"; continue; }
  playable "$name"
  compare_state "$name"
done
# state_app --textures binds a texture of another target to each of units 1 to 4
snap=$(sed '/glStringMarkerGREMEDY/q' state_app_more.dump)
if grep -A12 'glActiveTexture(texture = GL_TEXTURE4)' <<<"$snap" |
  grep -q 'glBindTexture(target = GL_TEXTURE_1D, texture = [1-9]'; then
  pass "state_app --textures: unit 4's 1D texture bound in the snapshot"
else
  fail "state_app --textures: no 1D texture bound in unit 4 by the snapshot"
fi

# defaults are left out: state_app never changes the depth function or the blending
snap=$(sed '/glStringMarkerGREMEDY/q' state_app.dump)
if grep -q 'glEnable(cap = GL_DEPTH_TEST) // fake' <<<"$snap" &&
  ! grep -q 'glDepthFunc\|glBlendFuncSeparate\|glDisable(' <<<"$snap"; then
  pass "state_app: the snapshot enables the depth test and leaves the defaults out"
else
  fail "state_app: defaults written or the depth test missing: $(grep -c fake <<<"$snap") calls"
fi
# the matrices, lights and materials of ff_state_app, and the modelview last loaded
snap=$(sed '/glStringMarkerGREMEDY/q' ff_state_app.dump)
for want in 'glLightfv(light = GL_LIGHT1, pname = GL_POSITION' \
  'glMatrixMode(mode = GL_PROJECTION)' \
  'glMaterialf(face = GL_FRONT, pname = GL_SHININESS, param = 24)' \
  'glFogi(pname = GL_FOG_MODE, param = GL_LINEAR)'; do
  grep -qF "$want" <<<"$snap" && pass "ff_state_app: the snapshot writes $want" ||
    fail "ff_state_app: no $want in the snapshot"
done

# ff_state_app draws with no object: its range replays to the full recording's frames
snapshots() { # snapshots REPLAYER TRACE DIR: DIR/N.png for the Nth frame
  local i=0 f
  mkdir -p "$3"
  timeout 60 "$1" -s "$3/" "$2" >"$3.log" 2>&1 || fail "$1 $2 exits non-zero: $(tail -2 "$3.log")"
  for f in "$3"/*.png; do
    [ -e "$f" ] && mv "$f" "$3/frame$i.png" && i=$((i + 1))
  done
}
for who in ours api; do
  replayer=$ours
  [ "$who" = api ] && replayer=glretrace
  snapshots "$replayer" ff_state_app.trace "$who-full"
  snapshots "$replayer" ff_state_app.play.trace "$who-range"
  frames="0 1"
  [ "$who" = api ] && frames=1
  for f in $frames; do
    if python3 "$compare_png" "$who-full/frame$((f + 3)).png" "$who-range/frame$f.png" \
      >cmp.txt 2>&1; then
      pass "ff_state_app: frame $f of the range replayed by $who == full frame $((f + 3))"
    else
      fail "ff_state_app: frame $f of the range replayed by $who: $(cat cmp.txt)"
    fi
  done
done

it_finish
