#!/usr/bin/env bash
# output_safety: no command that writes destroys a file (gt_outfile.h).
#   usage: output_safety.sh BIN_DIR CORPUS_DIR
# Inputs (a trace and its live timeline as FXT, Chrome JSON, XRay and .dat) are made
# here by recording gl33_demo under our own Xvfb; in a build without the recorder (the
# ASan+UBSan build) from the corpus's glxgears trace and its timed replay, and the
# checks that record are left out. Then:
#   a) `convert missing.fxt -o keep.json` fails and keep.json stays byte-identical;
#   b) output == input is refused for every format and for repack, also through a
#      hard link and a symlink with another name; the input is unchanged;
#   c) character devices made here with mknod (never the machine's /dev): null and
#      full, with and without an extension, as outputs of convert, repack and
#      recording (trace and --timeline): null succeeds, full fails with ENOSPC named,
#      non-zero exit (also stdout of dump, info, convert --counts, glretrace --pcpu
#      redirected to full); every node is still a character device afterwards and nothing
#      is made beside them;
#   d) recording: -o an existing regular file replaces it without truncating it in
#      place (a hard link keeps the old bytes); -o the program itself is refused; a
#      name the user had stays when nothing was recorded, one we made goes;
#   e) a full filesystem (tmpfs mounted here; skipped with a message only when mount
#      is not permitted): a recording fails with exit != 0, says why and what the
#      trace kept (calls equal to what `gltrace dump` reads, the program's status),
#      and the trace is readable up to the cut; convert and repack onto it fail
#      with ENOSPC, leave a pre-existing target untouched, make no new one and leave
#      no temporary file.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init output_safety

it_bin_corpus "$@"
gltrace="$bin/gltrace"
require_file "$gltrace" "build gltrace first"
require_file "$bin/glretrace" "build glretrace first"
require_tool Xvfb mknod cmp timeout
HAVE_REC=0
if [ -e "$bin/../lib/libgltrace.so" ] && [ -x "$bin/gl33_demo" ]; then
  HAVE_REC=1
else
  echo "    note: no recording library: the checks that record are left out"
fi

start_xvfb 640x480x24
unset GLTRACE_OUTPUT_READY GLTRACE_TIMELINE GLTRACE_TIMELINE_READY || true

# run_cmd WHAT CMD...: runs CMD, stderr in $WORK/err, exit status in $RC.
run_cmd() {
  local what=$1
  shift
  RC=0
  timeout 120 "$@" >"$WORK/out" 2>"$WORK/err" || RC=$?
  [ "$RC" -ne 124 ] || fail "$what: timed out"
}

expect_ok() {
  if [ "$RC" -eq 0 ]; then pass "$1"; else fail "$1: exit $RC: $(head -c 400 "$WORK/err")"; fi
}

expect_fail() {
  if [ "$RC" -ne 0 ] && [ "$RC" -lt 128 ]; then pass "$1"
  else fail "$1: exit $RC, expected a clean failure: $(head -c 400 "$WORK/err")"; fi
}

expect_err() { # WHAT PATTERN: stderr of the last command matches
  if grep -Eq -- "$2" "$WORK/err"; then pass "$1"
  else fail "$1: stderr lacks /$2/: $(head -c 400 "$WORK/err")"; fi
}

same_bytes() {
  if cmp -s "$2" "$3"; then pass "$1"; else fail "$1: $2 changed"; fi
}

is_chr() {
  if [ -c "$2" ]; then pass "$1"; else fail "$1: $2 is no longer a character device"; fi
}

no_temp() { # WHAT DIR: no temporary file of ours left in DIR
  local left
  left=$(find "$2" -maxdepth 1 -name '*.gltrace-*' | head -3)
  if [ -z "$left" ]; then pass "$1"; else fail "$1: left behind: $left"; fi
}

# ---- inputs: a recorded trace and its timeline in every format -----------------------
in="$WORK/in"
mkdir -p "$in"
if [ "$HAVE_REC" = 1 ]; then
  run_cmd "record inputs" "$gltrace" -o "$in/x.trace" --timeline="$in/x.fxt" "$bin/gl33_demo" --frames 20
  expect_ok "record the inputs"
else
  cp "$corpus/glxgears.trace" "$in/x.trace"
  chmod u+w "$in/x.trace"
  run_cmd "replay inputs" "$gltrace" convert -q "$in/x.trace" -o "$in/x.fxt"
  expect_ok "time the corpus trace's replay"
