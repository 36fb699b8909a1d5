#!/usr/bin/env bash
# snapshot_objects: the state snapshot's data objects (buffers, textures, renderbuffers,
# samplers) at a frame range's start, under our own Xvfb (Mesa llvmpipe).
#   usage: snapshot_objects.sh BIN_DIR
# Checks:
#   - snapshot_textures_app (textures of every kind made before frame 0: 1D, 2D array
#     with mipmaps, cube map, immutable 3D and 2D, RGTC1, rectangle, cube map array,
#     buffer texture, RGBA32F with a border colour, depth; a sampler; a colour
#     renderbuffer; a persistent coherent map written every frame; everything else made
#     again in each frame; pixel-store state and bindings left between frames, which the
#     program checks at each frame's start: it exits 1 if the snapshot changed them):
#     the range recording runs clean; the range trace of frames 3-5 says nothing is
#     left out, holds each kind of call that re-creates them, `apitrace dump` reads it,
#     and it replays in our glretrace and apitrace's (neither reporting a GL error in
#     the snapshot's calls) to the same pixels as those frames of a full recording
#     replayed by the same replayer, and in ours to the program's own frames (--save).
#     apitrace's glretrace draws the first frame after it makes its window into a 32x32
#     buffer with this driver (its full replays' frame 0 too, see frame_ranges.sh): its
#     comparison starts at the range's second frame;
#   - the same with --multisample (multisample textures, immutable and not, sRGB, an
#     array, depth and integer ones, and a renderbuffer, painted with a value per sample before
#     frame 0 and read one sample per texel in every frame): the snapshot says nothing is
#     left out (stderr, no gltrace.snapshot.unreadable property), writes their storage and
#     the draws of their samples, and the range replays in both replayers, without a GL
#     error in the snapshot, to the full recording's frames, in ours to the program's own
#     frames too (a snapshot without the samples differs in about 10% of the pixels);
#   - es_ms_app (GLES 3.2 on EGL: multisample textures, an array and an unsigned
#     integer one, and a renderbuffer, a value per sample, read one sample per texel in
#     every frame): nothing left out, and the range replays in both replayers to the full
#     recording's frames;
#   - map_app (buffers mapped before the range: persistent coherent, persistent with
#     explicit flushes, neither): the range trace's calls after the snapshot are the
#     full recording's calls of the same frames, the fake memcpy calls through those
#     maps included (only a snapshot that maps them again makes the recorder write them);
#   - es2_demo (GLES on EGL, where buffers are read through read maps and textures through
#     a framebuffer): the snapshot's buffer data and texture image are byte for byte the
#     program's uploads (apitrace dump --blobs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init snapshot_objects

require_recorder "$@"
require_tool apitrace glretrace Xvfb python3 timeout
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"
ours="$bin/glretrace"
tex_app="$bin/snapshot_textures_app"
require_file "$tex_app" "tests/apps needs the x11 and gl dev packages"
require_file "$bin/map_app"
require_file "$bin/es_ms_app"
start_xvfb
cd "$WORK"

# record_only NAME FIRST LAST FRAMES APP [ARGS...]: NAME.full.trace and NAME.FIRST-LAST.trace
# (the program exits 0: no GL error in any frame, the range's first included)
record_only() {
  local name=$1 first=$2 last=$3 frames=$4 app=$5
  shift 5
  "$gltrace" -o "$name.full.trace" --backtrace=none -- "$app" "$@" --frames "$frames" \
    >/dev/null 2>"$name.full.log" || fail "$name: the full recording fails: $(tail -2 "$name.full.log")"
  "$gltrace" -o "$name.trace" --backtrace=none --frames="$first-$last" -- "$app" "$@" \
    --frames "$frames" >/dev/null 2>"$name.range.log" ||
    fail "$name: the range recording fails: $(tail -2 "$name.range.log")"
  if [ ! -s "$name.$first-$last.trace" ]; then
    fail "$name: no $name.$first-$last.trace: $(tail -3 "$name.range.log")"
    return 1
  fi
}

# record NAME FIRST LAST FRAMES APP [ARGS...]: record_only, and the snapshot read all
record() {
  record_only "$@" || return 1
  local name=$1
  if grep -q "state snapshot:" "$name.range.log"; then
    fail "$name: the snapshot says it left things out: $(grep "state snapshot:" "$name.range.log" | head -3)"
  else
    pass "$name: the snapshot reads back everything"
  fi
}

