#!/usr/bin/env bash
# backtrace_compressed: backtraces name the same files and lines whether a module's
# debug sections are compressed or not. The recording library reads the line table
# of a file with compressed sections itself (wrappers/backtrace_lines.c) and asks
# libdw for the others: both must give the same frames.
#   usage: backtrace_compressed.sh BIN_DIR
# Built here twice from the same sources (compiled from $WORK with relative paths, so
# the line tables name files relative to the compilation directory, with -O2 so that
# calls are inlined): a program and a library it links, whose function makes the
# draw calls; once with -g, once with -g -gz (zlib-compressed DWARF). Both recorded
# with --backtrace=all under Xvfb. Checks:
#   - the -gz program and library have compressed .debug_info, the others not;
#   - the frames of every call's backtrace (gltrace dump), with the build folder's name
#     made the same, are identical in the two traces, call by call;
#   - frames name the program's and the library's sources with a line.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init backtrace_compressed

require_recorder "$@"
require_tool cc readelf python3 timeout Xvfb

mkdir -p "$WORK/src" "$WORK/plain" "$WORK/gz"
cat >"$WORK/src/btl.c" <<'EOF'
#include <GL/gl.h>

static void draw_some(int n)
{
    for (int k = 0; k < n; ++k) {
        glColor3f(1.0f, 0.5f, 0.25f);
        glDrawArrays(GL_POINTS, 0, 0);
    }
}

void btl_frame(int i)
{
    glClearColor(0.1f * (float)(i % 10), 0.2f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_some(1 + i % 3);
}
EOF
cat >"$WORK/src/bt_prog.c" <<'EOF'
#include <GL/gl.h>

#include "glx_window.h"

void btl_frame(int i);

int main(void)
{
    Display *dpy;
    Window win;
    GLXContext ctx;
    if (glxw_open(32, &dpy, &win, &ctx))
        return 1;
    for (int i = 0; i < 4; ++i) {
        btl_frame(i);
        glViewport(0, 0, 32, 32);
        glXSwapBuffers(dpy, win);
    }
    glxw_close(dpy, ctx);
    return 0;
}
EOF

# build VARIANT FLAGS...: $WORK/VARIANT/libbtl.so and $WORK/VARIANT/bt_prog
build() {
  local v=$1
  shift
  (
    cd "$WORK"
    cc -O2 -g "$@" -shared -fPIC -o "$v/libbtl.so" src/btl.c -lGL &&
      cc -O2 -g "$@" -I"$here" -o "$v/bt_prog" src/bt_prog.c -L"$v" -lbtl -Wl,-rpath,"$WORK/$v" \
        -lGL -lX11
  ) >"$WORK/cc.$v.log" 2>&1 || die "cannot build the $v test program: $(head -5 "$WORK/cc.$v.log")"
}
build plain
build gz -gz=zlib

# compressed VARIANT FILE: whether FILE's .debug_info has the C (compressed) flag
compressed() {
  readelf -SW "$WORK/$1/$2" | grep -E '\] \.debug_info ' | grep -qE ' [A-Z]*C[A-Z]* +[0-9]+ +[0-9]+ +[0-9]+$'
}
for f in bt_prog libbtl.so; do
  if compressed gz "$f" && ! compressed plain "$f"; then
    pass "$f: .debug_info compressed with -gz only"
  else
    die "$f: -gz did not compress .debug_info (or the plain build did): the check means nothing"
  fi
done

start_xvfb 64x64x24

for v in plain gz; do
  set +e
  timeout 60 "$gltrace" -o "$WORK/$v.trace" --backtrace=all -- "$WORK/$v/bt_prog" \
    >"$WORK/$v.rec.log" 2>&1
  rc=$?
  set -e
  if [ "$rc" -ne 0 ] || [ ! -s "$WORK/$v.trace" ]; then
    die "$v: gltrace exits $rc or wrote no trace: $(tail -5 "$WORK/$v.rec.log")"
  fi
  "$gltrace" dump --color=never "$WORK/$v.trace" >"$WORK/$v.txt" 2>"$WORK/$v.dump.err" ||
    die "$v: gltrace dump failed: $(head -5 "$WORK/$v.dump.err")"
done

out=$(python3 - "$WORK" <<'EOF'
import re, sys
work = sys.argv[1]

def backtraces(variant):
    """(call, [frames]) per call, the build folder's name made VARIANT."""
    calls, cur = [], None
    for line in open('%s/%s.txt' % (work, variant)):
        line = line.rstrip('\n').replace('%s/%s/' % (work, variant), '%s/VARIANT/' % work)
        if re.match(r'^\d+ ', line):
            cur = (re.sub(r'^\d+ ', '', line).split('(')[0], [])
            calls.append(cur)
        elif cur and line != 'Backtrace:' and line:
            cur[1].append(line)
    return calls

plain, gz = backtraces('plain'), backtraces('gz')
fails = []
if [c for c, _ in plain] != [c for c, _ in gz]:
    fails.append('the two programs made different calls')
for (call, a), (_, b) in zip(plain, gz):
    if a != b:
        fails.append('%s: frames differ:\n    plain: %s\n    gz:    %s' % (call, a, b))
        break
frames = [f for _, fs in gz for f in fs]
for src in ('src/bt_prog.c', 'src/btl.c'):
    if not any(re.search(re.escape(src) + r':\d+$', f) for f in frames):
        fails.append('no frame names %s with a line' % src)
if not any(fs for _, fs in gz):
    fails.append('no backtraces')
for f in fails:
    print('FAIL ' + f)
print('OK %d calls, %d frames' % (len(gz), len(frames)))
EOF
)
echo "$out" | grep -v '^OK' | sed 's/^FAIL /  /' || true
if grep -q '^FAIL' <<<"$out"; then
  fail "frames with compressed and plain debug sections differ (or lack lines)"
else
  pass "same frames with compressed and plain debug sections ($(echo "$out" | grep '^OK' | cut -c4-))"
fi

it_finish
