#!/usr/bin/env bash
# metrics: apitrace's profiling metrics (glretrace --list-metrics, --pframes, --pcalls,
# --pdrawcalls, --gen-passes) beside apitrace 11.1's glretrace on corpus traces, and
# Debian's piglit replayer profiling with our glretrace in place of eglretrace.
#  - --list-metrics: byte-identical to apitrace's for a desktop GL trace (glxgears);
#    for a GLES trace (es2gears_x11) ours also lists GPU Start, GPU Duration and GPU
#    Disjoint, which llvmpipe's GLES contexts offer through EXT_disjoint_timer_query and
#    apitrace 11.1 does not read (apitrace after 11.1 does), the CPU group identical.
#  - --pframes, --pcalls, --pdrawcalls: the same header lines, the same frame, call and
#    frame_end lines (call numbers, programs, names) and column counts as apitrace's;
#    the values are timings (and llvmpipe's sample counts), which differ. With Pixels
#    Drawn for frames and calls, two passes, as apitrace.
#  - with --pcpu/--pgpu too, only the metrics are printed (apitrace's text profile is off).
#  - --gen-passes prints apitrace's numbers; unknown metrics and backends, and the
#    GL_AMD_performance_monitor and GL_INTEL_performance_query backends llvmpipe lacks
#    (tested on a fake driver by unit_metrics_ext),
#    are warned about in apitrace's words and are no error.
#  - piglit's command line (`--headless --benchmark --singlethread --loop=N --pframes
#    "opengl:GPU Duration"`) prints as many frame lines as apitrace's eglretrace for a
#    trace ending with its last swap (glxdemo: the swaps plus the loops plus the calls
#    after the last swap); `replayer.py profile trace` (PIGLIT_REPLAY_EGLRETRACE_BINARY)
#    gets PIGLIT_REPLAY_LOOP_TIMES frame times from it, every one > 0.
# What may differ, and is not compared: the values; --loop on a trace whose last swap is
# followed by other calls (ours loops its last whole frame, apitrace the calls after the
# last swap, which hold no frame: glmark2_build gives 5 more frames with --loop=5 here,
# none with apitrace's); the summary line once per replay (apitrace: one per pass).
#   usage: metrics.sh BIN_DIR CORPUS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init metrics

it_bin_corpus "$@"
ours="$bin/glretrace"
require_file "$ours" "build glretrace first"
require_tool glretrace eglretrace timeout Xvfb awk
# Debian's piglit and the Python modules its replayer imports (Debian's own python3)
piglit_dir=/usr/lib/x86_64-linux-gnu/piglit
require_file "$piglit_dir/bin/replayer.py" "install Debian's piglit (scripts/install-deps.sh)"
require_file /usr/bin/python3
/usr/bin/python3 -c 'import packaging, requests, yaml' 2>/dev/null ||
  die "piglit's replayer needs python3-packaging, python3-requests and python3-yaml"
start_xvfb

# apitrace's glretrace and ours with the same arguments: $WORK/a.out, $WORK/g.out (and .err)
run_both() {
  timeout 120 glretrace "$@" >"$WORK/a.out" 2>"$WORK/a.err" || true
  local rc=0
  timeout 120 "$ours" "$@" >"$WORK/g.out" 2>"$WORK/g.err" || rc=$?
  [ "$rc" -eq 0 ] || { fail "glretrace $*: exit $rc"; tail -3 "$WORK/g.err" | sed 's/^/    /'; }
}

# the structure of metric output: values left out, fields counted
structure() {
  awk 'BEGIN { FS = "\t" }
       /^Rendered / { next }
       /^frame\t/ { print "frame", NF; next }
       /^call\t/ { print $1, $2, $3, $4, NF; next }
       { print }' "$1"
}

