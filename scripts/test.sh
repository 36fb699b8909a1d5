#!/usr/bin/env bash
# README command 2: every test. Expects the dependencies (scripts/install-deps.sh).
#  1. Release build with -Werror; unit and integration tests (ctest).
#  2. clang build with AddressSanitizer + UndefinedBehaviorSanitizer and libFuzzer:
#     unit tests and the corpus replay under the sanitizers, then a bounded fuzz run.
# FUZZ_SECONDS (default 60) bounds the fuzz run; 0 skips it.
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

if [ "$fuzz_seconds" -gt 0 ]; then
  echo "== [3/3] fuzzing the trace reader for ${fuzz_seconds}s" >&2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/corpus"
  cp "$top"/../shared/corpus/apitrace/*.trace "$work/corpus/" 2>/dev/null || true
  "$top/build-asan/bin/fuzz_reader" -max_total_time="$fuzz_seconds" -rss_limit_mb=2048 \
    -max_len=262144 -timeout=10 -print_final_stats=1 -artifact_prefix="$work/" \
    "$work/corpus" 2>"$work/fuzz.log" || { tail -50 "$work/fuzz.log" >&2; status=1; }
  grep -E "stat::number_of_executed_units|Done " "$work/fuzz.log" >&2 || true
fi
exit $status
