#!/usr/bin/env bash
# retrace_options: glretrace's options beyond replaying, as apitrace's glretrace has them.
#  - `-s -` writes snapshots to stdout: PNM (P6, a comment with the call number, or the
#    snapshot's number with --call-nos=no), raw RGB or MD5 lines, in apitrace's layout
#    (the same headers as apitrace's glretrace for the same trace, and, for a trace both
#    replayers draw alike, the same MD5 lines); our PNM images are our PNG snapshots and
#    our MD5 lines digest our PNM images; no summary line among the images.
#  - --call-nos=no names PNG snapshots 0, 1, 2...; --snapshot-alpha writes RGBA PNGs;
#    --snapshot-interval=3 takes frames 0, 3, 6... (as apitrace's glretrace).
#  - --sb replays single-buffered (snapshots from the front buffer) to the same images.
#  - --ignore-calls skips calls (glxdemo without its glRectf is all clear colour).
#  - --min-frame-duration makes frames last at least that long (a lower bound only).
#  - -w keeps the window until it is closed (SIGINT, as a window manager's close does
#    through SDL), then exits 0; headless it returns at once.
#  - --pframe-times prints apitrace's lines (every call with zero times, frame_end),
#    each frame end followed by a rendering_finished time that never decreases.
#  - -m writes what apitrace's -m writes: the same files (-mrtI per colour buffer drawn to,
#    -z depth, -s stencil) with the same pixels, for a GLX window, an FBO and GLES.
#   usage: retrace_options.sh BIN_DIR CORPUS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init retrace_options

it_bin_corpus "$@"
ours="$bin/glretrace"
require_file "$ours" "build glretrace first"
require_tool apitrace glretrace python3 timeout Xvfb
start_xvfb

# pnm_tool CMD FILE...: headers | md5 | rgb | yellow PNM | png-equal PNM PNG_DIR | png-type PNG
export APPS_DIR="$here/../apps" # compare_png.py decodes PNGs
pnm_tool() {
  python3 - "$@" <<'EOF'
import hashlib, os, re, sys

def frames(data):
    """(header, rgb) of each P6 image in a PNM stream."""
    out, i = [], 0
    while i < len(data):
        m = re.match(rb'P6\n(#[^\n]*\n)?(\d+) (\d+)\n255\n', data[i:])
        if not m:
            sys.exit('not a P6 image at byte %d' % i)
        w, h = int(m.group(2)), int(m.group(3))
        start = i + m.end()
        out.append((m.group(0), data[start:start + w * h * 3]))
        i = start + w * h * 3
    return out

def png_rgb(path):
    """The RGB rows, top first, and the PNG's colour type (6: RGBA)."""
    sys.path.insert(0, os.environ['APPS_DIR'])
    from compare_png import decode_png
    _, _, rows = decode_png(path)
    return b''.join(rows), open(path, 'rb').read()[25]

cmd = sys.argv[1]
if cmd == 'headers':
    for hdr, _ in frames(open(sys.argv[2], 'rb').read()):
        print(hdr.decode().replace('\n', ' '))
elif cmd == 'md5':
    for _, rgb in frames(open(sys.argv[2], 'rb').read()):
        print(hashlib.md5(rgb).hexdigest().upper())
elif cmd == 'rgb':
    for _, rgb in frames(open(sys.argv[2], 'rb').read()):
        sys.stdout.buffer.write(rgb)
elif cmd == 'png-equal':  # PNM stream, PNG folder: same images in order
    pngs = sorted(p for p in os.listdir(sys.argv[3]) if p.endswith('.png'))
    fs = frames(open(sys.argv[2], 'rb').read())
    if len(pngs) != len(fs):
        sys.exit('%d PNM images, %d PNGs' % (len(fs), len(pngs)))
    for (_, rgb), p in zip(fs, pngs):
        if png_rgb(os.path.join(sys.argv[3], p))[0] != rgb:
            sys.exit('%s differs from its PNM image' % p)
elif cmd == 'png-type':
    print(png_rgb(sys.argv[2])[1])
elif cmd == 'yellow':  # pixels of glxdemo's yellow rectangle in a PNM stream
    print(sum(rgb[i:i + 3] == b'\xff\xff\x00' for _, rgb in frames(open(sys.argv[2], 'rb').read())
              for i in range(0, len(rgb), 3)))
EOF
}

