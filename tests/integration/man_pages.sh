#!/usr/bin/env bash
# man_pages: the man pages gltrace(1) and glretrace(1) as a user gets them.
#   - `cmake --install` into a staging folder (DESTDIR) and the Debian package `cpack`
#     makes (its file list and its files, unpacked with dpkg-deb -x) hold
#     usr/share/man/man1/gltrace.1 and glretrace.1, README.md and the reference
#     docs/*.md under usr/share/doc/gltrace;
#   - each page renders with `man -l` and `groff -man -ww` without a warning;
#   - each page names every command and long option that `gltrace help`, each
#     `gltrace COMMAND --help` and `glretrace --help` list, so that it keeps up with
#     the programs.
#   usage: man_pages.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init man_pages

[ $# -eq 1 ] || die "usage: man_pages.sh BUILD_DIR"
build=$(cd "$1" && pwd)
require_file "$build/CPackConfig.cmake" "configure the build with CMake"
require_tool cmake cpack dpkg-deb man groff col

# render WHAT PAGE: man and groff render PAGE without a word on stderr
render() {
  local what=$1 page=$2 name
  name=$(basename "$page" .1)
  if MANWIDTH=80 man -l -Tutf8 "$page" >"$WORK/$name.out" 2>"$WORK/$name.err" &&
    [ ! -s "$WORK/$name.err" ] && col -b <"$WORK/$name.out" | grep "^NAME" >/dev/null; then
    pass "$what: man -l renders $name.1"
  else
    fail "$what: man -l $name.1: $(grep . "$WORK/$name.err" | head -3 | tr '\n' ' ')"
  fi
  if groff -man -ww -z "$page" 2>"$WORK/$name.groff" && [ ! -s "$WORK/$name.groff" ]; then
    pass "$what: groff -man -ww: no warning in $name.1"
  else
    fail "$what: groff -man -ww $name.1: $(head -3 "$WORK/$name.groff" | tr '\n' ' ')"
  fi
}

# pages WHAT ROOT: ROOT/usr/share/man/man1 holds both pages, ROOT/usr/share/doc/gltrace
# the README and the reference; both pages render
pages() {
  local what=$1 root=$2 p
  for p in gltrace glretrace; do
    if [ -f "$root/usr/share/man/man1/$p.1" ]; then
      pass "$what: usr/share/man/man1/$p.1 installed"
      render "$what" "$root/usr/share/man/man1/$p.1"
    else
      fail "$what: no usr/share/man/man1/$p.1"
    fi
  done
  for p in README.md docs/README.md docs/record.md docs/replay.md; do
    [ -f "$root/usr/share/doc/gltrace/$p" ] && pass "$what: usr/share/doc/gltrace/$p installed" ||
      fail "$what: no usr/share/doc/gltrace/$p"
  done
}

# ---- cmake --install into a staging folder --------------------------------------------
if DESTDIR="$WORK/dest" cmake --install "$build" --prefix /usr >"$WORK/install.log" 2>&1; then
  pass "cmake --install (DESTDIR)"
  pages install "$WORK/dest"
else
  fail "cmake --install: $(tail -3 "$WORK/install.log" | tr '\n' ' ')"
fi

# ---- the Debian package -----------------------------------------------------------------
mkdir -p "$WORK/pkg"
deb=
if (cd "$WORK/pkg" && cpack --config "$build/CPackConfig.cmake" -B "$WORK/pkg") \
  >"$WORK/cpack.log" 2>&1; then
  deb=$(find "$WORK/pkg" -maxdepth 1 -name 'gltrace_*.deb' | head -1)
fi
if [ -z "$deb" ]; then
  fail "cpack made no .deb: $(tail -5 "$WORK/cpack.log" | tr '\n' ' ')"
else
  pass "cpack: $(basename "$deb")"
  dpkg-deb -c "$deb" >"$WORK/deb.list"
  for p in gltrace glretrace; do
    grep -q "\./usr/share/man/man1/$p\.1\(\.gz\)\?$" "$WORK/deb.list" &&
      pass "the package lists usr/share/man/man1/$p.1" ||
      fail "the package lacks usr/share/man/man1/$p.1"
  done
  dpkg-deb -x "$deb" "$WORK/stage"
  pages deb "$WORK/stage"
fi

# ---- the pages keep up with the programs' own help ----------------------------------------
# words: the long options in the help text on stdin, one a line
words() { grep -o -- '--[a-z][a-z-]*' | grep -vx -- '--help' | sort -u; }
text_of() { MANWIDTH=200 man -l -Tutf8 "$1" 2>/dev/null | col -b; }
text_of "$here/../../docs/man/gltrace.1" >"$WORK/gltrace.txt"
text_of "$here/../../docs/man/glretrace.1" >"$WORK/glretrace.txt"
"$build/bin/gltrace" help >"$WORK/gltrace.help"
cmds=$(sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p; s/^  \([a-z][a-z-]*\)$/\1/p' "$WORK/gltrace.help")
[ -n "$cmds" ] || fail "gltrace help lists no commands"
for c in $cmds; do
  grep -q "^ *$c " "$WORK/gltrace.txt" && pass "gltrace.1 has the command $c" ||
    fail "gltrace.1 lacks the command $c"
  for o in $("$build/bin/gltrace" "$c" --help 2>&1 | words); do
    grep -q -- "$o" "$WORK/gltrace.txt" && pass "gltrace.1 has $c $o" ||
      fail "gltrace.1 lacks $c's option $o"
  done
done
for o in $(words <"$WORK/gltrace.help"); do
  grep -q -- "$o" "$WORK/gltrace.txt" && pass "gltrace.1 has $o" ||
    fail "gltrace.1 lacks the option $o"
done
for o in $("$build/bin/glretrace" --help 2>&1 | words); do
  grep -q -- "$o" "$WORK/glretrace.txt" && pass "glretrace.1 has $o" ||
    fail "glretrace.1 lacks the option $o"
done

it_finish
