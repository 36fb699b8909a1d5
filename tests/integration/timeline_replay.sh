#!/usr/bin/env bash
# timeline_replay: glretrace's timings and timelines under our own Xvfb (Mesa
# llvmpipe), and --headless.
#   usage: timeline_replay.sh BIN_DIR [CORPUS_DIR]
# Replayed with `glretrace --pcpu --pgpu --fxt a.fxt --chrome a.json`: every
# glmark2_*.trace of the corpus, glthreads.trace (two threads) and es2gears_x11.trace
# (EGL, GLES 2: EXT_disjoint_timer_query), gl33_demo recorded by gltrace with
# --backtrace='glDraw*' --debug-groups, and gl33_demo --thread (two contexts).
# Checks, for each (`gltrace convert --strict --print` of both files against
# `gltrace dump -v --thread-ids`):
#   - glretrace exits 0; both files pass the strict FXT and JSON readers;
#   - one complete event (cat gl) per call of the dump, with its name, call number and
#     thread (tid = thread + 1), in FXT and in JSON; FXT and JSON agree on names, call
#     numbers, starts and durations within 1 us;
#   - process name (the trace's process.name), "thread N" names, a track named "GPU";
#   - frame instants 0..swaps, in time order; a GPU event (cat gpu, same name and frame)
#     for every glDraw* and glClear call, lying within its frame (between its frame
#     instant and the next) give or take 100 us (the GPU clock mapping's error is half
#     the anchor's read window: glretrace -v prints it, a few us on llvmpipe); GPU events
#     of each thread in call order. With --headless only their start is bound to the frame: SDL's
#     offscreen windows are EGL pbuffers, whose swap does not flush, so llvmpipe runs a
#     frame's work during the next one;
#   - gl33_demo with backtraces: stack frames, and every glDrawElements carries a stack
#     (FXT and JSON), JSON has stackFrames and sf on the draws;
#   - gl33_demo --debug-groups: begin/end slices "frame" > "pass 1", "pass 2", balanced,
#     depth 2, each draw inside a pass; an instant "swap" per frame (glDebugMessageInsert);
#   - --headless: the same checks for one glmark2 trace and the demo;
#   - the text profile: `glretrace --pcpu --min-cpu-time=0` prints apitrace's header and
#     the same "call NO ... PROGRAM NAME" and "frame_end" lines, in the same order, as apitrace's
#     glretrace --pcpu --min-cpu-time=0 (times aside) for the glmark2 traces (but the
#     trimmed one, which has no MakeCurrent: apitrace and we skip its GL calls, so it
#     has no GPU events either), glthreads and the demo; with --pgpu the draw lines carry GPU times
#     (non-zero duration).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init timeline_replay

require_recorder "$@"
corpus=$(corpus_apitrace_dir "${2:-$here/../../../shared/corpus}")
ours="$bin/glretrace"
require_file "$ours" "build glretrace"
require_file "$bin/gl33_demo" "build the demo apps (tests/apps)"
require_tool glretrace Xvfb python3 timeout
apiretrace=$(command -v glretrace)
"$gltrace" convert --help >/dev/null 2>&1 ||
  die "gltrace convert is missing (needed: gltrace convert --strict --print)"

# shellcheck disable=SC2119
start_xvfb

cat >"$WORK/check.py" <<'PYEOF'
"""Checks glretrace's timeline of one replay (timeline_replay.sh).

usage: check.py DUMP FXT_PRINT JSON_PRINT JSON_FILE [--stacks] [--groups]
                                [--headless] [--tolerance NS]
DUMP is `gltrace dump -v --thread-ids --color=never TRACE`; FXT_PRINT and JSON_PRINT are
`gltrace convert --strict --print` of the FXT and JSON files (one tab-separated line per
event: kind ts dur pid tid cat name id stack args). Prints one line per check,
"PASS what" or "FAIL what: why"."""
import json
import re
import sys

GPU_TID_BASE = 0x6770750000000000
ARG_RE = re.compile(r'(?:^| )([^= ]+)=("(?:[^"\\]|\\.)*"|\S*)')

results = []


def check(ok, what, why=''):
    results.append(('PASS ' + what) if ok else ('FAIL %s: %s' % (what, why)))
    return ok