# run_ours OUT ARGS...: our glretrace with ARGS, stdout to OUT; a failure (exit status, a
# sanitizer's report) is a test failure that shows its stderr, never the end of the test
run_ours() {
  local out=$1 rc
  shift
  set +e
  timeout 120 "$ours" "$@" >"$out" 2>"$WORK/ours.err"
  rc=$?
  set -e
  [ "$rc" -eq 0 ] && return 0
  fail "glretrace $*: exit $rc"
  tail -5 "$WORK/ours.err" | sed 's/^/    /'
  return 0
}

# ---- -s -: PNM, RGB, MD5 ------------------------------------------------------------------
# (glxgears: its first 20 frames, to call 1700)
for name in glxgears tri_glsl glxdemo; do
  t="$corpus/$name.trace"
  limit=()
  [ "$name" = glxgears ] && limit=(-S 0-1700/frame)
  run_ours "$WORK/g.pnm" "${limit[@]}" -s - "$t"
  timeout 120 glretrace "${limit[@]}" -s - "$t" >"$WORK/a.pnm" 2>/dev/null || true
  compare_files "$name: -s - PNM headers as apitrace's" <(pnm_tool headers "$WORK/a.pnm") \
    <(pnm_tool headers "$WORK/g.pnm")
  if grep -aq '^Rendered' "$WORK/g.pnm"; then fail "$name: the summary line among the images"; else
    pass "$name: no summary line among the images"; fi
  rm -rf "$WORK/png"
  run_ours /dev/null "${limit[@]}" -s "$WORK/png/" "$t"
  if err=$(pnm_tool png-equal "$WORK/g.pnm" "$WORK/png" 2>&1); then
    pass "$name: PNM images are the PNG snapshots"
  else fail "$name: PNM against PNG: $err"; fi
  run_ours "$WORK/g.md5" "${limit[@]}" -s - --snapshot-format=MD5 "$t"
  compare_files "$name: MD5 lines digest the PNM images" <(pnm_tool md5 "$WORK/g.pnm") "$WORK/g.md5"
  run_ours "$WORK/g.rgb" "${limit[@]}" -s - --snapshot-format=RGB "$t"
  compare_files "$name: RGB is the PNM images' rows" <(pnm_tool rgb "$WORK/g.pnm") "$WORK/g.rgb"
  run_ours "$WORK/seq.pnm" "${limit[@]}" -s - --call-nos=no "$t"
  n=$(pnm_tool headers "$WORK/seq.pnm" | awk '{ print $2 }' | tr '\n' ' ') || true
  expected=$(pnm_tool headers "$WORK/seq.pnm" | awk '{ printf "#%d ", NR - 1 }') || true
  [ "$n" = "$expected" ] && pass "$name: --call-nos=no numbers images 0, 1, ..." ||
    fail "$name: --call-nos=no comments: $n"
done
# tri_glsl: a trace both replayers draw alike (glxdemo's first frame, apitrace's is black)
run_ours "$WORK/g.md5" -s - --snapshot-format=MD5 "$corpus/tri_glsl.trace"
for try in 1 2; do # apitrace's glretrace has been seen to fail now and then under load
  timeout 120 glretrace -s - --snapshot-format=MD5 "$corpus/tri_glsl.trace" >"$WORK/a.md5" 2>/dev/null || true
  cmp -s "$WORK/a.md5" "$WORK/g.md5" && break
  [ "$try" -eq 1 ] && echo "    note: apitrace's glretrace: other MD5 lines on the first try" >&2
done
compare_files "tri_glsl: MD5 lines as apitrace's glretrace prints them" "$WORK/a.md5" "$WORK/g.md5"

# --snapshot-interval=3: frames 0, 3, 6, ... (apitrace's glretrace draws glxgears' first
# frame otherwise: its later ones are compared)
run_ours "$WORK/all.md5" -s - --snapshot-format=MD5 "$corpus/glxgears.trace"
run_ours "$WORK/int.md5" -s - --snapshot-format=MD5 --snapshot-interval=3 "$corpus/glxgears.trace"
compare_files "--snapshot-interval=3: every third frame's snapshot" \
  <(awk 'NR % 3 == 1' "$WORK/all.md5") "$WORK/int.md5"
timeout 120 glretrace -s - --snapshot-format=MD5 --snapshot-interval=3 "$corpus/glxgears.trace" \
  2>/dev/null | sed -n 2,40p >"$WORK/a.int.md5" || true