# ---- --list-metrics ------------------------------------------------------------------
run_both --list-metrics "$corpus/glxgears.trace"
compare_files "--list-metrics glxgears: as apitrace's" "$WORK/a.out" "$WORK/g.out"
run_both --list-metrics "$corpus/es2gears_x11.trace"
sed -n '/Group #0/,/Group #1/p' "$WORK/a.out" >"$WORK/a.cpu"
sed -n '/Group #0/,/Group #1/p' "$WORK/g.out" >"$WORK/g.cpu"
compare_files "--list-metrics es2gears_x11 (GLES): the CPU group as apitrace's" "$WORK/a.cpu" "$WORK/g.cpu"
gpu=$(sed -n '/Group #1/,$p' "$WORK/g.out" | grep -o 'Metric #[0-9]*: [A-Za-z ]*' | tr '\n' ',') || true
[ "$gpu" = "Metric #0: GPU Start ,Metric #1: GPU Duration ,Metric #3: GPU Disjoint ," ] &&
  pass "--list-metrics es2gears_x11: GPU Start, Duration and Disjoint (EXT_disjoint_timer_query)" ||
  fail "--list-metrics es2gears_x11: GPU group $gpu"

# ---- --pframes, --pcalls, --pdrawcalls: apitrace's lines and columns -----------------------
all="opengl:CPU Start,CPU Duration,GPU Start,GPU Duration,Pixels Drawn,VSIZE Start,VSIZE Duration,RSS Start,RSS Duration"
run_both --pframes "$all" "$corpus/glxdemo.trace"
compare_files "--pframes every metric, glxdemo: apitrace's lines and columns" \
  <(structure "$WORK/a.out") <(structure "$WORK/g.out")
bad=$(grep -c -v -P '^(#|frame(\t-?[0-9]+){9}$|$|Rendered )' "$WORK/g.out" || true)
[ "$bad" = 0 ] && pass "--pframes every metric: integers in every column" ||
  fail "--pframes every metric: $bad lines that are not apitrace's"

for t in glxgears glmark2_desktop glthreads; do
  run_both --pframes "opengl:GPU Duration" "$corpus/$t.trace"
  compare_files "--pframes GPU Duration, $t: apitrace's lines" <(structure "$WORK/a.out") \
    <(structure "$WORK/g.out")
  # every frame that draws has a GPU duration (the last, after the last swap, may not)
  zero=$(awk -F'\t' '/^frame\t/ { n++; if ($2 <= 0) z++ } END { print z + 0 "/" n + 0 }' "$WORK/g.out")
  [ "${zero%/*}" -le 1 ] && [ "${zero#*/}" -gt 1 ] && pass "--pframes $t: GPU durations > 0 ($zero zero)" ||
    fail "--pframes $t: $zero frames without a GPU duration"
done

sel=(--pframes "opengl:Pixels Drawn,GPU Duration" --pcalls "opengl:Pixels Drawn,CPU Start"
     --pdrawcalls "opengl:GPU Duration,RSS Start,Pixels Drawn")
for t in glxgears glmark2_desktop glthreads; do
  run_both "${sel[@]}" "$corpus/$t.trace"
  compare_files "--pframes --pcalls --pdrawcalls (two passes), $t: apitrace's lines and columns" \
    <(structure "$WORK/a.out") <(structure "$WORK/g.out")
  if grep -q 'warning' "$WORK/g.err"; then fail "$t: warnings: $(head -2 "$WORK/g.err")"; else
    pass "$t: no GL errors from the metrics' queries (display lists compiled)"; fi
done
run_both --pdrawcalls "opengl:CPU Duration,GPU Start" --pcalls "opengl:CPU Duration" "$corpus/glmark2_build.trace"
compare_files "--pcalls and --pdrawcalls sharing a metric, glmark2_build: apitrace's columns" \
  <(structure "$WORK/a.out") <(structure "$WORK/g.out")

run_both --pcpu --pgpu --pframes "opengl:CPU Duration" "$corpus/glxdemo.trace"
compare_files "--pcpu --pgpu --pframes: the metrics alone, as apitrace (no text profile)" \
  <(structure "$WORK/a.out") <(structure "$WORK/g.out")

# ---- --gen-passes, warnings ----------------------------------------------------------------
gen_passes() {
  run_both --gen-passes "$@" "$corpus/glxdemo.trace"
  compare_files "--gen-passes $*: apitrace's number ($(cat "$WORK/g.out"))" "$WORK/a.out" "$WORK/g.out"
}
gen_passes --pframes "opengl:GPU Duration"
gen_passes --pframes "opengl:Pixels Drawn" --pcalls "opengl:Pixels Drawn"
gen_passes --pframes "opengl:Pixels Drawn" --pdrawcalls "opengl:Pixels Drawn,CPU Start"
gen_passes --pcalls "opengl:Pixels Drawn" --pdrawcalls "opengl:Pixels Drawn"
spec='opengl:[1, 2],Foo, CPU Duration;bar:x;GL_AMD_performance_monitor:a;GL_INTEL_performance_query:b'
run_both --pframes "$spec" "$corpus/glxdemo.trace"
compare_files "--pframes with unknown metrics and backends: apitrace's warnings" \
  <(grep '^Warning' "$WORK/a.err") <(grep '^Warning' "$WORK/g.err")
