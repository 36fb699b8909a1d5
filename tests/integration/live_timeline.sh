#!/usr/bin/env bash
# live_timeline: `gltrace --timeline=T.fxt` writes, beside the trace, the CPU duration of
# each call as the program ran it (wrappers/timeline_live.c).
#   usage: live_timeline.sh BIN_DIR
# Recorded under our own Xvfb (Mesa llvmpipe); every timeline is read back with
# `gltrace convert --strict --print` (the strict FXT reader: a file that deviates from the
# spec in any way fails) and compared with `gltrace dump -v --thread-ids` of its trace:
#   a) gl33_demo --warmup --frames 5, and gl33_demo --thread (a second thread with a shared
#      context): one complete event per non-fake call of the trace, none for fake calls,
#      with the same names and call numbers in the same order on each thread; the `thread`
#      arg is the trace's thread index, each index on its own OS thread (two for --thread),
#      one process id; durations >= 0, every event inside the recording's run time, the
#      events of one thread one after the other (no overlap); the process is named after
#      the program, each thread "thread N"; one "frame" instant per swap, at the swap's end,
#      numbered from 0, and one "frame" counter with it whose `calls` count the events
#      since the previous one and `ms` the time since the previous frame;
#   b) kill -9 of gl33_demo drawing in a loop, once its trace holds 5 swaps and the
#      timeline has been flushed since: the timeline is still strictly
#      readable, holds calls (from the 1 s flusher), and on each thread its calls are a
#      prefix of the trace's;
#   c) SIGSEGV after 50 glClearColor and a glLineWidth: the timeline holds all of them
#      (written from the signal handler);
#   d) fork before any GL call, parent and child draw 3 and 5 frames (the child ends with
#      _exit): T.fxt holds the parent's calls and 3 frames, T.<childpid>.fxt the child's and
#      5, each matching its own trace; gltrace reports both timelines.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init live_timeline

require_recorder "$@"
app="$bin/gl33_demo"
require_file "$app" "tests/apps needs the x11 and gl dev packages"
require_tool Xvfb python3 cc timeout pgrep

start_xvfb 640x480x24
unset GLTRACE_OUTPUT_READY GLTRACE_TIMELINE GLTRACE_TIMELINE_READY || true

now_ns() { python3 -c 'import time; print(time.monotonic_ns())'; }

