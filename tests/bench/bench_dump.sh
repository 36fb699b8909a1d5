#!/usr/bin/env bash
# bench_dump: `gltrace dump` against `apitrace dump` on the same traces.
# A benchmark, not a test (never registered with ctest). See README.md.
#
# usage: bench_dump.sh [-n RUNS] [-o TABLE.md] [-b BIN_DIR] [-c CORPUS_DIR]
#                      [-m MIN_KIB] [-r] [TRACE...]
#   -n RUNS      timed runs per tool and trace (default 7); the two tools alternate
#   -o FILE      also write the results as a markdown table to FILE
#   -b BIN_DIR   where gltrace is (default: <repo>/build/bin)
#   -c DIR       the corpus (default: <repo>/../shared/corpus); its apitrace/*.trace
#                files of at least MIN_KIB KiB are measured (default 200; -c '' for none)
#   -r           also record traces to measure (glxgears, es2gears_x11, glmark2 under
#                a private Xvfb, as tests/integration/record_apitrace.sh does)
#   TRACE...     more traces to measure
# Each run is `TOOL dump --color=never TRACE >/dev/null`. Reported per trace: the
# median seconds of each tool, apitrace/gltrace (above 1: gltrace is faster), and
# gltrace's calls/s and MB/s of uncompressed stream (CallsCount and ActualDataSize
# from `gltrace info`). The last line is the median ratio over all traces.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tests/bench/bench_lib.sh
. "$here/bench_lib.sh"

runs=7
out=
bin="$top/build/bin"
corpus="$top/../shared/corpus"
min_kib=200
record=0
while getopts "n:o:b:c:m:rh" opt; do
  case $opt in
  n) runs=$OPTARG ;;
  o) out=$OPTARG ;;
  b) bin=$OPTARG ;;
  c) corpus=$OPTARG ;;
  m) min_kib=$OPTARG ;;
  r) record=1 ;;
  h)
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))

gltrace="$bin/gltrace"
[ -x "$gltrace" ] || { echo "bench_dump: $gltrace not found (build first, or -b)" >&2; exit 2; }
for t in apitrace python3; do
  command -v "$t" >/dev/null || { echo "bench_dump: '$t' not found" >&2; exit 2; }
done

bench_workdir bench-dump

traces=()
if [ -n "$corpus" ]; then
  d=$corpus
  [ -d "$d/apitrace" ] && d="$d/apitrace"
  for t in "$d"/*.trace; do
    [ -f "$t" ] || continue
    [ "$(stat -c %s "$t")" -ge $((min_kib * 1024)) ] && traces+=("$t")
  done
fi

if [ "$record" = 1 ]; then
  for t in Xvfb glxgears es2gears_x11 glmark2; do
    command -v "$t" >/dev/null || { echo "bench_dump: -r needs '$t'" >&2; exit 2; }
  done
  bench_xvfb bench_dump 1024x768x24
  echo "bench_dump: recording traces on $DISPLAY ..." >&2
  timeout -s INT 3 apitrace trace -o "$work/rec_glxgears.trace" glxgears >/dev/null 2>&1 || true
  timeout -s INT 3 apitrace trace --api egl -o "$work/rec_es2gears.trace" es2gears_x11 \
    >/dev/null 2>&1 || true
  timeout 120 apitrace trace -o "$work/rec_glmark2.trace" glmark2 --size 256x192 \
    -b build:use-vbo=true:duration=0.5 -b texture:texture-filter=mipmap:duration=0.5 \
    -b shading:shading=phong:duration=0.5 -b desktop:effect=blur:windows=4:duration=0.5 \
    -b buffer:update-method=subdata:duration=0.3 >/dev/null 2>&1 || true
  for t in "$work"/rec_*.trace; do
    [ -s "$t" ] && traces+=("$t")
  done
fi
traces+=("$@")
[ ${#traces[@]} -gt 0 ] || { echo "bench_dump: no traces to measure" >&2; exit 2; }

python3 - "$gltrace" "$runs" "$out" "${traces[@]}" <<'EOF'
import json, os, platform, statistics, subprocess, sys, time

gltrace, runs, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
traces = sys.argv[4:]
tools = {'apitrace': ['apitrace'], 'gltrace': [gltrace]}


def once(cmd):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0, r.returncode


rows = []
for t in traces:
    name = os.path.basename(t)
    info = subprocess.run([gltrace, 'info', t], capture_output=True, text=True)
    try:
        d = json.loads(info.stdout)
        calls, size = d.get('CallsCount', 0), d.get('ActualDataSize', 0)
    except ValueError:
        print('%s: gltrace info failed, skipped' % name, file=sys.stderr)
        continue
    times = {k: [] for k in tools}
    status = {}
    for k, cmd in tools.items():  # warm-up: page cache, dynamic linking
        _, status[k] = once(cmd + ['dump', '--color=never', t])
    for i in range(runs):
        order = list(tools) if i % 2 == 0 else list(reversed(list(tools)))
        for k in order:
            s, _ = once(tools[k] + ['dump', '--color=never', t])
            times[k].append(s)
    ma = statistics.median(times['apitrace'])
    mg = statistics.median(times['gltrace'])
    rows.append(dict(name=name, file_kib=os.path.getsize(t) / 1024, stream_mb=size / 1e6,
                     calls=calls, apitrace=ma, gltrace=mg, ratio=ma / mg,
                     calls_s=calls / mg, mb_s=size / 1e6 / mg,
                     note='' if status['gltrace'] == 0 and status['apitrace'] == 0 else
                     'exit apitrace %d, gltrace %d' % (status['apitrace'], status['gltrace'])))
    r = rows[-1]
    print('%-40s apitrace %8.4f s  gltrace %8.4f s  ratio %5.2f  %10.0f calls/s  %7.1f MB/s%s'
          % (name, ma, mg, r['ratio'], r['calls_s'], r['mb_s'],
             '  (' + r['note'] + ')' if r['note'] else ''), flush=True)

if not rows:
    sys.exit(1)
med = statistics.median(r['ratio'] for r in rows)
print('median apitrace/gltrace ratio over %d traces: %.2f (%d runs each, median times)'
      % (len(rows), med, runs))

if out:
    cpu = ''
    try:
        for line in open('/proc/cpuinfo'):
            if line.startswith('model name'):
                cpu = line.split(':', 1)[1].strip()
                break
    except OSError:
        pass
    with open(out, 'w') as f:
        f.write('# gltrace dump vs apitrace dump\n\n')
        f.write('`TOOL dump --color=never TRACE > /dev/null`, median of %d runs per tool '
                '(alternating), after one warm-up run. Host: %s, %d CPUs, %s.\n\n'
                % (runs, cpu or platform.machine(), os.cpu_count(), platform.platform()))
        f.write('| trace | file KiB | stream MB | calls | apitrace s | gltrace s | '
                'apitrace/gltrace | gltrace calls/s | gltrace MB/s |\n')
        f.write('|---|---:|---:|---:|---:|---:|---:|---:|---:|\n')
        for r in rows:
            f.write('| %s%s | %.0f | %.2f | %d | %.4f | %.4f | %.2f | %.0f | %.1f |\n'
                    % (r['name'], ' (' + r['note'] + ')' if r['note'] else '', r['file_kib'],
                       r['stream_mb'], r['calls'], r['apitrace'], r['gltrace'], r['ratio'],
                       r['calls_s'], r['mb_s']))
        f.write('\nMedian apitrace/gltrace ratio over %d traces: **%.2f**\n' % (len(rows), med))
    print('table written to %s' % out)
EOF
