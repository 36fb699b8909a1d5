#!/usr/bin/env bash
# recording_answers: the answers the recorder changes never harm the traced program, and
# are the ones apitrace 11 gives (wrappers/hook_answers.c, gl_conf.c).
#   usage: recording_answers.sh BIN_DIR
# Checks, with tests/apps/answers_app under our own Xvfb:
#   - guard values around every buffer the app hands glGet* stay intact untraced, under
#     gltrace (every glGet flavour) and under `apitrace trace` (--integerv: the path
#     apitrace 11 keeps safe);
#   - under gltrace the program sees 0 program binary formats in every flavour, program
#     binary length 0, and apitrace's extensions appended to glGetStringi's list;
#   - the recorded glGet of GL_NUM_PROGRAM_BINARY_FORMATS / GL_PROGRAM_BINARY_FORMATS and
#     glGetProgramiv(GL_PROGRAM_BINARY_LENGTH) read as in apitrace's own recording;
#   - a gltrace.conf (GLTRACE_CONF) sets the strings and integers the program sees and the
#     trace records; a malformed one warns with FILE:LINE and the program still runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init recording_answers

require_recorder "$@"
require_tool apitrace Xvfb timeout grep
app="$bin/answers_app"
require_file "$app" "tests/apps needs the x11 and gl dev packages"
start_xvfb

# run NAME EXPECTED_RC PROGRAM... : stdout in $WORK/NAME.out, stderr in $WORK/NAME.err
run() {
  local name=$1 expect=$2 rc
  shift 2
  set +e
  timeout 60 "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
  rc=$?
  set -e
  if [ "$rc" -eq "$expect" ]; then pass "$name: exit $rc"; else
    fail "$name: exit $rc, expected $expect: $(grep -h CORRUPTION "$WORK/$name.out" | head -3) $(tail -3 "$WORK/$name.err")"
  fi
}
has() { # has WHAT FILE LINE: the exact line is in FILE
  if grep -qxF -- "$3" "$2"; then pass "$1"; else fail "$1: no line '$3' in $(basename "$2")"; fi
}

run untraced 0 "$app"
run gltrace 0 "$gltrace" -o "$WORK/g.trace" -- "$app"
run gltrace.integerv 0 "$gltrace" -o "$WORK/gi.trace" -- "$app" --integerv
run apitrace.integerv 0 apitrace trace -o "$WORK/a.trace" "$app" --integerv
for r in untraced gltrace gltrace.integerv apitrace.integerv; do
  has "$r: guards intact" "$WORK/$r.out" "guards intact"
done
has "gltrace: no program binary formats, every flavour" "$WORK/gltrace.out" \
  "GL_NUM_PROGRAM_BINARY_FORMATS: int 0 int64 0 bool 0 float 0 double 0"
has "gltrace: program binary length 0" "$WORK/gltrace.out" "program binary length: 0"
has "gltrace: glGetProgramBinary returns 0 bytes" "$WORK/gltrace.out" "program binary returned: 0"
for e in GL_GREMEDY_string_marker GL_GREMEDY_frame_terminator GL_EXT_debug_marker GL_KHR_debug; do
  if grep -qE "^glGetStringi\([0-9]+\): $e\$" "$WORK/gltrace.out"; then
    pass "gltrace: $e offered by glGetStringi"
  else fail "gltrace: $e not offered by glGetStringi"; fi
done
for r in gltrace.integerv apitrace.integerv; do
  # (the glGetIntegerv answer: apitrace's other flavours leak the driver's count)
  grep -E '^(GL_NUM_PROGRAM_BINARY|program binary|guards)' "$WORK/$r.out" |
    sed 's/ int64 .*//' >"$WORK/$r.binary"
done
compare_files "program binary answers: gltrace == apitrace" "$WORK/gltrace.integerv.binary" \
  "$WORK/apitrace.integerv.binary"

# the recorded answers, as apitrace records them (values only: the argument names of
# the registry and apitrace's differ for some glGet functions)
"$gltrace" dump --color=never --arg-names=no "$WORK/gi.trace" | sed 's/^[0-9]* //' >"$WORK/gi.dump"
apitrace dump --color=never --arg-names=no "$WORK/a.trace" | sed 's/^[0-9]* //' >"$WORK/a.dump"
for line in 'glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &0)' \
  'glGetIntegerv(GL_PROGRAM_BINARY_FORMATS, {})' \
  'glGetProgramiv(3, GL_PROGRAM_BINARY_LENGTH, &0)'; do
  has "apitrace records: $line" "$WORK/a.dump" "$line"
  has "gltrace records: $line" "$WORK/gi.dump" "$line"
done

# gltrace.conf
cat >"$WORK/gltrace.conf" <<'CONF'
# emulate another GPU
GL_VENDOR = "Fake Vendor"
GL_RENDERER = "Fake GPU 9000"
GL_VERSION = "4.1.0 Fake"
GL_MAX_TEXTURE_SIZE = 4096
GL_CONTEXT_PROFILE_MASK = GL_CONTEXT_CORE_PROFILE_BIT
CONF
GLTRACE_CONF="$WORK/gltrace.conf" run conf 0 "$gltrace" -o "$WORK/c.trace" -- "$app"
has "conf: the program sees GL_VENDOR" "$WORK/conf.out" "GL_VENDOR: Fake Vendor"
has "conf: the program sees GL_RENDERER" "$WORK/conf.out" "GL_RENDERER: Fake GPU 9000"
has "conf: the program sees GL_MAX_TEXTURE_SIZE" "$WORK/conf.out" "GL_MAX_TEXTURE_SIZE: 4096"
"$gltrace" dump -v --color=never "$WORK/c.trace" | sed 's/^[0-9]* //' >"$WORK/c.dump"
has "conf: the trace records GL_VENDOR" "$WORK/c.dump" 'glGetString(name = GL_VENDOR) = "Fake Vendor"'
has "conf: the trace records GL_MAX_TEXTURE_SIZE" "$WORK/c.dump" \
  'glGetIntegerv(pname = GL_MAX_TEXTURE_SIZE, params = &4096)'
printf 'GL_VENDOR = "ok"\nGL_RENDERER "no equals"\nGL_MAX_TEXTURE_SIZE = lots\nNOT_A_KEY = 1\n' \
  >"$WORK/bad.conf"
GLTRACE_CONF="$WORK/bad.conf" run badconf 0 "$gltrace" -o "$WORK/b.trace" -- "$app"
for l in 2 3 4; do
  if grep -qF "$WORK/bad.conf:$l:" "$WORK/badconf.err"; then pass "bad conf: warns at line $l"
  else fail "bad conf: no warning naming $WORK/bad.conf:$l"; fi
done
has "bad conf: the good line still applies" "$WORK/badconf.out" "GL_VENDOR: ok"

it_finish
