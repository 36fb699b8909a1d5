#!/usr/bin/env bash
# input_bounds: bounded memory and clear errors on hostile input.
#   usage: input_bounds.sh BIN_DIR CORPUS_DIR
# - a 2 GB sparse XRay log (no header; valid FDR v5, FDR v1 and basic headers over
#   zeros): refused at once, with little memory, under an address-space limit;
# - Chrome JSON with 500 MB of white space between two events: read, little memory;
#   a 2 MB gzip bomb: refused at once, little memory;
# - a FIFO (no writer) given to every command that reads a file: refused at once
#   ("not a regular file"), never a hang;
# - gzip and Brotli damage names the file and an offset;
# - 0..N byte prefixes of real traces (Snappy, gzip, Brotli): exit status and stdout
#   as apitrace dump's (apitrace prints bytes from past the end of the file for a
#   cut property name: there only the exit status is compared);
# - info --dump-frames on a trace without frames; --backtrace='[[[' refused; the
#   "program not found" hint lists every command;
# - apitrace trim of a trace with backtraces (see the trim section below).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init input_bounds

it_bin_corpus "$@"
gltrace="$bin/gltrace"
require_file "$gltrace" "build gltrace first"
require_tool python3 timeout prlimit truncate mkfifo apitrace
D="$WORK/files"
mkdir -p "$D"
MAX_KB=65536 # what a bounded reader may use, whatever the input's size
# An ASan build reserves terabytes of shadow address space, so no address-space limit
# fits it: there the allocator's own limit makes an allocation of the input's size
# fail, and the shadow pages it touches get room in the memory bound.
ASAN_BUILD=0
if grep -q __asan_init "$gltrace"; then
  ASAN_BUILD=1
  MAX_KB=$((MAX_KB * 4))
fi
# A safety net against the minute-long reads of the unbounded readers, not a timing:
# the release build reads each of these inputs in well under a second
MAX_SECS=20
[ "$ASAN_BUILD" = 1 ] && MAX_SECS=50

# bounded NAME WANT_RC_KIND CMD...: runs CMD under an address-space limit (1 GiB: an
# allocation of the input's size fails) and `timeout 60`; sets RC, KB (max RSS) and
# SECS; output in $WORK/out.txt, stderr in $WORK/err.txt.
bounded() {
  local t0 t1
  t0=$(date +%s%N)
  set +e
  if [ "$ASAN_BUILD" = 1 ]; then
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=1024:allocator_may_return_null=1" \
      /usr/bin/time -o "$WORK/time.txt" -f %M timeout 60 "$@" >"$WORK/out.txt" 2>"$WORK/err.txt"
  else
    /usr/bin/time -o "$WORK/time.txt" -f %M timeout 60 prlimit --as=$((1 << 30)) -- "$@" \
      >"$WORK/out.txt" 2>"$WORK/err.txt"
  fi
  RC=$?
  set -e
  t1=$(date +%s%N)
  KB=$(tail -1 "$WORK/time.txt")
  SECS=$(((t1 - t0) / 1000000000))
}

check_bounded() { # WHAT WANT(ok|error) [STDERR_NEEDLE]
  local what=$1 want=$2 needle=${3-}
  if [ "$RC" -eq 124 ] || [ "$RC" -ge 128 ]; then
    fail "$what: hung or crashed (exit $RC): $(head -c 300 "$WORK/err.txt")"
  elif [ "$want" = ok ] && [ "$RC" -ne 0 ]; then
    fail "$what: exit $RC: $(head -c 300 "$WORK/err.txt")"
  elif [ "$want" = error ] && [ "$RC" -eq 0 ]; then
    fail "$what: exit 0, expected an error"
  elif [ -n "$needle" ] && ! grep -qF -- "$needle" "$WORK/err.txt"; then
    fail "$what: stderr lacks '$needle': $(head -c 300 "$WORK/err.txt")"
  elif [ "$KB" -gt "$MAX_KB" ]; then
    fail "$what: $KB KB of memory (more than $MAX_KB KB)"
  elif [ "$SECS" -gt "$MAX_SECS" ]; then
    fail "$what: $SECS s (more than $MAX_SECS s)"
  else
    pass "$what: exit $RC, $KB KB, ${SECS}s"
  fi
}

