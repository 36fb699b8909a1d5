#!/usr/bin/env bash
# README command 2: every test. Expects the dependencies (scripts/install-deps.sh).
#  1. Release build with -Werror; unit and integration tests (ctest).
#  2. clang build with AddressSanitizer + UndefinedBehaviorSanitizer and libFuzzer; the
#     tests registered with SANITIZE full or noleaks (label sanitize; see
#     gltrace_add_test in tests/CMakeLists.txt) under the sanitizers.
#  3. A bounded fuzz run of every libFuzzer target, two at a time (one per core).
# FUZZ_SECONDS (default 60) bounds the apitrace reader's fuzz run, each other target
# gets half of it; 0 skips fuzzing. One test, or the sanitizer tests by hand: tests/README.md.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
fuzz_seconds=${FUZZ_SECONDS:-60}
status=0
# stage_done N: how long stage N took (CI's time budget is watched stage by stage)
stage_start=$SECONDS
stage_done() {
  echo "== [$1/3] took $((SECONDS - stage_start)) s" >&2
  stage_start=$SECONDS
}

echo "== [1/3] release build (-Werror) and tests" >&2
"$top/scripts/build.sh" "$top/build" -DGLTRACE_WERROR=ON
(cd "$top/build" && ctest --output-on-failure -j2) || status=1
stage_done 1

echo "== [2/3] ASan+UBSan build (clang, libFuzzer) and the tests labelled sanitize" >&2
# -O1, as AddressSanitizer's authors advise: half the time of -O0 on the image and replay
# tests, with asserts still on (Debug) and frames kept (-fno-omit-frame-pointer)
"$top/scripts/build.sh" "$top/build-asan" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DGLTRACE_WERROR=ON -DGLTRACE_SANITIZE=ON -DGLTRACE_FUZZ=ON -DGLTRACE_RECORDING=OFF
# tests registered with SANITIZE noleaks set their own ASAN_OPTIONS (detect_leaks=0)
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd "$top/build-asan" && ctest --output-on-failure -j2 -L '^sanitize$') || status=1
stage_done 2

# fuzz TARGET SECONDS SEED_DIR GLOB: a bounded libFuzzer run seeded with SEED_DIR/GLOB;
# fails (1) on a finding, whose inputs are copied to build-asan/
fuzz() {
  local target=$1 seconds=$2 seeds=$3 glob=$4
  local bin="$top/build-asan/bin/$target" work rc=0
  echo "== fuzzing $target for ${seconds}s" >&2
  [ -x "$bin" ] || { echo "test.sh: $bin was not built" >&2; return 1; }
  work=$(mktemp -d)
  mkdir -p "$work/corpus"
  # shellcheck disable=SC2086
  cp "$seeds"/$glob "$work/corpus/" 2>/dev/null || true
  "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=262144 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" 2>"$work/fuzz.log" ||
    { tail -50 "$work/fuzz.log" | sed "s/^/$target: /" >&2; rc=1
      cp "$work"/crash-* "$work"/timeout-* "$work"/oom-* "$top/build-asan/" 2>/dev/null || true; }
  grep -E "stat::number_of_executed_units|Done " "$work/fuzz.log" | sed "s/^/$target: /" >&2 || true
  rm -rf "$work"
  return $rc
}

# Each target is single-threaded: two run at once (the machine's two cores), each for
# the same time as when they ran one after another
running=0
fuzz_bg() {
  if [ "$running" -ge 2 ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  fuzz "$@" &
  running=$((running + 1))
}

if [ "$fuzz_seconds" -gt 0 ]; then
  echo "== [3/3] fuzzing the readers and the replayer" >&2
  # the apitrace reader gets FUZZ_SECONDS, each other target half of it
  half=$(( (fuzz_seconds + 1) / 2 ))
  corpus="$top/../shared/corpus"
  fuzz_bg fuzz_reader "$fuzz_seconds" "$corpus/apitrace" '*.trace'
  fuzz_bg fuzz_fxt "$half" "$corpus/fxt" '*.fxt'
  fuzz_bg fuzz_chrome "$half" "$corpus/chrome-json" '*.json*'
  fuzz_bg fuzz_xray "$half" "$corpus/xray-fdr" '*.xray'
  fuzz_bg fuzz_tracecmd "$half" "$corpus/tracecmd-dat" '*.dat'
  # the replayer's argument decoding and checks, on a stub GL dispatch
  fuzz_bg fuzz_retrace "$half" "$corpus/apitrace" '*.trace'
  # PNG decoding (diff-images), seeded with tests/fuzz/regressions_png
  fuzz_bg fuzz_png "$half" "$top/tests/fuzz/regressions_png" '*.png'
  # the frame index's contents (gltrace index), seeded with tests/fuzz/regressions_index
  fuzz_bg fuzz_index "$half" "$top/tests/fuzz/regressions_index" '*'
  # diff-state's JSON and check's traces.yml, seeded with tests/fuzz/regressions_{json,yaml}
  fuzz_bg fuzz_json "$half" "$top/tests/fuzz/regressions_json" '*'
  fuzz_bg fuzz_yaml "$half" "$top/tests/fuzz/regressions_yaml" '*'
  while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
  done
  stage_done 3
fi
exit $status