fi
[ -s "$in/x.trace" ] && [ -s "$in/x.fxt" ] || die "no inputs recorded: $(cat "$WORK/err")"
for f in json xray dat; do
  run_cmd "convert to $f" "$gltrace" convert -q "$in/x.fxt" -o "$in/x.$f"
  expect_ok "input x.$f made"
done
cp -a "$in" "$WORK/orig" # pristine copies to compare against

# ---- a) a failed convert leaves an existing output alone ----------------------------
printf 'keep me\n' >"$WORK/keep.json"
cp "$WORK/keep.json" "$WORK/keep.orig"
run_cmd "missing input" "$gltrace" convert "$WORK/missing.fxt" -o "$WORK/keep.json"
expect_fail "convert missing.fxt -o keep.json fails"
same_bytes "keep.json survives a failed convert" "$WORK/keep.orig" "$WORK/keep.json"
expect_err "the failure says the output is unchanged" "keep.json: not written, the existing file is left unchanged"
run_cmd "bad input" "$gltrace" convert "$in/x.fxt" "$WORK/keep.orig" -o "$WORK/keep.json"
expect_fail "convert of an unreadable second input fails"
same_bytes "keep.json survives a failed read" "$WORK/keep.orig" "$WORK/keep.json"
no_temp "no temporary file after failed converts" "$WORK"

# ---- b) output == input refused ------------------------------------------------------
for f in fxt json xray dat trace; do
  x="$in/x.$f"
  ln -f "$x" "$in/hard.$f"
  ln -sf "x.$f" "$in/sym.$f"
  for out in "$x" "$in/hard.$f" "$in/sym.$f"; do
    run_cmd "convert $f over input" "$gltrace" convert "$x" -o "$out"
    expect_fail "convert x.$f -o $(basename "$out") refused"
    same_bytes "x.$f unchanged after convert -o $(basename "$out")" "$WORK/orig/x.$f" "$x"
  done
  [ "$f" = trace ] || expect_err "convert names the refusal (x.$f)" "refusing to write the output over an input"
done
# an input other than the first, as the output (another format's name)
cp "$in/x.json" "$in/second.json"
run_cmd "second input as output" "$gltrace" convert "$in/x.fxt" "$in/second.json" -o "$in/second.json"
expect_fail "convert A B -o B refused"
same_bytes "second input unchanged" "$in/x.json" "$in/second.json"
for out in x.trace hard.trace sym.trace; do
  run_cmd "repack over input" "$gltrace" repack "$in/x.trace" "$in/$out"
  expect_fail "repack x.trace $out refused (no SIGBUS)"
  expect_err "repack names the refusal ($out)" "refusing to write the output over an input"
  same_bytes "x.trace unchanged after repack to $out" "$WORK/orig/x.trace" "$in/x.trace"
done
[ -L "$in/sym.trace" ] && pass "the symlink is still a symlink" || fail "sym.trace replaced"
no_temp "no temporary file after refusals" "$in"

# a successful convert and repack over an existing file replace it, leaving no temp
printf 'old\n' >"$WORK/over.json"
run_cmd "convert over existing" "$gltrace" convert -q "$in/x.fxt" -o "$WORK/over.json"
expect_ok "convert over an existing output"
if head -c 1 "$WORK/over.json" | grep -q '{'; then pass "over.json replaced"; else fail "over.json not replaced"; fi
run_cmd "repack" "$gltrace" repack "$in/x.trace" "$WORK/re.trace"
expect_ok "repack to a new file"
run_cmd "dump repacked" "$gltrace" dump "$WORK/re.trace"
expect_ok "the repacked trace reads"
no_temp "no temporary file after successful writes" "$WORK"

# ---- c) character devices as outputs --------------------------------------------------
dev="$WORK/dev"
mkdir -p "$dev"
for n in null null.json null.fxt; do mknod "$dev/$n" c 1 3; done
for n in full full.fxt full.json full.xray full.dat full.trace full.timeline.fxt; do mknod "$dev/$n" c 1 7; done
for n in null null.json null.fxt; do
  run_cmd "convert to $n" "$gltrace" convert -q "$in/x.fxt" -o "$dev/$n"
  expect_ok "convert -o $n succeeds"
  is_chr "$n after convert" "$dev/$n"
done
for n in full full.fxt full.json full.xray full.dat; do
  run_cmd "convert to $n" "$gltrace" convert -q "$in/x.fxt" -o "$dev/$n"
  expect_fail "convert -o $n fails"
  expect_err "convert -o $n says ENOSPC" "No space left on device"
  is_chr "$n after convert" "$dev/$n"
