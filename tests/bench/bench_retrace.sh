#!/usr/bin/env bash
# bench_retrace: `glretrace -b` (ours) against apitrace's `glretrace -b` on the same
# traces: one with many calls per frame (tests/apps/heavy_app recorded with gltrace, two
# threads), the same program with its two threads taking turns every few calls (a
# trace that switches threads ~200 times a frame), one with many frames (glxgears
# recorded with gltrace for a few seconds) and, when glmark2 is installed, a glmark2
# scene (`build` with client arrays, a few seconds). A benchmark, not a test (never
# registered with ctest). See README.md.
#
# usage: bench_retrace.sh [-n RUNS] [-f FRAMES] [-i CALLS] [-s SECONDS] [-b BIN_DIR]
#                         [-a GLRETRACE] [-o TABLE.md] [-k DIR] [-c] [TRACE...]
#   -n RUNS      timed runs per tool and trace (default 5); the two tools alternate
#   -f FRAMES    heavy_app --frames of the many-calls-per-frame trace (default 300)
#   -i CALLS     heavy_app --interleave of the switch-heavy trace (80 frames, threads
#                taking turns every CALLS uniform or buffer calls; default 6, 0: none)
#   -s SECONDS   how long glxgears is recorded for the many-frames trace (default 4)
#   -b BIN_DIR   where gltrace, glretrace and heavy_app are (default: <repo>/build/bin)
#   -a PATH      apitrace's glretrace (default: the `glretrace` in PATH)
#   -o FILE      also write the results as a markdown table to FILE
#   -k DIR       keep the recorded traces in DIR
#   -c           record nothing: only the given traces (with none given, the corpus
#                glxgears.trace, ../shared/corpus/apitrace/)
#   TRACE...     more traces to measure
# Under its own Xvfb, LIBGL_ALWAYS_SOFTWARE=1 (Mesa llvmpipe). Each run is
# `GLRETRACE -b TRACE`. After one warm-up run per tool, the tools alternate (order
# reversed every other run). Per trace: the median of the "Rendered N frames in S secs"
# times (the replay loop), of the wall times (process start to exit) and of the CPU
# times (user + system, all threads), the ratios apitrace/ours (above 1: ours is
# faster), and the calls/s of each tool over
# the replay loop (calls from `gltrace info`'s CallsCount). Verdict per trace, against
# the replay targets: call-heavy traces (at least 1,000 calls per frame) replay at least
# 1.5x as fast as apitrace's, the others (bound by llvmpipe) at least as fast: PASS, or
# EVEN within 2% of the target (noise), else FAIL.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tests/bench/bench_lib.sh
. "$here/bench_lib.sh"

runs=5
frames=300
interleave=6
seconds=4
bin="$top/build/bin"
apiretrace=
out=
keep=
record=1
while getopts "n:f:i:s:b:a:o:k:ch" opt; do
  case $opt in
  n) runs=$OPTARG ;;
  f) frames=$OPTARG ;;
  i) interleave=$OPTARG ;;
  s) seconds=$OPTARG ;;
  b) bin=$OPTARG ;;
  a) apiretrace=$OPTARG ;;
  o) out=$OPTARG ;;
  k) keep=$OPTARG ;;
  c) record=0 ;;
  h)
    sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))

gltrace="$bin/gltrace"
ours="$bin/glretrace"
app="$bin/heavy_app"
[ -n "$apiretrace" ] || apiretrace=$(command -v glretrace || true)
[ -x "$gltrace" ] || { echo "bench_retrace: $gltrace not found (build first, or -b)" >&2; exit 2; }
[ -x "$ours" ] || { echo "bench_retrace: $ours not found (build first, or -b)" >&2; exit 2; }
if [ -z "$apiretrace" ] || [ ! -x "$apiretrace" ]; then
  echo "bench_retrace: apitrace's glretrace not found (PATH, or -a)" >&2
  exit 2
fi
[ "$(cd "$(dirname "$apiretrace")" && pwd)/$(basename "$apiretrace")" != "$(cd "$bin" && pwd)/glretrace" ] ||
  { echo "bench_retrace: -a names our own glretrace" >&2; exit 2; }