# check WHAT TIMELINE TRACE MODE THREADS T0 T1 [PROGRAM]: the checks of a) (MODE full)
# or b) (MODE prefix) on one timeline and its trace; THREADS the number of threads
# expected; T0, T1 the CLOCK_MONOTONIC ns before and after the recording; PROGRAM the
# process name expected (default gl33_demo).
check() {
  local what=$1 tl=$2 trace=$3 mode=$4 threads=$5 t0=$6 t1=$7 prog=${8:-gl33_demo}
  if [ ! -s "$tl" ]; then
    fail "$what: no timeline $tl"
    return 0
  fi
  set +e
  timeout 60 "$gltrace" convert --strict --print "$tl" >"$WORK/print.txt" 2>"$WORK/print.err"
  local rc=$?
  timeout 60 "$gltrace" dump -v --thread-ids --multiline=no --color=never "$trace" \
    >"$WORK/dump.txt" 2>"$WORK/dump.err"
  local rcd=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    fail "$what: gltrace convert --strict --print exits $rc"
    head -5 "$WORK/print.err" | sed 's/^/    /'
    return 0
  fi
  pass "$what: the strict FXT reader reads the timeline"
  if [ "$rcd" -ne 0 ]; then
    fail "$what: gltrace dump of the trace exits $rcd"
    return 0
  fi
  python3 - "$WORK/print.txt" "$WORK/dump.txt" "$mode" "$threads" "$t0" "$t1" \
    "$prog" >"$WORK/check.txt" <<'PYEOF'
import re, sys
printed, dumped, mode, want_threads, t0, t1 = sys.argv[1:7]
want_threads, t0, t1 = int(want_threads), int(t0), int(t1)
def check(ok, what):
    print(('PASS ' if ok else 'FAIL ') + what)

def args_of(text):
    out = {}
    for m in re.finditer(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)', text):
        out[m.group(1)] = m.group(2)
    return out

events = []
for line in open(printed, encoding='utf-8'):
    f = line.rstrip('\n').split('\t')
    if len(f) != 10:
        check(False, 'convert --print line with %d fields: %r' % (len(f), line[:100]))
        continue
    events.append(dict(kind=f[0], ts=int(f[1]), dur=int(f[2]), pid=int(f[3]), tid=int(f[4]),
                       cat=f[5], name=f[6], args=args_of(f[9])))

trace = []  # non-fake calls: (number, thread, name, incomplete)
fakes = set()
for line in open(dumped, encoding='utf-8', errors='replace'):
    m = re.match(r'(\d+) @(\d+) (\w+)\(', line)
    if not m:
        continue
    no, th, name = int(m.group(1)), int(m.group(2)), m.group(3)
    if line.rstrip().endswith('// fake'):
        fakes.add(no)
    else:
        trace.append((no, th, name))

calls = [e for e in events if e['kind'] == 'complete']
check(len(calls) > 0, 'the timeline holds complete events (%d)' % len(calls))
check(all(e['cat'] == 'gl' for e in calls), 'every call event has category gl')
bad = [e for e in calls if 'call' not in e['args'] or 'thread' not in e['args']]
check(not bad, 'every call event has the args call and thread (%d without)' % len(bad))
if bad:
    sys.exit(0)
for e in calls:
    e['call'], e['thread'] = int(e['args']['call']), int(e['args']['thread'])

# the calls, per trace thread, against the trace's
by_thread = {}
for no, th, name in trace:
    by_thread.setdefault(th, []).append((no, name))
tl_thread = {}
for e in calls:
    tl_thread.setdefault(e['thread'], []).append((e['call'], e['name']))
check(not [e for e in calls if e['call'] in fakes],
      'no event for a fake call (%d fake calls in the trace)' % len(fakes))
for th in sorted(set(by_thread) | set(tl_thread)):
    want, got = by_thread.get(th, []), tl_thread.get(th, [])
    if mode == 'full':
        ok = want == got
        what = 'thread %d: the %d events are the trace\'s %d non-fake calls, in order' % (
            th, len(got), len(want))
    else:
        ok = got == want[:len(got)]
        what = 'thread %d: the %d events are a prefix of the trace\'s %d non-fake calls' % (
            th, len(got), len(want))
    if not ok:
        diff = next((i for i in range(min(len(want), len(got))) if want[i] != got[i]),
                    min(len(want), len(got)))
        what += '; first difference at %d: trace %s, timeline %s' % (
            diff, want[diff:diff + 1], got[diff:diff + 1])
    check(ok, what)

# tracks: one process, one OS thread per trace thread
pids = {e['pid'] for e in events}
check(len(pids) == 1, 'one process id (%s)' % sorted(pids))
tids = {}
for e in calls:
    tids.setdefault(e['thread'], set()).add(e['tid'])
check(all(len(v) == 1 for v in tids.values()) and
      len({min(v) for v in tids.values()}) == len(tids),
      'each trace thread on one OS thread of its own (%s)' % {k: sorted(v) for k, v in tids.items()})
if want_threads:
    check(len(tids) == want_threads, '%d threads (%d)' % (want_threads, len(tids)))
pnames = [e for e in events if e['kind'] == 'process_name']
check(len(pnames) == 1 and pnames[0]['name'] == sys.argv[7] and pnames[0]['pid'] in pids,
      'the process is named %s (%s)' % (sys.argv[7], [e['name'] for e in pnames]))
tnames = {e['tid']: e['name'] for e in events if e['kind'] == 'thread_name'}
for th, v in sorted(tids.items()):
    tid = min(v)
    check(re.match(r'thread %d( \(.*\))?$' % th, tnames.get(tid, '')) is not None,
          'OS thread %d is named "thread %d" (%r)' % (tid, th, tnames.get(tid)))

# times
check(all(e['dur'] >= 0 for e in calls), 'durations >= 0')
outside = [e for e in calls if e['ts'] < t0 or e['ts'] + e['dur'] > t1]
check(not outside, 'every call lies within the recording run (%d outside)' % len(outside))
overlap = 0
last_end = {}
for e in calls:
    if e['ts'] < last_end.get(e['tid'], 0):
        overlap += 1
    last_end[e['tid']] = e['ts'] + e['dur']
check(overlap == 0, 'the calls of each thread follow one another (%d overlaps)' % overlap)

# frames
if mode == 'full':
    swaps = [e for e in calls if e['name'].endswith('SwapBuffers')]
    inst = [e for e in events if e['kind'] == 'instant' and e['name'] == 'frame']
    ctrs = [e for e in events if e['kind'] == 'counter' and e['name'] == 'frame']
    check(len(inst) == len(swaps) and len(ctrs) == len(swaps),
          'one frame instant and counter per swap (%d swaps, %d instants, %d counters)' % (
              len(swaps), len(inst), len(ctrs)))
    check([int(e['args'].get('frame', -1)) for e in inst] == list(range(len(inst))),
          'frame instants numbered from 0')
    check(all(i['ts'] == s['ts'] + s['dur'] and i['tid'] == s['tid'] for i, s in zip(inst, swaps)),
          'each frame instant at the end of its swap, on its thread')
    n, ok, prev = 0, True, None
    for e in events:
        if e['kind'] == 'complete':
            n += 1
        elif e['kind'] == 'counter' and e['name'] == 'frame':
            ms = float(e['args'].get('ms', -1))
            ok = ok and int(e['args'].get('calls', -1)) == n and ms >= 0 and (
                prev is None or abs(ms - (e['ts'] - prev) / 1e6) < 1e-6)
            n, prev = 0, e['ts']
    check(ok, 'frame counters: calls since the previous frame, ms since its end')
PYEOF
  local verdict rest
  while read -r verdict rest; do
    if [ "$verdict" = PASS ]; then pass "$what: $rest"; else fail "$what: $rest"; fi
  done <"$WORK/check.txt"
  grep -q . "$WORK/check.txt" || fail "$what: the checks printed nothing"
}

