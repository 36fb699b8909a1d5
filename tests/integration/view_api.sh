#!/usr/bin/env bash
# view_api: `gltrace view`'s HTTP API (cli/view/API.md) on corpus traces, against the
# command line: summary numbers are `gltrace info`'s, frames' call ranges `info
# --dump-frames`'s, a frame's call texts `gltrace dump --calls=A-B`'s lines, search finds
# dump's calls; a wrong token gets 403, bad numbers and calls past the end 400, a damaged
# trace JSON errors while the server keeps serving; thumbnails, the timeline and the GL
# state (glretrace --state-server, equal to glretrace -D) are replayed headless (no X);
# the frames' CPU/GPU times equal sums of the timeline's Chrome JSON; api/diff runs
# gltrace diff-images on copies of the thumbnails (one changed) and serves its verdicts,
# report and difference mask; SIGINT exits 0 and no replay outlives the server; debug
# groups' depth and a call's backtrace on a recorded markers_app trace; a frame range's
# trace (gltrace --frames) recorded from gl33_demo: where its state snapshot ends.
# view_api.py does the checks.
#   usage: view_api.sh BIN_DIR CORPUS_DIR
# Traces are copied to the work dir: the server writes TRACE.idx and TRACE.view/ beside them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init view_api

it_bin_corpus "$@"
require_file "$bin/gltrace" "build gltrace first"
require_file "$bin/glretrace" "build glretrace first"
require_tool python3 timeout
# the caches go into the work dir whatever happens
export XDG_CACHE_HOME="$WORK/cache"

# run_py NAME MODE: view_api.py on the copy of corpus trace NAME; its counts added to ours
run_py() {
  run_py_checker "$1 ($2)" 600 "$here/view_api.py" "$bin" "$WORK/$1" "$2"
}

# full: replays too (thumbnails, timeline, state); basic: the trace tools' answers only
# (glthreads: several threads; glxdemo_zlib: a container that cannot seek, read from the
# start; glmark2_shading: a larger trace)
for spec in glxgears.trace:full tri.trace:full glthreads.trace:basic glxdemo_zlib.trace:basic \
  glmark2_shading.trace:basic; do
  name=${spec%%:*}
  [ -f "$corpus/$name" ] || die "corpus trace $name missing"
  cp "$corpus/$name" "$WORK/$name"
  run_py "$name" "${spec##*:}"
done

# damaged: not a trace at all, and a trace whose header is overwritten
# (the same pseudo-random bytes each run: from /dev/urandom, one file in a dozen or so
# happened to be an empty Brotli stream or a Brotli stream cut short, which a real trace
# can be too, and the test failed at random)
python3 -c 'import random, sys; r = random.Random(1)
sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(4096)))' >"$WORK/garbage.trace"
run_py garbage.trace damaged
cp "$corpus/tri.trace" "$WORK/broken.trace"
printf 'XXXXXXXXXXXXXXXX' | dd of="$WORK/broken.trace" bs=1 seek=0 conv=notrunc status=none
run_py broken.trace damaged
# damaged in the middle of its stream: no index can be built, the server still answers
cp "$corpus/glmark2_shading.trace" "$WORK/middle.trace"
printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' | dd of="$WORK/middle.trace" bs=1 seek=300000 conv=notrunc status=none
run_py middle.trace damaged
# cut short: a warning, not an error; the frames before the cut are served as info counts them
head -c 400000 "$corpus/glmark2_shading.trace" >"$WORK/cut.trace"
run_py cut.trace basic

