#!/usr/bin/env bash
# state_dump: `glretrace -D CALL` side by side with apitrace 11's `apitrace replay -D`.
#  - On 13 corpus traces (GLX and EGL/GLES, fixed function and GLSL, FBOs, textures, two
#    threads, shaders deleted after linking), at three draw calls each (a quarter, half
#    and three quarters through the draws after every window's first frame; fewer where
#    there are fewer), state_compare.py finds the same keys and
#    values in every section (parameters, shaders, uniforms, buffers, textures,
#    framebuffer), images within 0.1% of pixels, but for the tolerated differences it
#    lists with reasons. A window's first frame is left out: there apitrace's replay
#    reads the window before X maps it (black after a glClear to another colour,
#    undefined depth), where ours reads what was drawn.
#  - state_app (tests/apps), recorded by our gltrace in each configuration the dump
#    must follow: double-buffered, single-buffered (GLX_DOUBLEBUFFER False) and 4x MSAA
#    visuals, cube map, 3D, 2D array and 1D textures (every face, level and slice),
#    labels on every kind of object, and framebuffer objects with RGBA8,
#    RGBA, RGB8, R8 and RGBA16F colour and DEPTH_COMPONENT16/24/32F,
#    DEPTH24_STENCIL8 and STENCIL_INDEX8 attachments: at the last frame's draws into
#    the FBO and into the window, under X and --headless (hidden windows on our Xvfb,
#    as apitrace's --headless), state_compare.py finds our dump equal to
#    `apitrace replay -D`'s, image formats and encodings included, and the values the
#    configuration sets are checked by name (GL_SAMPLES 4, the labels, the
#    attachments' formats). apitrace 11.1 replays a single-buffered GLX program
#    double-buffered (GL_DOUBLEBUFFER GL_TRUE, GL_READ_BUFFER GL_BACK), and so do we.
#    es2_demo (OpenGL ES 2, recorded by our gltrace) too: its mipmapped texture read
#    through a framebuffer object as apitrace reads GLES textures, no level parameters.
#    Without an X server (--headless, no DISPLAY), SDL's offscreen driver's EGL
#    pbuffers are single-buffered: GL_DOUBLEBUFFER GL_FALSE at a draw into the window
#    is the only difference from apitrace's dump there (3 of the programs, checked so).
#  - apitrace's own jsondiff.py reads our JSON (ours against itself: no difference).
#  - -D frame dumps after the first frame; --dump-format=json is accepted, ubjson is
#    refused (exit 2); a call past the end, or one inside glBegin/glEnd, is a clear
#    error with exit 1 and no JSON on stdout.
#  - --state-server (gltrace view's warm replay): answers byte for byte as -D's, call
#    after call in one process; "behind" for a call already passed; past the end an error.
#   usage: state_dump.sh BIN_DIR CORPUS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init state_dump

it_bin_corpus "$@"
ours="$bin/glretrace"
require_file "$ours" "build glretrace first"
require_tool apitrace python3 timeout Xvfb
jsondiff=/usr/lib/apitrace/scripts/jsondiff.py
require_file "$jsondiff" "Debian's apitrace package ships it"
start_xvfb

# calls TRACE: three drawing calls (glDraw*, glCallList, glEnd) after every window's
# first frame (the first swap of each drawable), from the corpus dump text
calls() {
  python3 - "$1.dump.txt" <<'EOF'
import re, sys
calls, first_swap = [], {}
for line in open(sys.argv[1], errors='replace'):
    m = re.match(r'(\d+) (\w+)\((.*)', line)
    if m:
        calls.append((int(m.group(1)), m.group(2)))
        d = re.search(r'(?:drawable|surface) = (\w+)', m.group(3))
        if 'SwapBuffers' in m.group(2) and d:
            first_swap.setdefault(d.group(1), int(m.group(1)))
start = max(first_swap.values(), default=None)
draws = [no for no, name in calls if start is not None and no > start and
         (name.startswith('glDraw') or name in ('glCallList', 'glCallLists', 'glEnd'))]
if draws:
    print(' '.join(sorted({str(draws[int(len(draws) * f)]) for f in (0.25, 0.5, 0.75)})))
EOF
}

