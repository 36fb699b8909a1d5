#!/usr/bin/env bash
# retrace_corpus: our glretrace replays simple GLX and EGL traces of the corpus like
# apitrace's glretrace.
#   usage: retrace_corpus.sh BIN_DIR CORPUS_DIR
# Under our own Xvfb (Mesa llvmpipe), for tri, glxdemo, glxgears, keithel_glxgears,
# glxsimple and es2gears_x11:
#   - `glretrace T` exits 0 and prints no line with "error" or "warning";
#   - `glretrace -b T` prints "Rendered N frames in S secs, average of F fps" with the N
#     apitrace's glretrace -b prints;
#   - `glretrace -s DIR/ T` writes one DIR/%010u.png per swap, named as apitrace's;
#   - the snapshots at the first, middle and last swap equal apitrace's (compare_png.py:
#     <= 0.1% of pixels differ by more than 2/255). apitrace runs twice; a frame its two
#     runs disagree on (glxgears' first frames depend on the time) is skipped with a note,
#     and so is a frame apitrace draws at its initial 32x32 window size (see
#     initial_size_artifact: the frames before its first swap) where ours fills the window;
#   - `glretrace --headless` (no DISPLAY) renders the same number of frames, and its
#     snapshot of the last swap equals the one under X.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init retrace_corpus

[ $# -ge 2 ] || die "usage: $0 BIN_DIR CORPUS_DIR"
bin=$(cd "$1" && pwd)
ours="$bin/glretrace"
corpus=$(corpus_apitrace_dir "$2")
require_file "$ours" "build glretrace first"
require_tool glretrace Xvfb python3 timeout
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"
TRACES=(tri glxdemo glxgears keithel_glxgears glxsimple es2gears_x11)

start_xvfb

# run WHAT OUT CMD...: CMD under timeout 120, stdout and stderr to OUT; sets RC
run() {
  local what=$1 out=$2
  shift 2
  set +e
  timeout 120 "$@" >"$out" 2>&1
  RC=$?
  set -e
  if [ "$RC" -ge 124 ]; then
    fail "$what: crashed or hung (exit $RC)"
    tail -5 "$out" | sed 's/^/    /'
  fi
}

# initial_size_artifact APITRACE.png OURS.png: apitrace's glretrace creates its windows
# 32x32 and grows them at the trace's glViewport, but Mesa's software GLX learns the new
# size only at the next swap: the frames before the first swap come out drawn in the
# bottom-left 32x32 corner, black elsewhere. True when APITRACE.png is such a frame and
# OURS.png is not (ours rebinds the context after a resize and draws the whole window).
initial_size_artifact() {
  python3 - "$1" "$2" "$compare_png" <<'PYEOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("compare_png", sys.argv[3])
cp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cp)
def outside(path):
    w, h, rows = cp.decode_png(path)
    return any(rows[y][3 * x:3 * x + 3] != b"\0\0\0"
               for y in range(h) for x in range(w) if x >= 32 or h - 1 - y >= 32)
sys.exit(0 if not outside(sys.argv[1]) and outside(sys.argv[2]) else 1)
PYEOF
}

frames_of() { sed -n 's/^Rendered \([0-9]*\) frames in .*/\1/p' "$1" | tail -1; }

