#!/usr/bin/env bash
# bench_timeline: the cost of glretrace's timing and timeline export over plain replay,
# on the same traces: `glretrace -b` against `glretrace -b --pcpu --fxt F --chrome J`
# (CPU only) and `glretrace -b --pcpu --pgpu --fxt F --chrome J` (everything). A
# benchmark, not a test (never registered with ctest). See README.md.
#
# usage: bench_timeline.sh [-n RUNS] [-f FRAMES] [-b BIN_DIR] [-o TABLE.md] [-c] [TRACE...]
#   -n RUNS      timed runs per variant and trace (default 5); the variants rotate
#   -f FRAMES    heavy_app --frames of the many-calls-per-frame trace (default 100)
#   -b BIN_DIR   where gltrace, glretrace and heavy_app are (default: <repo>/build/bin)
#   -o FILE      also write the results as a markdown table to FILE
#   -c           record nothing: only the given traces (with none given, the corpus
#                glxgears.trace and glmark2_shading.trace, ../shared/corpus/apitrace/)
#   TRACE...     more traces to measure
# Under its own Xvfb, LIBGL_ALWAYS_SOFTWARE=1 (Mesa llvmpipe). Per trace and variant: the
# medians of the "Rendered N frames in S secs" times (the replay loop: every call timed
# and its events written; the final drain of GPU queries and the closing of the files
# are outside it) and of the wall times (process start to exit, all of it), the ratios
# variant / plain, the cost per call in ns (wall), and the FXT and JSON bytes per call.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tests/bench/bench_lib.sh
. "$here/bench_lib.sh"

runs=5
frames=100
bin="$top/build/bin"
out=
record=1
while getopts "n:f:b:o:ch" opt; do
  case $opt in
  n) runs=$OPTARG ;;
  f) frames=$OPTARG ;;
  b) bin=$OPTARG ;;
  o) out=$OPTARG ;;
  c) record=0 ;;
  h)
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))

gltrace="$bin/gltrace"
ours="$bin/glretrace"
app="$bin/heavy_app"
for f in "$gltrace" "$ours"; do
  [ -x "$f" ] || { echo "bench_timeline: $f not found (build first, or -b)" >&2; exit 2; }
done
for t in Xvfb python3; do
  command -v "$t" >/dev/null || { echo "bench_timeline: '$t' not found" >&2; exit 2; }
done

bench_workdir bench-timeline

bench_xvfb bench_timeline 1024x768x24
unset GLTRACE_OUTPUT GLTRACE_OUTPUT_READY TRACE_FILE || true

traces=()
if [ "$record" = 1 ]; then
  [ -x "$app" ] || { echo "bench_timeline: $app not found" >&2; exit 2; }
  echo "bench_timeline: recording heavy_app --frames $frames on $DISPLAY ..." >&2
  "$gltrace" -o "$work/heavy_app.trace" -- "$app" --frames "$frames" >/dev/null 2>&1 ||
    { echo "bench_timeline: recording heavy_app failed" >&2; exit 1; }
  traces+=("$work/heavy_app.trace")
fi
if [ $# -eq 0 ]; then
  traces+=("$top/../shared/corpus/apitrace/glxgears.trace"
    "$top/../shared/corpus/apitrace/glmark2_shading.trace")
fi
traces+=("$@")

python3 - "$gltrace" "$ours" "$runs" "$out" "$work" "${traces[@]}" <<'PYEOF'
import json, os, platform, re, statistics, subprocess, sys, time

gltrace, ours, runs, out, work = sys.argv[1:6]
runs = int(runs)
traces = sys.argv[6:]
fxt, js = os.path.join(work, 'b.fxt'), os.path.join(work, 'b.json')
variants = {
    'plain': ['-b'],
    'cpu': ['-b', '--pcpu', '--fxt', fxt, '--chrome', js],
    'all': ['-b', '--pcpu', '--pgpu', '--fxt', fxt, '--chrome', js],
}
rendered = re.compile(r'Rendered (\d+) frames in ([0-9.eE+-]+) secs')


def once(v, trace):
    t0 = time.perf_counter()
    p = subprocess.run([ours] + variants[v] + [trace], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors='replace')
    wall = time.perf_counter() - t0
    m = rendered.search(p.stdout)
    if p.returncode != 0 or not m:
        sys.exit('bench_timeline: glretrace %s %s: exit %d, %s' % (
            ' '.join(variants[v]), trace, p.returncode, (p.stdout + p.stderr)[-500:]))
    sizes = (os.path.getsize(fxt), os.path.getsize(js)) if v != 'plain' else (0, 0)
    return float(m.group(2)), wall, sizes


rows = []
for t in traces:
    name = os.path.basename(t)
    info = subprocess.run([gltrace, 'info', t], capture_output=True, text=True)
    try:
        calls = json.loads(info.stdout).get('CallsCount', 0)
    except ValueError:
        sys.exit('bench_timeline: gltrace info %s failed' % t)
    sizes = {}
    for v in variants:  # warm-up
        sizes[v] = once(v, t)[2]
    sec = {v: [] for v in variants}
    wall = {v: [] for v in variants}
    order = list(variants)
    for i in range(runs):
        for v in order[i % 3:] + order[:i % 3]:
            s, w, _ = once(v, t)
            sec[v].append(s)
            wall[v].append(w)
        print('bench_timeline: %s run %d/%d: %s' % (name, i + 1, runs, ', '.join(
            '%s %.3f s (wall %.3f s)' % (v, sec[v][-1], wall[v][-1]) for v in variants)),
            file=sys.stderr, flush=True)
    ms = {v: statistics.median(x) for v, x in sec.items()}
    mw = {v: statistics.median(x) for v, x in wall.items()}
    rows.append(dict(name=name, calls=calls, sec=ms, wall=mw, sizes=sizes['all']))

lines = [
    '`glretrace -b` (plain) against `-b --pcpu --fxt F --chrome J` (cpu) and `-b --pcpu --pgpu '
    '--fxt F --chrome J` (all), %s: median of %d runs per variant (rotating) after one warm-up '
    'each; Mesa llvmpipe (LIBGL_ALWAYS_SOFTWARE=1) on Xvfb. Host: %s, %d CPUs. "replay s" is '
    'the "Rendered N frames in S secs" time, "wall s" the process run time; ratio = variant / '
    'plain; ns/call = (wall - plain wall) / calls.' % (ours, runs, platform.machine(), os.cpu_count()),
    '',
    '| trace | calls | plain replay s | cpu replay s | all replay s | cpu ratio | all ratio | '
    'plain wall s | all wall s | all wall ratio | cpu ns/call | all ns/call | FXT B/call | JSON B/call |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
]
for r in rows:
    s, w, n = r['sec'], r['wall'], max(r['calls'], 1)
    lines.append('| %s | %d | %.3f | %.3f | %.3f | %.2f | %.2f | %.3f | %.3f | %.2f | %.0f | %.0f | '
                 '%.1f | %.1f |' % (
        r['name'], r['calls'], s['plain'], s['cpu'], s['all'], s['cpu'] / s['plain'],
        s['all'] / s['plain'], w['plain'], w['all'], w['all'] / w['plain'],
        (w['cpu'] - w['plain']) * 1e9 / n, (w['all'] - w['plain']) * 1e9 / n,
        r['sizes'][0] / n, r['sizes'][1] / n))
text = '\n'.join(lines) + '\n'
sys.stdout.write(text)
if out:
    with open(out, 'w') as fh:
        fh.write('# glretrace: timing and timeline export against plain -b\n\n' + text)
    print('table written to %s' % out, file=sys.stderr)
PYEOF
