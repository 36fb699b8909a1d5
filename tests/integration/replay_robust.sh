#!/usr/bin/env bash
# replay_robust: glretrace warns and goes on, as apitrace does, on damaged traces.
#   usage: replay_robust.sh BIN_DIR CORPUS_DIR
# trace_edit (tests/apps) makes damaged copies of the corpus's glmark2_build.trace:
#   noctx     frame 0's program, buffers and draw copied before the context exists,
#             plus an indexed draw: "no current context" once
#   missing   glMakeTextureHandleResidentARB (twice) and glCoverageModulationNV, which
#             llvmpipe lacks (libepoxy aborts on them): one warning per function
#   damaged   a glBufferData size beyond its blob, a glUniformMatrix4fv count beyond
#             its array, a glTexImage2D blob shorter than its image, bad enums in
#             glBufferData, glDrawArrays and glDrawElements: a warning each (apitrace's
#             glretrace crashes in Mesa on the first)
#   noebo     glDrawElements with an index offset and no element buffer (apitrace's
#             glretrace crashes in Mesa): a warning
#   misfit    calls that do not fit their function: glUniformMatrix4fv's signature with
#             six arguments (an enum where the matrices belong; apitrace's glretrace and
#             formerly ours crashed in Mesa), glDrawArrays' with two, a string where
#             glBindBuffer takes a name, an enum where glUniform4fv takes its values, an
#             address among glShaderSource's strings: one warning per signature (two
#             calls of the first and the third), naming the function
# Each replays under our Xvfb and with --headless: exit 0 (apitrace's status where
# apitrace survives: noctx, missing), exactly the warnings above, all 295 frames, and
# the snapshots of the first, middle and last frame equal the intact trace's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init replay_robust

it_bin_corpus "$@"
ours="$bin/glretrace"
edit="$bin/trace_edit"
base="$corpus/glmark2_build.trace"
require_file "$ours" "build glretrace first"
require_file "$edit" "build trace_edit first"
require_file "$base"
require_tool glretrace Xvfb python3 timeout
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"
FRAMES=295

start_xvfb

# ---- the damaged traces (call numbers are the intact trace's) ----
# 2455..2498: program, buffers, frame 0's draw; 2480: after the second glBufferData;
# 2481: after glUseProgram; 2496: the first glDrawArrays
"$edit" "$base" "$WORK/noctx.trace" copy=2455-2498@4 'insert@4=glDrawElements(u:4,i:6,u:0x1403,p:0)'
"$edit" "$base" "$WORK/missing.trace" 'insert@2455=glMakeTextureHandleResidentARB(u:1)' \
  'insert@2496=glCoverageModulationNV(u:0x1907)' 'insert@2511=glMakeTextureHandleResidentARB(u:1)'
"$edit" "$base" "$WORK/damaged.trace" \
  'insert@2480=glBufferData(u:0x8892,i:100000000,b:16,u:0x88E4)' \
  'insert@2480=glBufferData(u:0x8892,i:16,b:16,u:0x9999)' \
  'insert@2480=glGenBuffers(i:2000000000,a:u:7)' \
  'insert@2481=glUniformMatrix4fv(i:0,i:1000,u:0,a:f:1:0:0:0:0:1:0:0:0:0:1:0:0:0:0:1)' \
  'insert@2496=glDrawArrays(u:0x1234,i:0,i:3)' \
  'insert@2496=glDrawElements(u:4,i:6,u:0x1234,p:0)' \
  'insert@2496=glTexImage2D(u:0x0DE1,i:0,i:0x1908,i:512,i:512,i:0,u:0x1908,u:0x1401,b:64)'
"$edit" "$base" "$WORK/noebo.trace" 'insert@2497=glDrawElements(u:4,i:6,u:0x1403,p:0)'
"$edit" "$base" "$WORK/misfit.trace" \
  'insert@2481=glUniformMatrix4fv(i:0,i:1,u:0,e:0x1406,i:0,i:0)' \
  'insert@2496=glUniformMatrix4fv(i:0,i:1,u:0,e:0x1406,i:0,i:0)' \
  'insert@2496=glDrawArrays(u:4,i:0)' \
  'insert@2481=glUniform4fv(i:0,i:1,e:0x1406)' \
  'insert@2496=glBindBuffer(u:0x8892,s:7)' 'insert@2511=glBindBuffer(u:0x8892,s:7)' \
  'insert@2481=glShaderSource(u:1,i:1,a:u:0x7f0000001000,n)'