# snapshot_calls TRACE: the snapshot's calls (before its end marker), names only
snapshot_calls() {
  "$gltrace" dump --color=never --call-nos=no "$1" | grep -v '^// ' |
    awk '/gltrace: end of the state snapshot/ { stop = 1 } !stop' | sed -E 's/\(.*//' | sort -u
}

# snapshot_clean NAME TRACE LOG...: the replays logged no GL error or warning for a call
# of the snapshot (the calls before its end marker)
snapshot_clean() {
  local name=$1 tr=$2 end bad
  shift 2
  end=$("$gltrace" dump --color=never "$tr" |
    awk '/gltrace: end of the state snapshot/ && !n { n = $1 } END { print n }')
  bad=$(awk -v end="$end" -F: '$1 ~ /^[0-9]+$/ && $1 + 0 < end + 0 && n++ < 3' "$@")
  [ -n "$end" ] && [ -z "$bad" ] && pass "$name: both replayers run the snapshot without a GL error" ||
    fail "$name: snapshot end call '$end'; $bad"
}

# both_replays NAME LABEL: NAME.3-5.trace replays to frames 3-5 of NAME.full.trace in our
# glretrace (into NAME.range.ours) and, from frame 4 (its first frame is drawn at 32x32),
# in apitrace's, and both run its snapshot without a GL error
both_replays() {
  local name=$1 label=$2 who rep from whose
  for who in ours api; do
    rep=$ours from=3 whose=our
    [ "$who" = api ] && rep=glretrace from=4 whose="apitrace's"
    replay_frames "$rep" "$name.full.trace" "$name.full.$who"
    replay_frames "$rep" "$name.3-5.trace" "$name.range.$who"
    same_frames "$label: $whose replay of the range vs of the full recording" \
      "$name.full.$who" "$name.range.$who" "$from" 5 3
  done
  snapshot_clean "$name" "$name.3-5.trace" "$name.range.ours.log" "$name.range.api.log"
}

# ---- textures, renderbuffer, sampler, coherent map -------------------------------------
if record tex 3 5 6 "$tex_app"; then
  tr=tex.3-5.trace
  snapshot_calls "$tr" >tex.calls
  missing=""
  for fn in glBufferStorage glMapBufferRange glTexImage1D glTexImage2D glTexImage3D \
    glTexStorage2D glTexStorage3D glTexSubImage3D glCompressedTexImage2D glTexBuffer \
    glTexParameterfv glRenderbufferStorage glBlitFramebuffer glGenSamplers glSamplerParameteri; do
    grep -qx "$fn" tex.calls || missing="$missing $fn"
  done
  [ -z "$missing" ] && pass "the snapshot re-creates each kind of object" ||
    fail "the snapshot lacks:$missing"
  timeout 60 apitrace dump "$tr" >tex.apitrace.txt 2>&1 &&
    grep -q "gltrace: end of the state snapshot" tex.apitrace.txt &&
    pass "apitrace dump reads the range trace" ||
    fail "apitrace dump: $(tail -2 tex.apitrace.txt)"
  mkdir -p app
  "$tex_app" --frames 6 --save app/ >/dev/null 2>app.log || fail "the app's own frames: $(cat app.log)"
  replay_frames "$ours" tex.full.trace full.ours
  replay_frames "$ours" "$tr" range.ours
  same_frames "our replay of the range vs of the full recording" full.ours range.ours 3 5 3
  same_frames "our replay of the range vs the program's frames" app range.ours 3 5 3
  replay_frames glretrace tex.full.trace full.api
  replay_frames glretrace "$tr" range.api
  same_frames "apitrace's replay of the range vs of the full recording" full.api range.api 4 5 3
  snapshot_clean tex "$tr" range.ours.log range.api.log
fi

