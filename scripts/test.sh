#!/usr/bin/env bash
# README command 2: every test. Expects the dependencies (scripts/install-deps.sh).
#  1. Release build with -Werror; unit and integration tests (ctest).
#  2. clang build with AddressSanitizer + UndefinedBehaviorSanitizer and libFuzzer:
#     unit tests, the corpus replay and the command-line tests (labels cli and
#     cli_replay: everything but recording, whose preload library cannot carry ASan
#     into an uninstrumented program) under the sanitizers, then a bounded fuzz run.
# FUZZ_SECONDS (default 60) bounds the apitrace reader's fuzz run, each timeline reader
# gets half of it; 0 skips fuzzing.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
fuzz_seconds=${FUZZ_SECONDS:-60}
status=0

echo "== [1/3] release build (-Werror) and tests" >&2
"$top/scripts/build.sh" "$top/build" -DGLTRACE_WERROR=ON
(cd "$top/build" && ctest --output-on-failure -j2) || status=1

echo "== [2/3] ASan+UBSan build (clang, libFuzzer) and unit tests" >&2
"$top/scripts/build.sh" "$top/build-asan" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
  -DGLTRACE_WERROR=ON -DGLTRACE_SANITIZE=ON -DGLTRACE_FUZZ=ON -DGLTRACE_RECORDING=OFF
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd "$top/build-asan" && ctest --output-on-failure -j2 -R '^(unit_|fuzz_)') || status=1
echo "== [2/3] the command-line tests under ASan+UBSan" >&2
(cd "$top/build-asan" && ctest --output-on-failure -j2 -L '^cli$') || status=1
# Mesa and SDL leak at exit, partly from driver code already unloaded then (LSan
# cannot name it to suppress it), so tests that run glretrace check memory errors and
# undefined behaviour but not leaks
(cd "$top/build-asan" && ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  ctest --output-on-failure -j2 -L '^cli_replay$') || status=1

# fuzz TARGET SECONDS SEED_DIR GLOB: a bounded libFuzzer run seeded with SEED_DIR/GLOB
fuzz() {
  local target=$1 seconds=$2 seeds=$3 glob=$4
  local bin="$top/build-asan/bin/$target" work
  echo "== fuzzing $target for ${seconds}s" >&2
  [ -x "$bin" ] || { echo "test.sh: $bin was not built" >&2; status=1; return; }
  work=$(mktemp -d)
  mkdir -p "$work/corpus"
  # shellcheck disable=SC2086
  cp "$seeds"/$glob "$work/corpus/" 2>/dev/null || true
  "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=262144 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" 2>"$work/fuzz.log" ||
    { tail -50 "$work/fuzz.log" >&2; cp "$work"/crash-* "$work"/timeout-* "$work"/oom-* "$top/build-asan/" 2>/dev/null || true; status=1; }
  grep -E "stat::number_of_executed_units|Done " "$work/fuzz.log" >&2 || true
  rm -rf "$work"
}

if [ "$fuzz_seconds" -gt 0 ]; then
  echo "== [3/3] fuzzing the readers and the replayer" >&2
  # the apitrace reader gets FUZZ_SECONDS, each timeline reader half of it
  half=$(( (fuzz_seconds + 1) / 2 ))
  corpus="$top/../shared/corpus"
  fuzz fuzz_reader "$fuzz_seconds" "$corpus/apitrace" '*.trace'
  fuzz fuzz_fxt "$half" "$corpus/fxt" '*.fxt'
  fuzz fuzz_chrome "$half" "$corpus/chrome-json" '*.json*'
  fuzz fuzz_xray "$half" "$corpus/xray-fdr" '*.xray'
  fuzz fuzz_tracecmd "$half" "$corpus/tracecmd-dat" '*.dat'
  # the replayer's argument decoding and checks, on a stub GL dispatch
  fuzz fuzz_retrace "$half" "$corpus/apitrace" '*.trace'
  # PNG decoding (diff-images), seeded with tests/fuzz/regressions_png
  fuzz fuzz_png "$half" "$top/tests/fuzz/regressions_png" '*.png'
  # the frame index's contents (gltrace index), seeded with tests/fuzz/regressions_index
  fuzz fuzz_index "$half" "$top/tests/fuzz/regressions_index" '*'
fi
exit $status