traces="es2gears_x11 glmark2_buffersub glmark2_build glmark2_conditionals glmark2_desktop
        glmark2_effect2d glmark2_shading glmark2_texture glxgears keithel_glxgears glxsimple
        glthreads tri_glsl"
compared=0
for t in $traces; do
  trace="$corpus/$t.trace"
  [ -f "$trace" ] || { fail "$t: not in the corpus"; continue; }
  for c in $(calls "$trace"); do
    ref="$WORK/$t.$c.apitrace.json" out="$WORK/$t.$c.json"
    if ! timeout 120 apitrace replay -D "$c" "$trace" >"$ref" 2>"$WORK/ref.err"; then
      fail "$t -D $c: apitrace failed: $(head -c 300 "$WORK/ref.err")"
      continue
    fi
    if ! timeout 120 "$ours" -D "$c" "$trace" >"$out" 2>"$WORK/ours.err"; then
      fail "$t -D $c: glretrace failed: $(head -c 300 "$WORK/ours.err")"
      continue
    fi
    if diffs=$(python3 "$here/state_compare.py" "$ref" "$out" 2>&1); then
      pass "$t -D $c"
      compared=$((compared + 1))
    else
      fail "$t -D $c differs from apitrace's: $(echo "$diffs" | head -5 | tr '\n' ';')"
    fi
  done
done
[ "$compared" -ge 30 ] && pass "$compared dumps equal to apitrace's" ||
  fail "only $compared dumps compared equal (30 expected)"