for name in "${TRACES[@]}"; do
  t="$corpus/$name.trace"
  require_file "$t"
  w="$WORK/$name"
  mkdir -p "$w/a1" "$w/a2" "$w/g"

  # ---- plain replay: clean ----
  run "$name: glretrace" "$w/plain.log" "$ours" "$t"
  if [ "$RC" -eq 0 ]; then
    pass "$name: exit 0"
  elif [ "$RC" -lt 124 ]; then
    fail "$name: glretrace exits $RC"
    tail -5 "$w/plain.log" | sed 's/^/    /'
  fi
  if grep -qiE 'error|warning' "$w/plain.log"; then
    fail "$name: glretrace reports problems:"
    grep -iE 'error|warning' "$w/plain.log" | head -5 | sed 's/^/    /'
  else
    pass "$name: no error or warning"
  fi

  # ---- benchmark: frame count ----
  run "$name: apitrace glretrace -b" "$w/a.bench" glretrace -b "$t"
  run "$name: glretrace -b" "$w/g.bench" "$ours" -b "$t"
  fa=$(frames_of "$w/a.bench")
  fg=$(frames_of "$w/g.bench")
  if [ -z "$fa" ]; then
    fail "$name: apitrace's glretrace -b prints no frame count"
  elif [ "$fg" = "$fa" ] && grep -qE "^Rendered $fg frames in [0-9.e+-]+ secs, average of [0-9.e+-]+ fps$" "$w/g.bench"; then
    pass "$name: -b renders $fg frames"
  else
    fail "$name: -b: apitrace renders $fa frames, ours prints: $(grep -m1 Rendered "$w/g.bench" || echo nothing)"
  fi

  # ---- snapshots ----
  run "$name: apitrace glretrace -s" "$w/a1.log" glretrace -s "$w/a1/" "$t"
  run "$name: glretrace -s" "$w/g.log" "$ours" -s "$w/g/" "$t"
  (cd "$w/a1" && ls) >"$w/a1.list"
  (cd "$w/g" && ls) >"$w/g.list"
  n=$(wc -l <"$w/a1.list")
  if [ "$n" -eq 0 ]; then
    fail "$name: apitrace's glretrace -s wrote no snapshot"
    continue
  fi
  if cmp -s "$w/a1.list" "$w/g.list"; then
    pass "$name: -s writes apitrace's $n snapshot names"
  else
    fail "$name: -s: snapshot names differ from apitrace's ($n vs $(wc -l <"$w/g.list"))"
    first_diff "$w/a1.list" "$w/g.list"
  fi
  picks=$( (sed -n 1p "$w/a1.list"; sed -n "$(((n + 1) / 2))p" "$w/a1.list"; sed -n "${n}p" "$w/a1.list") | sort -u)
  calls=$(echo "$picks" | sed 's/\.png$//; s/^0*\([0-9]\)/\1/' | paste -sd, -)
  run "$name: apitrace glretrace -S" "$w/a2.log" glretrace -S "$calls" -s "$w/a2/" "$t"
  for f in $picks; do
    if ! python3 "$compare_png" "$w/a1/$f" "$w/a2/$f" >/dev/null 2>&1; then
      echo "    note: $name: $f: apitrace's own runs differ, not compared"
      continue
    fi
    if [ ! -f "$w/g/$f" ]; then
      fail "$name: snapshot $f missing"
    elif out=$(python3 "$compare_png" "$w/a1/$f" "$w/g/$f" 2>&1); then
      pass "$name: snapshot $f equals apitrace's"
    elif initial_size_artifact "$w/a1/$f" "$w/g/$f"; then
      echo "    note: $name: $f: apitrace drew this frame at its initial 32x32 size, not compared"
    else
      fail "$name: snapshot $f: $out"
    fi
  done

  # ---- headless ----
  run "$name: glretrace --headless -b" "$w/h.bench" env -u DISPLAY "$ours" --headless -b "$t"
  fh=$(frames_of "$w/h.bench")
  if [ "$fh" = "$fa" ]; then
    pass "$name: --headless renders $fh frames"
  else
    fail "$name: --headless: $(head -3 "$w/h.bench" | tr '\n' ' ')"
  fi
  last=$(sed -n "${n}p" "$w/g.list")
  mkdir -p "$w/h"
  run "$name: glretrace --headless -S" "$w/h.log" env -u DISPLAY "$ours" --headless \
    -S "$(echo "$last" | sed 's/\.png$//; s/^0*\([0-9]\)/\1/')" -s "$w/h/" "$t"
  if [ -f "$w/g/$last" ] && out=$(python3 "$compare_png" "$w/g/$last" "$w/h/$last" 2>&1); then
    pass "$name: --headless snapshot $last equals the one under X"
  else
    fail "$name: --headless snapshot $last: ${out:-missing}"
  fi
done

it_finish