# ---- XRay: a 2 GB sparse file ----------------------------------------------------------
xray_header() { # FILE VERSION TYPE
  python3 -c 'import struct,sys; open(sys.argv[1],"wb").write(struct.pack("<HHIQQQ",int(sys.argv[2]),int(sys.argv[3]),3,1000000000,4096,0))' "$@"
}
: >"$D/zero.xray"
xray_header "$D/fdr5.xray" 5 1
xray_header "$D/fdr1.xray" 1 1
xray_header "$D/basic.xray" 2 0
for f in zero fdr5 fdr1 basic; do
  truncate -s 2G "$D/$f.xray"
  bounded "$gltrace" convert "$D/$f.xray" -o "$D/$f.txt"
  check_bounded "2 GB sparse XRay log ($f)" error "$f.xray: offset "
  rm -f "$D/$f.xray"
done

# ---- Chrome JSON: white space and a gzip bomb ------------------------------------------
python3 - "$D/ws.json" <<'EOF'
import sys
ev = '{"name":"%s","ph":"X","ts":%d,"dur":1,"pid":1,"tid":1}'
with open(sys.argv[1], "wb") as f:
    f.write(("[" + ev % ("a", 1)).encode())
    blk = b" \n\t" * (1 << 18)
    for _ in range(500 * (1 << 20) // len(blk)):
        f.write(blk)
    f.write(("," + ev % ("b", 2) + "]").encode())
EOF
bounded "$gltrace" convert "$D/ws.json" -o "$D/ws.txt"
check_bounded "Chrome JSON with 500 MB of white space between events" ok
if [ "$(grep -c '^complete' "$D/ws.txt" 2>/dev/null)" = 2 ]; then
  pass "Chrome JSON with 500 MB of white space: both events read"
else
  fail "Chrome JSON with 500 MB of white space: events: $(head -c 200 "$D/ws.txt")"
fi
rm -f "$D/ws.json"
python3 - "$D/bomb.json.gz" <<'EOF'
import sys, zlib
c = zlib.compressobj(9, zlib.DEFLATED, 31)
with open(sys.argv[1], "wb") as f:
    f.write(c.compress(b'{"traceEvents":[{"name":"'))
    blk = b"A" * (1 << 24)
    for _ in range(128):
        f.write(c.compress(blk))
    f.write(c.compress(b'"}]}') + c.flush())
EOF
bounded "$gltrace" convert "$D/bomb.json.gz" -o "$D/bomb.txt"
check_bounded "a 2 MB gzip bomb (2 GiB of one string)" error "bomb.json.gz: offset "

# ---- FIFOs: refused, never a hang ----------------------------------------------------------
mkfifo "$D/fifo"
cp "$corpus/glxdemo.trace" "$D/good.trace"
fifo_case() { # WHAT CMD...
  local what=$1
  shift
  set +e
  timeout 10 "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" </dev/null
  RC=$?
  set -e
  if [ "$RC" -eq 124 ] || [ "$RC" -ge 128 ]; then
    fail "FIFO input to $what: hung or crashed (exit $RC)"
  elif [ "$RC" -eq 0 ] || ! grep -q "fifo: not a regular file" "$WORK/err.txt"; then
    fail "FIFO input to $what: exit $RC: $(head -c 300 "$WORK/err.txt")"
  else
    pass "FIFO input to $what: exit $RC, $(head -1 "$WORK/err.txt")"
  fi
}
fifo_case "gltrace dump" "$gltrace" dump "$D/fifo"
fifo_case "gltrace info" "$gltrace" info "$D/fifo"
fifo_case "gltrace repack" "$gltrace" repack "$D/fifo" "$D/repacked.trace"
fifo_case "gltrace dump --calls=@FIFO" "$gltrace" dump --calls=@"$D/fifo" "$D/good.trace"
fifo_case "gltrace convert" "$gltrace" convert "$D/fifo" -o "$D/fifo_out.json"
fifo_case "gltrace convert (second input)" "$gltrace" convert "$corpus/../fxt/$(ls "$corpus/../fxt" | grep -m1 '\.fxt$')" "$D/fifo" -o "$D/fifo_out.json"
fifo_case "gltrace convert --instr-map" "$gltrace" convert --instr-map="$D/fifo" "$D/fifo" -o "$D/fifo_out.json"
[ -x "$bin/glretrace" ] && fifo_case "glretrace" "$bin/glretrace" -b "$D/fifo"

# ---- gzip and Brotli errors name the file and an offset --------------------------------------
apitrace repack -z "$corpus/glxdemo.trace" "$D/z.trace" >/dev/null
apitrace repack -b "$corpus/glxdemo.trace" "$D/b.trace" >/dev/null
python3 - "$D" <<'EOF'
import sys
d = sys.argv[1]
z = bytearray(open(d + "/z.trace", "rb").read())
x = bytearray(z); x[-6] ^= 1; open(d + "/z_crc.trace", "wb").write(x)
x = bytearray(z); x[3] = 0xff; open(d + "/z_flags.trace", "wb").write(x)
x = bytearray(z); x[len(z) // 2] ^= 0xff; x[len(z) // 2 + 1] ^= 0x55; open(d + "/z_mid.trace", "wb").write(x)
b = bytearray(open(d + "/b.trace", "rb").read())
x = bytearray(b); x[len(b) // 2] ^= 0xff; x[len(b) // 2 + 1] ^= 0x55; open(d + "/b_mid.trace", "wb").write(x)
EOF
for f in z_crc z_flags z_mid b_mid; do
  run_timed "$WORK/out.txt" "$WORK/err.txt" "$gltrace" dump "$D/$f.trace"
  if [ "$RC" -ne 0 ] && grep -q "$f.trace: offset [1-9][0-9]*: " "$WORK/err.txt"; then
    pass "damaged compressed trace $f: $(tail -1 "$WORK/err.txt")"
  else
    fail "damaged compressed trace $f: exit $RC, no offset: $(tail -1 "$WORK/err.txt")"
  fi
done
python3 -c 'import gzip,sys; d=bytearray(gzip.compress(b"[{\"name\":\"a\",\"ph\":\"i\",\"ts\":1,\"pid\":1,\"tid\":1}]")); d[-6]^=1; open(sys.argv[1],"wb").write(d)' "$D/crc.json.gz"
run_timed "$WORK/out.txt" "$WORK/err.txt" "$gltrace" convert "$D/crc.json.gz" -o "$D/crc.txt"
if [ "$RC" -ne 0 ] && grep -q "crc.json.gz: offset [0-9]*: gzip data corrupt" "$WORK/err.txt"; then
  pass "damaged gzip Chrome JSON names the offset"
else
  fail "damaged gzip Chrome JSON: exit $RC: $(tail -1 "$WORK/err.txt")"
fi

# ---- 0..N byte prefixes: as apitrace dump ------------------------------------------------
prefixes() { # TRACE MAX
  local t=$1 max=$2 n bad=0 same=0 rc_only=0
  apitrace dump --color=never "$t" >"$WORK/full.txt" 2>/dev/null || true
  for n in $(seq 0 "$max"); do
    head -c "$n" "$t" >"$D/prefix.trace"
    set +e
    timeout 20 apitrace dump --color=never "$D/prefix.trace" >"$WORK/a.txt" 2>/dev/null
    local ra=$?
    timeout 20 "$gltrace" dump --color=never "$D/prefix.trace" >"$WORK/g.txt" 2>/dev/null
    local rg=$?
    set -e
    if [ "$ra" != "$rg" ]; then
      fail "$(basename "$t") cut to $n bytes: gltrace exits $rg, apitrace $ra"
      bad=1
    elif cmp -s "$WORK/a.txt" "$WORK/g.txt"; then
      same=$((same + 1))
    elif [ -s "$WORK/a.txt" ] && ! grep -qxF -f "$WORK/a.txt" "$WORK/full.txt" && [ ! -s "$WORK/g.txt" ]; then
      rc_only=$((rc_only + 1)) # apitrace printed bytes from past the end of the file
    else
      fail "$(basename "$t") cut to $n bytes: stdout differs from apitrace's: $(first_diff "$WORK/a.txt" "$WORK/g.txt")"
      bad=1
    fi
  done
  [ "$bad" = 0 ] && pass "$(basename "$t"): 0..$max byte prefixes: $same as apitrace, $rc_only exit status only"
}
prefixes "$corpus/glxdemo.trace" 100
prefixes "$D/z.trace" 60
prefixes "$D/b.trace" 30

# ---- small things -----------------------------------------------------------------------
python3 - "$D/noframes.trace" <<'EOF'
import sys
# a version 6 trace of properties only, in a Snappy chunk of literals
raw = bytes([6, 6, 0])
lit = bytes([(len(raw) - 1) << 2]) + raw
block = bytes([len(raw)]) + lit
open(sys.argv[1], "wb").write(b"at" + len(block).to_bytes(4, "little") + block)
EOF
run_timed "$WORK/out.txt" "$WORK/err.txt" "$gltrace" info --dump-frames "$D/noframes.trace"
if [ "$RC" -eq 0 ] && grep -q '"Frames": \[\]' "$WORK/out.txt"; then
  pass "info --dump-frames on a trace without frames"
else
  fail "info --dump-frames on a trace without frames: exit $RC: $(head -c 300 "$WORK/out.txt" "$WORK/err.txt")"
fi
for set in '[[[' 'glDraw[' 'gl;rm' 'glDraw[]'; do
  run_timed "$WORK/out.txt" "$WORK/err.txt" "$gltrace" --backtrace="$set" -o "$D/bt.trace" touch "$D/ran"
  if [ "$RC" -eq 2 ] && [ ! -e "$D/ran" ] && grep -q -- "--backtrace: " "$WORK/err.txt"; then
    pass "--backtrace='$set' refused before the program runs: $(head -1 "$WORK/err.txt")"
  else
    fail "--backtrace='$set': exit $RC, ran: $([ -e "$D/ran" ] && echo yes || echo no)"
  fi
  rm -f "$D/ran"
done
run_timed "$WORK/out.txt" "$WORK/err.txt" "$gltrace" no_such_program_or_command_xyz
if [ "$RC" -eq 127 ] && grep -q "dump, info, repack, convert" "$WORK/err.txt"; then
  pass "program-not-found hint lists every command"
else
  fail "program-not-found hint: exit $RC: $(head -1 "$WORK/err.txt")"
fi

# ---- apitrace trim of a trace with backtraces ------------------------------------------
# Finding: the trace gltrace records with --backtrace=all is read identically by both
# tools; `apitrace trim` of it (and of a trace apitrace itself records with
# APITRACE_BACKTRACE) writes a file neither tool reads. apitrace's bug: its parser
# (Parser::parse_backtrace_frame) never sets the id of the StackFrame it builds, and its
# writer (Writer::writeStackFrame) writes frame->id, so the trimmed file's frame ids are
# uninitialised memory ("backtrace frame signature id N is far beyond the M defined so
# far" here; std::bad_alloc in apitrace dump). The same trim without backtraces works.
if [ -x "$bin/gl33_demo" ] && [ -e "$bin/../lib/libgltrace.so" ] && command -v Xvfb >/dev/null; then
  start_xvfb
  run_timed "$WORK/out.txt" "$WORK/err.txt" "$gltrace" --backtrace=all -o "$D/bt.trace" "$bin/gl33_demo" --frames 200
  [ "$RC" -eq 0 ] || fail "recording gl33_demo --frames 200 with --backtrace=all: exit $RC"
  dump_vs_apitrace "the 200-frame trace with backtraces" "$D/bt.trace" "$gltrace"
  apitrace trim --frames=10-20 -o "$D/bt_trim.trace" "$D/bt.trace" >/dev/null 2>&1
  run_timed "$WORK/out.txt" "$WORK/err.txt" "$gltrace" dump "$D/bt_trim.trace"
  g=$RC
  run_timed "$WORK/out.txt" "$WORK/err2.txt" apitrace dump "$D/bt_trim.trace"
  # The ids are uninitialised memory, so what apitrace dump makes of them varies: mostly
  # bad_alloc (exit 134), sometimes a billion-entry table and garbage frames (exit 0).
  # What does not vary is the id in the file, far beyond any frame defined: the check.
  if [ "$g" -eq 1 ] && grep -q "backtrace frame signature id [0-9]* is far beyond" "$WORK/err.txt"; then
    pass "apitrace trim breaks backtraces (apitrace's bug): gltrace: $(tail -1 "$WORK/err.txt" | cut -c1-120); apitrace dump exits $RC"
  elif [ "$g" -eq 0 ] && [ "$RC" -eq 0 ]; then
    pass "apitrace trim keeps backtraces (a fixed apitrace): both read the trimmed trace"
  else
    fail "apitrace trim of the trace with backtraces: gltrace exits $g, apitrace $RC"
  fi
  run_timed "$WORK/out.txt" "$WORK/err.txt" "$gltrace" --backtrace=none -o "$D/nobt.trace" "$bin/gl33_demo" --frames 200
  apitrace trim --frames=10-20 -o "$D/nobt_trim.trace" "$D/nobt.trace" >/dev/null 2>&1
  dump_vs_apitrace "apitrace trim without backtraces" "$D/nobt_trim.trace" "$gltrace"
elif [ ! -e "$bin/../lib/libgltrace.so" ]; then
  echo "    note: trim check left out: a build without recording (the ASan build)"
else
  fail "trim check: needs gl33_demo and Xvfb"
fi

it_finish
