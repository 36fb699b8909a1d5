#!/usr/bin/env bash
# check: `gltrace check TRACES.yml` against Debian's piglit replayer (`replayer.py
# compare yaml`), on traces.yml files whose checksums apitrace's eglretrace made:
#  - the checksums: piglit run with apitrace's `apitrace dump` and eglretrace on the
#    corpus traces (a list-form file with placeholder checksums: every trace "fails"
#    and piglit prints the checksum it computed);
#  - piglit pointed at our gltrace and glretrace gives apitrace's verdicts;
#  - `gltrace check` gives piglit's verdicts on the list form and on Mesa's current
#    form (a pass, a deliberately wrong checksum = fail, a skip label); a missing
#    trace, an unusable entry and a replay that crashes (a replayer module that raises
#    SIGSEGV for one trace, built here) fail that trace and the run completes; a file
#    that is not YAML is an error naming FILE:LINE:COL;
#  - its JUnit XML parses (xml.etree) with the counts of its text; three shards (and
#    CI_NODE_INDEX/CI_NODE_TOTAL) partition the list; -j 3 prints what -j 1 prints;
#  - --update changes the wrong checksum's line only (diff), to apitrace's checksum,
#    in both forms, and piglit passes the updated list-form file;
#  - the HTML report shows the differing image, whose PIL checksum is the one reported;
#  - --profile reads piglit's frame times from our glretrace.
# Traces: those whose last frame apitrace renders the same on every run (tri.trace
# does not: its snapshot reads a back buffer left undefined), and not glxdemo.trace,
# whose single-buffered visual makes apitrace's eglretrace snapshot a back buffer
# nothing was drawn to (ours reads the drawing): there the checksums differ.
#   usage: check.sh BIN_DIR CORPUS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init check

it_bin_corpus "$@"
gltrace="$bin/gltrace"
require_file "$gltrace" "build gltrace first"
require_file "$bin/glretrace" "build glretrace first"
require_file "$bin/../lib/libgltrace_replay.so" "build libgltrace_replay.so first"
require_tool apitrace eglretrace Xvfb timeout cc diff
piglit_dir=/usr/lib/x86_64-linux-gnu/piglit
require_file "$piglit_dir/bin/replayer.py" "install Debian's piglit (scripts/install-deps.sh)"
require_file /usr/bin/python3
/usr/bin/python3 -c 'import packaging, requests, yaml, PIL' 2>/dev/null ||
  die "piglit's replayer needs python3-packaging, python3-requests, python3-yaml and python3-pil"
helper() { /usr/bin/python3 "$here/check_piglit.py" "$@"; }
start_xvfb

dev=gl-test
db="$WORK/db"
mkdir -p "$db/sub"
traces=(tri_glsl.trace glxsimple.trace es2gears_x11.trace keithel_glxgears.trace sub/glthreads.trace)
for t in "${traces[@]}"; do ln -s "$corpus/$(basename "$t")" "$db/$t"; done
wrong=tri_glsl.trace  # its checksum is made wrong on purpose
skipped=glxsimple.trace

# piglit YML OUT APITRACE EGLRETRACE: `replayer.py compare yaml`, output in $WORK/OUT.txt
piglit() {
  local rc=0
  PIGLIT_SOURCE_DIR="$piglit_dir" PIGLIT_REPLAY_APITRACE_BINARY="$3" \
    PIGLIT_REPLAY_EGLRETRACE_BINARY="$4" timeout 600 /usr/bin/python3 "$piglit_dir/bin/replayer.py" \
    compare yaml --device-name "$dev" --yaml-file "$1" --db-path "$db" --output "$WORK/$2" \
    >"$WORK/$2.txt" 2>&1 || rc=$?
  helper verdicts "$WORK/$2.txt" | sort >"$WORK/$2.verdicts"
  echo "$rc"
}