# record WHAT LOG CMD...: runs CMD (timeout 120) between two clock reads (T0, T1); sets RC
record() {
  local log=$2
  shift 2
  T0=$(now_ns)
  set +e
  timeout 120 "$@" >"$log" 2>&1
  RC=$?
  set -e
  T1=$(now_ns)
}

# frames_are WHAT N: the timeline check printed last has N frame instants
frames_are() {
  local n
  n=$(grep -c $'^instant\t.*\tframe\t' "$WORK/print.txt" || true)
  if [ "$n" = "$2" ]; then
    pass "$1 has $2 frames"
  else
    fail "$1 has $n frames, expected $2"
  fi
}

# ---- a) gl33_demo, one and two threads --------------------------------------------------
for variant in plain thread; do
  opts=(--warmup --frames 5)
  threads=1
  if [ $variant = thread ]; then
    opts+=(--thread)
    threads=2
  fi
  t="$WORK/$variant.trace"
  tl="$WORK/$variant.fxt"
  record "$variant" "$WORK/$variant.log" "$gltrace" -o "$t" --timeline="$tl" -- "$app" "${opts[@]}"
  if [ "$RC" -ne 0 ]; then
    fail "gl33_demo $variant: gltrace exits $RC"
    tail -5 "$WORK/$variant.log" | sed 's/^/    /'
    continue
  fi
  if grep -q "timeline written to $tl" "$WORK/$variant.log"; then
    pass "gl33_demo $variant: gltrace reports the timeline"
  else
    fail "gl33_demo $variant: gltrace does not report the timeline"
  fi
  check "gl33_demo $variant" "$tl" "$t" full "$threads" "$T0" "$T1"
done

# ---- b) kill -9 -------------------------------------------------------------------------
t="$WORK/killed.trace"
tl="$WORK/killed.fxt"
T0=$(now_ns)
"$gltrace" -o "$t" --timeline="$tl" -- "$app" --frames 1000000 >"$WORK/killed.log" 2>&1 &
launcher=$!
# killed once its trace holds 5 swaps and the flusher has written the timeline since
# (events, not seconds, decide); 60 s each: the safety net
wait_swaps "$t" 5
size=$(stat -c %s "$tl" 2>/dev/null || echo 0)
for ((i = 0; i < 600; i++)); do
  [ "$(stat -c %s "$tl" 2>/dev/null || echo 0)" -gt "$size" ] && break
  sleep 0.1
done
child=$(pgrep -P "$launcher" || true)
if [ -z "$child" ]; then
  fail "kill -9: gl33_demo was not running once its trace held 5 swaps"
  kill "$launcher" 2>/dev/null || true
else
  kill -9 "$child"
