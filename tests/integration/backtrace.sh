#!/usr/bin/env bash
# backtrace: backtraces recorded by `gltrace --backtrace=CALLSET` / GLTRACE_BACKTRACE,
# read by apitrace, under our own Xvfb (Mesa llvmpipe).
#   usage: backtrace.sh BIN_DIR
# Recorded: a small GLX program built here with `cc -g -O0` (draw_frame() clears and
# draws, main() swaps), with --backtrace='glDraw*', --backtrace=none, the default set
# and GLTRACE_BACKTRACE=all; gl33_demo from BIN_DIR (Release, symbols but no line
# table) with --backtrace='glDraw*'.
# Checks:
#   - apitrace dump reads each trace (exit 0, empty stderr) and gltrace dump prints the
#     same bytes (options "" and "-v");
#   - 'glDraw*': a "Backtrace:" block follows every glDraw* call and no other call; its
#     first frame is "PROG: draw_frame+0x..: PROG.c:LINE" with LINE the glDrawArrays
#     line of the source and PROG the program's absolute path, the next names main
#     at the draw_frame() call's line; no frame is inside libgltrace.so;
#   - none: no backtrace at all; default: glClear, glDrawArrays and glXSwapBuffers have
#     one, glClearColor and glXMakeCurrent not; all: every call has one (but the fake
#     glViewport/glScissor the recorder adds, which the program did not make);
#   - gl33_demo: backtraces only after glDrawElements, naming BIN_DIR/gl33_demo: main;
#   - a static function of a library dlopened after recording began: its frame names
#     the library, `inner` and the line;
#   - x86-64: a call made from assembly without unwind information and with a garbage
#     frame pointer is recorded (no crash), its backtrace stopping at that function.
# Also prints the recording cost: calls per second of a draw loop recorded with
# backtraces none, 'glDraw*' (one draw in three calls) and all (informational).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init backtrace

require_recorder "$@"
require_file "$bin/gl33_demo" "build the demo apps (tests/apps)"
require_tool apitrace Xvfb cc python3 timeout

# ---- the test program ----------------------------------------------------------------
prog_src="$WORK/bt_prog.c"
cat >"$prog_src" <<'EOF'
#include <GL/gl.h>
#include <stdlib.h>

#include "glx_window.h"

static void draw_frame(int i, int draws)
{
    glClearColor(0.1f * (float)(i % 10), 0.2f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int k = 0; k < draws; ++k) {
        glColor3f(1.0f, 0.5f, 0.25f);
        glNormal3f(0.0f, 0.0f, 1.0f);
        glDrawArrays(GL_POINTS, 0, 0); /* DRAW LINE */
    }
}

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 3;
    int draws = argc > 2 ? atoi(argv[2]) : 1;
    Display *dpy;
    Window win;
    GLXContext ctx;
    if (glxw_open(64, &dpy, &win, &ctx))
        return 1;
    for (int i = 0; i < frames; ++i) {
        draw_frame(i, draws); /* CALL LINE */
        glXSwapBuffers(dpy, win);
    }
    glxw_close(dpy, ctx);
    return 0;
}
EOF
prog="$WORK/bt_prog"
cc -g -O0 -I"$here" -o "$prog" "$prog_src" -lGL -lX11 2>"$WORK/cc.log" ||
  die "cannot build the test program: $(head -5 "$WORK/cc.log")"
draw_line=$(grep -n 'DRAW LINE' "$prog_src" | cut -d: -f1)
call_line=$(grep -n 'CALL LINE' "$prog_src" | cut -d: -f1)

start_xvfb

# record NAME [GLTRACE OPTIONS...] -- PROGRAM [ARGS...]: $WORK/NAME.trace and
# $WORK/NAME.txt (apitrace dump); checks the exit status and the dumps.
record() {
  local name=$1
  shift
  local opts=()
  while [ "$1" != "--" ]; do
    opts+=("$1")
    shift
  done
  shift
  set +e
  timeout 60 "$gltrace" -o "$WORK/$name.trace" "${opts[@]+"${opts[@]}"}" -- "$@" \
    >"$WORK/$name.rec.log" 2>&1
  local rc=$?
  set -e
  if [ "$rc" -ne 0 ] || [ ! -s "$WORK/$name.trace" ]; then
    fail "$name: gltrace exits $rc or wrote no trace; log:"
    tail -10 "$WORK/$name.rec.log" | sed 's/^/    /'
    return 0
  fi
  pass "$name: recorded"
  run_timed "$WORK/$name.txt" "$WORK/$name.dump.err" apitrace dump --color=never \
    "$WORK/$name.trace"
  if [ "$RC" -ne 0 ] || [ -s "$WORK/$name.dump.err" ]; then
    fail "$name: apitrace dump exits $RC or complains:"
    head -5 "$WORK/$name.dump.err" | sed 's/^/    /'
  else
    pass "$name: apitrace dump reads it"
  fi
  local o
  for o in "" "-v"; do
    # shellcheck disable=SC2086
    dump_vs_apitrace "$name: gltrace dump ${o:-(plain)}" "$WORK/$name.trace" "$gltrace" $o
  done
}