compare_files "--snapshot-interval=3: as apitrace's glretrace (its frames 3 to 117)" "$WORK/a.int.md5" \
  <(sed -n 2,40p "$WORK/int.md5")

# ---- file names, alpha, --sb, --ignore-calls ---------------------------------------------------
t="$corpus/glxgears.trace"
rm -rf "$WORK/seq"
run_ours /dev/null -s "$WORK/seq/" --call-nos=no -S 1-400 "$t"
first=$(ls "$WORK/seq" 2>/dev/null | head -2 | tr '\n' ' ') || true
[ "$first" = "0000000000.png 0000000001.png " ] && pass "--call-nos=no: PNGs named 0, 1, ..." ||
  fail "--call-nos=no: PNGs named $first"
rm -rf "$WORK/alpha"
run_ours /dev/null -s "$WORK/alpha/" --snapshot-alpha "$corpus/glxdemo.trace"
[ "$(pnm_tool png-type "$(ls "$WORK"/alpha/*.png | head -1)" 2>/dev/null)" = 6 ] &&
  pass "--snapshot-alpha: RGBA PNG" || fail "--snapshot-alpha: not an RGBA PNG"
for name in glxdemo glxgears; do
  run_ours "$WORK/sb.md5" --sb -s - --snapshot-format=MD5 "$corpus/$name.trace"
  run_ours "$WORK/db.md5" -s - --snapshot-format=MD5 "$corpus/$name.trace"
  compare_files "$name: --sb (front buffer) gives the double-buffered images" "$WORK/db.md5" "$WORK/sb.md5"
done
run_ours "$WORK/all.pnm" -s - "$corpus/glxdemo.trace"
run_ours "$WORK/ign.pnm" -s - --ignore-calls=9 "$corpus/glxdemo.trace"
y_all=$(pnm_tool yellow "$WORK/all.pnm") || y_all=0
y_ign=$(pnm_tool yellow "$WORK/ign.pnm") || y_ign=-1
[ "$y_all" -gt 0 ] && [ "$y_ign" -eq 0 ] && pass "--ignore-calls=9: no glRectf drawn" ||
  fail "--ignore-calls=9: yellow pixels $y_all with, $y_ign without"

# ---- pacing and -w -------------------------------------------------------------------------
run_ours "$WORK/paced.out" -b --call-limit=2000 --min-frame-duration=50000 "$t"
secs=$(sed -n 's/^Rendered \([0-9]*\) frames in \([0-9.e+-]*\) secs.*/\1 \2/p' "$WORK/paced.out")
if awk -v s="$secs" 'BEGIN { split(s, a, " "); exit !(a[1] > 5 && a[2] >= a[1] * 0.05 * 0.95) }'; then
  pass "--min-frame-duration=50000: $secs (frames, seconds)"
else fail "--min-frame-duration=50000: frames and seconds $secs"; fi

# --foreground: otherwise timeout passes the SIGINT below on twice, to glretrace and to
# its process group, and the second one, landing once SDL has put back the default
# action at exit, killed glretrace now and then (exit 130)
timeout --foreground 60 "$ours" -w "$corpus/glxdemo.trace" >"$WORK/w.out" 2>"$WORK/w.err" &
wpid=$!
for _ in $(seq 300); do grep -q 'waiting for a window' "$WORK/w.err" && break; sleep 0.1; done
if grep -q 'waiting for a window' "$WORK/w.err" && kill -0 "$wpid" 2>/dev/null; then
  pass "-w: waits with the window shown after the last frame"
  kill -INT "$wpid"
  set +e
  wait "$wpid"
  rc=$?
  set -e
  [ "$rc" -eq 0 ] && grep -q '^Rendered 1 frames' "$WORK/w.out" &&
    pass "-w: closed (SIGINT): exit 0 with the summary" || fail "-w: closed: exit $rc"
else
  fail "-w: did not wait: $(cat "$WORK/w.err")"
  kill "$wpid" 2>/dev/null || true
fi
if timeout 20 "$ours" --headless -w "$corpus/glxdemo.trace" >/dev/null 2>&1; then
  pass "-w --headless: returns at once"
else fail "-w --headless: did not return"; fi

# ---- --pframe-times: apitrace's lines, rendering_finished after each frame end -----------
timeout 120 glretrace --pframe-times "$corpus/glxgears.trace" 2>/dev/null |
  grep -v -e '^rendering_finished' -e '^Rendered' >"$WORK/pft.ref" || true
run_ours "$WORK/pft.out" --pframe-times "$corpus/glxgears.trace"
grep -v -e '^rendering_finished' -e '^Rendered' "$WORK/pft.out" >"$WORK/pft.ours"
frames=$(grep -c '^frame_end' "$WORK/pft.out" || true)
finished=$(grep -c '^rendering_finished' "$WORK/pft.out" || true)
if [ -s "$WORK/pft.ref" ] && cmp -s "$WORK/pft.ref" "$WORK/pft.ours" && [ "$frames" -gt 100 ] &&
   [ "$finished" = "$frames" ] &&
   awk '/^rendering_finished/ { if (p && $2 < p) bad = 1; p = $2 } END { exit bad }' "$WORK/pft.out"; then
  pass "--pframe-times: apitrace's call and frame lines; $finished rendering_finished, increasing"
else
  fail "--pframe-times: $(first_diff "$WORK/pft.ref" "$WORK/pft.ours" 2>/dev/null | head -3); frames $frames, finished $finished"
fi

# ---- -m: every colour buffer drawn to, depth and stencil, as apitrace's -m ----------------
# a window with depth and stencil (GLX), an FBO's colour attachment, GLES (no depth reads)
for tc in glxgears:21544 glmark2_shading:3635 glmark2_desktop:16323 es2gears_x11:10244; do
  tr=${tc%:*} c=${tc#*:}
  ref="$WORK/mrt-ref-$tr/" got="$WORK/mrt-$tr/"
  mkdir -p "$ref" "$got"
  timeout 120 glretrace -m -s "$ref" -S "$c" "$corpus/$tr.trace" >/dev/null 2>&1 || true
  run_ours "$WORK/mrt.out" -m -s "$got" -S "$c" "$corpus/$tr.trace"
  names_ref=$(cd "$ref" && ls | tr '\n' ' ') names_got=$(cd "$got" && ls | tr '\n' ' ')
  if [ -n "$names_ref" ] && [ "$names_ref" = "$names_got" ]; then
    pass "-m $tr: the same files as apitrace's ($names_got)"
  else
    fail "-m $tr: apitrace wrote $names_ref, we wrote $names_got"
  fi
  for f in "$ref"*.png; do
    [ -f "$got$(basename "$f")" ] || continue
    python3 "$APPS_DIR/compare_png.py" "$f" "$got$(basename "$f")" >/dev/null &&
      pass "-m $tr $(basename "$f"): as apitrace's" ||
      fail "-m $tr $(basename "$f"): $(python3 "$APPS_DIR/compare_png.py" "$f" "$got$(basename "$f")")"
  done
done

# ---- --threads: each traced thread on a thread of its own; the same frames and pixels ----
for tr in glthreads glxgears; do
  mkdir -p "$WORK/thr-one-$tr" "$WORK/thr-many-$tr"
  run_ours "$WORK/thr-one.out" --snapshot-interval=100 -s "$WORK/thr-one-$tr/" "$corpus/$tr.trace"
  run_ours "$WORK/thr-many.out" --threads --snapshot-interval=100 -s "$WORK/thr-many-$tr/" \
    "$corpus/$tr.trace"
  one=$(grep -o 'Rendered [0-9]* frames' "$WORK/thr-one.out" || true)
  many=$(grep -o 'Rendered [0-9]* frames' "$WORK/thr-many.out" || true)
  names_one=$(cd "$WORK/thr-one-$tr" && ls | tr '\n' ' ') names_many=$(cd "$WORK/thr-many-$tr" && ls | tr '\n' ' ')
  if [ -n "$one" ] && [ "$one" = "$many" ] && [ -n "$names_one" ] && [ "$names_one" = "$names_many" ]; then
    pass "--threads $tr: $many, the same snapshots"
  else
    fail "--threads $tr: '$many' against '$one', snapshots '$names_many' against '$names_one'"
  fi
  differ=0
  for f in "$WORK/thr-one-$tr"/*.png; do
    [ -f "$f" ] || continue
    python3 "$APPS_DIR/compare_png.py" "$f" "$WORK/thr-many-$tr/$(basename "$f")" >/dev/null ||
      differ=$((differ + 1))
  done
  [ "$differ" -eq 0 ] && pass "--threads $tr: every snapshot equal to the one-thread replay's" ||
    fail "--threads $tr: $differ snapshots differ from the one-thread replay's"
done

it_finish
