#!/usr/bin/env bash
# crash_safety: traces survive the ways a program ends, and every process writes its
# own trace (wrappers/runtime_writer.c, wrappers/runtime_safety.c).
#   usage: crash_safety.sh BIN_DIR
# Small GLX programs are compiled here (cc, -lGL -lX11) and recorded by `gltrace -o`
# under our own Xvfb (Mesa llvmpipe):
#   a) kill -9: a program drawing in a loop, killed with SIGKILL once it has 3 swaps: the
#      trace (written by the 1 s flusher) is read by `apitrace dump` (exit 0) and holds
#      at least one swap;
#   b) SIGSEGV: N glClearColor calls, glLineWidth(7), then a NULL dereference: the trace
#      holds all N calls and ends with the last of them and glLineWidth(width = 7),
#      numbered one after it; also with the program's own SIGSEGV handler
#      (which must still run: chained, and the exit status is its _exit(3));
#   c) _exit / _Exit right after N calls (no atexit handler, no flusher tick yet): all
#      calls are in the trace;
#   d) fork: "early" forks before any GL call, parent and child draw 3 and 5 frames:
#      X.trace holds the parent's 3 swaps, X.<childpid>.trace the child's 5; "late"
#      forks after 2 frames, the child makes 7 glClearColor(0.75...) calls without a
#      context and exits: its own trace holds exactly those, the parent's holds 4 swaps
#      and none of them; gltrace reports both files;
#   e) exec: a program draws a frame, forks and execs glxinfo -B, then draws another:
#      X.trace holds the 2 swaps, X.<pid>.trace is glxinfo's (its process.name, its
#      glGetString calls), both dumpable;
#   f) a wrapper script (sh -c 'PROGRAM'): the GL program started by the shell takes
#      X.trace itself, no other file appears.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init crash_safety

require_recorder "$@"
require_tool apitrace Xvfb glxinfo cc timeout

# ---- our own X server --------------------------------------------------------------
start_xvfb 640x480x24
unset GLTRACE_OUTPUT_READY || true

# ---- the test programs -------------------------------------------------------------
src="$WORK/src"
mkdir -p "$src"
cat >"$src/ctx.h" <<'CEOF'
/* A 64x64 GLX window with a compatibility context, current; frame() draws one. */
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
static Display *dpy;
static Window win;
static void make_context(void)
{
    dpy = XOpenDisplay(NULL);
    if (!dpy) { fprintf(stderr, "no display\n"); exit(1); }
    int attrs[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 1, None};
    XVisualInfo *vi = glXChooseVisual(dpy, DefaultScreen(dpy), attrs);
    if (!vi) { fprintf(stderr, "no visual\n"); exit(1); }
    XSetWindowAttributes swa;
    memset(&swa, 0, sizeof swa);
    swa.colormap = XCreateColormap(dpy, RootWindow(dpy, vi->screen), vi->visual, AllocNone);
    win = XCreateWindow(dpy, RootWindow(dpy, vi->screen), 0, 0, 64, 64, 0, vi->depth,
                        InputOutput, vi->visual, CWColormap, &swa);
    GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
    if (!ctx || !glXMakeCurrent(dpy, win, ctx)) { fprintf(stderr, "no context\n"); exit(1); }
}
__attribute__((unused)) static void frame(float shade)
{
    glClearColor(shade, 0.5f, 0.25f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glBegin(GL_TRIANGLES);
    glVertex2f(-1, -1);
    glVertex2f(1, -1);
    glVertex2f(0, 1);
    glEnd();
    glXSwapBuffers(dpy, win);
}
CEOF
cat >"$src/loop.c" <<'CEOF'
/* Draws until killed; writes its pid to argv[1] after the first frame. */
#include "ctx.h"
int main(int argc, char **argv)
{
    make_context();
    for (unsigned i = 0;; ++i) {
        frame((float)(i % 100) / 100.0f);
        if (i == 0 && argc > 1) {
            FILE *f = fopen(argv[1], "w");
            fprintf(f, "%d\n", (int)getpid());
            fclose(f);
        }
    }
}
CEOF
cat >"$src/segv.c" <<'CEOF'
/* N glClearColor calls, glLineWidth(7), then a NULL dereference. With "handler":
 * the program's own SIGSEGV handler says so and _exits with 3. */
#include "ctx.h"
static void on_segv(int sig)
{
    (void)sig;
    static const char msg[] = "own handler ran\n";
    ssize_t k = write(2, msg, sizeof msg - 1);
    (void)k;
    _exit(3);
}
int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    if (argc > 2 && !strcmp(argv[2], "handler"))
        signal(SIGSEGV, on_segv);
    make_context();
    for (int i = 0; i < n; ++i)
        glClearColor((float)i, 0, 0, 1);
    glLineWidth(7.0f);
    volatile int *p = NULL;
    return *p;
}
CEOF
cat >"$src/quick_exit.c" <<'CEOF'
/* N calls, glLineWidth(5), then _exit(0) (or _Exit(0)) at once. */
#include "ctx.h"
int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    make_context();
    for (int i = 0; i < n; ++i)
        glClearColor((float)i, 0, 0, 1);
    glLineWidth(5.0f);
    if (argc > 2 && !strcmp(argv[2], "_Exit"))
        _Exit(0);
    _exit(0);
}
CEOF
cat >"$src/forker.c" <<'CEOF'
/* "early": forks before any GL call; the parent draws 3 frames, the child 5.
 * "late": draws 2 frames, forks; the child makes 7 glClearColor(0.75, ...) calls
 * (no context there: they do nothing) and exits; the parent draws 2 more.
 * Prints the child's pid. */
