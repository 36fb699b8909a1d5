#!/usr/bin/env bash
# bench_record: the cost of recording with gltrace against `apitrace trace`, on the
# call-heavy tests/apps/heavy_app (immediate mode, uniforms, buffer updates, a second
# thread with a shared context). A benchmark, not a test (never registered with
# ctest). See README.md.
#
# usage: bench_record.sh [-n RUNS] [-f FRAMES] [-t THREADS] [-b BIN_DIR] [-o TABLE.md] [-k DIR]
#   -n RUNS      timed runs per variant (default 5), interleaved: untraced, apitrace,
#                gltrace, gltrace --timeline, untraced, apitrace, ...
#   -f FRAMES    heavy_app --frames (default 600)
#   -t THREADS   heavy_app --threads: 2 (default: two threads record at once) or 1
#   -b BIN_DIR   where gltrace and heavy_app are (default: <repo>/build/bin)
#   -o FILE      also write the results as a markdown table to FILE
#   -k DIR       keep the two traces of the last run in DIR
# Under its own Xvfb, LIBGL_ALWAYS_SOFTWARE=1 (Mesa llvmpipe). After one warm-up run of
# each variant, each run's wall time and CPU time (user + system of the whole process
# tree, from getrusage) are taken. Reported: the medians; the capture overhead
# (traced - untraced) in total and per call, in ns, with the number of calls from
# `gltrace info` (CallsCount, the same for both traces: same program, same frames);
# the trace sizes and gltrace/apitrace; and two verdicts: PASS when gltrace's wall
# overhead is at most apitrace's, and PASS when its trace is at most 1.1x as large.
# A fourth variant, `gltrace --timeline=g.fxt` (the live timeline), gives the cost of
# the timeline over plain gltrace recording: medians, ratio, ns per call, FXT bytes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tests/bench/bench_lib.sh
. "$here/bench_lib.sh"

runs=5
frames=600
threads=2
bin="$top/build/bin"
out=
keep=
while getopts "n:f:t:b:o:k:h" opt; do
  case $opt in
  n) runs=$OPTARG ;;
  f) frames=$OPTARG ;;
  t) threads=$OPTARG ;;
  b) bin=$OPTARG ;;
  o) out=$OPTARG ;;
  k) keep=$OPTARG ;;
  h)
    sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))

gltrace="$bin/gltrace"
app="$bin/heavy_app"
[ -x "$gltrace" ] || { echo "bench_record: $gltrace not found (build first, or -b)" >&2; exit 2; }
[ -x "$app" ] || { echo "bench_record: $app not found (needs the x11 and gl dev packages)" >&2; exit 2; }
for t in apitrace Xvfb python3; do
  command -v "$t" >/dev/null || { echo "bench_record: '$t' not found" >&2; exit 2; }
done

bench_workdir bench-record

bench_xvfb bench_record 640x480x24
unset GLTRACE_OUTPUT GLTRACE_OUTPUT_READY TRACE_FILE || true

python3 - "$runs" "$frames" "$gltrace" "$app" "$work" "$out" "$keep" "$threads" <<'PYEOF'
import json, os, resource, shutil, statistics, subprocess, sys, time

runs, frames = int(sys.argv[1]), int(sys.argv[2])
gltrace, app, work, out, keep = sys.argv[3:8]
atrace, gtrace = os.path.join(work, 'a.trace'), os.path.join(work, 'g.trace')
ttrace, tfxt = os.path.join(work, 't.trace'), os.path.join(work, 't.fxt')
threads = int(sys.argv[8])
app_cmd = [app, '--frames', str(frames), '--threads', str(threads)]
variants = [
    ('untraced', app_cmd, None),
    ('apitrace', ['apitrace', 'trace', '-o', atrace] + app_cmd, atrace),
    ('gltrace', [gltrace, '-o', gtrace, '--'] + app_cmd, gtrace),
    ('timeline', [gltrace, '-o', ttrace, '--timeline=' + tfxt, '--'] + app_cmd, ttrace),
]

def run(cmd, trace):
    if trace and os.path.exists(trace):
        os.unlink(trace)
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit('bench_record: %s exits %d: %s' % (' '.join(cmd), p.returncode,
                                                   p.stderr.decode(errors='replace')[-500:]))
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return t1 - t0, cpu

for name, cmd, trace in variants:  # warm-up: caches, shader cache, page cache
    run(cmd, trace)
