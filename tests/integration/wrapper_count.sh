#!/usr/bin/env bash
# The recording library wraps every command of the registries: the count the
# generator reports, the functions libgltrace.so exports and the count taken from
# the XML here (independently of specs/registry.py) must all agree.
# Usage: wrapper_count.sh LIB_DIR GEN_DIR REGISTRY_DIR SPECS_DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"
it_init wrapper_count
lib=$1/libgltrace.so gen=$2 reg=$3 specs=$4
require_tool nm python3
require_file "$lib" "build the project first"
require_file "$gen/wrapped.gen.txt"

read -r gl glx egl < <(python3 - "$reg/gl.xml" "$reg/glx.xml" "$specs/egl.xml" <<'EOF2'
import sys
import xml.etree.ElementTree as ET
print(*(len(ET.parse(p).getroot().find("commands").findall("command")) for p in sys.argv[1:]))
EOF2
)
echo "registry: $gl GL, $glx GLX, $egl EGL commands"
for api in gl glx egl; do
  want=${!api}
  got=$(awk -v a="$api" '$1 == a { print $2 }' "$gen/wrapped.gen.txt")
  if [ "$got" = "$want" ]; then pass "$api: $got wrapped"; else fail "$api: generator wrapped $got of $want"; fi
done
exported=$(nm -D --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^(gl|egl)/ { n++ } END { print n + 0 }')
total=$((gl + glx + egl))
if [ "$exported" = "$total" ]; then
  pass "libgltrace.so exports $exported GL/GLX/EGL functions"
else
  fail "libgltrace.so exports $exported GL/GLX/EGL functions, the registries hold $total"
fi
# besides the GL entry points: dlopen (override_dlopen.c), _exit/_Exit, which flush
# the trace (they skip atexit handlers; wrappers/runtime_exit.c), and the exec family, which
# flush before the process image is replaced (override_exec.c)
others=$(nm -D --defined-only "$lib" | awk '$2 == "T" && $3 !~ /^(gl|egl)/ { print $3 }' |
  LC_ALL=C sort | tr '\n' ' ')
want="_Exit _exit dlopen execl execle execlp execv execve execveat execvp execvpe fexecve "
if [ "$others" = "$want" ]; then
  pass "the only other exports are $want"
else
  fail "unexpected exports: $others"
fi
it_finish