#include "ctx.h"
int main(int argc, char **argv)
{
    int late = argc > 1 && !strcmp(argv[1], "late");
    if (late) {
        make_context();
        frame(0.1f);
        frame(0.2f);
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        if (late) {
            for (int i = 0; i < 7; ++i)
                glClearColor(0.75f, 0, 0, 1);
            exit(0);
        }
        make_context();
        for (int i = 0; i < 5; ++i)
            frame(0.5f);
        exit(0);
    }
    printf("%d\n", (int)pid);
    if (!late)
        make_context();
    for (int i = 0; i < (late ? 2 : 3); ++i)
        frame(0.3f);
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
CEOF
cat >"$src/execer.c" <<'CEOF'
/* One frame, then fork + exec of argv[1...] (prints its pid), wait, one frame. */
#include "ctx.h"
int main(int argc, char **argv)
{
    (void)argc;
    make_context();
    frame(0.1f);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    printf("%d\n", (int)pid);
    fflush(stdout);
    int status;
    waitpid(pid, &status, 0);
    frame(0.2f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
CEOF
for p in loop segv quick_exit forker execer; do
  cc -O1 -Wall -Wextra -Werror -o "$src/$p" "$src/$p.c" -lGL -lX11 >"$WORK/cc.$p.log" 2>&1 ||
    die "cannot compile $p (needs the GL and X11 development files): $(head -3 "$WORK/cc.$p.log")"
done

# ---- helpers -----------------------------------------------------------------------
# dump WHAT TRACE: apitrace dump -v of TRACE into TRACE.txt, exit 0 and nothing on stderr
dump() {
  local what=$1 trace=$2
  if [ ! -s "$trace" ]; then
    fail "$what: no trace at $trace"
    return 1
  fi
  run_timed "$trace.txt" "$trace.err" apitrace dump -v --color=never "$trace"
  if [ "$RC" -ne 0 ]; then
    fail "$what: apitrace dump exits $RC"
    sed 's/^/    stderr: /' "$trace.err" | head -5
    return 1
  fi
  if [ -s "$trace.err" ]; then
    fail "$what: apitrace dump complains"
    sed 's/^/    stderr: /' "$trace.err" | head -5
    return 1
  fi
  pass "$what: apitrace dump reads it"
}
count() { grep -cE "^[0-9]+ $1\(" "$2" || true; }
# expect WHAT GOT WANT
expect() {
  if [ "$2" = "$3" ]; then pass "$1 ($2)"; else fail "$1: got '$2', expected '$3'"; fi
}
# last_two TRACE.txt: the last two calls, their numbers made relative to the first
# ("K name(...) / K+1 name(...)"), so the check does not depend on how many calls
# the context setup records
last_two() {
  grep -E '^[0-9]+ ' "$1" | tail -2 | awk 'NR == 1 { k = $1 } { $1 = "K+" ($1 - k); print }' |
    paste -sd'|' | cut -c1-300
}
# others PREFIX: the derived traces PREFIX.<n>.trace in $WORK
others() { find "$WORK" -maxdepth 1 -name "$1.*.trace" -printf '%f\n' | sort; }

# ---- a) SIGKILL --------------------------------------------------------------------
rm -f "$WORK/loop.pid"
set +e
timeout 60 "$gltrace" -o "$WORK/kill.trace" -- "$src/loop" "$WORK/loop.pid" \
  >"$WORK/kill.log" 2>&1 &
launcher=$!
set -e
for _ in $(seq 200); do [ -s "$WORK/loop.pid" ] && break; sleep 0.05; done
if [ -s "$WORK/loop.pid" ]; then
  wait_swaps "$WORK/kill.trace" 3
  kill -KILL "$(cat "$WORK/loop.pid")"
fi
set +e
wait "$launcher"
rc=$?
set -e
expect "kill -9: gltrace exits 128 + SIGKILL" "$rc" 137
if dump "kill -9" "$WORK/kill.trace"; then
  swaps=$(count glXSwapBuffers "$WORK/kill.trace.txt")
  if [ "$swaps" -gt 0 ]; then pass "kill -9: $swaps swaps"; else fail "kill -9: no swap"; fi
fi

# ---- b) SIGSEGV --------------------------------------------------------------------
N=5000
set +e
timeout 60 "$gltrace" -o "$WORK/segv.trace" -- "$src/segv" $N >"$WORK/segv.log" 2>&1
rc=$?
set -e
expect "SIGSEGV: gltrace exits 128 + SIGSEGV" "$rc" 139
if dump "SIGSEGV" "$WORK/segv.trace"; then
  expect "SIGSEGV: every glClearColor call" "$(count glClearColor "$WORK/segv.trace.txt")" $N
  expect "SIGSEGV: the last calls" "$(last_two "$WORK/segv.trace.txt")" \
    "K+0 glClearColor(red = $((N - 1)), green = 0, blue = 0, alpha = 1)|K+1 glLineWidth(width = 7)"
fi
set +e
timeout 60 "$gltrace" -o "$WORK/segvh.trace" -- "$src/segv" $N handler >"$WORK/segvh.log" 2>&1
rc=$?
set -e
expect "SIGSEGV with the program's handler: its exit status" "$rc" 3
if grep -q "own handler ran" "$WORK/segvh.log"; then
  pass "SIGSEGV: the program's own handler ran (chained)"
else
  fail "SIGSEGV: the program's own handler did not run"
fi
if dump "SIGSEGV, own handler" "$WORK/segvh.trace"; then
  expect "SIGSEGV, own handler: the last calls" "$(last_two "$WORK/segvh.trace.txt")" \
    "K+0 glClearColor(red = $((N - 1)), green = 0, blue = 0, alpha = 1)|K+1 glLineWidth(width = 7)"
fi

# ---- c) _exit, _Exit ---------------------------------------------------------------
for how in _exit _Exit; do
  set +e
  timeout 60 "$gltrace" -o "$WORK/$how.trace" -- "$src/quick_exit" 3000 $how \
    >"$WORK/$how.log" 2>&1
  rc=$?
  set -e
  expect "$how: exit status" "$rc" 0
  if dump "$how" "$WORK/$how.trace"; then
    expect "$how: every glClearColor call" "$(count glClearColor "$WORK/$how.trace.txt")" 3000
    expect "$how: the last calls" "$(last_two "$WORK/$how.trace.txt")" \
      "K+0 glClearColor(red = 2999, green = 0, blue = 0, alpha = 1)|K+1 glLineWidth(width = 5)"
  fi
done

# ---- d) fork -----------------------------------------------------------------------
set +e
timeout 60 "$gltrace" -o "$WORK/early.trace" -- "$src/forker" early >"$WORK/early.out" \
  2>"$WORK/early.log"
rc=$?
set -e
expect "fork early: exit status" "$rc" 0
child=$(head -1 "$WORK/early.out")
expect "fork early: the traces" "$(others early | tr '\n' ' ')" "early.$child.trace "
if dump "fork early: parent" "$WORK/early.trace"; then
  expect "fork early: parent's swaps" "$(count glXSwapBuffers "$WORK/early.trace.txt")" 3
fi
if dump "fork early: child" "$WORK/early.$child.trace"; then
  expect "fork early: child's swaps" "$(count glXSwapBuffers "$WORK/early.$child.trace.txt")" 5
fi
if grep -q "early.$child.trace" "$WORK/early.log"; then
  pass "fork early: gltrace reports the child's trace"
else
  fail "fork early: gltrace does not report the child's trace"
  sed 's/^/    /' "$WORK/early.log" | head -5
fi

set +e
timeout 60 "$gltrace" -o "$WORK/late.trace" -- "$src/forker" late >"$WORK/late.out" \
  2>"$WORK/late.log"
rc=$?
set -e
expect "fork late: exit status" "$rc" 0
child=$(head -1 "$WORK/late.out")
expect "fork late: the traces" "$(others late | tr '\n' ' ')" "late.$child.trace "
if dump "fork late: parent" "$WORK/late.trace"; then
  expect "fork late: parent's swaps" "$(count glXSwapBuffers "$WORK/late.trace.txt")" 4
  expect "fork late: none of the child's calls in the parent's trace" \
    "$(grep -c 'red = 0.75' "$WORK/late.trace.txt" || true)" 0
fi
if dump "fork late: child" "$WORK/late.$child.trace"; then
  expect "fork late: the child's calls" "$(grep -E '^[0-9]+ ' "$WORK/late.$child.trace.txt" |
    sed 's/^[0-9]* //' | sort | uniq -c | sed 's/^ *//')" \
    "7 glClearColor(red = 0.75, green = 0, blue = 0, alpha = 1)"
  expect "fork late: the child's calls are numbered from 0" \
    "$(grep -E '^[0-9]+ ' "$WORK/late.$child.trace.txt" | head -1 | cut -d' ' -f1)" 0
fi

# ---- e) exec -----------------------------------------------------------------------
set +e
timeout 60 "$gltrace" -o "$WORK/exec.trace" -- "$src/execer" glxinfo -B >"$WORK/exec.out" \
  2>"$WORK/exec.log"
rc=$?
set -e
expect "exec: exit status" "$rc" 0
child=$(grep -E '^[0-9]+$' "$WORK/exec.out" | head -1)
expect "exec: the traces" "$(others exec | tr '\n' ' ')" "exec.$child.trace "
if dump "exec: parent" "$WORK/exec.trace"; then
  expect "exec: parent's swaps" "$(count glXSwapBuffers "$WORK/exec.trace.txt")" 2
  expect "exec: parent's trace is the parent's" \
    "$(grep -c '^// process.name = .*execer"$' "$WORK/exec.trace.txt" || true)" 1
fi
if dump "exec: glxinfo" "$WORK/exec.$child.trace"; then
  expect "exec: glxinfo's trace is glxinfo's" \
    "$(grep -c '^// process.name = .*glxinfo.*"$' "$WORK/exec.$child.trace.txt" || true)" 1
  n=$(count glGetString "$WORK/exec.$child.trace.txt")
  if [ "$n" -gt 0 ]; then pass "exec: glxinfo's glGetString calls ($n)"; else
    fail "exec: no glGetString in glxinfo's trace"; fi
fi

# ---- f) a wrapper script -----------------------------------------------------------
set +e
timeout 60 "$gltrace" -o "$WORK/script.trace" -- sh -c "\"$src/segv\" 10 handler" \
  >"$WORK/script.log" 2>&1
rc=$?
set -e
expect "script: exit status" "$rc" 3
expect "script: no other trace" "$(others script | tr '\n' ' ')" ""
if dump "script" "$WORK/script.trace"; then
  expect "script: the GL program's calls" "$(last_two "$WORK/script.trace.txt")" \
    "K+0 glClearColor(red = 9, green = 0, blue = 0, alpha = 1)|K+1 glLineWidth(width = 7)"
fi

it_finish