# ---- apitrace's checksums, as piglit computes them ------------------------------------
for t in "${traces[@]}"; do echo "$t 0"; done >"$WORK/zero.sums"
helper list-yml "$WORK/zero.sums" "$dev" >"$WORK/zero.yml"
piglit "$WORK/zero.yml" seed apitrace eglretrace >/dev/null
awk '$2 == "fail" { print $1, $3 }' "$WORK/seed.verdicts" >"$WORK/apitrace.sums"
[ "$(wc -l <"$WORK/apitrace.sums")" = ${#traces[@]} ] ||
  die "piglit with apitrace gave no checksums: $(tail -3 "$WORK/seed.txt")"
sum_of() { awk -v p="$1" '$1 == p { print $2 }' "$WORK/apitrace.sums"; }
wrong_sum=$(sum_of $wrong | tr 0-9a-f 1-9a-f0)
awk -v p=$wrong -v w="$wrong_sum" '$1 == p { $2 = w } { print }' "$WORK/apitrace.sums" >"$WORK/list.sums"
helper list-yml "$WORK/list.sums" "$dev" >"$WORK/list.yml"

# ---- (a) piglit with our gltrace and glretrace: apitrace's verdicts ---------------------
piglit "$WORK/list.yml" pa apitrace eglretrace >/dev/null
piglit "$WORK/list.yml" pg "$gltrace" "$bin/glretrace" >/dev/null
cut -d' ' -f1,2 "$WORK/pa.verdicts" >"$WORK/pa.v"
cut -d' ' -f1,2 "$WORK/pg.verdicts" >"$WORK/pg.v"
expect_v() { for t in "${traces[@]}"; do [ "$t" = $wrong ] && echo "$t fail" || echo "$t pass"; done | sort; }
expect_v >"$WORK/expected.v"
compare_files "piglit with apitrace: the designed verdicts (one wrong checksum)" "$WORK/expected.v" "$WORK/pa.v"
compare_files "piglit with our gltrace and glretrace: apitrace's verdicts" "$WORK/pa.v" "$WORK/pg.v"

# ---- (b) gltrace check on the list form: piglit's verdicts -------------------------------
rc=0
(cd "$WORK" && "$gltrace" check list.yml -d $dev -p "$db" -o res-list >list.out 2>list.err) || rc=$?
helper ours "$WORK/list.out" | sort >"$WORK/list.v"
[ "$rc" = 1 ] && pass "check list.yml: exit 1 (a trace failed)" || fail "check list.yml: exit $rc"
compare_files "check, list form: piglit's verdicts" "$WORK/pa.v" "$WORK/list.v"
grep -q "^fail $wrong: checksum differs: expected $wrong_sum, got $(sum_of $wrong)\$" "$WORK/list.out" &&
  pass "check: the failure names both checksums" || fail "check: $(grep "$wrong" "$WORK/list.out")"

# without an X server (SDL's offscreen driver), as on a CI runner: the same output
RC=0
(cd "$WORK" && env -u DISPLAY "$gltrace" check list.yml -d $dev -p "$db" -o res-nox >nox.out 2>nox.err) || RC=$?
compare_files "check without an X server: the same verdicts and checksums" "$WORK/list.out" "$WORK/nox.out"

# ---- Mesa's current form: skip label, missing trace, unusable entry -----------------------
{
  echo "# traces of the test device"
  echo "traces-db:"
  echo "  download-url: \"https://example.invalid/\""
  echo ""
  echo "traces:"
  for t in "${traces[@]}"; do
    s=$(awk -v p="$t" '$1 == p { print $2 }' "$WORK/list.sums")
    echo "  $t:"
    echo "    gl-other:"
    echo "      checksum: 00000000000000000000000000000000   # another device's"
    echo "    $dev:"
    [ "$t" = $skipped ] && echo "      label: [skip, flakes]"
    echo "      checksum: $s"
  done
  echo "  only-other.trace:"
  echo "    gl-other:"
  echo "      checksum: 00000000000000000000000000000000"
  echo "  missing.trace:"
  echo "    $dev:"
  echo "      checksum: '00000000000000000000000000000000'"
  echo "  sub/unusable.trace:"
  echo "    $dev: [not, a, mapping]"
} >"$WORK/new.yml"
unusable_line=$(grep -n "$dev: \[not" "$WORK/new.yml" | cut -d: -f1)
run_check() { # NAME ARGS...: stdout $WORK/NAME.out, stderr .err, exit status in RC
  local name=$1
  shift
  RC=0
  (cd "$WORK" && timeout 600 "$gltrace" check "$@" >"$name.out" 2>"$name.err") || RC=$?
}
run_check new new.yml -d $dev -p "$db" -o res-new --junit new.xml
helper ours "$WORK/new.out" | sort >"$WORK/new.v"
{
  grep -v -e "^$wrong " -e "^$skipped " "$WORK/pa.v"
  echo "$wrong fail"
  echo "$skipped skip"
  echo "missing.trace fail"
  echo "sub/unusable.trace fail"
} | sort >"$WORK/new.expected"
[ "$RC" = 1 ] && pass "check new.yml: exit 1" || fail "check new.yml: exit $RC"
compare_files "check, Mesa's form: piglit's verdicts, skip, missing and unusable fail" \
  "$WORK/new.expected" "$WORK/new.v"
grep -q "^fail missing.trace: trace .*missing.trace: No such file" "$WORK/new.out" &&
  pass "check: a missing trace is that trace's failure" || fail "check: $(grep missing "$WORK/new.out")"
grep -q "^fail sub/unusable.trace: new.yml:$unusable_line: " "$WORK/new.out" &&
  pass "check: an unusable entry fails with FILE:LINE" || fail "check: $(grep unusable "$WORK/new.out")"
grep -q "^skip $skipped: label: skip, flakes\$" "$WORK/new.out" &&
  pass "check: the skip label" || fail "check: $(grep $skipped "$WORK/new.out")"
! grep -q only-other "$WORK/new.out" && pass "check: another device's trace is not listed" ||
  fail "check: another device's trace listed"

# JUnit: the counts of the text's summary
read -r np nf ns < <(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' "$WORK/new.out")
n=$((np + nf + ns))
got=$(helper junit "$WORK/new.xml" 2>&1) || true
[ "$got" = "$n $nf $ns $n $nf $ns" ] && [ "$nf" = 3 ] && [ "$ns" = 1 ] &&
  pass "--junit: $n tests, $nf failures, $ns skipped, as the text says" ||
  fail "--junit: got '$got', the text says $np passed, $nf failed, $ns skipped"

# the HTML report: the differing image, with the checksum reported
img=$(grep -o "src=\"[^\"]*$(basename $wrong)[^\"]*\"" "$WORK/res-new/index.html" | head -1 | sed 's/src="//; s/"$//') || true
if [ -n "$img" ] && [ -f "$WORK/res-new/$img" ] &&
  [ "$(helper md5 "$WORK/res-new/$img")" = "$(sum_of $wrong)" ]; then
  pass "HTML report: the differing image, whose PIL checksum is apitrace's"
else
  fail "HTML report: image '$img'"
fi
mkdir -p "$WORK/refs"
cp "$WORK/res-new/$img" "$WORK/refs/$wrong_sum.png" 2>/dev/null || true
run_check ref new.yml -d $dev -p "$db" -o res-ref --ref-dir "$WORK/refs"
grep -q "src=\"[^\"]*refs/$wrong_sum.png\"" "$WORK/res-ref/index.html" 2>/dev/null &&
  pass "HTML report: the reference image of --ref-dir beside it" || fail "HTML report: no reference image"

# ---- -j and shards ----------------------------------------------------------------------
run_check j3 new.yml -d $dev -p "$db" -o res-j3 -j 3
compare_files "-j 3: what -j 1 prints" "$WORK/new.out" "$WORK/j3.out"
for k in 1 2 3; do
  run_check "shard$k" new.yml -d $dev -p "$db" -o "res-s$k" -j 2 --shard "$k/3"
  grep -E '^(pass|fail|skip) ' "$WORK/shard$k.out" >"$WORK/shard$k.lines" || true
done
sort "$WORK"/shard[123].lines >"$WORK/shards.all"
grep -E '^(pass|fail|skip) ' "$WORK/new.out" | sort >"$WORK/whole.all"
compare_files "--shard 1/3, 2/3, 3/3: together the whole list, each trace once, same verdicts" \
  "$WORK/whole.all" "$WORK/shards.all"
s1=$(wc -l <"$WORK/shard1.lines") s2=$(wc -l <"$WORK/shard2.lines") s3=$(wc -l <"$WORK/shard3.lines")
[ "$s1" -gt 0 ] && [ "$s2" -gt 0 ] && [ "$s3" -gt 0 ] && pass "shards: $s1, $s2, $s3 traces" ||
  fail "shards: $s1, $s2, $s3 traces"
RC=0
(cd "$WORK" && CI_NODE_INDEX=2 CI_NODE_TOTAL=3 "$gltrace" check new.yml -d $dev -p "$db" -o res-ci \
  >ci.out 2>ci.err) || RC=$?
compare_files "CI_NODE_INDEX=2 CI_NODE_TOTAL=3: --shard 2/3" "$WORK/shard2.out" "$WORK/ci.out"

# ---- --update ---------------------------------------------------------------------------
cp "$WORK/new.yml" "$WORK/upd.yml"
run_check upd upd.yml -d $dev -p "$db" -o res-upd --update
diff "$WORK/new.yml" "$WORK/upd.yml" | grep '^[<>]' >"$WORK/upd.diff" || true
printf '< %s\n> %s\n' "      checksum: $wrong_sum" "      checksum: $(sum_of $wrong)" >"$WORK/upd.expected"
compare_files "--update, Mesa's form: only the wrong checksum's line changes, to apitrace's" \
  "$WORK/upd.expected" "$WORK/upd.diff"
cp "$WORK/list.yml" "$WORK/updl.yml"
run_check updl updl.yml -d $dev -p "$db" -o res-updl --update
diff "$WORK/list.yml" "$WORK/updl.yml" | grep '^[<>]' >"$WORK/updl.diff" || true
printf '< %s\n> %s\n' "        checksum: \"$wrong_sum\"" "        checksum: \"$(sum_of $wrong)\"" \
  >"$WORK/updl.expected"
compare_files "--update, list form: only the wrong checksum's line changes (quotes kept)" \
  "$WORK/updl.expected" "$WORK/updl.diff"
[ "$RC" = 0 ] && pass "--update: exit 0 once every difference is written" || fail "--update: exit $RC"
piglit "$WORK/updl.yml" pu apitrace eglretrace >/dev/null
[ "$(awk '$2 == "pass"' "$WORK/pu.verdicts" | wc -l)" = ${#traces[@]} ] &&
  pass "piglit with apitrace passes every trace of the updated file" ||
  fail "piglit on the updated file: $(tr '\n' ' ' <"$WORK/pu.verdicts")"

# ---- a replay that crashes, and a file that is not YAML ----------------------------------
cat >"$WORK/crash_module.c" <<'EOF'
/* The replayer module, except that a trace named *crash* crashes it and one named
 * *hang* never ends. */
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "replay.h"
static const replay_api *real;
static void init(replay_options *o, const char *t) { real->options_init(o, t); }
static int run(const replay_options *o, replay_result *r, gt_error *e)
{
    if (strstr(o->trace, "crash"))
        raise(SIGSEGV);
    if (strstr(o->trace, "hang"))
        for (;;)
            pause();
    return real->run(o, r, e);
}
__attribute__((visibility("default"))) const replay_api gltrace_replay_api = {REPLAY_API_VERSION, init, run};
__attribute__((constructor)) static void load(void)
{
    void *h = dlopen(getenv("CHECK_REAL_REPLAY"), RTLD_NOW | RTLD_LOCAL);
    real = h ? dlsym(h, REPLAY_API_SYMBOL) : NULL;
    if (!real)
        abort();
}
EOF
top="$here/../.."
cc -shared -fPIC -o "$WORK/crash_module.so" "$WORK/crash_module.c" -I"$top/retrace/include" \
  -I"$top/common/util" -I"$top/common/model" -ldl || die "cannot build the crashing module"
ln -s "$corpus/glthreads.trace" "$db/crash.trace"
ln -s "$corpus/glthreads.trace" "$db/hang.trace"
head -c 3000 /dev/urandom >"$db/garbage.trace"
{
  echo "traces:"
  for t in crash.trace hang.trace garbage.trace sub/glthreads.trace; do
    printf '  %s:\n    %s:\n      checksum: %s\n' $t $dev "$(sum_of sub/glthreads.trace)"
  done
} >"$WORK/crash.yml"
RC=0
(cd "$WORK" && GLTRACE_REPLAY="$WORK/crash_module.so" CHECK_REAL_REPLAY="$bin/../lib/libgltrace_replay.so" \
  timeout 300 "$gltrace" check crash.yml -d $dev -p "$db" -o res-crash -j 2 --timeout=5 \
  >crash.out 2>crash.err) || RC=$?
# signal 11 in a plain build; under AddressSanitizer its handler turns the SIGSEGV into
# an abort (6): any signal is the crash
grep -qE '^fail crash.trace: replay crashed: signal (11|6) ' "$WORK/crash.out" &&
  grep -q '^pass sub/glthreads.trace$' "$WORK/crash.out" && [ "$RC" = 1 ] &&
  pass "a replay that crashes: that trace fails with its signal, the others go on" ||
  fail "a replay that crashes: exit $RC, $(tr '\n' '|' <"$WORK/crash.out") $(tail -2 "$WORK/crash.err")"
grep -q '^fail hang.trace: replay timed out after 5 s' "$WORK/crash.out" &&
  pass "--timeout: a replay that never ends fails" || fail "--timeout: $(grep hang "$WORK/crash.out")"
grep -q '^fail garbage.trace: replay failed (exit 1): .*garbage.trace' "$WORK/crash.out" &&
  pass "a file that is no trace fails, naming it" || fail "garbage: $(grep garbage "$WORK/crash.out")"

printf 'traces:\n  a.trace:\n    %s:\n      checksum: [unclosed\n  b.trace: {\n' $dev >"$WORK/bad.yml"
run_check bad bad.yml -d $dev -p "$db" -o res-bad
[ "$RC" = 2 ] && grep -q '^gltrace check: bad.yml:[0-9]*:[0-9]*: not YAML' "$WORK/bad.err" &&
  pass "a file that is not YAML: exit 2, FILE:LINE:COL ($(head -1 "$WORK/bad.err"))" ||
  fail "a file that is not YAML: exit $RC, $(head -2 "$WORK/bad.err")"

# ---- --calls: the call piglit snapshots, named -------------------------------------------
last=$(apitrace dump --calls=frame "$db/keithel_glxgears.trace" | awk '$1 ~ /^[0-9]+$/ { n = $1 } END { print n }')
printf 'traces:\n  keithel_glxgears.trace:\n    %s:\n      checksum: %s\n' $dev \
  "$(sum_of keithel_glxgears.trace)" >"$WORK/calls.yml"
run_check calls calls.yml -d $dev -p "$db" -o res-calls --calls="$last"
grep -q '^pass keithel_glxgears.trace$' "$WORK/calls.out" &&
  pass "--calls=$last (keithel_glxgears' last swap): the default's verdict" ||
  fail "--calls=$last: $(grep keithel "$WORK/calls.out")"

# ---- --profile --------------------------------------------------------------------------
printf 'traces:\n  keithel_glxgears.trace:\n    %s:\n      checksum: x\n  glxsimple.trace:\n    %s:\n      label: [no-perf]\n' \
  $dev $dev >"$WORK/prof.yml"
run_check prof prof.yml -d $dev -p "$db" -o res-prof --profile --loop=5
grep -qE '^pass keithel_glxgears.trace: 5 frames, median [0-9.]+ ms' "$WORK/prof.out" &&
  grep -q '^skip glxsimple.trace: label: no-perf$' "$WORK/prof.out" && [ "$RC" = 0 ] &&
  pass "--profile --loop=5: 5 frame times from our glretrace, no-perf skipped" ||
  fail "--profile: exit $RC, $(tr '\n' '|' <"$WORK/prof.out") $(tail -2 "$WORK/prof.err")"

it_finish