# debug groups and backtraces: markers_app (glPushGroupMarkerEXT/glPushDebugGroup nested,
# backtraces on its clears and draws) recorded by gltrace under our own Xvfb; api/calls'
# depth and group follow the pushes and pops, and a call's backtrace is the lines `gltrace
# dump` prints for it. Not in builds without the recorder (the ASan build).
if [ -x "$bin/markers_app" ] && [ -f "$bin/../lib/libgltrace.so" ] && command -v Xvfb >/dev/null; then
  start_xvfb
  if timeout 120 "$bin/gltrace" -o "$WORK/markers.trace" -- "$bin/markers_app" >"$WORK/mk.log" 2>&1 &&
    out=$(timeout 300 python3 - "$bin/gltrace" "$WORK/markers.trace" <<'EOF' 2>&1
import json, re, subprocess, sys, time, urllib.request
gltrace, trace = sys.argv[1:3]
dump = subprocess.run([gltrace, 'dump', '--color=never', trace], capture_output=True,
                      text=True).stdout.splitlines()
bt, cur = {}, None
for line in dump:
    m = re.match(r'(\d+) ', line)
    if m:
        cur = int(m.group(1))
    elif line == 'Backtrace:':
        bt[cur] = []
    elif cur in bt and line and not line.startswith('//'):
        bt[cur].append(line)
p = subprocess.Popen([gltrace, 'view', trace], stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, text=True)
try:
    url = p.stdout.readline().strip()
    get = lambda path: json.loads(urllib.request.urlopen(url + path, timeout=60).read())
    frames = get('api/frames?first=0&count=100')['frames']
    depth = 0
    bad, groups, traced = [], 0, 0
    for f in frames:
        for c in get('api/calls?frame=%d&first=0&count=1000' % f['frame'])['calls']:
            name = c['text'].split('(')[0]
            pop = name in ('glPopGroupMarkerEXT', 'glPopDebugGroup', 'glPopDebugGroupKHR')
            push = name in ('glPushGroupMarkerEXT', 'glPushDebugGroup', 'glPushDebugGroupKHR')
            if pop:
                depth -= 1
            want_group = 'begin' if push else 'end' if pop else None
            if c['depth'] != depth or c['group'] != want_group:
                bad.append((c['no'], name, c['depth'], depth, c['group']))
            if push:
                depth += 1
                groups += 1
            if (c.get('backtrace') or None) != bt.get(c['no']):
                bad.append((c['no'], 'backtrace', c.get('backtrace'), bt.get(c['no'])))
            traced += c['no'] in bt
    # the timeline's debug groups (api/slices) against the B/E pairs of its Chrome JSON:
    # per frame, the groups overlapping its calls, with their depth and name
    job = get('api/timeline')['job']
    for _ in range(240):
        j = get('api/job?id=%d' % job)
        if j['state'] != 'running':
            break
        time.sleep(0.5)
    tl_groups = 0
    if j['state'] == 'done':
        raw = json.loads(urllib.request.urlopen(url + j['result'], timeout=60).read())
        ev = raw['traceEvents'] if isinstance(raw, dict) else raw
        pairs, stack = [], {}
        for e in ev:
            if e.get('cat') != 'marker' or e.get('ph') not in ('B', 'E'):
                continue
            st = stack.setdefault(e['tid'], [])
            if e['ph'] == 'B':
                st.append(e)
            elif st:
                b = st.pop()
                pairs.append((round(b['ts'] * 1000), round(e['ts'] * 1000), len(st), b['name']))
        for f in frames:
            s = get('api/slices?first=%d&count=1' % f['frame'])
            if not s['cpu']:
                continue
            want = sorted((p[2], p[3]) for p in pairs if p[1] >= s['t0'] and p[0] <= s['t1'])
            got = sorted((g[2], s['names'][g[3]]) for g in s['groups'])
            tl_groups += len(got)
            if got != want:
                bad.append(('slices', f['frame'], got, want))
    else:
        bad.append(('timeline', j))
    print('OK' if not bad and groups >= 10 and traced >= 10 and tl_groups >= 10 else 'BAD %s' % bad[:3],
          groups, 'groups', traced, 'backtraces', tl_groups, 'timeline groups')
finally:
    p.send_signal(2)
    p.wait(timeout=30)
EOF
    ); then
    case "$out" in
    OK*) pass "markers_app: debug groups and backtraces as dumped (${out#OK })" ;;
    *) fail "markers_app: $out" ;;
    esac
  else
    fail "markers_app: recording or the check failed: $(tail -3 "$WORK/mk.log" | tr '\n' ' ')"
  fi
else
  echo "    note: no recorder in this build: debug groups and backtraces not checked" >&2
fi

# a frame range's trace: gl33_demo's frames 3-4 recorded with `gltrace --frames=3-4` under
# our own Xvfb, a state snapshot first; view_api.py checks the summary's snapshot against
# `gltrace info` and `apitrace dump`, the calls flagged up to its end marker, the frames'
# program_frame (the corpus traces above: none of it)
if [ -x "$bin/gl33_demo" ] && [ -f "$bin/../lib/libgltrace.so" ] && command -v Xvfb >/dev/null; then
  [ -n "${XVFB_PID:-}" ] || start_xvfb
  if timeout 120 "$bin/gltrace" -o "$WORK/range.trace" --frames=3-4 -- "$bin/gl33_demo" --frames 6 \
    >"$WORK/range.log" 2>&1 && [ -f "$WORK/range.3-4.trace" ]; then
    run_py range.3-4.trace basic
  else
    fail "gl33_demo --frames=3-4: no range trace: $(tail -3 "$WORK/range.log" | tr '\n' ' ')"
  fi
else
  echo "    note: no recorder in this build: a frame range's trace not checked" >&2
fi

it_finish