done
run_cmd "repack to null" "$gltrace" repack "$in/x.trace" "$dev/null"
expect_ok "repack to null succeeds"
is_chr "null after repack" "$dev/null"
run_cmd "repack to full" "$gltrace" repack "$in/x.trace" "$dev/full.trace"
expect_fail "repack to full fails"
expect_err "repack to full says ENOSPC" "No space left on device"
is_chr "full.trace after repack" "$dev/full.trace"
if [ "$HAVE_REC" = 1 ]; then
run_cmd "record to null" "$gltrace" -o "$dev/null" "$bin/gl33_demo" --frames 3
expect_ok "recording to null succeeds"
is_chr "null after recording" "$dev/null"
run_cmd "record to full" "$gltrace" -o "$dev/full.trace" "$bin/gl33_demo" --frames 3
expect_fail "recording to full fails"
expect_err "recording to full says ENOSPC" "recording failed: .*No space left on device"
expect_err "recording to full gives the program's status" "exited with status 0"
is_chr "full.trace after recording" "$dev/full.trace"
run_cmd "timeline to full" "$gltrace" -o "$WORK/tl.trace" --timeline="$dev/full.timeline.fxt" \
  "$bin/gl33_demo" --frames 3
expect_fail "recording with --timeline to full fails"
expect_err "--timeline to full says ENOSPC" "timeline.*No space left on device"
is_chr "full.timeline.fxt after recording" "$dev/full.timeline.fxt"
run_cmd "dump tl.trace" "$gltrace" dump "$WORK/tl.trace"
expect_ok "the trace beside the failed timeline is whole"
fi
# stdout onto a full device: the reason and a non-zero exit, never a silent 0
for cmd in "dump" "info" "convert --counts"; do
  src="$in/x.trace"
  [ "$cmd" = "convert --counts" ] && src="$in/x.fxt"
  RC=0
  # shellcheck disable=SC2086
  "$gltrace" $cmd "$src" >"$dev/full" 2>"$WORK/err" || RC=$?
  expect_fail "gltrace $cmd >full fails"
  expect_err "gltrace $cmd >full says ENOSPC" "No space left on device"
done
RC=0
"$bin/glretrace" --headless --pcpu "$in/x.trace" >"$dev/full" 2>"$WORK/err" || RC=$?
expect_fail "glretrace --pcpu >full fails"
expect_err "glretrace --pcpu >full says ENOSPC" "No space left on device"
extra=$(find "$dev" -mindepth 1 ! -type c | head -3)
[ -z "$extra" ] && pass "nothing made beside the device nodes" || fail "made beside the devices: $extra"

# glretrace's timelines: the trace refused as one, a device written in place, a
# failure leaving the other output's existing file as it was
run_cmd "retrace fxt over the trace" "$bin/glretrace" --headless --fxt "$in/x.trace" "$in/x.trace"
expect_fail "glretrace --fxt TRACE TRACE refused"
expect_err "glretrace names the refusal" "refusing to write the output over an input"
same_bytes "the trace is unchanged after glretrace" "$WORK/orig/x.trace" "$in/x.trace"
printf 'previous\n' >"$WORK/rt.fxt"
cp "$WORK/rt.fxt" "$WORK/rt.orig"
run_cmd "retrace chrome to full" "$bin/glretrace" --headless --fxt "$WORK/rt.fxt" \
  --chrome "$dev/full.json" "$in/x.trace"
expect_fail "glretrace --chrome to full fails"
expect_err "glretrace says ENOSPC" "No space left on device"
is_chr "full.json after glretrace" "$dev/full.json"
same_bytes "the --fxt file is untouched when the replay's outputs fail" "$WORK/rt.orig" "$WORK/rt.fxt"
run_cmd "retrace to null" "$bin/glretrace" --headless --fxt "$dev/null.fxt" --chrome "$WORK/rt.json" "$in/x.trace"
expect_ok "glretrace --fxt to null succeeds"
is_chr "null.fxt after glretrace" "$dev/null.fxt"
no_temp "no temporary file after glretrace" "$WORK"

# ---- d) recording: existing files, the program itself ----------------------------------
if [ "$HAVE_REC" = 1 ]; then
printf 'old trace\n' >"$WORK/old.trace"
ln -f "$WORK/old.trace" "$WORK/old.link"
run_cmd "record over old" "$gltrace" -o "$WORK/old.trace" "$bin/gl33_demo" --frames 2
expect_ok "recording over an existing file"
run_cmd "dump new" "$gltrace" dump "$WORK/old.trace"
expect_ok "the new trace reads"
[ "$(cat "$WORK/old.link")" = "old trace" ] && pass "a hard link keeps the old bytes (no truncation in place)" ||
  fail "the old file was truncated in place"
