# shellcheck shell=bash disable=SC2034
# bench_lib: the set-up the benchmarks share (sourced, not run; tests/xvfb.sh with it).
#
# bench_workdir NAME: a temporary folder in $work, removed at exit with the Xvfb that
#   bench_xvfb started (an interrupt exits 130 through the same clean-up).
# bench_xvfb NAME SCREEN: a private Xvfb (tests/xvfb.sh) and Mesa llvmpipe for what the
#   benchmark runs, or exit 2 saying NAME could not start it.
# shellcheck source=tests/xvfb.sh
. "$(dirname "${BASH_SOURCE[0]}")/../xvfb.sh"

bench_cleanup() {
  xvfb_stop
  rm -rf "$work"
}

bench_workdir() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/gltrace-$1.XXXXXX")
  XVFB_PID=
  trap bench_cleanup EXIT
  trap 'exit 130' INT TERM
}

bench_xvfb() {
  xvfb_spawn "$2" || { echo "$1: could not start Xvfb" >&2; exit 2; }
  export LIBGL_ALWAYS_SOFTWARE=1
}
