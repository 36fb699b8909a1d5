#!/usr/bin/env bash
# fake_calls: the fake calls and behaviour changes of recording, checked on real
# programs recorded by `gltrace` under our own Xvfb (Mesa llvmpipe).
#   usage: fake_calls.sh BIN_DIR
# Recorded: gl33_demo (GLX, 3.3 core), es2_demo (EGL, GLES2), client_arrays_app (GLX
# compatibility context, client-side vertex arrays, primitive restart) from BIN_DIR,
# FRAMES frames each, plain and with --warmup, saving their own frames; glxgears
# (stopped by SIGTERM after its 100th swap: swap_stop in lib.sh).
# Checks:
#   - right after the first MakeCurrent of the context: `glViewport(x = 0, y = 0,
#     width = W, height = H) // fake` then the same glScissor, W x H the window's size
#     (320x240 for the apps, glxgears' 300x300), and nowhere else;
#   - right before each glLinkProgram: one fake glBindAttribLocation(program = P, ...)
#     for each of the program's attributes (the apps' known names), and no fake one
#     elsewhere;
#   - program binaries hidden: client_arrays_app prints the GL_NUM_PROGRAM_BINARY_FORMATS
#     and GL_PROGRAM_BINARY_LENGTH it got: 0 and 0 under gltrace;
#   - client arrays: before every draw of client_arrays_app, fake pointer calls with the
#     blobs sized from the largest index used (primitive restart indices left out),
#     wrapped in a fake glBindBuffer(GL_ARRAY_BUFFER, 0)/(…, 1) pair where a buffer is
#     bound, and no pointer call with a client address recorded as such (apitrace's way:
#     glretrace warns about them); the app exits 0, so the hooks raised no GL error (it
#     checks glGetError);
#   - `apitrace dump` reads each trace with exit 0 and nothing on stderr, and
#     `gltrace dump` == `apitrace dump` (options "" and "-v");
#   - `glretrace` replays each trace with exit 0, no "error"/"warning" in its output, as
#     many frames as swaps;
#   - the apps' own frames (--save) equal glretrace's snapshots (--call-nos=false):
#     without --warmup frames 1.. (frame 0 cannot match: glretrace starts with a 32x32
#     window and llvmpipe resizes the back buffer only at the next swap, see
#     tests/apps/README.md; the fake glViewport is what makes frame 1 right), with
#     --warmup every frame (app frame k = snapshot k + 1).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init fake_calls

require_recorder "$@"
require_tool apitrace glretrace Xvfb glxgears python3 cmp timeout
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"
FRAMES=3
APPS=(gl33_demo es2_demo client_arrays_app)
for app in "${APPS[@]}"; do
  require_file "$bin/$app" "tests/apps needs the x11, gl, egl, glesv2 dev packages"
done

start_xvfb

# ---- recording ---------------------------------------------------------------------
# record NAME EXPECTED_STATUS [PREFIX...] -- PROGRAM [ARGS...]
recorded=()
record() {
  local name=$1 expect=$2
  shift 2
  local prefix=()
  while [ "$1" != "--" ]; do
    prefix+=("$1")
    shift
  done
  shift
  set +e
  "${prefix[@]}" "$gltrace" -o "$WORK/$name.trace" -- "$@" >"$WORK/$name.out" \
    2>"$WORK/$name.err"
  local rc=$?
  set -e
  if [ "$rc" -ne "$expect" ]; then
    fail "$name: gltrace exits $rc, expected $expect; stderr:"
    tail -8 "$WORK/$name.err" | sed 's/^/    /'
  else
    pass "$name: exit status $rc"
  fi
  if [ -s "$WORK/$name.trace" ]; then
    recorded+=("$name")
  else
    fail "$name: no trace written"
  fi
}

swap_stop 100
record glxgears 143 -- "${SWAP_STOP[@]}" glxgears
for app in "${APPS[@]}"; do
  for variant in plain warmup; do
    extra=()
    [ "$variant" = warmup ] && extra=(--warmup)
    mkdir -p "$WORK/own.$app.$variant"
    record "$app.$variant" 0 timeout 60 -- "$bin/$app" --frames "$FRAMES" "${extra[@]}" \
      --save "$WORK/own.$app.$variant/"
  done