# check NAME DESCRIPTION PYTHON: runs PYTHON on the dump's lines (variable `lines`,
# and `calls`: (call line, [frame lines]) per call); it prints FAIL lines or nothing.
check() {
  local name=$1 what=$2 code=$3
  [ -s "$WORK/$name.txt" ] || { fail "$name: $what: no dump"; return 0; }
  local out
  out=$(python3 - "$WORK/$name.txt" <<EOF
import re, sys
lines = open(sys.argv[1]).read().split('\n')
calls = []
i = 0
while i < len(lines):
    l = lines[i]
    if re.match(r'^\d+ ', l):
        frames = None
        if i + 1 < len(lines) and lines[i + 1] == 'Backtrace:':
            frames = []
            i += 2
            while i < len(lines) and lines[i] and not re.match(r'^\d+ ', lines[i]):
                frames.append(lines[i])
                i += 1
            calls.append((l, frames))
            continue
        calls.append((l, frames))
    i += 1
def fn(call): return re.match(r'^\d+ (\w+)', call).group(1)
$code
EOF
) || out="FAIL python: $out"
  if [ -n "$out" ]; then
    fail "$name: $what"
    echo "$out" | head -8 | sed 's/^/    /'
  else
    pass "$name: $what"
  fi
}

# ---- glDraw* -------------------------------------------------------------------------
record draw --backtrace='glDraw*' -- "$prog" 3 2
check draw "backtraces after every glDraw* call and no other" "
n = 0
for call, frames in calls:
    d = fn(call).startswith('glDraw')
    if d != (frames is not None):
        print('FAIL', call, 'has' if frames is not None else 'lacks', 'a backtrace')
    n += d
if n != 6: print('FAIL', n, 'glDraw* calls, expected 6')
if sum(1 for l in lines if l == 'Backtrace:') != 6: print('FAIL: not 6 Backtrace: lines')
"
check draw "frames name the program, draw_frame and main, with file:line" "
for call, frames in calls:
    if frames is None: continue
    want0 = '$prog: draw_frame+0x'
    if not (frames[0].startswith(want0) and frames[0].endswith(': $prog_src:$draw_line')):
        print('FAIL first frame', repr(frames[0]), 'expected', want0 + '..: $prog_src:$draw_line')
    if len(frames) < 2 or not (frames[1].startswith('$prog: main+0x') and
                               frames[1].endswith(': $prog_src:$call_line')):
        print('FAIL second frame', frames[1:2], 'expected main at line $call_line')
    if any('libgltrace' in f for f in frames):
        print('FAIL a frame inside libgltrace.so:', frames)
    if len(frames) > 64: print('FAIL more than 64 frames')
"

# ---- none, default, all ------------------------------------------------------------------
record none --backtrace=none -- "$prog" 3 2
check none "no backtraces" "
if 'Backtrace:' in lines: print('FAIL a Backtrace: block')
if not calls: print('FAIL no calls')
"
record default -- "$prog" 2 1
check default "the default set: clears, draws and swaps, not state calls" "
seen = {}
for call, frames in calls:
    seen.setdefault(fn(call), set()).add(frames is not None)
for f in ('glClear', 'glDrawArrays', 'glXSwapBuffers'):
    if seen.get(f) != {True}: print('FAIL', f, 'backtraces:', seen.get(f))
for f in ('glClearColor', 'glXMakeCurrent', 'glColor3f', 'glXChooseVisual'):
    if seen.get(f) != {False}: print('FAIL', f, 'backtraces:', seen.get(f))
"
export GLTRACE_BACKTRACE=all
record all -- "$prog" 2 1
unset GLTRACE_BACKTRACE
check all "GLTRACE_BACKTRACE=all: every call but fake ones, each reaching main" "
for call, frames in calls:
    if call.endswith(' // fake'):
        if frames is not None: print('FAIL fake call', call, 'has a backtrace')
    elif frames is None: print('FAIL', call, 'lacks a backtrace')
    elif not any(f.startswith('$prog: main+0x') for f in frames):
        print('FAIL', call, 'no main frame:', frames)
"

# ---- gl33_demo (Release build: symbols, no line table) ---------------------------------
record demo --backtrace='glDraw*' -- "$bin/gl33_demo" --frames 2
check demo "backtraces after glDrawElements only, naming the demo's main" "
n = 0
for call, frames in calls:
    if fn(call) == 'glDrawElements':
        n += 1
        if frames is None: print('FAIL', call, 'lacks a backtrace')
        elif not frames[0].startswith('$bin/gl33_demo: main+0x'):
            print('FAIL first frame', repr(frames[0]))
    elif frames is not None:
        print('FAIL', call, 'has a backtrace')
if n == 0: print('FAIL no glDrawElements')
"

