#!/usr/bin/env bash
# snapshot_programs: the state snapshot's programs, vertex arrays and framebuffers.
# snapshot_program_app makes its programs (shaders deleted once linked), sets every
# uniform (float, int, uint, bool, vectors, mat2/3/4, arrays, a uniform block binding),
# builds two vertex arrays (an element buffer, a per-instance attribute, a generic
# attribute value) and a framebuffer, all before frame 0; its frames only bind and draw.
# A range that starts later replays right only if the snapshot re-creates all of it.
#   usage: snapshot_programs.sh BIN_DIR
# Checks:
#   - the program runs the same under the range recording: no GL error, its own frames
#     (--save, read back before each swap) equal those of a run under a full recording
#     (the snapshot's reads leave the program's GL state as it was);
#   - the snapshot says nothing is left out; it relinks both programs and writes each
#     uniform the program set (by name), the block binding, both vertex arrays with the
#     divisor, the generic value and the framebuffer's attachments;
#   - `apitrace dump` reads the range trace whole;
#   - the range is the second of two (its snapshot follows the first one's), frame 1
#     alone the first: it replays in ours to the full recording's frame 1;
#   - the range's frames replay in our glretrace and in apitrace's (its first frame
#     aside, see below) to the same pixels as the same frames of the full recording,
#     replayed by the same replayer;
#   - with --queries (a GL_SAMPLES_PASSED query active at every swap, timer queries read
#     two frames later): the snapshot begins the active query again and says its count
#     is lost, and both replayers run the range without a GL error (the range's first
#     glEndQuery needs the query active);
#   - with --pending-error (a GL error pending at every swap, of each kind in turn, which
#     the program reads after it): the program finds them under a range recording (the snapshot's reads
#     take them and raise them again) and the snapshot says no error of its own.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init snapshot_programs

require_recorder "$@"
require_tool apitrace glretrace Xvfb python3 timeout
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"
app="$bin/snapshot_program_app"
require_file "$app" "built with the demo apps"
ours="$bin/glretrace"
start_xvfb
cd "$WORK"

first=3 last=5 frames=7
tr="r.$first-$last.trace"

# ---- recordings: the program's own frames are the same under both -------------------
mkdir -p app.full app.range
"$gltrace" -o full.trace --backtrace=none -- "$app" --frames $frames --save app.full/ \
  >/dev/null 2>full.log || fail "the full recording fails: $(tail -2 full.log)"
"$gltrace" -o r.trace --backtrace=none --frames=1-1,$first-$last -- "$app" --frames $frames \
  --save app.range/ >/dev/null 2>range.log ||
  fail "the range recording fails (a GL error the snapshot caused?): $(tail -2 range.log)"
bad=0
for ((f = 0; f < frames; f++)); do
  png=$(printf '%010u.png' "$f")
  python3 "$compare_png" --tolerance 0 --max-fraction 0 "app.full/$png" "app.range/$png" \
    >cmp.txt 2>&1 || { fail "the program's frame $f differs under the range recording: $(cat cmp.txt)"; bad=1; }
done
[ "$bad" = 1 ] || pass "the program draws the same $frames frames under both recordings"
[ -s "$tr" ] || die "no $tr: $(tail -3 range.log)"

if grep -q "state snapshot:" range.log; then
  fail "the snapshot says it left things out: $(grep "state snapshot:" range.log | head -3)"
else
  pass "the snapshot reads back everything"
fi

# ---- what the snapshot wrote --------------------------------------------------------
"$gltrace" dump --color=never --call-nos=no "$tr" >dump.txt
sed -n '/gltrace: end of the state snapshot/q;p' dump.txt >snap.txt
n=$(grep -c '^glLinkProgram(.*// fake' snap.txt || true)
[ "$n" = 2 ] && pass "the snapshot relinks both programs" || fail "$n fake glLinkProgram calls"
missing=""
for u in u_scale u_shift u_rot u_mvp u_ipair u_mode u_umask u_flag u_tint3 u_tint4 u_m3 \
  'u_weights\[0\]' 'u_colors\[0\]' u_tex; do
  grep -q "^glGetUniformLocation(program = [0-9]*, name = \"$u\") = [0-9]* // fake" snap.txt ||
    missing="$missing $u"
done
[ -z "$missing" ] && pass "the snapshot writes every uniform the program set" ||
  fail "uniforms not written:$missing"
grep -q '^glUniformBlockBinding(program = [0-9]*, uniformBlockIndex = 0, uniformBlockBinding = 2) // fake' snap.txt &&
  pass "the snapshot writes the uniform block's binding" ||
  fail "no glUniformBlockBinding to 2 in the snapshot"
# the full recording's values, as the program set them, are the snapshot's
grep -q '^glUniformMatrix3fv(location = [0-9]*, count = 1, transpose = GL_FALSE, value = {1, 0.1, 0, 0, 0.9, 0.2, 0.1, 0, 1}) // fake' snap.txt &&
  grep -q '^glUniform4fv(location = [0-9]*, count = 3, value = {1, 0.5, 0.25, 1, 0.25, 1, 0.5, 1, 0.5, 0.25, 1, 1}) // fake' snap.txt &&
  pass "matrix and array values read back as set" ||
  fail "u_m3 or u_colors not written with the program's values"
