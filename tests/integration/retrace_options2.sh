#!/usr/bin/env bash
# retrace_options2: the rest of apitrace glretrace's options, beside apitrace 11.1's
# glretrace on corpus traces and on a program with GL queries built here.
#  - --ppd: the text profile's lines (call numbers, names, which calls are draws: -1 for
#    the others) are apitrace's; the counts are the driver's and may differ where the
#    two replayers' windows differ in size (glxdemo: ours 57600, apitrace 4).
#  - --pmem: apitrace's lines; ours hold /proc's vsize (bytes) and rss (pages) in every
#    line, where Debian's apitrace, built without procps, prints zeros.
#  - --markers: the replay, recorded by `apitrace trace`, holds the same
#    glDebugMessageInsert calls (text, id, source, type) as apitrace's replay, but for
#    glGetAttribLocation: apitrace replays it (to compare locations), ours does not, so
#    it has no marker (glmark2_desktop: 18).
#  - --core, --samples=4: the state dump's GL_CONTEXT_PROFILE_MASK, GL_SAMPLES and
#    GL_SAMPLE_BUFFERS are apitrace's, with and without them.
#  - --query-handling: skip replays no glGetQueryObject*, run and check replay as many as
#    apitrace's replay (counted in recordings of both replays); check warns about the same
#    calls with apitrace's text (timestamps; an occlusion query into an FBO matches);
#    --query-tolerance=N implies check. Differences: our warning's prefix names the
#    function ("N: glFoo: warning:"), as all our replay warnings do; apitrace reads the
#    tolerance into 32 bits (1e14 becomes 276447232), we keep 64.
#  - --ppd leaves draw calls inside the program's own GL_SAMPLES_PASSED query alone
#    (apitrace's fails there, and its glEndQuery ends the program's query instead).
#  - bad values of --query-handling and --samples are refused (exit 2).
#   usage: retrace_options2.sh BIN_DIR CORPUS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init retrace_options2

it_bin_corpus "$@"
ours="$bin/glretrace"
require_file "$ours" "build glretrace first"
require_tool apitrace glretrace python3 timeout Xvfb cc awk
start_xvfb
# apitrace's wrapper preloaded into a sanitized glretrace of ours
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# apitrace's glretrace and ours with the same arguments: $WORK/a.out, $WORK/g.out (and .err)
run_both() {
  timeout 120 glretrace "$@" >"$WORK/a.out" 2>"$WORK/a.err" || true
  local rc=0
  timeout 120 "$ours" "$@" >"$WORK/g.out" 2>"$WORK/g.err" || rc=$?
  [ "$rc" -eq 0 ] || { fail "glretrace $*: exit $rc"; tail -3 "$WORK/g.err" | sed 's/^/    /'; }
}

# ---- --ppd, --pmem ------------------------------------------------------------------------
# call no, name, and whether a draw (pixels >= 0) or not (-1)
ppd_lines() { awk '/^call / { print $2, $13, ($11 < 0 ? "-1" : "n") } /^(frame_end|#)/' "$1"; }
for t in glxgears glmark2_desktop glthreads tri; do
  run_both --ppd "$corpus/$t.trace"
  compare_files "--ppd $t: apitrace's lines and draw calls" <(ppd_lines "$WORK/a.out") \
    <(ppd_lines "$WORK/g.out")
done
drawn=$(awk '/^call / && $11 > 0 { n++ } END { print n + 0 }' "$WORK/g.out")
[ "$drawn" -gt 0 ] && pass "--ppd tri: $drawn draw calls with pixels" || fail "--ppd tri: no pixels"

mem_lines() { awk '/^call / { print $2, $13 } /^(frame_end|#)/' "$1"; }
for t in glxdemo glxgears; do
  run_both --pmem "$corpus/$t.trace"
  compare_files "--pmem $t: apitrace's lines" <(mem_lines "$WORK/a.out") <(mem_lines "$WORK/g.out")
  bad=$(awk '/^call / && !($7 > 0 && $9 > 0) { n++ } END { print n + 0 }' "$WORK/g.out")
  [ "$bad" = 0 ] && pass "--pmem $t: vsize and rss in every line" ||
    fail "--pmem $t: $bad lines without vsize or rss"
done