def parse_print(path):
    events = []
    for line in open(path, encoding='utf-8', errors='replace'):
        f = line.rstrip('\n').split('\t')
        if len(f) < 10:
            continue
        args = {}
        for name, value in ARG_RE.findall(f[9]):
            if value.startswith('"'):
                value = value[1:-1].replace('\\"', '"').replace('\\\\', '\\')
            args[name] = value
        events.append({'kind': f[0], 'ts': int(f[1]), 'dur': int(f[2]), 'pid': int(f[3]),
                       'tid': int(f[4]), 'cat': f[5], 'name': f[6], 'id': int(f[7]),
                       'stack': int(f[8]), 'args': args})
    return events


def parse_dump(path):
    calls, process = {}, None
    for line in open(path, encoding='utf-8', errors='replace'):
        m = re.match(r'^(\d+) @(\d+) ([A-Za-z_0-9]+)\(', line)
        if m:
            calls[int(m.group(1))] = (int(m.group(2)), m.group(3))
        m = re.match(r'^// process.name = "(.*)"$', line)
        if m:
            process = m.group(1)
    return calls, process


def calls_of(events, what, dump):
    out = {}
    dups = 0
    for e in events:
        if e['kind'] == 'complete' and e['cat'] == 'gl':
            n = int(e['args'].get('call', -1))
            dups += n in out
            out[n] = e
    check(dups == 0, what + ': one event per call', '%d calls have several' % dups)
    missing = sorted(set(dump) - set(out))
    extra = sorted(set(out) - set(dump))
    check(not missing and not extra, what + ': the calls gltrace dump lists (%d)' % len(dump),
          'missing %s, extra %s' % (missing[:5], extra[:5]))
    bad = [n for n in dump if n in out and (out[n]['name'] != dump[n][1] or
                                            out[n]['tid'] != dump[n][0] + 1)]
    check(not bad, what + ': names and threads as dumped',
          'call %s: %s' % (bad[:1], [(out[n]['name'], out[n]['tid']) for n in bad[:1]]))
    return out


def check_names(events, what, dump, process):
    procs = [e['name'] for e in events if e['kind'] == 'process_name']
    check(len(procs) == 1 and procs[0] and (process is None or procs[0] == process),
          what + ': process name', 'got %r, trace says %r' % (procs, process))
    names = {e['tid']: e['name'] for e in events if e['kind'] == 'thread_name'}
    want = {t + 1: 'thread %d' % t for t, _ in dump.values()}
    bad = {t: names.get(t) for t in want if names.get(t) != want[t]}
    check(not bad, what + ': thread names', 'wrong: %s' % bad)
    gpu = [n for t, n in names.items() if t >= GPU_TID_BASE]
    check(gpu == ['GPU'], what + ': GPU track named', 'got %s' % gpu)


def frame_starts(events, what, dump):
    inst = [e for e in events if e['kind'] == 'instant' and e['name'] == 'frame']
    frames = [int(e['args'].get('frame', -1)) for e in inst]
    swaps = sum(1 for _, n in dump.values() if 'SwapBuffers' in n)
    check(frames == list(range(swaps + 1)), what + ': frame instants 0..%d' % swaps,
          'got %s' % frames[:10])
    ts = [e['ts'] for e in inst]
    check(ts == sorted(ts), what + ': frame instants in time order')
    return ts