# ---- a module loaded later, a static function ------------------------------------------
# glClear from a static function of a library the program dlopens after its first
# calls: the frame names the library, the static function and its line.
cat >"$WORK/libplugin.c" <<'EOF'
#include <GL/gl.h>
static void inner(void)
{
    glClear(GL_COLOR_BUFFER_BIT); /* PLUGIN LINE */
}
void plugin_draw(void) { inner(); }
EOF
sed -e 's|draw_frame(i, draws); /\* CALL LINE \*/|draw_frame(i, draws); plugin(argv[3]);|' \
    -e 's|^static void draw_frame|#include <dlfcn.h>\nstatic void plugin(const char *path)\n{\n    void *h = dlopen(path, RTLD_NOW);\n    void (*f)(void) = h ? (void (*)(void))dlsym(h, "plugin_draw") : NULL;\n    if (f)\n        f();\n}\nstatic void draw_frame|' \
    "$prog_src" >"$WORK/bt_dl.c"
cc -g -O0 -shared -fPIC -o "$WORK/libplugin.so" "$WORK/libplugin.c" 2>"$WORK/cc.log" &&
  cc -g -O0 -I"$here" -o "$WORK/bt_dl" "$WORK/bt_dl.c" -lGL -lX11 -ldl 2>>"$WORK/cc.log" ||
  die "cannot build the plugin test program: $(head -5 "$WORK/cc.log")"
plugin_line=$(grep -n 'PLUGIN LINE' "$WORK/libplugin.c" | cut -d: -f1)
record plugin --backtrace=glClear -- "$WORK/bt_dl" 2 1 "$WORK/libplugin.so"
check plugin "a dlopened library's static function, with its line" "
n = 0
for call, frames in calls:
    if fn(call) != 'glClear' or frames is None: continue
    if frames[0].startswith('$WORK/libplugin.so: '):
        n += 1
        want = '$WORK/libplugin.so: inner+0x'
        if not (frames[0].startswith(want) and frames[0].endswith(': $WORK/libplugin.c:$plugin_line')):
            print('FAIL first frame', repr(frames[0]), 'expected', want + '..: libplugin.c:$plugin_line')
        if len(frames) < 2 or not frames[1].startswith('$WORK/libplugin.so: plugin_draw+0x'):
            print('FAIL second frame', frames[1:2])
if n != 2: print('FAIL', n, 'backtraces from the plugin, expected 2')
"

# ---- an unwind that cannot go on ----------------------------------------------------
# x86-64: glClear called from an assembly function with no unwind information and a
# garbage frame pointer. The backtrace must stop there (its first frame names `evil`)
# instead of crashing or reading through the bad pointer.
if [ "$(uname -m)" = x86_64 ]; then
  cat >"$WORK/evil.s" <<'EOF'
    .text
    .globl evil
    .type evil, @function
evil:                       # void evil(void (*f)(GLbitfield)): f(GL_COLOR_BUFFER_BIT)
    push %rbp
    mov $0x12345678, %rbp   # no CFI, and a frame pointer that points nowhere
    mov %rdi, %rax
    mov $0x4000, %edi
    call *%rax
    pop %rbp
    ret
    .size evil, .-evil
    .section .note.GNU-stack,"",@progbits
EOF
  sed -e 's|draw_frame(i, draws); /\* CALL LINE \*/|draw_frame(i, draws); evil(glClear);|' \
      -e 's|^static void draw_frame|void evil(void (*)(GLbitfield));\nstatic void draw_frame|' \
      "$prog_src" >"$WORK/bt_evil.c"
  cc -g -O0 -I"$here" -o "$WORK/bt_evil" "$WORK/bt_evil.c" "$WORK/evil.s" -lGL -lX11 2>"$WORK/cc.log" ||
    die "cannot build the unwind test program: $(head -5 "$WORK/cc.log")"
  record evil --backtrace=glClear -- "$WORK/bt_evil" 2 1
  check evil "an unwind through code without unwind info stops there" "
n = 0
for call, frames in calls:
    if fn(call) != 'glClear': continue
    if frames is None: print('FAIL', call, 'lacks a backtrace')
    elif frames[0].startswith('$WORK/bt_evil: evil+0x'): n += 1
    elif not frames[0].startswith('$WORK/bt_evil: draw_frame+0x'):
        print('FAIL first frame', repr(frames[0]))
if n != 2: print('FAIL', n, 'backtraces from evil, expected 2')
"
fi

# ---- cost (informational) ------------------------------------------------------------
# 20 frames of 3000 draws: 9000 + a few calls per frame.
for set_ in none 'glDraw*' all; do
  t0=$(date +%s.%N)
  "$gltrace" -o "$WORK/cost.trace" --backtrace="$set_" -- "$prog" 20 3000 \
    >"$WORK/cost.log" 2>&1 || true
  t1=$(date +%s.%N)
  ncalls=$(apitrace dump --color=never "$WORK/cost.trace" 2>/dev/null | grep -c '^[0-9]' || true)
  awk -v a="$t0" -v b="$t1" -v n="$ncalls" -v s="$set_" -v sz="$(stat -c %s "$WORK/cost.trace")" \
    'BEGIN { printf "backtrace: cost: --backtrace=%-8s %7d calls in %.2f s (%.0f calls/s), trace %d bytes\n", s, n, b - a, n / (b - a), sz }'
done

it_finish