# ---- --markers ------------------------------------------------------------------------------
markers() { # TRACE_OF_A_REPLAY: its markers, one per line (glGetAttribLocation left out)
  apitrace dump --color=never "$1" | grep -o 'glDebugMessageInsert(.*' |
    grep -v -E 'buf = "[0-9]+ glGetAttribLocation\(' || true
}
for t in glxgears glmark2_desktop; do
  rm -f "$WORK/ma.trace" "$WORK/mg.trace"
  timeout 300 apitrace trace -o "$WORK/ma.trace" glretrace --markers "$corpus/$t.trace" \
    >/dev/null 2>&1 || true
  timeout 300 apitrace trace -o "$WORK/mg.trace" "$ours" --markers "$corpus/$t.trace" \
    >/dev/null 2>"$WORK/mg.err" || fail "--markers $t: our replay under apitrace trace failed"
  markers "$WORK/ma.trace" >"$WORK/ma.txt"
  markers "$WORK/mg.trace" >"$WORK/mg.txt"
  n=$(wc -l <"$WORK/mg.txt")
  [ "$n" -gt 100 ] && compare_files "--markers $t: apitrace's $n markers" "$WORK/ma.txt" \
    "$WORK/mg.txt" || fail "--markers $t: $n markers"
done

# ---- --core, --samples ----------------------------------------------------------------------
params() { # the state dump's context parameters
  python3 -c '
import json, sys
p = json.loads(sys.stdin.read(), strict=False)["parameters"]
print(*(p.get(k) for k in ("GL_CONTEXT_PROFILE_MASK", "GL_SAMPLES", "GL_SAMPLE_BUFFERS")))' \
    <"$1" 2>/dev/null || echo unreadable
}
for opts in "" "--core" "--samples=4" "--core --samples=4"; do
  # apitrace's dump is now and then cut short (an unterminated string, 2 runs in 15
  # here): it is asked again, up to five times
  for _ in 1 2 3 4 5; do
    # shellcheck disable=SC2086
    run_both $opts -D 10 "$corpus/glxgears.trace"
    sed -i '/^\//d' "$WORK/a.out" # apitrace prints the traced program's path first
    [ "$(params "$WORK/a.out")" = unreadable ] || break
  done
  compare_files "${opts:-no options}: apitrace's profile mask, samples ($(params "$WORK/g.out"))" \
    <(params "$WORK/a.out") <(params "$WORK/g.out")
done

# ---- --query-handling, --query-tolerance ---------------------------------------------------
# occlusion queries into a framebuffer object (counts independent of the window) and a
# timestamp query (never the trace's), read back each frame
cat >"$WORK/q_prog.c" <<'EOF'
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#include "glx_window.h"

int main(void)
{
    Display *dpy;
    Window win;
    GLXContext ctx;
    if (glxw_open(64, &dpy, &win, &ctx))
        return 1;
    GLuint fbo, rb, q[2];
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 64, 64);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glViewport(0, 0, 64, 64);
    glGenQueries(2, q);
    for (int frame = 0; frame < 3; ++frame) {
        glClear(GL_COLOR_BUFFER_BIT);
        glBeginQuery(GL_SAMPLES_PASSED, q[0]);
        glRectf(-0.5f, -0.5f, 0.5f + 0.25f * frame, 0.5f);
        glEndQuery(GL_SAMPLES_PASSED);
        GLuint avail = 0, n = 0;
        while (!avail)
            glGetQueryObjectuiv(q[0], GL_QUERY_RESULT_AVAILABLE, &avail);
        glGetQueryObjectuiv(q[0], GL_QUERY_RESULT, &n);
        GLint64 n64 = 0;
        glGetQueryObjecti64v(q[0], GL_QUERY_RESULT, &n64);
        glQueryCounter(q[1], GL_TIMESTAMP);
        GLuint64 ts = 0;
        glGetQueryObjectui64v(q[1], GL_QUERY_RESULT, &ts);
        glXSwapBuffers(dpy, win);
    }
    glxw_close(dpy, ctx);
    return 0;
}
EOF
cc -O0 -I"$here" -o "$WORK/q_prog" "$WORK/q_prog.c" -lGL -lX11 2>"$WORK/cc.log" ||
  die "cannot build the query program: $(head -3 "$WORK/cc.log")"
qt="$WORK/q.trace"
timeout 60 apitrace trace -o "$qt" "$WORK/q_prog" >/dev/null 2>&1 || die "cannot record the query program"
nq=$(apitrace dump "$qt" | grep -c 'glGetQueryObject' || true)
[ "$nq" -ge 12 ] || die "the query program's trace holds $nq glGetQueryObject calls"