def check_gpu(events, what, cpu, starts, tol, headless):
    gpu = {}
    for e in events:
        if e['kind'] == 'complete' and e['cat'] == 'gpu':
            gpu[int(e['args'].get('call', -1))] = e
    draws = [n for n, e in cpu.items() if e['name'].startswith('glDraw') or e['name'] == 'glClear']
    missing = [n for n in draws if n not in gpu]
    check(draws and not missing, what + ': GPU events for the %d draws and clears' % len(draws),
          'none for calls %s' % missing[:5])
    # Each traced thread replays on a thread of its own with its context kept current
    # (no flush at a switch, as in apitrace): a context's GPU work may end after another
    # thread's swap ended the frame, so with several drawing threads, as headless, only
    # the start is checked.
    threaded = len({cpu[n]['tid'] for n in draws}) > 1
    worst, bad = 0, []
    for n in draws:
        g = gpu.get(n)
        if not g:
            continue
        if g['name'] != cpu[n]['name'] or g['args'].get('frame') != cpu[n]['args'].get('frame'):
            bad.append(n)
            continue
        f = int(g['args']['frame'])
        lo = starts[f] if f < len(starts) else None
        hi = starts[f + 1] if f + 1 < len(starts) else None
        early = lo - g['ts'] if lo is not None else 0
        late = g['ts'] + g['dur'] - hi if hi is not None and not (headless or threaded) else 0
        worst = max(worst, early, late)
        if early > tol or late > tol:
            bad.append(n)
    where = 'start in their frame or later' if headless or threaded else 'lie within their frame'
    check(not bad, what + ': GPU events of draws and clears %s (+-%d ns; worst %d ns)'
          % (where, tol, worst), 'calls %s' % bad[:5])
    back = []
    for tid in {e['tid'] for e in cpu.values()}:
        order = [gpu[n] for n in sorted(gpu) if n in cpu and cpu[n]['tid'] == tid]
        back += [(a['args']['call'], b['args']['call']) for a, b in zip(order, order[1:])
                 if b['ts'] < a['ts']]
    check(not back, what + ': GPU events of each thread in call order', 'calls %s' % back[:3])


def check_agree(fcalls, jcalls):
    bad = [n for n in fcalls if n in jcalls and (
        fcalls[n]['name'] != jcalls[n]['name'] or abs(fcalls[n]['ts'] - jcalls[n]['ts']) > 1000 or
        abs(fcalls[n]['dur'] - jcalls[n]['dur']) > 1000)]
    check(not bad and len(fcalls) == len(jcalls),
          'FXT and JSON agree on names, call numbers, times (1 us)', 'calls %s' % bad[:5])


def check_stacks(events, what, cpu, jdoc):
    frames = {int(e['args'].get('frame', -1)) for e in events if e['kind'] == 'stack_frame'}
    draws = [e for e in cpu.values() if e['name'] == 'glDrawElements']
    bad = [int(e['args']['call']) for e in draws if e['stack'] not in frames]
    check(frames and draws and not bad, what + ': draws carry stacks of emitted frames',
          '%d frames; calls %s' % (len(frames), bad[:5]))
    sf = jdoc.get('stackFrames') or {}
    xs = [e for e in jdoc.get('traceEvents', [])
          if e.get('ph') == 'X' and e.get('name') == 'glDrawElements' and e.get('cat') == 'gl']
    check(sf and xs and all(str(e.get('sf')) in sf for e in xs),
          what + ': JSON stackFrames and sf on draw events', '%d frames' % len(sf))


def check_groups(events, what, cpu):
    marks = [e for e in events if e['kind'] in ('begin', 'end') and e['cat'] == 'marker']
    marks.sort(key=lambda e: e['ts'])
    stack, spans, ok, depth = [], [], True, 0
    for e in marks:
        if e['kind'] == 'begin':
            stack.append(e)
            depth = max(depth, len(stack))
        elif stack:
            b = stack.pop()
            spans.append((b['name'], b['ts'], e['ts'], len(stack)))
        else:
            ok = False
    check(ok and not stack and depth == 2, what + ': debug groups nest (depth 2, balanced)',
          'depth %d, %d left open' % (depth, len(stack)))
    names = [s[0] for s in sorted(spans, key=lambda s: s[1])]
    frames = names.count('frame')
    check(frames > 0 and names == ['frame', 'pass 1', 'pass 2'] * frames,
          what + ': groups frame > pass 1, pass 2', 'got %s' % names[:6])
    passes = [s for s in spans if s[0].startswith('pass') and s[3] == 1]
    draws = [e for e in cpu.values() if e['name'] == 'glDrawElements']
    inside = [d for d in draws if any(s[1] <= d['ts'] and d['ts'] + d['dur'] <= s[2] for s in passes)]
    check(draws and len(inside) == len(draws), what + ': each draw inside a pass group',
          '%d of %d' % (len(inside), len(draws)))
    swaps = [e for e in events if e['kind'] == 'instant' and e['cat'] == 'marker' and e['name'] == 'swap']
    check(len(swaps) == frames, what + ': glDebugMessageInsert instants', '%d' % len(swaps))