fi
wait "$launcher" || true
T1=$(now_ns)
if grep -q "signal 9" "$WORK/killed.log"; then
  pass "kill -9: the program was killed"
else
  fail "kill -9: gltrace does not report signal 9"
fi
check "kill -9" "$tl" "$t" prefix 1 "$T0" "$T1"

# ---- c) SIGSEGV, d) fork: small programs ------------------------------------------------------
cat >"$WORK/tl_app.c" <<'CEOF'
/* segv: 50 glClearColor, glLineWidth(7), then a NULL write. fork: fork() before any GL
 * call; the parent draws 3 frames and waits, the child draws 5 and ends with _exit. */
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
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
    XSetWindowAttributes swa = {0};
    swa.colormap = XCreateColormap(dpy, RootWindow(dpy, vi->screen), vi->visual, AllocNone);
    win = XCreateWindow(dpy, RootWindow(dpy, vi->screen), 0, 0, 64, 64, 0, vi->depth,
                        InputOutput, vi->visual, CWColormap, &swa);
    GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
    glXMakeCurrent(dpy, win, ctx);
}
static void frames(int n)
{
    for (int i = 0; i < n; ++i) {
        glClearColor(0.1f * (float)i, 0, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glXSwapBuffers(dpy, win);
    }
}
int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "segv")) {
        make_context();
        for (int i = 0; i < 50; ++i)
            glClearColor(0.01f * (float)i, 0, 0, 1);
        glLineWidth(7);
        *(volatile int *)(argc > 5 ? (void *)argv : NULL) = 1;
        return 0;
    }
    pid_t pid = fork();
    make_context();
    frames(pid == 0 ? 5 : 3);
    if (pid == 0)
        _exit(0);
    int st;
    waitpid(pid, &st, 0);
    printf("child %d\n", (int)pid);
    return 0;
}
CEOF
if cc -O1 -o "$WORK/tl_app" "$WORK/tl_app.c" -lGL -lX11 2>"$WORK/cc.log"; then
  # c) SIGSEGV
  t="$WORK/segv.trace"
  tl="$WORK/segv.fxt"
  record segv "$WORK/segv.log" "$gltrace" -o "$t" --timeline="$tl" -- "$WORK/tl_app" segv
  if [ "$RC" -eq $((128 + 11)) ]; then
    pass "SIGSEGV: the program died of SIGSEGV"
  else
    fail "SIGSEGV: gltrace exits $RC, expected 139"
  fi
  check "SIGSEGV" "$tl" "$t" full 1 "$T0" "$T1" tl_app
  if [ -s "$WORK/print.txt" ]; then
    n=$(grep -c $'^complete\t.*\tglClearColor\t' "$WORK/print.txt" || true)
    last=$(grep $'^complete\t' "$WORK/print.txt" | tail -1 | cut -f7)
    if [ "$n" = 50 ] && [ "$last" = glLineWidth ]; then
      pass "SIGSEGV: all 50 glClearColor and the final glLineWidth are in the timeline"
    else
      fail "SIGSEGV: $n glClearColor, last call $last (expected 50 and glLineWidth)"
    fi
  fi

  # d) fork
  t="$WORK/fork.trace"
  tl="$WORK/fork.fxt"
  record fork "$WORK/fork.log" "$gltrace" -o "$t" --timeline="$tl" -- "$WORK/tl_app" fork
  [ "$RC" -eq 0 ] || fail "fork: gltrace exits $RC"
  cpid=$(sed -n 's/^child \([0-9]*\)$/\1/p' "$WORK/fork.log")
  if [ -z "$cpid" ]; then
    fail "fork: the program did not print its child's pid"
  else
    check "fork, parent" "$tl" "$t" full 1 "$T0" "$T1" tl_app
    frames_are "fork: the parent's timeline" 3
    check "fork, child" "$WORK/fork.$cpid.fxt" "$WORK/fork.$cpid.trace" full 1 "$T0" "$T1" tl_app
    frames_are "fork: the child's timeline" 5
    if grep -q "timeline of another process written to $WORK/fork.$cpid.fxt" "$WORK/fork.log"; then
      pass "fork: gltrace reports the child's timeline"
    else
      fail "fork: gltrace does not report the child's timeline"
    fi
  fi
else
  fail "cannot compile the test program: $(head -3 "$WORK/cc.log")"
fi

it_finish