compare_files "--pframes [1, 2] and names: apitrace's columns" <(structure "$WORK/a.out") \
  <(structure "$WORK/g.out")

# ---- piglit -----------------------------------------------------------------------------
# its exact command line, run by eglretrace and by ours: frame lines for the loops
piglit_cmd=(--headless --benchmark --singlethread --loop=150 --pframes "opengl:GPU Duration")
timeout 120 eglretrace "${piglit_cmd[@]}" "$corpus/glxdemo.trace" >"$WORK/a.out" 2>/dev/null || true
rc=0
timeout 120 "$ours" "${piglit_cmd[@]}" "$corpus/glxdemo.trace" >"$WORK/g.out" 2>"$WORK/g.err" || rc=$?
na=$(grep -c '^frame' "$WORK/a.out" || true) ng=$(grep -c '^frame' "$WORK/g.out" || true)
[ "$rc" = 0 ] && [ "$na" = "$ng" ] && [ "$ng" = 152 ] &&
  pass "piglit's command line, glxdemo: $ng frame lines, as eglretrace's" ||
  fail "piglit's command line, glxdemo: exit $rc, $ng frame lines, eglretrace $na"

# and without an X server (SDL's offscreen driver, EGL pbuffers), as in CI runners
rc=0
env -u DISPLAY timeout 120 "$ours" --headless --benchmark --singlethread --loop=10 \
  --pframes "opengl:GPU Duration" "$corpus/glxgears.trace" >"$WORK/g.out" 2>"$WORK/g.err" || rc=$?
n=$(awk -F'\t' '/^frame\t/ { n++; if ($2 > 0) p++ } END { print n + 0 " " p + 0 }' "$WORK/g.out")
[ "$rc" = 0 ] && [ "$n" = "930 930" ] &&
  pass "piglit's command line without X, glxgears: 919 swaps + 10 loops + 1, GPU durations > 0" ||
  fail "piglit's command line without X: exit $rc, frame lines and positive ones: $n"

loops=30
set +e
PIGLIT_SOURCE_DIR="$piglit_dir" PIGLIT_REPLAY_LOOP_TIMES=$loops PIGLIT_REPLAY_EGLRETRACE_BINARY="$ours" \
  PIGLIT_REPLAY_APITRACE_BINARY="$bin/gltrace" timeout 300 /usr/bin/python3 "$piglit_dir/bin/replayer.py" \
  profile trace --device-name gl-llvmpipe --db-path "$corpus" --output "$WORK/piglit" glxgears.trace \
  >"$WORK/piglit.out" 2>"$WORK/piglit.err"
rc=$?
set -e
verdict=$(/usr/bin/python3 - "$WORK/piglit.out" "$loops" <<'EOF'
import json, sys
lines = [l for l in open(sys.argv[1]) if l.startswith('PIGLIT: ')]
if not lines:
    print('no PIGLIT line'); sys.exit()
r = json.loads(lines[-1][len('PIGLIT: '):])
times = r['images'][0]['frame_times'] or []
ok = r['result'] == 'pass' and len(times) == int(sys.argv[2]) and all(t > 0 for t in times)
print('ok %d frame times, median %d ns' % (len(times), sorted(times)[len(times) // 2]) if ok else
      'result %s, %d frame times: %s' % (r['result'], len(times), times[:5]))
EOF
) || verdict="unreadable output"
if [ "$rc" = 0 ] && [ "${verdict%% *}" = ok ]; then
  pass "piglit replayer.py profile trace glxgears with our glretrace: ${verdict#ok }"
else
  fail "piglit replayer.py profile trace: exit $rc, $verdict"
  tail -5 "$WORK/piglit.err" | sed 's/^/    /'
fi

it_finish