done

# ---- the fake calls in the dumps ---------------------------------------------------
# check_dump DUMP WIDTH HEIGHT ATTRIBS: prints PASS/FAIL lines (ATTRIBS: the attribute
# names each linked program must get, comma-separated; "-" for programs without links)
check_dump() {
  python3 - "$@" <<'PYEOF'
import re, sys
path, width, height, attribs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
call = re.compile(r'^(\d+) (\w+)\((.*)\)( = [^/]*)?( // fake)?$')
calls = []
for line in open(path, encoding='utf-8', errors='replace'):
    m = call.match(line.rstrip('\n'))
    if m:
        calls.append((m.group(2), m.group(3), (m.group(4) or '').strip(' ='), bool(m.group(5))))
def out(ok, msg):
    print(('PASS ' if ok else 'FAIL ') + msg)
# first successful MakeCurrent with a context
first = None
for i, (name, args, ret, fake) in enumerate(calls):
    if name in ('glXMakeCurrent', 'glXMakeContextCurrent', 'eglMakeCurrent') \
            and not args.endswith('ctx = NULL') and ret in ('True', 'EGL_TRUE'):
        first = i
        break
if first is None:
    out(False, 'no successful MakeCurrent with a context')
else:
    box = 'x = 0, y = 0, width = %d, height = %d' % (width, height)
    want = [('glViewport', box, '', True), ('glScissor', box, '', True)]
    got = calls[first + 1:first + 3]
    out(got == want, 'fake glViewport/glScissor(%s) right after %s: %s' % (box, calls[first][0],
        'yes' if got == want else 'got %r' % (got,)))
    others = [c for i, c in enumerate(calls) if c[3] and c[0] in ('glViewport', 'glScissor')
              and not first < i <= first + 2]
    out(not others, 'no other fake glViewport/glScissor%s' % ('' if not others else ': %r' % others[:3]))
links = [i for i, c in enumerate(calls) if c[0] in ('glLinkProgram', 'glLinkProgramARB')]
binds = [i for i, c in enumerate(calls) if c[0].startswith('glBindAttribLocation') and c[3]]
if attribs == '-':
    out(not links and not binds, 'no links, no fake glBindAttribLocation')
else:
    names = sorted(attribs.split(','))
    out(bool(links), '%d link(s)' % len(links))
    seen = set()
    for li in links:
        prog = calls[li][1]
        got, j = [], li - 1
        while j >= 0 and calls[j][3] and calls[j][0].startswith('glBindAttribLocation'):
            got.append(calls[j][1])
            seen.add(j)
            j -= 1
        gnames = sorted(re.search(r'name = "([^"]*)"', a).group(1) for a in got)
        progs_ok = all(a.startswith(prog + ',') for a in got)
        out(gnames == names and progs_ok, 'call %d glLinkProgram(%s): fake bindings of %s before it%s'
            % (li, prog, ','.join(names), '' if gnames == names and progs_ok else ': got %r' % got))
    stray = [calls[i] for i in binds if i not in seen]
    out(not stray, 'no fake glBindAttribLocation away from a link%s' % ('' if not stray else ': %r' % stray[:3]))
PYEOF
}

