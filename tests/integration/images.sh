#!/usr/bin/env bash
# images: `gltrace dump-images` and `gltrace diff-images` beside apitrace's.
#  1. dump-images writes TRACE's name + "." + call number .png per frame in the current
#     folder ("Wrote" lines as apitrace's), -o PREFIX, --call-nos=no, --calls; on a trace
#     both replayers draw alike its images match apitrace dump-images' (diff-images: all
#     MATCH, exit 0).
#  2. diff-images gives apitrace's verdict for each pair (MATCH, MISMATCH, MISSING) and its
#     exit status, on real snapshots (ours against apitrace's glretrace, which draws some
#     first frames differently) and on made-up ones; its difference images are apitrace's
#     within one level per channel.
#  3. The HTML report opens in headless Chromium: the screenshot shows the reference and
#     the source thumbnails side by side (a blue image and the same with a green square)
#     and the difference image's red.
#  4. A damaged PNG is UNREADABLE with its file and offset named, exit 1.
#   usage: images.sh BIN_DIR CORPUS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init images

[ $# -ge 2 ] || die "usage: $0 BIN_DIR CORPUS_DIR"
bin=$(cd "$1" && pwd)
gltrace="$bin/gltrace"
corpus=$(corpus_apitrace_dir "$2")
require_file "$gltrace" "build gltrace first"
require_tool apitrace glretrace python3 timeout Xvfb chromium
start_xvfb
cd "$WORK"

# png.py make OUT W H R G B [X Y S R G B]: a PNG of one colour, with a square of another
# png.py count FILE R G B: pixels of that colour (decoded by tests/apps/compare_png.py)
export APPS_DIR="$here/../apps"
cat >png.py <<'EOF'
import os, struct, sys, zlib

def make(out, w, h, rgb, square=None):
    os.makedirs(os.path.dirname(out) or '.', exist_ok=True)
    rows = []
    for y in range(h):
        row = bytearray()
        for x in range(w):
            c = rgb
            if square and square[0] <= x < square[0] + square[2] and square[1] <= y < square[1] + square[2]:
                c = square[3]
            row += bytes(c)
        rows.append(b'\0' + bytes(row))
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
    open(out, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
                          + chunk(b'IDAT', zlib.compress(b''.join(rows))) + chunk(b'IEND', b''))

def read(path):
    sys.path.insert(0, os.environ['APPS_DIR'])
    from compare_png import decode_png
    w, _, rows = decode_png(path)
    return [r[3 * x:3 * x + 3] for r in rows for x in range(w)]

if sys.argv[1] == 'make':
    a = [int(v) for v in sys.argv[3:]]
    make(sys.argv[2], a[0], a[1], a[2:5], (a[5], a[6], a[7], a[8:11]) if len(a) > 5 else None)
else:
    want = bytes(int(v) for v in sys.argv[3:6])
    print(sum(p == want for p in read(sys.argv[2])))
EOF

verdicts() { sed -n 's/^\([^:]*\): \(MATCH\|MISMATCH\|MISSING\).*/\1 \2/p' | sort; }

# ---- 1. dump-images ----------------------------------------------------------------------------
mkdir -p dflt && (cd dflt && timeout 120 "$gltrace" dump-images "$corpus/glthreads.trace" >out.txt 2>err.txt) || true
if [ "$(ls dflt/*.png | xargs -n1 basename | tr '\n' ' ')" = \
  "glthreads.0000000092.png glthreads.0000000159.png glthreads.0000000239.png " ] &&
  grep -qx 'Wrote glthreads.0000000092.png' dflt/out.txt; then
  pass "dump-images: TRACE.N.png per frame in the current folder, Wrote lines"
else fail "dump-images: wrote $(ls dflt | tr '\n' ' ')"; fi
timeout 120 "$gltrace" dump-images -o seq/ --call-nos=no "$corpus/glthreads.trace" >/dev/null 2>&1 || true
[ "$(ls seq | tr '\n' ' ')" = "0000000000.png 0000000001.png 0000000002.png " ] &&
  pass "dump-images --call-nos=no -o seq/" || fail "dump-images --call-nos=no: $(ls seq | tr '\n' ' ')"
timeout 120 "$gltrace" dump-images -o calls/ --calls=15,25 "$corpus/glthreads.trace" >/dev/null 2>&1 || true
[ "$(ls calls | tr '\n' ' ')" = "0000000015.png 0000000025.png " ] &&
  pass "dump-images --calls=15,25" || fail "dump-images --calls=15,25: $(ls calls | tr '\n' ' ')"
timeout 120 "$gltrace" dump-images -m -o mrt/ --calls=3635 "$corpus/glmark2_shading.trace" >/dev/null 2>&1 || true
[ "$(ls mrt | tr '\n' ' ')" = "0000003635-mrt0.png 0000003635-s.png 0000003635-z.png " ] &&
  pass "dump-images -m: colour, depth and stencil" || fail "dump-images -m: $(ls mrt | tr '\n' ' ')"
timeout 120 "$gltrace" dump-images -o ours/tri. "$corpus/tri_glsl.trace" >/dev/null 2>&1 || true
timeout 120 apitrace dump-images -o theirs/tri. "$corpus/tri_glsl.trace" >/dev/null 2>&1 || true
if timeout 120 "$gltrace" diff-images -o tri.html ours/tri. theirs/tri. >tri.txt 2>&1 &&
  grep -q '^2 images: 2 match' tri.txt; then
  pass "dump-images: tri_glsl's images are apitrace dump-images'"
else fail "dump-images against apitrace's: $(tail -1 tri.txt)"; fi

# ---- 2. diff-images against apitrace diff-images ------------------------------------------------
timeout 120 "$gltrace" dump-images -o real.ours/ "$corpus/glthreads.trace" >/dev/null 2>&1 || true
timeout 120 glretrace -s real.apitrace/ "$corpus/glthreads.trace" >/dev/null 2>&1 || true
python3 png.py make made.ref/a.png 64 48 0 0 255
python3 png.py make made.ref/b.png 64 48 0 0 255
python3 png.py make made.ref/c.png 64 48 0 0 255
python3 png.py make made.src/a.png 64 48 0 0 255
python3 png.py make made.src/b.png 64 48 0 0 255 16 8 24 0 255 0
python3 png.py make made.src/c.png 64 48 3 2 250 # within the default fuzz
python3 png.py make made.src/d.png 64 48 0 0 255 # no reference
for pair in "real.ours real.apitrace" "made.ref made.src"; do
  read -r ref src <<<"$pair"
  cp -r "$src" "$src.apitrace" # each tool writes its difference images beside the source
  set +e
  timeout 120 apitrace diff-images -v -o a.html "$ref/" "$src.apitrace/" >a.txt 2>&1
  arc=$?
  timeout 120 "$gltrace" diff-images -v -o g.html "$ref/" "$src/" >g.txt 2>&1
  grc=$?
  set -e
  # apitrace: "Comparing REF/x.png and SRC/x.png ... VERDICT" for the pairs both have
  sed -n 's/^Comparing \([^ ]*\) and .* \.\.\. \(.*\)/\1 \2/p' a.txt | sed "s|^$ref/||" | sort >a.v
  verdicts <g.txt | grep -v MISSING >g.v || true
  if [ "$arc" -eq "$grc" ]; then pass "diff-images $ref $src: exit $grc, as apitrace's"; else
    fail "diff-images $ref $src: exit $grc, apitrace's $arc"; fi
  if [ -s a.v ]; then
    compare_files "diff-images $ref $src: the verdict of each pair, as apitrace's" a.v g.v
  else fail "diff-images $ref $src: apitrace compared nothing: $(tail -2 a.txt)"; fi
  for d in "$src".apitrace/*.diff.png; do
    [ -e "$d" ] || continue
    python3 "$here/../apps/compare_png.py" "$d" "$src/$(basename "$d")" >cmp.txt 2>&1 || true
    if grep -q ': 0 of .* max channel difference [01]$' cmp.txt; then
      pass "diff-images: $src/$(basename "$d") as apitrace draws it"
    else fail "diff-images: $src/$(basename "$d") differs from apitrace's: $(cat cmp.txt)"; fi
  done
done
grep -q '^d.png: MISSING' g.txt && grep -q '^4 images: 2 match, 1 differ, 1 missing' g.txt &&
  pass "diff-images: the summary counts a match within fuzz, a difference and a missing image" ||
  fail "diff-images summary: $(tail -1 g.txt)"

# ---- 3. the report in Chromium ---------------------------------------------------------------------
timeout 120 "$gltrace" diff-images -o report/index.html made.ref/ made.src/ >/dev/null 2>&1 || true
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1000,800 --screenshot="$WORK/shot.png" "file://$WORK/report/index.html" \
  >chromium.log 2>&1 || true
if [ -s shot.png ]; then
  blue=$(python3 png.py count shot.png 0 0 255)
  green=$(python3 png.py count shot.png 0 255 0)
  echo "    note: screenshot: $blue blue pixels, $green green" >&2
  # b.png's row: two 64x48 thumbnails, the second with a 24x24 green square
  if [ "$blue" -ge $((2 * 64 * 48 - 24 * 24 - 200)) ] && [ "$green" -ge $((24 * 24 - 50)) ]; then
    pass "the report in headless Chromium shows both thumbnails side by side"
  else fail "the report's screenshot: $blue blue, $green green pixels"; fi
  red=$(python3 - shot.png <<'EOF'
import sys
sys.argv = ['png.py', 'count'] + sys.argv[1:]
exec(open('png.py').read().split("if sys.argv[1] == 'make':")[0])
print(sum(1 for p in read(sys.argv[2]) if p[0] > 200 and p[1] < 60 and p[2] < 60))
EOF
)
  [ "$red" -ge 24 ] && pass "the report shows the differing pixels in red ($red)" ||
    fail "the report shows no red difference ($red)"
else
  fail "headless Chromium wrote no screenshot: $(tail -3 chromium.log)"
fi

# ---- 4. damaged input --------------------------------------------------------------------------------
mkdir -p bad.ref bad.src
cp made.ref/a.png bad.ref/a.png
head -c 60 made.ref/a.png >bad.src/a.png
set +e
timeout 60 "$gltrace" diff-images -o bad.html bad.ref/ bad.src/ >bad.txt 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] && grep -q 'a.png: UNREADABLE: bad.src/a.png: offset [0-9]*' bad.txt &&
  pass "diff-images: a cut PNG is UNREADABLE, file and offset named, exit 1" ||
  fail "diff-images: a cut PNG: exit $rc: $(head -2 bad.txt)"
set +e
timeout 60 "$gltrace" dump-images "$WORK/no-such.trace" >/dev/null 2>dump.err
rc=$?
set -e
[ "$rc" -eq 1 ] && grep -q 'no-such.trace' dump.err && pass "dump-images: a missing trace, exit 1" ||
  fail "dump-images: a missing trace: exit $rc"

it_finish
