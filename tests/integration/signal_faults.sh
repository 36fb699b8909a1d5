#!/usr/bin/env bash
# signal_faults: fault injection. Recordings are killed at random moments by every
# catchable signal whose default action ends the process, and every call that
# returned before the signal must be in the trace (wrappers/runtime_safety.c, the
# writer's dying flush in formats/apitrace/at_output_snappy.c).
#   usage: signal_faults.sh BIN_DIR
# The program is mt_calls_app (tests/apps): threads, each with its own GLX context,
# call glClearStencil(t << 24 | i) in a tight loop and publish in a shared file
# mapping, after each call returns, how many they have completed. Each run:
#   - `gltrace -o T -- mt_calls_app COUNTS THREADS`; once every thread has made its
#     first call, a random 5-150 ms later, the program (not the launcher) gets the
#     run's signal. Runs take turns: 8 threads and kill(2) (the kernel hands the
#     signal to the idle main thread, which waits for the busy writer's lock); 8
#     threads and tgkill(2) to a random busy thread (mostly asleep on the lock); 2
#     threads, then 1, with tgkill (the thread is then often inside an event itself:
#     the handler writes the complete events without the lock). The signals, in
#     turn: SIGINT SIGTERM SIGHUP SIGQUIT SIGABRT SIGSEGV SIGBUS SIGFPE SIGILL SIGALRM
#     SIGUSR1 SIGUSR2 SIGPIPE SIGVTALRM SIGPROF SIGXCPU SIGXFSZ SIGSYS SIGTRAP SIGPWR
#     SIGSTKFLT SIGIO SIGRTMIN SIGRTMIN+1 SIGRTMIN+2 SIGRTMAX-1 SIGRTMAX;
#   - with one thread, the trace is compressed as a normal one is (the chunk written at
#     the signal too);
#   - gltrace exits 128 + the signal (the program died of it, as without gltrace);
#   - `gltrace dump T`: for each thread t and each i below its count published before
#     the signal (read just before sending it), the call glClearStencil(s = t << 24 |
#     i) is there and complete (not "// incomplete");
#   - `apitrace dump T` exits 0 with nothing on stderr but its warning about calls
#     left incomplete (every 5th run, and every run with LONG=1: it is the slow part);
#   - every third run also records `--timeline=F.fxt`: F passes the strict FXT reader
#     (its handlers flush the timeline too, without allocating).
# Runs: FAULT_RUNS, else 28 (each signal at least once; about 40 s on two cores), or
# 112 with LONG=1. THREADS=N makes every run use N threads.
# Exec: mt_calls_app (8 threads) execv()s /bin/true (no fork) 100 ms after its threads
# started, while they call: gltrace exits 0 and the trace holds every call published
# (override_exec.c flushes and holds the writer across the exec), 3 runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init signal_faults

require_recorder "$@"
app="$bin/mt_calls_app"
require_file "$app" "tests/apps needs the x11 and gl dev packages"
require_tool apitrace Xvfb python3 timeout

runs=${FAULT_RUNS:-$([ -n "${LONG:-}" ] && [ "${LONG:-0}" != 0 ] && echo 112 || echo 28)}
apitrace_every=$([ -n "${LONG:-}" ] && [ "${LONG:-0}" != 0 ] && echo 1 || echo 5)
start_xvfb 640x480x24
ulimit -c 0 || true

cat >"$WORK/driver.py" <<'PYEOF'
"""Runs the recordings, kills them, checks the traces; prints PASS/FAIL lines."""
import ctypes, json, os, random, re, signal, struct, subprocess, sys, time

gltrace, app, work, runs, every, threads = sys.argv[1:7]
runs, every, threads = int(runs), int(every), int(threads)
S = signal
SIGNALS = [S.SIGINT, S.SIGTERM, S.SIGHUP, S.SIGQUIT, S.SIGABRT, S.SIGSEGV, S.SIGBUS,
           S.SIGFPE, S.SIGILL, S.SIGALRM, S.SIGUSR1, S.SIGUSR2, S.SIGPIPE, S.SIGVTALRM,
           S.SIGPROF, S.SIGXCPU, S.SIGXFSZ, S.SIGSYS, S.SIGTRAP, S.SIGPWR, S.SIGSTKFLT,
           S.SIGIO, S.SIGRTMIN, S.SIGRTMIN + 1, S.SIGRTMIN + 2, S.SIGRTMAX - 1, S.SIGRTMAX]
