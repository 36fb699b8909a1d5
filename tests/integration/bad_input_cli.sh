#!/usr/bin/env bash
# bad_input_cli: `gltrace dump` on broken files, through the command line.
#   usage: bad_input_cli.sh BIN_DIR CORPUS_DIR
# Every run is bounded by `timeout 20`; a hang (exit 124/137) or a crash (exit >= 128)
# always fails, and so does a damaged copy of a corpus trace that takes more than 5 times
# as long as the intact trace plus 2 s (a quadratic or stuck parse; a ratio, measured in
# the same run, so a loaded machine slows both alike).  Three kinds of files:
#   - bad files (empty, garbage, zstd, hand-made streams with absurd lengths or
#     unknown codes, broken Snappy blocks, flipped bytes that must be caught):
#     exit status 1..123 and a stderr message naming the file and an "offset";
#   - cut files (corpus traces cut with head -c: inside a Snappy chunk, at and just
#     after chunk boundaries, in gzip data): exit 0, a warning on stderr naming the
#     file, and the calls printed are those of the full dump (check_prefix.py);
#   - bytes flipped at spread positions of a few traces: the data may still parse
#     (Snappy has no checksum), so these only must not crash or hang, and an error,
#     if any, names the file and an offset.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init bad_input_cli

it_bin_corpus "$@"
gltrace="$bin/gltrace"
require_file "$gltrace" "build gltrace first"
require_tool python3 timeout head
D="$WORK/files"
mkdir -p "$D"

# budget_for SOURCE: sets BUDGET_MS for damaged copies of the corpus trace SOURCE: 5
# times its intact dump's time, plus 2 s
BUDGET_MS=20000
BUDGET_SOURCE=
budget_for() {
  local t0 t1
  BUDGET_SOURCE=$1
  t0=$(date +%s%N)
  "$gltrace" dump --color=never "$1" >/dev/null 2>&1 || true
  t1=$(date +%s%N)
  BUDGET_MS=$((5 * (t1 - t0) / 1000000 + 2000))
}

# run_dump FILE: gltrace dump --color=never FILE; sets RC, output in $WORK/out.txt,
# stderr in $WORK/err.txt; returns 1 (after recording a failure) on a crash or hang,
# or when it took more than BUDGET_MS.
# timed_dump FILE: run_timed of gltrace dump; sets MS
timed_dump() {
  local t0 t1
  t0=$(date +%s%N)
  run_timed "$WORK/out.txt" "$WORK/err.txt" "$gltrace" dump --color=never "$1"
  t1=$(date +%s%N)
  MS=$(((t1 - t0) / 1000000))
}

run_dump() {
  local f=$1 ms
  timed_dump "$f"
  ms=$MS
  if [ "$ms" -gt "$BUDGET_MS" ] && [ "$RC" -lt 124 ] && [ -n "$BUDGET_SOURCE" ]; then
    # a loaded machine slows one run now and then: measure both again; a dump that is
    # really slow on damaged input stays over
    echo "    note: $(basename "$f"): $ms ms, over $BUDGET_MS: measured again" >&2
    budget_for "$BUDGET_SOURCE"
    timed_dump "$f"
    ms=$MS
  fi
  if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then
    fail "$(basename "$f"): gltrace dump hung (killed after 20 s)"
    return 1
  fi
  if [ "$RC" -ge 128 ]; then
    fail "$(basename "$f"): gltrace dump crashed (exit $RC, signal $((RC - 128)))"
    sed 's/^/    stderr: /' "$WORK/err.txt" | head -5
    return 1
  fi
  if [ "$ms" -gt "$BUDGET_MS" ]; then
    fail "$(basename "$f"): gltrace dump took $ms ms (more than $BUDGET_MS: 5 times the intact trace's, plus 2 s)"
    return 1
  fi
  return 0
}

stderr_names_offset() { # FILE: the message names the file and an offset
  local n
  n=$(basename "$1")
  grep -qF "$n" "$WORK/err.txt" && grep -q "offset" "$WORK/err.txt"
}

# expect_error FILE WHY
expect_error() {
  local f=$1 why=$2 n
  n=$(basename "$f")
  run_dump "$f" || return 0
  if [ "$RC" -eq 0 ]; then
    fail "$n ($why): gltrace dump exits 0, expected an error"
    sed 's/^/    stderr: /' "$WORK/err.txt" | head -3
  elif ! stderr_names_offset "$f"; then
    fail "$n ($why): exit $RC but stderr does not name the file and an offset: $(head -c 300 "$WORK/err.txt")"
  else
    pass "$n ($why): exit $RC: $(head -1 "$WORK/err.txt")"
  fi
}

# expect_cut FILE FULL_DUMP WHY
expect_cut() {
  local f=$1 ref=$2 why=$3 n
  n=$(basename "$f")
  run_dump "$f" || return 0
  if [ "$RC" -ne 0 ]; then
    fail "$n ($why): gltrace dump exits $RC, expected 0 and a warning: $(head -1 "$WORK/err.txt")"
    return 0
  fi
  if [ ! -s "$WORK/err.txt" ] || ! grep -qF "$n" "$WORK/err.txt"; then
    fail "$n ($why): exit 0 but no warning naming the file on stderr"
    return 0
  fi
  local msg
  if msg=$(python3 "$here/check_prefix.py" "$ref" "$WORK/out.txt"); then
    pass "$n ($why): $msg; $(head -1 "$WORK/err.txt")"
  else
    fail "$n ($why): output does not match the full dump: $msg"
  fi
}