# check_client_arrays DUMP: the fake arrays before each of client_arrays_app's draws
check_client_arrays() {
  python3 - "$1" "$FRAMES" <<'PYEOF'
import re, sys
path, frames = sys.argv[1], int(sys.argv[2])
call = re.compile(r'^(\d+) (\w+\(.*\))( // fake)?$')
calls = []
for line in open(path, encoding='utf-8', errors='replace'):
    m = call.match(line.rstrip('\n'))
    if m:
        calls.append((m.group(2), bool(m.group(3))))
def out(ok, msg):
    print(('PASS ' if ok else 'FAIL ') + msg)
F = lambda s: (s, True)
# 30 strip vertices of 16 bytes; the restart index 0xFFFF is no vertex
strip = [F('glColorPointer(size = 4, type = GL_UNSIGNED_BYTE, stride = 16, pointer = blob(468))'),
         F('glVertexPointer(size = 2, type = GL_FLOAT, stride = 16, pointer = blob(472))')]
# 18 vertices of glDrawArrays, with GL_ARRAY_BUFFER 1 bound around them
arrays = [F('glBindBuffer(target = GL_ARRAY_BUFFER, buffer = 0)'),
          F('glVertexAttribPointer(index = 0, size = 2, type = GL_FLOAT, normalized = GL_FALSE, stride = 0, pointer = blob(144))'),
          F('glBindBuffer(target = GL_ARRAY_BUFFER, buffer = 1)')]
# largest index 13 read back from the element buffer
elements = [F('glVertexAttribPointer(index = 0, size = 2, type = GL_FLOAT, normalized = GL_FALSE, stride = 0, pointer = blob(112))'),
            F('glVertexAttribPointer(index = 1, size = 4, type = GL_UNSIGNED_BYTE, normalized = GL_TRUE, stride = 0, pointer = blob(56))')]
# pointer calls made with no GL_ARRAY_BUFFER bound (client addresses) are not recorded
client = [c[0] for c in calls if not c[1] and re.match(r'gl\w*Pointer\w*\(', c[0])
          and not re.search(r'pointer = (NULL|0x[0-9a-f]{1,4})\)$', c[0])]
out(not client, 'no pointer call with a client address recorded%s' % ('' if not client else ': %r' % client[:2]))
# 3 vertices, 4 instances of the divisor-1 attribute
instanced = [F('glVertexAttribPointer(index = 0, size = 2, type = GL_FLOAT, normalized = GL_FALSE, stride = 0, pointer = blob(24))'),
             F('glVertexAttribPointer(index = 3, size = 2, type = GL_FLOAT, normalized = GL_FALSE, stride = 0, pointer = blob(32))')]
# largest index 3 + base vertex 2: 6 vertices
basevertex = [F('glVertexAttribPointer(index = 0, size = 2, type = GL_FLOAT, normalized = GL_FALSE, stride = 0, pointer = blob(48))')]
kinds = [('glDrawElements(mode = GL_TRIANGLE_STRIP', strip), ('glDrawArrays(', arrays),
         ('glDrawElements(', elements), ('glDrawArraysInstanced(', instanced),
         ('glDrawElementsBaseVertex(', basevertex)]
draws = [i for i, c in enumerate(calls) if re.match(r'glDraw(Arrays|Elements)\w*\(', c[0])]
out(len(draws) == 5 * frames, '%d draws (5 a frame)' % len(draws))
for n, i in enumerate(draws):
    name = calls[i][0]
    want = next(w for prefix, w in kinds if name.startswith(prefix))
    got = calls[i - len(want):i]
    out(got == want, 'draw %d (%s): fake arrays before it%s' % (n, name[:40], '' if got == want else
        ': got %r' % (got,)))
PYEOF
}

verdicts() { # reads PASS/FAIL lines, prefixes them with $1
  local what=$1 verdict rest any=0
  while read -r verdict rest; do
    any=1
    if [ "$verdict" = PASS ]; then pass "$what: $rest"; else fail "$what: $rest"; fi
  done
  [ "$any" -eq 1 ] || fail "$what: the checker printed nothing"
}

attribs_of() {
  case $1 in
    gl33_demo.*) echo a_pos,a_color,a_uv ;;
    es2_demo.*) echo a_pos,a_uv ;;
    client_arrays_app.*) echo a_pos,a_color,a_offset,a_inst ;;
    *) echo - ;;
  esac
}