cp "$bin/gl33_demo" "$WORK/app"
cp "$WORK/app" "$WORK/app.orig"
run_cmd "record over the program" "$gltrace" -o "$WORK/app" "$WORK/app" --frames 2
expect_fail "-o the program itself refused"
same_bytes "the program is unchanged" "$WORK/app.orig" "$WORK/app"
: >"$WORK/empty.trace"
run_cmd "no GL calls, user's name" "$gltrace" -o "$WORK/empty.trace" true
[ -e "$WORK/empty.trace" ] && pass "a name the user had stays" || fail "empty.trace was removed"
run_cmd "no GL calls, new name" "$gltrace" -o "$WORK/new.trace" true
[ ! -e "$WORK/new.trace" ] && pass "an empty trace we made is removed" || fail "new.trace left"
expect_err "no GL calls is said" "made no GL calls"
fi

# ---- e) a full filesystem -------------------------------------------------------------
mnt="$WORK/mnt"
mkdir -p "$mnt"
if ! mount -t tmpfs -o size=128k tmpfs "$mnt" 2>"$WORK/mount.err"; then
  echo "output_safety: SKIP full-filesystem checks: mount -t tmpfs not permitted ($(cat "$WORK/mount.err"))"
else
  it_on_exit "umount '$mnt'"
  if [ "$HAVE_REC" = 1 ]; then
  run_cmd "record onto a full fs" "$gltrace" -o "$mnt/big.trace" "$bin/gl33_demo" --frames 2000
  expect_fail "recording onto a full filesystem exits non-zero"
  expect_err "it says why" "recording failed: trace: .*big.trace: write failed: No space left on device"
  expect_err "it says what was kept" "big.trace keeps [0-9]+ calls, [0-9]+ frames \([0-9]+ bytes\)"
  expect_err "it gives the program's own status" "gl33_demo exited with status 0"
  kept=$(sed -n 's/.*big.trace keeps \([0-9]*\) calls.*/\1/p' "$WORK/err")
  run_cmd "dump the cut trace" "$gltrace" dump -v --multiline=no "$mnt/big.trace"
  expect_ok "the cut trace reads (gltrace dump exits 0)"
  got=$(grep -c '^[0-9]' "$WORK/out" || true)
  if [ -n "$kept" ] && [ "$got" -gt 100 ] && [ "$got" -eq "$kept" ]; then
    pass "dump reads the $kept calls the message names"
  else
    fail "dump reads $got calls, the message says ${kept:-nothing}"
  fi
  rm -f "$mnt/big.trace"

  # convert and repack: a big output onto the small fs
  run_cmd "big timeline" "$gltrace" -o "$WORK/big.trace" --timeline="$WORK/big.fxt" "$bin/gl33_demo" --frames 300
  expect_ok "record a big trace and timeline"
  else
    cp "$in/x.trace" "$WORK/big.trace" # 576 kB, its timeline 860 kB: neither fits
    cp "$in/x.fxt" "$WORK/big.fxt"
  fi
  printf 'previous\n' >"$mnt/out.json"
  printf 'previous\n' >"$mnt/out.trace"
  cp "$mnt/out.json" "$WORK/prev"
  run_cmd "convert onto full fs" "$gltrace" convert -q "$WORK/big.fxt" -o "$mnt/out.json"
  expect_fail "convert onto a full filesystem fails"
  expect_err "convert says ENOSPC" "No space left on device"
  same_bytes "the existing output is untouched (convert)" "$WORK/prev" "$mnt/out.json"
  run_cmd "convert new onto full fs" "$gltrace" convert -q "$WORK/big.fxt" -o "$mnt/new.json"
  expect_fail "convert to a new name on a full filesystem fails"
  [ ! -e "$mnt/new.json" ] && pass "no partial new.json" || fail "a partial new.json was left"
  run_cmd "repack onto full fs" "$gltrace" repack "$WORK/big.trace" "$mnt/out.trace"
  expect_fail "repack onto a full filesystem fails"
  expect_err "repack says ENOSPC" "No space left on device"
  same_bytes "the existing output is untouched (repack)" "$WORK/prev" "$mnt/out.trace"
  run_cmd "repack new onto full fs" "$gltrace" repack "$WORK/big.trace" "$mnt/new.trace"
  expect_fail "repack to a new name on a full filesystem fails"
  [ ! -e "$mnt/new.trace" ] && pass "no partial new.trace" || fail "a partial new.trace was left"
  no_temp "no temporary file left on the full filesystem" "$mnt"
fi

it_finish