# expect_no_crash FILE WHY: exit 0, or an error naming the file and an offset
expect_no_crash() {
  local f=$1 why=$2 n
  n=$(basename "$f")
  run_dump "$f" || return 0
  if [ "$RC" -eq 0 ] || stderr_names_offset "$f"; then
    pass "$n ($why): exit $RC"
  else
    fail "$n ($why): exit $RC and stderr does not name the file and an offset: $(head -c 300 "$WORK/err.txt")"
  fi
}

# ---- bad files -----------------------------------------------------------------------
: >"$D/empty.trace"
python3 -c 'import random,sys; r=random.Random(1); sys.stdout.buffer.write(bytes([0x55])+bytes(r.getrandbits(8) for _ in range(4999)))' >"$D/garbage.trace"
printf 'this is a text file, not a trace\n' >"$D/text.trace"
printf '\x28\xb5\x2f\xfd\x24\x0a\x51\x00\x00\x68\x65\x6c\x6c\x6f\x0a' >"$D/zstd.trace"
head -c 5000 "$corpus/glxdemo.trace" | tail -c +3 | { printf '\x28\xb5\x2f\xfd'; cat; } >"$D/zstd_long.trace"
bad=$(python3 "$here/make_bad_traces.py" "$D")
for f in garbage text zstd zstd_long; do  # empty: a cut trace (input_bounds.sh)
  expect_error "$D/$f.trace" "bad container"
done
for f in $bad; do
  expect_error "$D/$f" "hand-made bad stream"
done
# the hand-made control file is read, and as apitrace reads it if it is here
run_dump "$D/good.trace" && if [ "$RC" -ne 0 ] || ! grep -q '^1 glBar(n = 7) = 1$' "$WORK/out.txt"; then
  fail "good.trace (hand-made control): exit $RC, output: $(head -c 300 "$WORK/out.txt")"
else
  pass "good.trace (hand-made control)"
fi
if command -v apitrace >/dev/null; then
  dump_vs_apitrace "good.trace (hand-made control) vs apitrace" "$D/good.trace" "$gltrace"
fi

# flips that must be caught: the Snappy block's length preamble, and gzip data (CRC)
flip() { # SRC OFFSET DST
  python3 -c 'import sys; d=bytearray(open(sys.argv[1],"rb").read()); d[int(sys.argv[2])]^=0x01 if int(sys.argv[2])==6 else 0xff; open(sys.argv[3],"wb").write(d)' "$@"
}
flip "$corpus/tri.trace" 6 "$D/flip_snappy_preamble.trace"
expect_error "$D/flip_snappy_preamble.trace" "Snappy length preamble off by one"
zsize=$(stat -c %s "$corpus/glxdemo_zlib.trace")
for frac in 25 50 75 99; do
  p=$((20 + (zsize - 30) * frac / 100))
  flip "$corpus/glxdemo_zlib.trace" "$p" "$D/flip_gzip_$p.trace"
  expect_error "$D/flip_gzip_$p.trace" "byte $p of gzip data flipped"
done

# ---- cut files -----------------------------------------------------------------------
# cut_points TRACE: offsets to cut at: spread through the file, and for Snappy
# containers each chunk boundary, 2 bytes (inside the length field) and 10 bytes after.
cut_points() {
  python3 - "$1" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
n = len(d)
pts = {n // 4, n // 2, n * 9 // 10, n - 1}
if d[:2] == b'at':
    off = 2
    while off + 4 <= n:
        off += 4 + struct.unpack('<I', d[off:off + 4])[0]
        if off < n:
            pts.update({off, off + 2, off + 10})
print(' '.join(str(p) for p in sorted(p for p in pts if 16 < p < n)))
EOF
}
for name in glxgears glthreads tri_glsl glmark2_texture glmark2_desktop glxinfo \
  glxdemo_zlib zlib-no-eof keithel_glxgears; do
  src="$corpus/$name.trace"
  [ -f "$src" ] || { fail "$name.trace: not in the corpus"; continue; }
  budget_for "$src"
  for p in $(cut_points "$src"); do
    head -c "$p" "$src" >"$D/${name}_cut$p.trace"
    expect_cut "$D/${name}_cut$p.trace" "$src.dump.txt" "cut at byte $p of $(stat -c %s "$src")"
  done
done
# cuts before any call could be complete: either a clean error or a warning
for p in 1 2 4 7; do
  head -c "$p" "$corpus/glxgears.trace" >"$D/glxgears_cut$p.trace"
  expect_no_crash "$D/glxgears_cut$p.trace" "cut at byte $p"
done

# ---- flipped bytes -------------------------------------------------------------------
for name in tri glthreads glmark2_desktop glxdemo_zlib; do
  src="$corpus/$name.trace"
  size=$(stat -c %s "$src")
  budget_for "$src"
  for i in $(seq 0 24); do
    p=$((2 + (size - 3) * i / 24))
    flip "$src" "$p" "$D/${name}_flip$p.trace"
    expect_no_crash "$D/${name}_flip$p.trace" "byte $p flipped"
    rm -f "$D/${name}_flip$p.trace"
  done
done

it_finish