for t in Xvfb python3; do
  command -v "$t" >/dev/null || { echo "bench_retrace: '$t' not found" >&2; exit 2; }
done

bench_workdir bench-retrace

bench_xvfb bench_retrace 1024x768x24
unset GLTRACE_OUTPUT GLTRACE_OUTPUT_READY TRACE_FILE || true

traces=()
if [ "$record" = 1 ]; then
  [ -x "$app" ] || { echo "bench_retrace: $app not found (needs the x11 and gl dev packages)" >&2; exit 2; }
  command -v glxgears >/dev/null || { echo "bench_retrace: 'glxgears' not found (or -c)" >&2; exit 2; }
  echo "bench_retrace: recording heavy_app --frames $frames (and --interleave $interleave), glxgears for $seconds s on $DISPLAY ..." >&2
  "$gltrace" -o "$work/heavy_app.trace" -- "$app" --frames "$frames" >/dev/null 2>&1 ||
    { echo "bench_retrace: recording heavy_app failed" >&2; exit 1; }
  timeout -s INT "$seconds" "$gltrace" -o "$work/glxgears.trace" -- glxgears >/dev/null 2>&1 || true
  [ -s "$work/glxgears.trace" ] || { echo "bench_retrace: recording glxgears failed" >&2; exit 1; }
  traces+=("$work/heavy_app.trace")
  if [ "$interleave" != 0 ]; then
    "$gltrace" -o "$work/heavy_switch.trace" -- "$app" --frames 80 --interleave "$interleave" \
      >/dev/null 2>&1 || { echo "bench_retrace: recording heavy_app --interleave failed" >&2; exit 1; }
    traces+=("$work/heavy_switch.trace")
  fi
  traces+=("$work/glxgears.trace")
  if command -v glmark2 >/dev/null; then
    "$gltrace" -o "$work/glmark2_build.trace" -- glmark2 -s 400x300 \
      -b "build:use-vbo=false:duration=$seconds" >/dev/null 2>&1 ||
      { echo "bench_retrace: recording glmark2 failed" >&2; exit 1; }
    traces+=("$work/glmark2_build.trace")
  fi
  if [ -n "$keep" ]; then
    mkdir -p "$keep"
    cp "${traces[@]}" "$keep/"
  fi
