#!/usr/bin/env bash
# attrib_lists: attribute lists are written as apitrace 11 writes them.
#   usage: attrib_lists.sh BIN_DIR
# tests/apps/attrib_lists_app calls the GLX (`glx`) and EGL (`egl`) functions that take
# attribute lists (glXChooseVisual, glXChooseFBConfig, glXCreateContextAttribsARB,
# glXCreatePbuffer, glXCreateWindow; eglGetPlatformDisplay(EXT), eglChooseConfig,
# eglCreateContext, eglCreate(Platform)WindowSurface, eglCreatePbufferSurface,
# eglCreateSync, eglCreateImage(KHR)) with non-empty, empty and NULL lists. Each mode is
# recorded under our own Xvfb by `gltrace --backtrace=none` and by `apitrace trace`.
# Checks, per mode:
#   - both recorders exit 0 and their traces hold every list the app passes;
#   - the attribute-list arguments (every argument whose name has "attrib") of
#     `apitrace dump -v` of both traces are the same text, call by call; a few lists
#     are spelled out as apitrace shows them (named keys and values, {EGL_NONE} for an
#     empty list shown as &EGL_NONE, {} for NULL);
#   - our glretrace replays both traces with exit 0.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init attrib_lists

require_recorder "$@"
require_tool apitrace Xvfb python3 timeout
app="$bin/attrib_lists_app"
require_file "$app" "tests/apps needs the x11, gl, egl dev packages"
require_file "$bin/glretrace" "build glretrace first"

start_xvfb

# lists FILE: "function: list text" for each attribute-list argument of a dump
lists() {
  python3 - "$1" <<'EOF'
import re, sys
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"^\d+ (\w+)\((.*)$", line)
    if not m:
        continue
    fn, rest = m.groups()
    for am in re.finditer(r"\w*[aA]ttrib\w* = ", rest):
        i = j = am.end()
        depth = 0
        while j < len(rest):
            c = rest[j]
            if c in "{(":
                depth += 1
            elif c in "})":
                if depth == 0:
                    break
                depth -= 1
            elif c == "," and depth == 0:
                break
            j += 1
        print(f"{fn}: {rest[i:j]}")
EOF
}

# record MODE NAME CMD...: records attrib_lists_app MODE with CMD, dumps it (-v)
record() {
  local mode=$1 name=$2
  shift 2
  set +e
  timeout 60 "$@" "$app" "$mode" >"$WORK/$name.log" 2>&1
  local rc=$?
  set -e
  if [ "$rc" -ne 0 ] || [ ! -s "$WORK/$name.trace" ]; then
    fail "$name: recording exits $rc; log:"
    tail -5 "$WORK/$name.log" | sed 's/^/    /'
    return 1
  fi
  pass "$name: recorded"
  apitrace dump -v --color=never "$WORK/$name.trace" >"$WORK/$name.dump.txt" 2>/dev/null || true
  lists "$WORK/$name.dump.txt" >"$WORK/$name.lists.txt"
}

# expect NAME COUNT LINE...: NAME's lists number COUNT and include each LINE
expect() {
  local name=$1 count=$2
  shift 2
  local n
  n=$(wc -l <"$WORK/$name.lists.txt")
  if [ "$n" -eq "$count" ]; then
    pass "$name: $count attribute lists"
  else
    fail "$name: $n attribute lists, expected $count"
  fi
  local line
  for line in "$@"; do
    if grep -qxF -- "$line" "$WORK/$name.lists.txt"; then
      pass "$name: $line"
    else
      fail "$name: no list '$line'"
    fi
  done
}

replay() {
  local name=$1
  set +e
  timeout 120 "$bin/glretrace" "$WORK/$name.trace" >"$WORK/$name.retrace.log" 2>&1
  local rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then
    pass "$name: glretrace replays it"
  else
    fail "$name: glretrace exits $rc; log:"
    tail -5 "$WORK/$name.retrace.log" | sed 's/^/    /'
  fi
}

GLX_LISTS=(
  "glXChooseVisual: {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 1, GLX_GREEN_SIZE, 1, GLX_BLUE_SIZE, 1, GLX_DEPTH_SIZE, 16, GLX_X_VISUAL_TYPE, GLX_TRUE_COLOR, 0}"
  "glXChooseVisual: &0"
  "glXChooseFBConfig: {}"
  "glXCreateContextAttribsARB: {GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3, GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, GLX_CONTEXT_FLAGS_ARB, GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB, GLX_RENDER_TYPE, GLX_RGBA_TYPE, 0}"
  "glXCreatePbuffer: {GLX_PBUFFER_WIDTH, 16, GLX_PBUFFER_HEIGHT, 16, GLX_LARGEST_PBUFFER, False, GLX_PRESERVED_CONTENTS, True, 0}"
  "glXCreateWindow: {}"
)
EGL_LISTS=(
  "eglGetPlatformDisplay: {12758, 0, 12344}"
  "eglGetPlatformDisplayEXT: &EGL_NONE"
  "eglChooseConfig: {}"
  "eglCreateContext: {EGL_CONTEXT_MAJOR_VERSION, 2, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE}"
  "eglCreateWindowSurface: {EGL_RENDER_BUFFER, EGL_BACK_BUFFER, EGL_NONE}"
  "eglCreatePlatformWindowSurface: &12344"
  "eglCreatePbufferSurface: {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_LARGEST_PBUFFER, EGL_TRUE, EGL_TEXTURE_FORMAT, EGL_NO_TEXTURE, EGL_NONE}"
  "eglCreateImageKHR: {EGL_GL_TEXTURE_LEVEL, 0, EGL_IMAGE_PRESERVED, EGL_TRUE, EGL_NONE}"
)

for mode in glx egl; do
  api=()
  [ "$mode" = egl ] && api=(--api egl)
  ok=1
  record "$mode" "gltrace_$mode" "$gltrace" --backtrace=none -o "$WORK/gltrace_$mode.trace" -- || ok=0
  record "$mode" "apitrace_$mode" apitrace trace "${api[@]}" -o "$WORK/apitrace_$mode.trace" || ok=0
  [ "$ok" -eq 1 ] || continue
  compare_files "$mode: attribute lists, gltrace's trace == apitrace's" \
    "$WORK/apitrace_$mode.lists.txt" "$WORK/gltrace_$mode.lists.txt"
  if [ "$mode" = glx ]; then
    expect "gltrace_glx" 12 "${GLX_LISTS[@]}"
  else
    expect "gltrace_egl" 28 "${EGL_LISTS[@]}"
  fi
  replay "gltrace_$mode"
  replay "apitrace_$mode"
done

it_finish