# REPLAYER OPTIONS...: the glGetQueryObject calls of a recording of the replay, the
# GL_QUERY_RESULT_AVAILABLE ones counted apart (as many as polling took: at least one
# per frame where the trace found the result available)
queries_replayed() {
  local r=$1
  shift
  rm -f "$WORK/qr.trace"
  timeout 120 apitrace trace -o "$WORK/qr.trace" "$r" "$@" "$qt" >/dev/null 2>&1 || true
  apitrace dump "$WORK/qr.trace" 2>/dev/null | awk '/glGetQueryObject/ {
      if (/GL_QUERY_RESULT_AVAILABLE/) a++; else n++ }
    END { print n + 0, (a >= 3 ? "available-polled" : a + 0) }'
}
for mode in skip run check; do
  a=$(queries_replayed glretrace --query-handling=$mode)
  g=$(queries_replayed "$ours" --query-handling=$mode)
  [ "$a" = "$g" ] && pass "--query-handling=$mode: glGetQueryObject replayed ($g), as apitrace" ||
    fail "--query-handling=$mode: glGetQueryObject replayed: $g, apitrace $a"
done

warned() { # ERR: call number and text of the query warnings
  sed -n 's/^\([0-9]*\): \(gl[A-Za-z0-9]*: \)\{0,1\}warning: \(Warning: query returned\) [0-9-]* \(but trace contained [0-9-]*\) \((tol = [0-9]*)\)$/\1 \3 \4 \5/p' "$1"
}
for opts in "--query-handling=check" "--query-tolerance=5000" "--query-handling=run"; do
  # shellcheck disable=SC2086
  run_both $opts "$qt"
  n=$(warned "$WORK/g.err" | wc -l)
  compare_files "$opts: apitrace's $n query warnings" <(warned "$WORK/a.err") <(warned "$WORK/g.err")
done
[ "$n" = 0 ] && pass "--query-handling=run: no warnings" || fail "--query-handling=run: $n warnings"
run_both --query-handling=check "$qt"
[ "$(warned "$WORK/g.err" | wc -l)" = 3 ] && pass "check: the 3 timestamps warned about, not the FBO's counts" ||
  fail "check: $(warned "$WORK/g.err" | wc -l) warnings, not the 3 timestamps"
"$ours" --query-tolerance=100000000000000000 "$qt" >/dev/null 2>"$WORK/g.err" || true
[ "$(warned "$WORK/g.err" | wc -l)" = 0 ] && pass "--query-tolerance=1e17 (64 bits): no warning" ||
  fail "--query-tolerance=1e17: warnings"

# which calls are profiled: glGetQueryObject* skipped are not (apitrace returns before);
# apitrace lists a polled GL_QUERY_RESULT_AVAILABLE once per poll (its wait jumps back
# before the profiling), ours once: repeats are folded
for mode in skip run; do
  run_both --ppd --query-handling=$mode "$qt"
  compare_files "--ppd --query-handling=$mode: apitrace's lines" <(ppd_lines "$WORK/a.out" | uniq) \
    <(ppd_lines "$WORK/g.out" | uniq)
  run_both --pcalls "opengl:CPU Duration" --query-handling=$mode "$qt"
  compare_files "--pcalls --query-handling=$mode: apitrace's calls" \
    <(awk -F'\t' '/^call/ { print $2, $4 }' "$WORK/a.out" | uniq) \
    <(awk -F'\t' '/^call/ { print $2, $4 }' "$WORK/g.out" | uniq)
done

# --ppd beside the program's own occlusion query: ours stays out of it (apitrace's
# GL_SAMPLES_PASSED query fails there, unchecked while profiling, and its glEndQuery
# ends the program's query in the program's stead)
rc=0
"$ours" --ppd --query-handling=check "$qt" >"$WORK/g.out" 2>"$WORK/g.err" || rc=$?
other=$(grep -c -v -e 'Warning: query returned' "$WORK/g.err" || true)
[ "$rc" = 0 ] && [ "$(warned "$WORK/g.err" | wc -l)" = 3 ] && [ "$other" = 0 ] &&
  pass "--ppd with the program's queries: no GL error, its counts as the trace's" ||
  fail "--ppd with the program's queries: exit $rc, $other other lines: $(head -2 "$WORK/g.err")"

# ---- bad values -----------------------------------------------------------------------------
for bad in --query-handling=sometimes --samples=many --query-tolerance=-1; do
  rc=0
  "$ours" "$bad" "$qt" >/dev/null 2>"$WORK/bad.err" || rc=$?
  [ "$rc" = 2 ] && grep -q -e "${bad%%=*}" "$WORK/bad.err" && pass "$bad: refused, named" ||
    fail "$bad: exit $rc, $(head -1 "$WORK/bad.err")"
done

it_finish
