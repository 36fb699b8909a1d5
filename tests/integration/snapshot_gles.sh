#!/usr/bin/env bash
# snapshot_gles: a frame range's state snapshot of a GLES 2.0 and a GLES 3.0 context,
# neither of which can ask the driver a texture's images (glGetTexLevelParameteriv is
# GLES 3.1's) nor read a compressed one back (no GLES has glGetCompressedTexImage), under
# our own Xvfb (Mesa llvmpipe, MESA_GLES_VERSION_OVERRIDE giving the real ES 2.0 / 3.0
# context the program asks for).
#   usage: snapshot_gles.sh BIN_DIR
# es2_demo --textures makes before frame 0, and only samples in its frames: a mipmapped
# RGBA texture (glGenerateMipmap), an RGB texture whose 5 levels are each uploaded, an
# ETC1 texture of 2 levels (glCompressedTexImage2D), an RGBA cube map (6 faces, one
# updated in part), RGB 5:6:5 and RGBA 4:4:4:4 textures, a luminance texture never
# sampled, and on GLES 3 an ETC2 texture whose middle is uploaded again by
# glCompressedTexSubImage2D (the kept upload patched block by block) and immutable
# RGBA8 (3 levels) and ETC2 (uploaded in four quarters) textures. For each version,
# recorded in full and as --frames=3-5:
#   - the range recording says (stderr, and the trace's gltrace.snapshot.unreadable
#     property) that it left out the luminance texture's contents, and no other texture;
#   - the snapshot writes each level the program made: 6 + 5 + 6 glTexImage2D (GLES 2:
#     the program's own unsized format and type), 2 glCompressedTexImage2D of
#     GL_ETC1_RGB8_OES, on GLES 3 one glCompressedTexImage2D of the whole ETC2 image, the
#     16-bit packed and BGRA textures in their own types, on GLES 3 the immutable ones
#     as glTexStorage2D and whole sub-images; the ETC1, packed and BGRA images hold the
#     program's bytes (apitrace dump --blobs);
#   - the range replays in our glretrace to the full recording's frames 3-5, and in
#     apitrace's glretrace to its replay of the full recording from the range's second
#     frame (the first frame after apitrace makes its window is drawn at 32x32), with
#     tolerance 0.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init snapshot_gles

require_recorder "$@"
require_tool apitrace glretrace Xvfb python3 timeout
require_file "$here/../apps/compare_png.py"
require_file "$bin/es2_demo" "tests/apps needs the x11, egl and glesv2 dev packages"
ours="$bin/glretrace"
start_xvfb
cd "$WORK"

# snapshot_of TRACE: the snapshot's calls (up to its end marker)
snapshot_of() {
  "$gltrace" dump --color=never "$1" | awk '/gltrace: end of the state snapshot/ { stop = 1 } !stop'
}

# blobs NAME TRACE PATTERN: the data of TRACE's calls matching PATTERN (in the snapshot,
# or all of them) as NAME.N files, N from 0
blobs() {
  local name=$1 tr=$2 i=0 n
  mkdir -p "$name.blobs"
  (cd "$name.blobs" && timeout 60 apitrace dump --blobs "../$tr" >/dev/null 2>&1) || true
  for n in $(snapshot_of "$tr" | grep -E "^[0-9]+ $3" | cut -d' ' -f1); do
    cp "$name.blobs/blob_call$n.bin" "$name.$i" 2>/dev/null || true
    i=$((i + 1))
  done
}

# same_blobs WHAT FULL RANGE PATTERN N: the snapshot's N calls matching PATTERN hold the
# data of the full recording's
same_blobs() {
  local i bad=""
  blobs "$2" "$2.trace" "$4"
  blobs "$3" "$3.trace" "$4"
  for ((i = 0; i < $5; i++)); do
    [ -s "$2.$i" ] && cmp -s "$2.$i" "$3.$i" || bad="$bad $i"
  done
  [ -z "$bad" ] && pass "$1: the snapshot's images are the program's uploads" ||
    fail "$1: the snapshot's data differs from the program's uploads (calls$bad)"
}