[ "$(grep -c '^glGenVertexArrays(.*// fake' snap.txt || true)" = 2 ] &&
  grep -q '^glVertexAttribDivisor(index = 2, divisor = 1) // fake' snap.txt &&
  grep -q '^glVertexAttrib4f(index = 3, x = 1, y = 0.8, z = 0.9, w = 1) // fake' snap.txt &&
  pass "the snapshot writes both vertex arrays, the divisor and the generic value" ||
  fail "vertex arrays incomplete: $(grep -E 'VertexArray|Divisor|VertexAttrib4f' snap.txt | head -5)"
grep -q '^glFramebufferTexture2D(target = GL_FRAMEBUFFER, attachment = GL_COLOR_ATTACHMENT0, textarget = GL_TEXTURE_2D, texture = [0-9]*, level = 0) // fake' snap.txt &&
  grep -q '^glFramebufferRenderbuffer(target = GL_FRAMEBUFFER, attachment = GL_DEPTH_ATTACHMENT, .* // fake' snap.txt &&
  pass "the snapshot writes the framebuffer's attachments" ||
  fail "framebuffer attachments missing: $(grep -i framebuffer snap.txt | head -4)"

timeout 60 apitrace dump "$tr" >apitrace.txt 2>&1 &&
  grep -q "gltrace: end of the state snapshot" apitrace.txt &&
  pass "apitrace dump reads the range trace" ||
  fail "apitrace dump: $(tail -2 apitrace.txt)"

# ---- replays: the range's frames are the full recording's ---------------------------
# apitrace's glretrace on Mesa draws a trace's first frame into a 32x32 back buffer (its
# window grows at the first swap: tests/apps/README.md, "Replaying with glretrace"), the
# range's first frame included: it is compared from the second frame on.
for who in ours api; do
  rep=$ours from=$first
  [ "$who" = api ] && rep=glretrace from=$((first + 1))
  replay_frames "$rep" full.trace "full.$who"
  replay_frames "$rep" "$tr" "range.$who"
  same_frames "$who: the range replays to the full recording" "full.$who" "range.$who" \
    "$from" "$last" "$first"
done
replay_frames "$ours" r.1-1.trace first.ours
same_frames "ours: the first range (frame 1) replays to the full recording" full.ours first.ours \
  1 1 1

# ---- a query active at the range's start --------------------------------------------
"$gltrace" -o q.trace --backtrace=none --frames=$first-$last -- "$app" --queries \
  --frames $frames >/dev/null 2>q.log || fail "the --queries recording fails: $(tail -2 q.log)"
qt="q.$first-$last.trace"
if [ -s "$qt" ]; then
  n=$(grep -c "state snapshot: query [0-9]*: active at the range's start: begun again" q.log || true)
  [ "$n" = 1 ] && pass "the snapshot says the active query's count starts again" ||
    fail "$n messages for the active query: $(grep 'state snapshot:' q.log | head -3)"
  # through a file: sed quits at the marker, and a pipe would end the dump by SIGPIPE
  "$gltrace" dump --color=never --call-nos=no "$qt" >q.dump.txt
  sed -n '/gltrace: end of the state snapshot/q;p' q.dump.txt >q.snap.txt
  grep -q '^glBeginQuery(target = GL_SAMPLES_PASSED, id = [0-9]*) // fake' q.snap.txt &&
    pass "the snapshot begins the active GL_SAMPLES_PASSED query" ||
    fail "no fake glBeginQuery: $(grep -i query q.snap.txt | head -3)"
  for who in ours api; do
    rep=$ours
    [ "$who" = api ] && rep=glretrace
    timeout 120 "$rep" "$qt" >"q.$who.log" 2>&1 || fail "$who: the --queries range: exit $?"
    bad=$(grep -iE 'GL_INVALID|error' "q.$who.log" | head -3 || true)
    [ -z "$bad" ] && pass "$who: the --queries range replays without a GL error" ||
      fail "$who: the --queries range: $bad"
  done
else
  fail "no $qt: $(tail -3 q.log)"
fi

# ---- the program's pending GL errors across the snapshot -----------------------------
# three snapshots, at frames 1, 2 and 3: one for each kind of error the program raises
if "$gltrace" -o e.trace --backtrace=none --frames=1-1,2-2,$first-$last -- "$app" --pending-error \
  --frames $frames >/dev/null 2>e.log; then
  pass "the program finds its pending GL errors after the snapshot's swap"
else
  fail "--pending-error under a range recording: $(grep -v '^gltrace: frame' e.log | tail -2)"
fi
grep -q "state snapshot:" e.log && fail "the snapshot says: $(grep 'state snapshot:' e.log | head -2)" ||
  pass "the snapshot says nothing of the program's errors"

it_finish