elif [ $# -eq 0 ]; then
  traces+=("$top/../shared/corpus/apitrace/glxgears.trace")
fi
traces+=("$@")

python3 - "$gltrace" "$ours" "$apiretrace" "$runs" "$out" "${traces[@]}" <<'PYEOF'
import json, os, platform, re, resource, statistics, subprocess, sys, time

gltrace, ours, apiretrace, runs, out = sys.argv[1:6]
runs = int(runs)
traces = sys.argv[6:]
tools = {'apitrace': apiretrace, 'ours': ours}
rendered = re.compile(r'Rendered (\d+) frames in ([0-9.eE+-]+) secs')
thread_of = re.compile(r'\d+ @(\d+) ')


def switches(trace):
    """Changes of thread between consecutive calls (each costs ours a context bind)."""
    p = subprocess.Popen([gltrace, 'dump', '--verbose', '--thread-ids', '--color=never',
                          '--multiline=false', '--arg-names=false', trace],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         errors='replace')
    n, prev = 0, None
    for line in p.stdout:
        m = thread_of.match(line)
        if m:
            n += prev is not None and m.group(1) != prev
            prev = m.group(1)
    p.wait()
    return n


def once(tool, trace):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([tools[tool], '-b', trace], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors='replace')
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    m = rendered.search(p.stdout)
    if p.returncode != 0 or not m:
        sys.exit('bench_retrace: %s -b %s: exit %d, %s' % (
            tools[tool], trace, p.returncode, (p.stdout + p.stderr)[-500:]))
    return int(m.group(1)), float(m.group(2)), wall, cpu


rows = []
for t in traces:
    name = os.path.basename(t)
    info = subprocess.run([gltrace, 'info', t], capture_output=True, text=True)
    try:
        d = json.loads(info.stdout)
    except ValueError:
        sys.exit('bench_retrace: gltrace info %s failed' % t)
    calls, nthreads = d.get('CallsCount', 0), d.get('ThreadsCount', 1)
    nswitch = switches(t) if nthreads > 1 else 0
    frames = {}
    for k in tools:  # warm-up: page cache, shader cache, dynamic linking
        frames[k] = once(k, t)[0]
    sec = {k: [] for k in tools}
    wall = {k: [] for k in tools}
    cpu = {k: [] for k in tools}
    for i in range(runs):
        for k in (list(tools) if i % 2 == 0 else list(reversed(list(tools)))):
            _, s, w, c = once(k, t)
            sec[k].append(s)
            wall[k].append(w)
            cpu[k].append(c)
        print('bench_retrace: %s run %d/%d: %s' % (name, i + 1, runs, ', '.join(
            '%s %.3f s (wall %.3f s)' % (k, sec[k][-1], wall[k][-1]) for k in tools)),
            file=sys.stderr, flush=True)
    ms = {k: statistics.median(v) for k, v in sec.items()}
    mw = {k: statistics.median(v) for k, v in wall.items()}
    mc = {k: statistics.median(v) for k, v in cpu.items()}
    rows.append(dict(name=name, calls=calls, threads=nthreads, switches=nswitch, frames=frames,
                     sec=ms, wall=mw,
                     cpu=mc, ratio=ms['apitrace'] / ms['ours'], wratio=mw['apitrace'] / mw['ours'],
                     cratio=mc['apitrace'] / mc['ours']))

lines = [
    '`glretrace -b TRACE`, apitrace\'s (%s) against ours (%s): median of %d runs per tool '
    '(alternating) after one warm-up run each; Mesa llvmpipe (LIBGL_ALWAYS_SOFTWARE=1) on '
    'Xvfb. Host: %s, %d CPUs. "replay s" is the "Rendered N frames in S secs" time, '
    '"wall s" the process run time, "CPU s" its user + system time (all its threads, '
    'llvmpipe\'s included); calls/s = CallsCount / replay s; ratio = apitrace / ours '
    '(above 1: ours is faster); switches: changes of traced thread between consecutive '
    'calls.' % (apiretrace, ours, runs, platform.machine(), os.cpu_count()),
    '',
    '| trace | calls | switches | frames | calls/frame | apitrace replay s | ours replay s | ratio | '
    'apitrace wall s | ours wall s | wall ratio | apitrace CPU s | ours CPU s | CPU ratio | '
    'apitrace calls/s | ours calls/s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
]
verdicts = []
for r in rows:
    f = r['frames']['ours']
    lines.append('| %s | %d | %d | %d | %.0f | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f | %.3f | '
                 '%.3f | %.2f | %.0f | %.0f |' % (
        r['name'], r['calls'], r['switches'], f, r['calls'] / max(f, 1), r['sec']['apitrace'],
        r['sec']['ours'],
        r['ratio'], r['wall']['apitrace'], r['wall']['ours'], r['wratio'], r['cpu']['apitrace'],
        r['cpu']['ours'], r['cratio'], r['calls'] / r['sec']['apitrace'], r['calls'] / r['sec']['ours']))
    heavy = r['calls'] / max(f, 1) >= 1000
    target = 1.5 if heavy else 1.0
    verdicts.append('%s: %s: ratio %.2f, target %.1f (%s; median replay time ours %.3f s, '
                    'apitrace %.3f s)' % (
        'PASS' if r['ratio'] >= target else 'EVEN' if r['ratio'] >= target / 1.02 else 'FAIL',
        r['name'], r['ratio'], target, 'call-heavy' if heavy else 'llvmpipe-bound',
        r['sec']['ours'], r['sec']['apitrace']))
    if r['frames']['ours'] != r['frames']['apitrace']:
        verdicts.append('NOTE: %s: the frame counts differ (apitrace %d, ours %d)' % (
            r['name'], r['frames']['apitrace'], r['frames']['ours']))
text = '\n'.join(lines + [''] + verdicts) + '\n'
sys.stdout.write(text)
if out:
    with open(out, 'w') as fh:
        fh.write('# glretrace -b: ours vs apitrace\n\n' + text)
    print('table written to %s' % out, file=sys.stderr)
PYEOF