# ---- multisample: every sample read back and written --------------------------------
if record ms 3 5 6 "$tex_app" --multisample; then
  prop=$("$gltrace" dump --color=never ms.3-5.trace | grep '^// gltrace.snapshot.unreadable' || true)
  [ -z "$prop" ] && pass "multisample: no gltrace.snapshot.unreadable property" ||
    fail "multisample: property: $prop"
  snapshot_calls ms.3-5.trace >ms.calls
  missing=""
  for fn in glTexStorage2DMultisample glTexImage2DMultisample glTexImage3DMultisample \
    glRenderbufferStorageMultisample glTexImage3D glDrawArrays glDeleteProgram; do
    grep -qx "$fn" ms.calls || missing="$missing $fn"
  done
  [ -z "$missing" ] && pass "multisample: the storage and the samples' draws are written" ||
    fail "multisample: the snapshot lacks:$missing"
  both_replays ms multisample
  mkdir -p ms.app
  "$tex_app" --multisample --frames 6 --save ms.app/ >/dev/null 2>ms.app.log ||
    fail "multisample: the app's own frames: $(cat ms.app.log)"
  same_frames "multisample: our replay of the range vs the program's frames" ms.app \
    ms.range.ours 3 5 3
fi

# ---- GLES 3.2 multisample: samples read through a compute shader and a read map -------
if record esms 3 5 6 "$bin/es_ms_app"; then
  both_replays esms es_ms_app
fi

# ---- buffers mapped before the range ---------------------------------------------------
# calls_after_snapshot TRACE [DUMP OPTIONS]: calls without numbers, heap addresses as 0xADDR
calls_of() {
  "$gltrace" dump --color=never --call-nos=no "$@" | grep -v '^// ' |
    sed -E 's/0x[0-9a-f]{8,}/0xADDR/g' || true
}
if record map 4 6 8 "$bin/map_app"; then
  calls_of --frames=4-6 map.full.trace >map.want
  calls_of map.4-6.trace | sed -n '/gltrace: end of the state snapshot/,$p' | tail -n +2 >map.got
  n=$(grep -c '^memcpy' map.want || true)
  if [ "$n" -gt 0 ] && cmp -s map.want map.got; then
    pass "map_app: the range's calls are the full recording's frames 4-6 ($n memcpy through maps)"
  else
    fail "map_app: calls after the snapshot differ ($n memcpy wanted): $(first_diff map.want map.got)"
  fi
  grep -q '^glMapBufferRange.*GL_MAP_PERSISTENT_BIT.*// fake' <(calls_of map.4-6.trace) &&
    pass "map_app: the snapshot maps the persistent buffers again" ||
    fail "map_app: no fake glMapBufferRange in the snapshot"
fi

# ---- GLES: contents read through read maps and a framebuffer --------------------------
# upload_calls TRACE: call numbers of the buffer uploads and 2D level-0 texture images,
# before the snapshot's end marker where there is one (not the window's contents, which
# the snapshot writes as a 320x240 image: snap_default_fb.c)
upload_calls() {
  "$gltrace" dump --color=never "$1" | awk '/gltrace: end of the state snapshot/ { stop = 1 } !stop' |
    grep -E '^[0-9]+ (glBufferData|glTexImage2D\(target = GL_TEXTURE_2D, level = 0,)' |
    grep -v 'width = 320, height = 240' | cut -d' ' -f1 || true
}
if record es2 4 6 8 "$bin/es2_demo"; then
  mkdir -p es2.full.blobs es2.range.blobs
  (cd es2.full.blobs && timeout 60 apitrace dump --blobs ../es2.full.trace >/dev/null 2>&1) || true
  (cd es2.range.blobs && timeout 60 apitrace dump --blobs ../es2.4-6.trace >/dev/null 2>&1) || true
  mapfile -t want < <(upload_calls es2.full.trace)
  mapfile -t got < <(upload_calls es2.4-6.trace)
  bad=""
  [ "${#want[@]}" -gt 1 ] && [ "${#want[@]}" = "${#got[@]}" ] || bad="${#want[@]} uploads, ${#got[@]} in the snapshot"
  for ((i = 0; i < ${#want[@]}; i++)); do
    [ -z "$bad" ] || break
    cmp -s "es2.full.blobs/blob_call${want[$i]}.bin" "es2.range.blobs/blob_call${got[$i]}.bin" ||
      bad="call ${want[$i]}'s data differs from the snapshot's call ${got[$i]}"
  done
  [ -z "$bad" ] && pass "es2_demo: the snapshot's buffers and texture hold the program's uploads" ||
    fail "es2_demo: $bad"
fi

it_finish