# ---- state_app: visuals, labels, attachments (recorded by our gltrace) ----
app="$bin/state_app"
gltrace="$bin/gltrace"
require_file "$app" "build the test apps (tests/apps)"
require_file "$bin/es2_demo" "build the test apps (tests/apps)"
require_file "$gltrace" "build gltrace"
# check_values NAME W|FBO JSON: the values NAME's configuration sets, in our dump at the
# window's draw (W) or the FBO's (FBO); prints what is wrong, nothing when all is right
check_values() {
  python3 - "$@" <<'EOF'
import json, sys
name, where, path = sys.argv[1:4]
d = json.load(open(path))
p, fb = d["parameters"], d["framebuffer"]
bad = []
def want(what, got, exp):
    if got != exp:
        bad.append(f"{what} = {got!r}, expected {exp!r}")
if name == "es2":  # OpenGL ES 2 (es2_demo): textures read through an FBO, window as GL_RGB
    want("window colour", fb.get("GL_BACK", {}).get("__format__"), "GL_RGB")
    want("texture level 0", d["textures"].get("GL_TEXTURE0, GL_TEXTURE_2D, level = 0",
                                              {}).get("__format__"), "GL_RGBA")
    want("level parameters", "GL_TEXTURE_WIDTH" in p.get("GL_TEXTURE0", {}).get("GL_TEXTURE_2D", {}),
         False)
elif where == "W":
    want("GL_DOUBLEBUFFER", p.get("GL_DOUBLEBUFFER"), "GL_TRUE")
    want("GL_READ_BUFFER", p.get("GL_READ_BUFFER"), "GL_BACK")
    want("GL_SAMPLES", p.get("GL_SAMPLES"), 4 if name == "msaa" else 0)
    want("window images", sorted(fb), ["GL_BACK", "GL_DEPTH_COMPONENT", "GL_STENCIL_INDEX"])
if name == "labels":
    labels = {"GL_ARRAY_BUFFER_LABEL": "vertices", "GL_ELEMENT_ARRAY_BUFFER_LABEL": "indices",
              "GL_CURRENT_PROGRAM_LABEL": "textured", "GL_VERTEX_ARRAY_LABEL": "quads",
              "GL_TRANSFORM_FEEDBACK_LABEL": "unused feedback"}
    if where == "FBO":
        labels.update({"GL_DRAW_FRAMEBUFFER_LABEL": "offscreen", "GL_RENDERBUFFER_LABEL": "depth"})
    for k, v in labels.items():
        want(k, p.get(k), v)
    unit = p.get("GL_TEXTURE0", {})
    want("GL_TEXTURE_LABEL", unit.get("GL_TEXTURE_2D", {}).get("GL_TEXTURE_LABEL"),
         "checker" if where == "FBO" else "fbo colour")
    want("GL_SAMPLER_LABEL", unit.get("GL_SAMPLER", {}).get("GL_SAMPLER_LABEL"), "nearest")
    want("GL_VERTEX_ATTRIB_ARRAY0's buffer label",
         p.get("GL_VERTEX_ATTRIB_ARRAY0", {}).get("GL_VERTEX_ATTRIB_ARRAY_BUFFER_LABEL"), "vertices")
if name == "textures":
    images = d["textures"]
    for key, depth in (("GL_TEXTURE1, GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, level = 3", 1),
                       ("GL_TEXTURE2, GL_TEXTURE_3D, level = 0", 4),
                       ("GL_TEXTURE3, GL_TEXTURE_2D_ARRAY, level = 1", 3),
                       ("GL_TEXTURE4, GL_TEXTURE_1D, level = 0", 1)):
        want(key + " __depth__", images.get(key, {}).get("__depth__"), depth)
if where == "FBO":
    formats = {"labels": ("GL_RGBA8", "GL_DEPTH_COMPONENT16", None),
               "fbo_ds": ("GL_RGBA8", "GL_DEPTH24_STENCIL8", "GL_DEPTH24_STENCIL8"),
               "fbo_stencil": ("GL_RGB8", None, "GL_STENCIL_INDEX8"),
               "fbo_float": ("GL_RGBA16F", "GL_DEPTH_COMPONENT32F", None),
               "fbo_r8": ("GL_R8", "GL_DEPTH_COMPONENT24", None),
               "fbo_rgba": ("GL_RGBA", None, None)}[name]
    for key, fmt in zip(("GL_COLOR_ATTACHMENT0", "GL_DEPTH_ATTACHMENT", "GL_STENCIL_ATTACHMENT"),
                        formats):
        want(key, fb.get(key, {}).get("__format__"), fmt)
print("; ".join(bad))
EOF
}
cases=(double: single:--single msaa:--msaa=4 textures:--textures "labels:--labels --fbo"
       fbo_ds:--fbo=rgba8:depth24s8:none fbo_stencil:--fbo=rgb8:none:stencil8
       fbo_float:--fbo=rgba16f:depth32f:none fbo_r8:--fbo=r8:depth24:none
       fbo_rgba:--fbo=rgba:none:none es2:)
app_equal=0 app_expected=0
# recorded by our recorder; a tree built without it (the ASan build: its preload library
# cannot carry ASan into the program) records with apitrace's, the dumps are compared alike
record=("$gltrace" -o)
if [ ! -f "$bin/../lib/libgltrace.so" ]; then
  echo "state_dump: no recording library in this build: the programs are recorded by apitrace"
  record=(apitrace trace -o)