CALL = re.compile(rb'glClearStencil\(s = (\d+)\)( // incomplete)?')
rng = random.Random(int(os.environ.get('FAULT_SEED', time.time_ns())))
libc = ctypes.CDLL(None, use_errno=True)
SYS_TGKILL = {'x86_64': 234, 'aarch64': 131, 'i686': 270}.get(os.uname().machine)


def tgkill(pid, tid, sig):
    if SYS_TGKILL is None:  # unknown system call number: the whole process then
        return os.kill(pid, sig)
    if libc.syscall(SYS_TGKILL, pid, tid, sig) != 0:
        raise OSError(ctypes.get_errno(), 'tgkill')


def name(sig):
    try:
        return signal.Signals(sig).name
    except ValueError:
        return 'SIGRTMIN+%d' % (sig - signal.SIGRTMIN)


def words(path):
    with open(path, 'rb') as f:
        data = f.read(4096)
    return struct.unpack('<%dQ' % (len(data) // 8), data) if len(data) == 4096 else None


def start(counts, trace, extra, threads, timeline=None):
    for p in (counts, trace, timeline):
        if p and os.path.exists(p):
            os.unlink(p)
    log = open(trace + '.log', 'wb')
    opts = ['--timeline=' + timeline] if timeline else []
    proc = subprocess.Popen([gltrace, '-o', trace] + opts + ['--', app, counts, str(threads)] +
                            extra, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 30
    while time.time() < deadline and proc.poll() is None:
        w = words(counts) if os.path.exists(counts) else None
        if w and w[1] == 1:
            return proc, w[0]
        time.sleep(0.005)
    return proc, None


def published_counts(counts):
    w = words(counts)
    return [w[8 + t] for t in range(w[2])]


def check_compressed(what, trace):
    """With one thread, the chunk written at the signal is compressed too
    (at_snappy_encode.c: the handler holds the writer's lock, or interrupted its own
    thread holding it): these repetitive calls take under half their stream size, as
    in a trace that ended normally. (A handler that finds another thread stuck holding
    the lock writes its last chunk stored. The program's one thread is not the only
    one: the flusher thread writes pending bytes once a second, and a signal landing
    while it holds the lock stores that last chunk: seen on a loaded machine with
    signals 12 and 34 ms in. So one stored chunk, at most 1 MiB, is allowed on top of
    half the stream, until a compressor thread of its own takes that chunk over.)"""
    out = subprocess.run([gltrace, 'info', trace], capture_output=True, timeout=120)
    try:
        info = json.loads(out.stdout)
        stream, size = info['ActualDataSize'], info['ContainerSize']
    except (ValueError, KeyError):
        print('FAIL %s: gltrace info: %s' % (what, out.stderr[:200]))
        return
    if stream > 65536 and size > stream // 2 + (1 << 20) + 16:
        print('FAIL %s: %d bytes of stream take %d in the file' % (what, stream, size))


def check_trace(what, trace, published, dump_apitrace):
    """The published calls all complete in the trace; apitrace reads it."""
    out = subprocess.run([gltrace, 'dump', '--color=never', trace], capture_output=True,
                         timeout=120)
    if out.returncode != 0:
        print('FAIL %s: gltrace dump exits %d: %s' % (what, out.returncode,
                                                      out.stderr[:200]))
        return
    have = [0] * len(published)
    partial = 0
    for v, inc in CALL.findall(out.stdout):
        v = int(v)
        t, i = v >> 24, v & 0xffffff
        if t < len(have) and i < published[t]:
            if inc:
                partial += 1
            else:
                have[t] += 1
    missing = sum(published) - sum(have)
    detail = '%d calls published by %d threads' % (sum(published), len(published))
    if missing or partial:
        lost = ', '.join('t%d %d/%d' % (t, have[t], p) for t, p in enumerate(published)
                         if have[t] != p)
        print('FAIL %s: %d published calls missing, %d incomplete (%s; %s)' %
              (what, missing, partial, detail, lost))
    else:
        print('PASS %s: every published call is in the trace (%s)' % (what, detail))
    if len(published) == 1:
        check_compressed(what, trace)
    if not dump_apitrace:
        return
    a = subprocess.run(['apitrace', 'dump', '--color=never', trace],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)
    err = [l for l in a.stderr.decode('utf-8', 'replace').splitlines()
           if not re.search(r'call\(s\) left incomplete|incomplete call', l)]
    if a.returncode != 0 or err:
        print('FAIL %s: apitrace dump exits %d: %s' % (what, a.returncode, ' | '.join(err)[:300]))
    else:
        print('PASS %s: apitrace dump reads it' % what)


def fault_run(k):
    sig = SIGNALS[k % len(SIGNALS)]
    what = 'run %d %s' % (k, name(sig))
    counts, trace = os.path.join(work, 'counts'), os.path.join(work, 'run.trace')
    nthreads = threads or [8, 8, 2, 1][k % 4]
    # every third run also writes the live timeline, flushed by the same handlers
    timeline = os.path.join(work, 'run.fxt') if k % 3 == 2 else None
    proc, pid = start(counts, trace, [], nthreads, timeline)
    if pid is None:
        proc.kill()
        proc.wait()
        print('FAIL %s: the program did not start its threads' % what)
        return
    delay = rng.uniform(0.005, 0.150)
    time.sleep(delay)
    published = published_counts(counts)  # these calls returned before the signal
    if k % 4:
        t = rng.randrange(nthreads)
        tgkill(pid, words(counts)[128 + t], sig)
        what += ' to thread %d' % t
    else:
        os.kill(pid, sig)
    try:
        rc = proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.kill(pid, signal.SIGKILL)
        proc.wait()
        print('FAIL %s: the program outlived its signal by 20 s' % what)
        return
    what += ' after %d ms' % (delay * 1000)
    if rc == 128 + sig:
        print('PASS %s: gltrace exits 128 + %d' % (what, sig))
    else:
        print('FAIL %s: gltrace exits %d, expected %d; log: %s' %
              (what, rc, 128 + sig, open(trace + '.log', 'rb').read()[-300:]))
    check_trace(what, trace, published, k % every == 0)
    if timeline:
        check_timeline(what, timeline)


def check_timeline(what, timeline):
    """The timeline of a killed recording is whole records: the strict reader takes it."""
    out = subprocess.run([gltrace, 'convert', '--strict', '--counts', timeline],
                         capture_output=True, timeout=120)
    if out.returncode == 0 and b'complete' in out.stdout:
        print('PASS %s: the live timeline passes the strict FXT reader' % what)
    else:
        print('FAIL %s: convert --strict of the timeline exits %d: %s' %
              (what, out.returncode, (out.stderr or out.stdout)[:300]))


def exec_run(k):
    what = 'exec run %d' % k
    counts, trace = os.path.join(work, 'counts'), os.path.join(work, 'exec.trace')
    proc, pid = start(counts, trace, ['100', '/bin/true'], threads or 8)
    if pid is None:
        proc.kill()
        proc.wait()
        print('FAIL %s: the program did not start its threads' % what)
        return
    rc = proc.wait(timeout=30)
    if rc == 0:
        print('PASS %s: gltrace exits 0 (the exec\'d /bin/true)' % what)
    else:
        print('FAIL %s: gltrace exits %d' % (what, rc))
    check_trace(what, trace, published_counts(counts), True)


for k in range(runs):
    fault_run(k)
    sys.stdout.flush()
for k in range(3):
    exec_run(k)
PYEOF

set +e
python3 "$WORK/driver.py" "$gltrace" "$app" "$WORK" "$runs" "$apitrace_every" \
  "${THREADS:-0}" >"$WORK/results.txt"
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "the driver exits $rc"
while read -r verdict rest; do
  if [ "$verdict" = PASS ]; then pass "$rest"; else fail "$rest"; fi
done <"$WORK/results.txt"
echo "signal_faults: $runs signal runs, 3 exec runs"
it_finish