def main():
    a = sys.argv[1:]
    tol = 100000
    if '--tolerance' in a:
        i = a.index('--tolerance')
        tol = int(a[i + 1])
        del a[i:i + 2]
    dump, process = parse_dump(a[0])
    fev, jev = parse_print(a[1]), parse_print(a[2])
    jdoc = json.load(open(a[3]))
    fcalls = calls_of(fev, 'FXT', dump)
    jcalls = calls_of(jev, 'JSON', dump)
    check_agree(fcalls, jcalls)
    for what, ev, calls in (('FXT', fev, fcalls), ('JSON', jev, jcalls)):
        check_names(ev, what, dump, process)
        starts = frame_starts(ev, what, dump)
        if '--no-context' not in a:  # its GL calls are skipped: nothing reaches the GPU
            check_gpu(ev, what, calls, starts, tol, '--headless' in a)
    if '--stacks' in a:
        check_stacks(jev, 'JSON', jcalls, jdoc)
        check_stacks(fev, 'FXT', fcalls, jdoc)
    if '--groups' in a:
        check_groups(fev, 'FXT', fcalls)
        check_groups(jev, 'JSON', jcalls)
    print('\n'.join(results))


main()
PYEOF

# ---- helpers ------------------------------------------------------------------------
env_prefix=(env) # env -u DISPLAY for --headless
# replay NAME TRACE [GLRETRACE OPTIONS...]: glretrace --pcpu --pgpu --fxt --chrome, the
# strict reads and the checks; extra check.py flags come after "--"
replay() {
  local name=$1 trace=$2
  shift 2
  local opts=() flags=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  flags=("$@")
  local w="$WORK/$name"
  mkdir -p "$w"
  run_timed "$w/out" "$w/err" "${env_prefix[@]}" "$ours" "${opts[@]+"${opts[@]}"}" --pcpu --pgpu \
    --fxt "$w/a.fxt" --chrome "$w/a.json" "$trace"
  if [ "$RC" -ne 0 ]; then
    fail "$name: glretrace --pcpu --pgpu --fxt --chrome exits $RC"
    sed 's/^/    stderr: /' "$w/err" | head -5
    return 0
  fi
  pass "$name: glretrace --pcpu --pgpu --fxt --chrome exits 0"
  local f
  for f in a.fxt a.json; do
    run_timed "$w/$f.txt" "$w/$f.err" "$gltrace" convert --strict --print "$w/$f"
    if [ "$RC" -ne 0 ] || [ ! -s "$w/$f.txt" ]; then
      fail "$name: $f: the strict reader refuses it (exit $RC): $(head -2 "$w/$f.err")"
      return 0
    fi
    pass "$name: $f passes the strict reader"
  done
  "$gltrace" dump -v --thread-ids --color=never "$trace" >"$w/dump.txt" 2>/dev/null || true
  python3 "$WORK/check.py" "$w/dump.txt" "$w/a.fxt.txt" "$w/a.json.txt" "$w/a.json" \
    "${flags[@]+"${flags[@]}"}" >"$w/check.txt" 2>&1 || fail "$name: check.py failed: $(tail -1 "$w/check.txt")"
  local verdict rest
  while read -r verdict rest; do
    case $verdict in
    PASS) pass "$name: $rest" ;;
    FAIL) fail "$name: $rest" ;;
    esac
  done <"$w/check.txt"
  grep -q '^PASS' "$w/check.txt" || fail "$name: check.py checked nothing"
}

# profile_lines FILE: the text profile without times: "call NO PROGRAM NAME", "frame_end"
profile_lines() {
  awk '$1 == "call" { print "call", $2, $12, $NF } $1 == "frame_end" { print }' "$1"
}