fi
for c in "${cases[@]}"; do
  name=${c%%:*}
  read -r -a args <<<"${c#*:}"
  trace="$WORK/state_$name.trace"
  prog=$app
  [ "$name" = es2 ] && prog="$bin/es2_demo"
  rec=("${record[@]}")
  [ "$name" = es2 ] && [ "${rec[0]}" = apitrace ] && rec=(apitrace trace --api egl -o)
  if ! timeout 60 "${rec[@]}" "$trace" -- "$prog" --frames 3 "${args[@]+"${args[@]}"}" \
      >"$WORK/rec.log" 2>&1; then
    fail "state_app $name: recording failed: $(tail -3 "$WORK/rec.log" | tr '\n' ' ')"
    continue
  fi
  # the last frame's draws: into the FBO (the programs with one), then into the window
  draws=$("$gltrace" dump --color=never "$trace" | awk '/ glDrawElements\(/ { print $1 }' | tail -2)
  fbo_draw=
  case "$name" in labels | fbo_*) fbo_draw=$(echo "$draws" | head -1) ;; esac
  for call in $draws; do
    where=W
    [ "$call" = "$fbo_draw" ] && where=FBO
    for mode in x headless; do
      app_expected=$((app_expected + 1))
      opt=()
      [ "$mode" = headless ] && opt=(--headless)
      ref="$WORK/app_$name.$call.$mode.apitrace.json" out="$WORK/app_$name.$call.$mode.json"
      if ! timeout 120 apitrace replay "${opt[@]+"${opt[@]}"}" -D "$call" "$trace" >"$ref" \
          2>"$WORK/ref.err"; then
        fail "state_app $name $mode -D $call: apitrace failed: $(head -c 300 "$WORK/ref.err")"
        continue
      fi
      if ! timeout 120 "$ours" "${opt[@]+"${opt[@]}"}" -D "$call" "$trace" >"$out" \
          2>"$WORK/ours.err"; then
        fail "state_app $name $mode -D $call: glretrace failed: $(head -c 300 "$WORK/ours.err")"
        continue
      fi
      if ! diffs=$(python3 "$here/state_compare.py" "$ref" "$out" 2>&1); then
        fail "state_app $name $mode -D $call differs from apitrace's: $(echo "$diffs" | head -5 | tr '\n' ';')"
      elif ! bad=$(check_values "$name" "$where" "$out") || [ -n "$bad" ]; then
        fail "state_app $name $mode -D $call: ${bad:-check_values failed}"
      else
        pass "state_app $name $mode -D $call (into the ${where/W/window}) equal to apitrace's"
        app_equal=$((app_equal + 1))
      fi
    done
  done
done
# 11 programs, 2 draws each (without an FBO: the last two frames'), 2 modes
if [ "$app_expected" -eq 44 ] && [ "$app_equal" -eq 44 ]; then
  pass "state_app and es2_demo: 44 dumps equal to apitrace's"
else
  fail "state_app and es2_demo: $app_equal of $app_expected dumps equal to apitrace's (44 expected)"
fi

# --headless without an X server: SDL's offscreen driver. The traced samples are kept;
# its EGL pbuffers are single-buffered: GL_DOUBLEBUFFER (at a draw into the window) is the
# one value allowed to differ from apitrace's (whose glretrace needs X)
off_equal=0
for name in msaa labels fbo_float; do
  trace="$WORK/state_$name.trace"
  for call in $("$gltrace" dump --color=never "$trace" 2>/dev/null |
                awk '/ glDrawElements\(/ { print $1 }' | tail -2); do
    ref="$WORK/app_$name.$call.headless.apitrace.json" out="$WORK/offscreen.json"
    expected=
    grep -q '"GL_DOUBLEBUFFER": "GL_TRUE"' "$ref" 2>/dev/null &&
      expected="parameters/GL_DOUBLEBUFFER: 'GL_TRUE' against 'GL_FALSE';"
    diffs="(no dump)"
    if [ -s "$ref" ] &&
       timeout 120 env -u DISPLAY "$ours" --headless -D "$call" "$trace" >"$out" 2>"$WORK/off.err"; then
      diffs=$( (python3 "$here/state_compare.py" "$ref" "$out" 2>&1 || true) | sort | tr '\n' ';')
    fi
    if [ "$diffs" = "$expected" ]; then
      off_equal=$((off_equal + 1))
    else
      fail "--headless without X, state_app $name -D $call: ${diffs} $(head -c 200 "$WORK/off.err")"
    fi
  done
done
if [ "$off_equal" -eq 6 ]; then
  pass "--headless without X: 6 dumps as apitrace's but for the pbuffers' GL_DOUBLEBUFFER"