for version in 2.0 3.0; do
  export MESA_GLES_VERSION_OVERRIDE=$version
  v=es$version
  "$gltrace" -o "$v.full.trace" --backtrace=none -- "$bin/es2_demo" --textures --frames 6 \
    >/dev/null 2>"$v.full.log" || { fail "$v: the full recording fails: $(tail -2 "$v.full.log")"; continue; }
  "$gltrace" -o "$v.trace" --backtrace=none --frames=3-5 -- "$bin/es2_demo" --textures \
    --frames 6 >/dev/null 2>"$v.range.log" ||
    { fail "$v: the range recording fails: $(tail -2 "$v.range.log")"; continue; }
  tr=$v.3-5.trace
  [ -s "$tr" ] || { fail "$v: no $tr: $(tail -3 "$v.range.log")"; continue; }

  # only the luminance texture said to be left out, and why
  prop=$("$gltrace" dump --color=never "$tr" | grep '^// gltrace.snapshot.unreadable' || true)
  lum='level 0: luminance and alpha formats are not colour-renderable on GLES, contents not read'
  said=$(grep 'state snapshot: texture' "$v.range.log" || true)
  if [ "$(wc -l <<<"$said")" = 1 ] && grep -q "$lum" <<<"$said" &&
    [ "$(grep -o 'texture [0-9]' <<<"$prop" | wc -l)" = 1 ] && grep -q "$lum" <<<"$prop"; then
    pass "$v: the snapshot leaves out only the luminance texture's contents, and says so"
  else
    fail "$v: textures said to be left out: $said; $prop"
  fi

  # each level the program made, in its own format
  snapshot_of "$tr" >"$v.snap"
  rgba=$(grep -c 'glTexImage2D(target = GL_TEXTURE_2D, level = [0-5], internalformat = GL_RGBA, width = \(32\|16\|8\|4\|2\|1\), .*format = GL_RGBA, type = GL_UNSIGNED_BYTE, pixels = blob' "$v.snap" || true)
  rgb=$(grep -c 'glTexImage2D(target = GL_TEXTURE_2D, level = [0-4], internalformat = GL_RGB, .*format = GL_RGB, type = GL_UNSIGNED_BYTE, pixels = blob' "$v.snap" || true)
  faces=$(grep -c 'glTexImage2D(target = GL_TEXTURE_CUBE_MAP_\(POSI\|NEGA\)TIVE_[XYZ], level = 0, internalformat = GL_RGBA, width = 8, .*pixels = blob' "$v.snap" || true)
  etc1=$(grep -c 'glCompressedTexImage2D(target = GL_TEXTURE_2D, level = [01], internalformat = GL_ETC1_RGB8_OES, .*data = blob' "$v.snap" || true)
  etc2=$(grep -c 'glCompressedTexImage2D(target = GL_TEXTURE_2D, level = 0, internalformat = GL_COMPRESSED_RGB8_ETC2, width = 16, .*data = blob(128)' "$v.snap" || true)
  want_etc2=1
  [ "$version" = 2.0 ] && want_etc2=0
  [ "$rgba" = 6 ] && [ "$rgb" = 5 ] && [ "$faces" = 6 ] && [ "$etc1" = 2 ] && [ "$etc2" = "$want_etc2" ] &&
    pass "$v: the snapshot writes every image with its contents (6 RGBA, 5 RGB, 6 faces, 2 ETC1, $want_etc2 ETC2)" ||
    fail "$v: images with contents in the snapshot: $rgba RGBA (6), $rgb RGB (5), $faces faces (6), $etc1 ETC1 (2), $etc2 ETC2 ($want_etc2)"

  packed=$(grep -c 'glTexImage2D(target = GL_TEXTURE_2D, level = 0, internalformat = GL_RGBA\?, width = 8, height = 8, border = 0, format = GL_RGBA\?, type = GL_UNSIGNED_SHORT_\(5_6_5\|4_4_4_4\), pixels = blob(128)' "$v.snap" || true)
  [ "$packed" = 2 ] && pass "$v: the 5:6:5 and 4:4:4:4 textures are written in their own types" ||
    fail "$v: $packed of the 16-bit packed textures written with contents (2)"

  # GLES 3: immutable storage, filled by sub-images (the ETC2 one patched from quarters)
  if [ "$version" != 2.0 ]; then
    grep -q 'glTexStorage2D(target = GL_TEXTURE_2D, levels = 3, internalformat = GL_RGBA8, width = 8,' "$v.snap" &&
      [ "$(grep -c 'glTexSubImage2D(target = GL_TEXTURE_2D, level = [012], xoffset = 0, yoffset = 0, width = \(8\|4\|2\), .*GL_UNSIGNED_BYTE, pixels = blob' "$v.snap")" = 3 ] &&
      grep -q 'glTexStorage2D(target = GL_TEXTURE_2D, levels = 1, internalformat = GL_COMPRESSED_RGB8_ETC2, width = 16' "$v.snap" &&
      grep -q 'glCompressedTexSubImage2D(target = GL_TEXTURE_2D, level = 0, xoffset = 0, yoffset = 0, width = 16, height = 16, .*data = blob(128)' "$v.snap" &&
      pass "$v: immutable RGBA8 and ETC2 textures written as storage and whole images" ||
      fail "$v: the immutable textures' storage or images are missing from the snapshot"
  fi

  # a BGRA texture (GL_EXT_texture_format_BGRA8888: Mesa has it), swapped back
  bgra_want=$(grep -c 'glTexImage2D(.*internalformat = GL_BGRA\(_EXT\)\?,' <("$gltrace" dump --color=never "$v.full.trace") || true)
  bgra=$(grep -c 'glTexImage2D(target = GL_TEXTURE_2D, level = 0, internalformat = GL_BGRA\(_EXT\)\?, .*format = GL_BGRA\(_EXT\)\?, type = GL_UNSIGNED_BYTE, pixels = blob(256)' "$v.snap" || true)
  [ "$bgra_want" -ge 1 ] && [ "$bgra" = "$bgra_want" ] && pass "$v: $bgra BGRA texture(s) written as the program made them" ||
    fail "$v: $bgra of $bgra_want BGRA textures written with contents"

  # the ETC1 and 16-bit packed images hold the program's own bytes
  mv "$tr" "$v.range.trace"
  same_blobs "$v: ETC1" "$v.full" "$v.range" glCompressedTexImage2D 2
  same_blobs "$v: 5:6:5 and 4:4:4:4" "$v.full" "$v.range" 'glTexImage2D.*GL_UNSIGNED_SHORT_' 2
  same_blobs "$v: BGRA" "$v.full" "$v.range" 'glTexImage2D.*internalformat = GL_BGRA' "$bgra_want"
  tr=$v.range.trace

  # the range replays to the full recording's frames, in both replayers
  replay_frames "$ours" "$v.full.trace" "$v.full.ours"
  replay_frames "$ours" "$tr" "$v.range.ours"
  same_frames "$v: our replay of the range vs of the full recording" "$v.full.ours" \
    "$v.range.ours" 3 5 3
  replay_frames glretrace "$v.full.trace" "$v.full.api"
  replay_frames glretrace "$tr" "$v.range.api"
  same_frames "$v: apitrace's replay of the range vs of the full recording" "$v.full.api" \
    "$v.range.api" 4 5 3
done

it_finish
