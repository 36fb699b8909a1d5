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

[ $# -ge 2 ] || die "usage: $0 BIN_DIR CORPUS_DIR"
bin=$(cd "$1" && pwd)
ours="$bin/glretrace"
corpus=$(corpus_apitrace_dir "$2")
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
if echo "$out" | grep -q BAD; then
  fail "--state-server: $(echo "$out" | grep BAD | head -3 | tr '\n' ';')"
else
  pass "--state-server: $(echo "$out" | wc -l) answers as -D's, behind and past the end"
fi

it_finish