# Expected warnings: NAME -> lines "COUNT PATTERN"; no other warning may appear.
expect_noctx="1 no current context"
expect_missing="1 glMakeTextureHandleResidentARB: warning: not provided by this context
1 glCoverageModulationNV: warning: not provided by this context"
expect_damaged="1 glBufferData: warning: a2 holds 16 bytes, the call reads 100000000: skipped
1 glBufferData: warning: a3 = 0x9999 is no BufferUsageARB value: skipped
1 glGenBuffers: warning: a1: the call would write 2000000000 items, the trace recorded 1: skipped
1 glUniformMatrix4fv: warning: a3 holds 16 items, the call reads 16000: skipped
1 glDrawArrays: warning: a0 = 0x1234 is no PrimitiveType value: skipped
1 glDrawElements: warning: a2 = 0x1234 is no DrawElementsType value: skipped
1 glTexImage2D: warning: a8 holds 64 bytes, the call reads 1048576: skipped"
expect_noebo="1 glDrawElements: warning: a3 is an offset (0x0) but no element array buffer is bound: skipped"
expect_misfit="1 glUniformMatrix4fv: warning: the trace gives it 6 arguments, the function takes 4: its calls are skipped
1 glDrawArrays: warning: the trace gives it 2 arguments, the function takes 3: its calls are skipped
1 glBindBuffer: warning: a1 is a string, the function takes a number there: skipped
1 glUniform4fv: warning: a2 is an enum, the function takes data (an array, a blob, a string or NULL) there: skipped
1 glShaderSource: warning: a2[0] is an integer, the function takes strings there: skipped"

# snapshots MODE TRACE DIR: every frame of TRACE into DIR ($RC, log DIR.log)
snapshots() {
  local mode=$1 t=$2 d=$3
  mkdir -p "$d"
  set +e
  if [ "$mode" = headless ]; then
    timeout 120 env -u DISPLAY "$ours" --headless -s "$d/" "$t" >"$d.log" 2>&1
  else
    timeout 120 "$ours" -s "$d/" "$t" >"$d.log" 2>&1
  fi
  RC=$?
  set -e
}

# pick N DIR: the Nth snapshot file of DIR in call order (1-based; "last": the last)
pick() {
  if [ "$1" = last ]; then (cd "$2" && ls | tail -1); else (cd "$2" && ls | sed -n "${1}p"); fi
}

check_case() {
  local name=$1 mode=$2 expect=$3
  local what="$name ($mode)" d="$WORK/$mode.$name"
  snapshots "$mode" "$WORK/$name.trace" "$d"
  if [ "$RC" -eq 0 ]; then
    pass "$what: exit 0"
  else
    fail "$what: glretrace exits $RC"
    tail -3 "$d.log" | sed 's/^/    /'
  fi
  local n pattern total=0 got
  while read -r n pattern; do
    got=$(grep -cF -- "$pattern" "$d.log" || true)
    total=$((total + n))
    if [ "$got" = "$n" ]; then
      pass "$what: warns '$pattern' $n time(s)"
    else
      fail "$what: '$pattern' printed $got time(s), expected $n"
    fi
  done <<<"$expect"
  got=$(grep -ciE 'warning|error' "$d.log" || true)
  if [ "$got" = "$total" ]; then
    pass "$what: no other warning"
  else
    fail "$what: $got warning lines, expected $total:"
    grep -iE 'warning|error' "$d.log" | head -8 | sed 's/^/    /'
  fi
  if grep -qE "^Rendered $FRAMES frames in " "$d.log"; then
    pass "$what: renders $FRAMES frames"
  else
    fail "$what: $(grep -m1 Rendered "$d.log" || echo 'no Rendered line')"
  fi
  local k f g out
  for k in 1 $(((FRAMES + 1) / 2)) last; do
    f=$(pick "$k" "$WORK/$mode.intact")
    g=$(pick "$k" "$d")
    if [ -z "$g" ]; then
      fail "$what: no snapshot of frame $k"
    elif out=$(python3 "$compare_png" "$WORK/$mode.intact/$f" "$d/$g" 2>&1); then
      pass "$what: frame $k equals the intact trace's"
    else
      fail "$what: frame $k: ${out//"$WORK/"/}"
    fi
  done
}

for mode in x headless; do
  snapshots "$mode" "$base" "$WORK/$mode.intact"
  [ "$RC" -eq 0 ] || die "the intact trace does not replay ($mode): exit $RC"
  [ "$(ls "$WORK/$mode.intact" | wc -l)" -eq "$FRAMES" ] ||
    die "the intact trace gives $(ls "$WORK/$mode.intact" | wc -l) snapshots ($mode), not $FRAMES"
  check_case noctx "$mode" "$expect_noctx"
  check_case missing "$mode" "$expect_missing"
  check_case damaged "$mode" "$expect_damaged"
  check_case noebo "$mode" "$expect_noebo"
  check_case misfit "$mode" "$expect_misfit"
done

# apitrace's glretrace on the traces it survives: its exit status is ours (0). Two CI
# runs under load saw it exit 1 once (not reproduced in 15 idle runs): a second try is
# taken, and its first failure is shown as a note with what it printed.
for name in noctx missing; do
  for try in 1 2; do
    set +e
    timeout 120 glretrace -b "$WORK/$name.trace" >"$WORK/apitrace.$name.log" 2>&1
    rc=$?
    set -e
    [ "$rc" -ne 0 ] && [ "$try" = 1 ] || break
    echo "    note: $name: apitrace's glretrace exited $rc once: $(tail -2 "$WORK/apitrace.$name.log" | tr '\n' ' ')"
  done
  if [ "$rc" -eq 0 ]; then
    pass "$name: apitrace's glretrace exits 0 too"
  else
    fail "$name: apitrace's glretrace exits $rc (ours 0)"
  fi
done

it_finish