for name in "${recorded[@]}"; do
  t="$WORK/$name.trace"
  set +e
  timeout 60 apitrace dump --color=never "$t" >"$WORK/$name.dump.txt" 2>"$WORK/$name.dump.err"
  rc=$?
  set -e
  if [ "$rc" -ne 0 ] || [ -s "$WORK/$name.dump.err" ]; then
    fail "$name: apitrace dump exits $rc, stderr: $(head -c 300 "$WORK/$name.dump.err")"
    continue
  fi
  pass "$name: apitrace dump exits 0, stderr empty"
  if [ "$name" = glxgears ]; then w=300 h=300; else w=320 h=240; fi
  # (process substitution, not a pipe: verdicts must count in this shell)
  verdicts "$name" < <(check_dump "$WORK/$name.dump.txt" "$w" "$h" "$(attribs_of "$name")")
  case $name in
    client_arrays_app.*)
      verdicts "$name" < <(check_client_arrays "$WORK/$name.dump.txt")
      if grep -qx 'program binary formats: 0' "$WORK/$name.out" &&
        grep -qx 'program binary length: 0' "$WORK/$name.out"; then
        pass "$name: program binaries hidden (0 formats, length 0)"
      else
        fail "$name: program binaries not hidden: $(tr '\n' ' ' <"$WORK/$name.out")"
      fi
      ;;
  esac
  for opts in "" "-v"; do
    # shellcheck disable=SC2086
    dump_vs_apitrace "$name: dump ${opts:-(defaults)} vs apitrace" "$t" "$gltrace" $opts
  done
done

# ---- replay ------------------------------------------------------------------------
# retrace NAME FRAMES [GLRETRACE OPTIONS...]
retrace() {
  local name=$1 frames=$2
  shift 2
  set +e
  timeout 120 glretrace "$@" "$WORK/$name.trace" >"$WORK/retrace.log" 2>&1
  local rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    fail "$name: glretrace exits $rc: $(tail -3 "$WORK/retrace.log" | cut -c1-200)"
  else
    pass "$name: glretrace exits 0"
  fi
  if grep -qiE 'error|warning' "$WORK/retrace.log"; then
    fail "$name: glretrace says: $(grep -iE 'error|warning' "$WORK/retrace.log" | head -3 | cut -c1-200)"
  else
    pass "$name: glretrace prints no error or warning"
  fi
  if [ -n "$frames" ]; then
    local rendered
    rendered=$(sed -n 's/^Rendered \([0-9]*\) frames.*/\1/p' "$WORK/retrace.log" | tail -1)
    if [ "$rendered" = "$frames" ]; then
      pass "$name: glretrace rendered $frames frames"
    else
      fail "$name: glretrace rendered ${rendered:-no} frames, expected $frames"
    fi
  fi
}

for name in "${recorded[@]}"; do
  case $name in
    glxgears) retrace "$name" "" ;;
    *.plain) retrace "$name" "$FRAMES" ;;
    *.warmup) retrace "$name" $((FRAMES + 1)) ;;
  esac
done

# ---- the apps' frames against glretrace's snapshots ----------------------------------
compare() { # compare WHAT OWN SNAP
  local verdict rc
  set +e
  verdict=$(python3 "$compare_png" "$2" "$3" 2>&1)
  rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then pass "$1"; else fail "$1: ${verdict//"$WORK/"/}"; fi
}
for app in "${APPS[@]}"; do
  for variant in plain warmup; do
    name="$app.$variant"
    [ -s "$WORK/$name.trace" ] || continue
    rm -rf "$WORK/snap"
    mkdir -p "$WORK/snap"
    set +e
    timeout 120 glretrace --call-nos=false -s "$WORK/snap/" "$WORK/$name.trace" \
      >"$WORK/snap.log" 2>&1
    set -e
    shift_by=0 first=1
    if [ "$variant" = warmup ]; then shift_by=1 first=0; fi
    for ((i = first; i < FRAMES; i++)); do
      own=$(printf '%s/own.%s/%010u.png' "$WORK" "$name" "$i")
      snap=$(printf '%s/snap/%010u.png' "$WORK" $((i + shift_by)))
      if [ ! -s "$own" ] || [ ! -s "$snap" ]; then
        fail "$name: frame $i: missing $(basename "$own") (app) or $(basename "$snap") (glretrace)"
        continue
      fi
      compare "$name: frame $i == glretrace snapshot $((i + shift_by))" "$own" "$snap"
    done
  done
done

it_finish