wall = {v[0]: [] for v in variants}
cpu = {v[0]: [] for v in variants}
for i in range(runs):
    for name, cmd, trace in variants:
        w, c = run(cmd, trace)
        wall[name].append(w)
        cpu[name].append(c)
    print('bench_record: run %d/%d: %s' % (i + 1, runs, ', '.join(
        '%s %.3f s' % (n, wall[n][-1]) for n in wall)), file=sys.stderr)

def calls(trace):
    p = subprocess.run([gltrace, 'info', trace], stdout=subprocess.PIPE, check=True)
    return json.loads(p.stdout)['CallsCount']

ncalls = {'apitrace': calls(atrace), 'gltrace': calls(gtrace), 'timeline': calls(ttrace)}
size = {'apitrace': os.path.getsize(atrace), 'gltrace': os.path.getsize(gtrace)}
if keep:
    os.makedirs(keep, exist_ok=True)
    shutil.copy(atrace, keep)
    shutil.copy(gtrace, keep)
    shutil.copy(tfxt, keep)
med_w = {n: statistics.median(v) for n, v in wall.items()}
med_c = {n: statistics.median(v) for n, v in cpu.items()}
ov_w = {n: med_w[n] - med_w['untraced'] for n in ('apitrace', 'gltrace', 'timeline')}
ov_c = {n: med_c[n] - med_c['untraced'] for n in ('apitrace', 'gltrace', 'timeline')}
ratio = size['gltrace'] / size['apitrace']

lines = [
    'heavy_app --frames %d --threads %d, %d runs each (interleaved), medians; Mesa llvmpipe on Xvfb'
    % (frames, threads, runs),
    '',
    '| | wall s | CPU s | overhead wall s | ns/call wall | overhead CPU s | ns/call CPU | calls | trace bytes |',
    '|---|---|---|---|---|---|---|---|---|',
    '| untraced | %.3f | %.3f | | | | | | |' % (med_w['untraced'], med_c['untraced']),
]
size['timeline'] = os.path.getsize(ttrace)
for n in ('apitrace', 'gltrace', 'timeline'):
    lines.append('| %s | %.3f | %.3f | %.3f | %.1f | %.3f | %.1f | %d | %d |' % (
        n, med_w[n], med_c[n], ov_w[n], ov_w[n] * 1e9 / ncalls[n], ov_c[n],
        ov_c[n] * 1e9 / ncalls[n], ncalls[n], size[n]))
lines += [
    '',
    'size ratio gltrace/apitrace: %.3f' % ratio,
    'overhead gltrace/apitrace: %.2f wall, %.2f CPU' % (
        ov_w['gltrace'] / ov_w['apitrace'], ov_c['gltrace'] / ov_c['apitrace']),
    '%s: gltrace overhead %.1f ns/call <= apitrace %.1f ns/call (wall)' % (
        'PASS' if ov_w['gltrace'] <= ov_w['apitrace'] else 'FAIL',
        ov_w['gltrace'] * 1e9 / ncalls['gltrace'], ov_w['apitrace'] * 1e9 / ncalls['apitrace']),
    '%s: gltrace trace size <= 1.1x apitrace (%.3fx)' % ('PASS' if ratio <= 1.1 else 'FAIL', ratio),
]
tl_w, tl_c = med_w['timeline'] - med_w['gltrace'], med_c['timeline'] - med_c['gltrace']
fxt = os.path.getsize(tfxt)
lines += [
    '',
    'gltrace --timeline (row timeline) over plain gltrace: wall %+.3f s (ratio %.3f, %+.1f ns/call), '
    'CPU %+.3f s (ratio %.3f, %+.1f ns/call); FXT %d bytes, %.1f bytes/call' % (
        tl_w, med_w['timeline'] / med_w['gltrace'], tl_w * 1e9 / ncalls['timeline'],
        tl_c, med_c['timeline'] / med_c['gltrace'], tl_c * 1e9 / ncalls['timeline'],
        fxt, fxt / ncalls['timeline']),
]
if ncalls['apitrace'] != ncalls['gltrace']:
    lines.append('NOTE: the call counts differ (apitrace %d, gltrace %d)' % (
        ncalls['apitrace'], ncalls['gltrace']))
text = '\n'.join(lines) + '\n'
sys.stdout.write(text)
if out:
    with open(out, 'w') as f:
        f.write(text)
PYEOF