else
  fail "--headless without X: $off_equal of 6 dumps as expected"
fi

# apitrace's script reads ours
one="$WORK/glmark2_texture.json"
if "$ours" -D 9000 "$corpus/glmark2_texture.trace" >"$one" &&
   out=$(python3 "$jsondiff" "$one" "$one") && [ -z "$out" ]; then
  pass "jsondiff.py reads our dump"
else
  fail "jsondiff.py on our dump: $out"
fi

# -D frame, --dump-format
if "$ours" -D frame --dump-format=json "$corpus/glxgears.trace" >"$WORK/frame.json" &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["parameters"]["GL_VIEWPORT"]' "$WORK/frame.json"; then
  pass "-D frame --dump-format=json"
else
  fail "-D frame did not write the state"
fi
set +e
"$ours" -D 10 --dump-format=ubjson "$corpus/glxgears.trace" >"$WORK/ub.out" 2>"$WORK/ub.err"
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "only json" "$WORK/ub.err" && pass "--dump-format=ubjson refused" ||
  fail "--dump-format=ubjson: exit $rc, $(cat "$WORK/ub.err")"

# bad calls: past the end, inside glBegin/glEnd
expect_error() { # WHAT PATTERN ARGS...
  local what=$1 pattern=$2 rc
  shift 2
  set +e
  "$ours" "$@" >"$WORK/bad.out" 2>"$WORK/bad.err"
  rc=$?
  set -e
  if [ "$rc" -eq 1 ] && grep -q "$pattern" "$WORK/bad.err" && [ ! -s "$WORK/bad.out" ]; then
    pass "$what: $(head -1 "$WORK/bad.err")"
  else
    fail "$what: exit $rc, stdout $(wc -c <"$WORK/bad.out") bytes, $(head -c 300 "$WORK/bad.err")"
  fi
}
expect_error "-D past the end" "the trace ends at call" -D 99999999 "$corpus/tri.trace"
inside=$(awk '/ glBegin\(/ { getline; print $1; exit }' "$corpus/glxgears.trace.dump.txt")
expect_error "-D inside glBegin/glEnd" "inside glBegin/glEnd" -D "$inside" "$corpus/glxgears.trace"

# --state-server (gltrace view's): one process answers call after call, each answer
# byte for byte -D's; a call already passed is "behind"; past the end an error
out=$(python3 - "$ours" "$corpus/glmark2_texture.trace" <<'EOF'
import subprocess, sys
ours, trace = sys.argv[1:3]
p = subprocess.Popen([ours, '--headless', '--state-server', trace], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
def ask(n):
    p.stdin.write(b'%d\n' % n)
    p.stdin.flush()
    while True:
        line = p.stdout.readline().decode()
        if not line.startswith('progress '):
            break
    if not line.startswith('state '):
        return line.strip(), None
    _, no, n_bytes = line.split()
    return int(no), p.stdout.read(int(n_bytes))
for n in (3000, 3100, 12000, 12000, 20000):  # after the first frame: before it, the back buffer is undefined
    no, data = ask(n)
    ref = subprocess.run([ours, '--headless', '-D', str(n), trace], capture_output=True).stdout
    print('OK' if data == ref and ref else 'BAD', n, no, len(data or b''), len(ref))
print('OK' if ask(100)[0].startswith('error behind') else 'BAD behind')
p.stdin.close()
print('OK exit' if p.wait() == 0 else 'BAD exit')
p = subprocess.run([ours, '--headless', '--state-server', trace], input=b'99999999\n',
                   capture_output=True)
print('OK' if b'error the trace ends at call' in p.stdout and p.returncode == 0 else 'BAD end')
EOF
)
if grep -q BAD <<<"$out"; then
  fail "--state-server: $(echo "$out" | grep BAD | head -3 | tr '\n' ';')"
else
  pass "--state-server: $(echo "$out" | wc -l) answers as -D's, behind and past the end"
fi

it_finish