# text_profile NAME TRACE: our --pcpu text profile against apitrace's
text_profile() {
  local name=$1 trace=$2 w="$WORK/$1.text"
  mkdir -p "$w"
  run_timed "$w/api.txt" "$w/api.err" "$apiretrace" --pcpu --min-cpu-time=0 "$trace"
  if [ "$RC" -ne 0 ]; then
    fail "$name: apitrace's glretrace --pcpu exits $RC"
    return 0
  fi
  run_timed "$w/ours.txt" "$w/ours.err" "$ours" --pcpu --min-cpu-time=0 "$trace"
  if [ "$RC" -ne 0 ]; then
    fail "$name: glretrace --pcpu exits $RC"
    return 0
  fi
  if [ "$(head -1 "$w/ours.txt")" = "$(head -1 "$w/api.txt")" ] &&
    head -1 "$w/ours.txt" | grep -q '^# call no gpu_start gpu_dura cpu_start cpu_dura'; then
    pass "$name: text profile header as apitrace's"
  else
    fail "$name: text profile header: $(head -1 "$w/ours.txt")"
  fi
  profile_lines "$w/api.txt" >"$w/api.lines"
  profile_lines "$w/ours.txt" >"$w/ours.lines"
  local n
  n=$(grep -c '^call' "$w/api.lines" || true)
  if [ "$n" -gt 0 ] && cmp -s "$w/api.lines" "$w/ours.lines"; then
    pass "$name: text profile lists apitrace's $n calls and frame ends in its order"
  else
    fail "$name: text profile: $(grep -c '^call' "$w/ours.lines" || true) call lines, apitrace $n"
    first_diff "$w/api.lines" "$w/ours.lines"
  fi
  if ! awk '$1 == "call" && NF != 13 { exit 1 }' "$w/ours.txt"; then
    fail "$name: text profile lines without apitrace's 13 fields"
  fi
}

# ---- traces ----------------------------------------------------------------------------
demo="$WORK/demo.trace"
run_timed "$WORK/demo.rec" "$WORK/demo.rec.err" "$gltrace" -o "$demo" --backtrace='glDraw*' -- \
  "$bin/gl33_demo" --frames 4 --debug-groups
if [ "$RC" -ne 0 ] || [ ! -s "$demo" ]; then
  die "recording gl33_demo --debug-groups failed: $(tail -3 "$WORK/demo.rec.err")"
fi
threads="$WORK/threads.trace"
run_timed "$WORK/threads.rec" "$WORK/threads.rec.err" "$gltrace" -o "$threads" -- \
  "$bin/gl33_demo" --frames 4 --thread
if [ "$RC" -ne 0 ] || [ ! -s "$threads" ]; then
  die "recording gl33_demo --thread failed: $(tail -3 "$WORK/threads.rec.err")"
fi

replay demo "$demo" -- --stacks --groups
env_prefix=(env -u DISPLAY)
replay demo_headless "$demo" --headless -- --stacks --groups --headless
replay glmark2_shading_headless "$corpus/glmark2_shading.trace" --headless -- --headless
env_prefix=(env)
replay demo_thread "$threads"
glmark2=("$corpus"/glmark2_*.trace)
[ -e "${glmark2[0]}" ] || die "no glmark2_*.trace in $corpus"
for t in "${glmark2[@]}"; do
  case $t in
  *_trim_*) replay "$(basename "$t" .trace)" "$t" -- --no-context ;;
  *) replay "$(basename "$t" .trace)" "$t" ;;
  esac
done
replay glthreads "$corpus/glthreads.trace"
replay es2gears "$corpus/es2gears_x11.trace"

# ---- the text profile ------------------------------------------------------------------
for t in "${glmark2[@]}" "$corpus/glthreads.trace"; do
  case $t in
  *_trim_*) continue ;; # no MakeCurrent: both skip its GL calls, leaving nothing to compare
  esac
  text_profile "$(basename "$t" .trace)" "$t"
done
text_profile demo "$demo"
run_timed "$WORK/pgpu.txt" "$WORK/pgpu.err" "$ours" --pgpu "$corpus/glmark2_shading.trace"
if [ "$RC" -eq 0 ] && awk '$1 == "call" && $NF == "glDrawArrays" { n++; if ($4 > 0) g++ }
    END { exit !(n > 0 && g == n) }' "$WORK/pgpu.txt"; then
  pass "glmark2_shading: --pgpu text profile: every glDrawArrays has a GPU duration"
else
  fail "glmark2_shading: --pgpu text profile lacks GPU durations (exit $RC)"
fi

it_finish
