#!/usr/bin/env bash
# markers: the annotation extensions the recorder offers (wrappers/hook_answers.c,
# `provide`/`nodriver` in specs/annotations.txt) work for a real program: found, called,
# recorded as apitrace records them, replayed, and shown in glretrace's timeline.
#   usage: markers.sh BIN_DIR
# With tests/apps/markers_app under our own Xvfb, for its 3.3 core context (glGetStringi)
# and its compatibility context (--compat: glGetString(GL_EXTENSIONS)):
#   - untraced, the app finds each extension exactly when the driver lists it (the same
#     list read back with glGetStringi / glGetString is the driver's: no hard-coded driver
#     facts), and calls only what it found, without GL errors;
#   - under `gltrace --backtrace=none` and under `apitrace trace` it finds all seven
#     (GREMEDY string marker and frame terminator, EXT_debug_marker/label, KHR_debug,
#     ARB/AMD debug output) and makes every kind of marker call, without GL errors;
#   - `gltrace dump` of our trace prints each marker call with its text, and the whole
#     dump equals `apitrace dump` of apitrace's own recording (both with --call-nos=no
#     --arg-names=no, plain and -v), normalised only for:
#       * pointer values (addresses differ from run to run);
#       * our "// process.commandLine" comment line (apitrace 11 records none);
#   - the frames the app saves are the same untraced, under gltrace and under apitrace,
#     and our glretrace's snapshots of our trace are the app's frames (compare_png.py);
#   - our glretrace replays both traces with exit 0 and no warnings at all (the GREMEDY
#     and EXT_debug_marker calls are skipped silently where the context lacks them);
#   - `glretrace --fxt` of our trace has the group markers as nested slices ("frame N" >
#     "background", "rectangles": depth 2, balanced) and the event, debug-message and
#     string markers as instants with their text.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init markers

require_recorder "$@"
require_tool apitrace Xvfb timeout grep python3
app="$bin/markers_app"
require_file "$app" "tests/apps needs the x11 and gl dev packages"
require_file "$bin/glretrace" "build glretrace first"
compare_png="$here/../apps/compare_png.py"
require_file "$compare_png"
start_xvfb

FRAMES=4
EXTS=(GL_GREMEDY_string_marker GL_GREMEDY_frame_terminator GL_EXT_debug_marker
  GL_EXT_debug_label GL_KHR_debug GL_ARB_debug_output GL_AMD_debug_output)

# run NAME PROGRAM...: exit 0 expected; stdout in $WORK/NAME.out, stderr in NAME.err
run() {
  local name=$1 rc
  shift
  set +e
  timeout 60 "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
  rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then pass "$name: exit 0"; else
    fail "$name: exit $rc: $(tail -3 "$WORK/$name.err" | tr '\n' ' ')"
  fi
}
has() { # has WHAT FILE LINE: the exact line is in FILE
  if grep -qxF -- "$3" "$2"; then pass "$1"; else fail "$1: no line '$3' in $(basename "$2")"; fi
}
norm() { # the normalisations listed above
  sed -E -e 's/0x[0-9a-f]{6,}/PTR/g' -e '/^\/\/ process\.commandLine/d'
}

for mode in core compat; do
  flag=()
  [ "$mode" = compat ] && flag=(--compat)
  m=$mode
  run "$m.untraced" "$app" "${flag[@]}" --frames $FRAMES --save "$WORK/$m.u-"
  run "$m.gltrace" "$gltrace" --backtrace=none -o "$WORK/$m.g.trace" -- "$app" "${flag[@]}" \
    --frames $FRAMES --save "$WORK/$m.g-"
  run "$m.apitrace" apitrace trace -o "$WORK/$m.a.trace" "$app" "${flag[@]}" --frames $FRAMES \
    --save "$WORK/$m.a-"

  # untraced: the app finds what the driver lists. The driver's list is the one our trace
  # recorded less the extensions hook_answers.c appends at its end.
  "$gltrace" dump --color=never -v --call-nos=no --arg-names=no "$WORK/$m.g.trace" \
    >"$WORK/$m.g.full"
  python3 - "$WORK/$m.g.full" "${EXTS[@]}" >"$WORK/$m.driver" <<'EOF'
import re, sys
dump = open(sys.argv[1]).read()
ours = sys.argv[2:]
# the extensions hook_answers.c appends: the markers' and apitrace's GL_VMWX_map_buffer_debug
appended = ours + ['GL_VMWX_map_buffer_debug']
names = re.findall(r'^glGetStringi\(GL_EXTENSIONS, \d+\) = "([^"]*)"$', dump, re.M)
if not names:
    m = re.search(r'^glGetString\(GL_EXTENSIONS\) = "([^"]*)"$', dump, re.M)
    names = m.group(1).split() if m else []
# ours are appended after the driver's list: the driver has those that appear before
tail = names[len(names) - len(appended):] if len(names) >= len(appended) else []
driver = names[:len(names) - len(appended)] if sorted(tail) == sorted(appended) else None
for e in ours:
    if driver is None:
        print('%s: ours not appended at the end' % e)
    else:
        print('%s: %s' % (e, 'found' if e in driver else 'not found'))
EOF
  for e in "${EXTS[@]}"; do
    line=$(grep -F "$e: " "$WORK/$m.driver" || true)
    has "$m.untraced: '$line' as the driver says" "$WORK/$m.untraced.out" "$line"
    has "$m.gltrace: $e found" "$WORK/$m.gltrace.out" "$e: found"
    has "$m.apitrace: $e found" "$WORK/$m.apitrace.out" "$e: found"
  done
  for r in gltrace apitrace; do
    has "$m.$r: every kind of marker called" "$WORK/$m.$r.out" \
      "markers: group event string terminator debug-group debug-message object-label label-object"
  done
  for r in untraced gltrace apitrace; do
    has "$m.$r: $FRAMES frames without GL errors" "$WORK/$m.$r.out" "frames: $FRAMES"
  done

  # the marker calls, with their text, in our trace
  "$gltrace" dump --color=never --call-nos=no --arg-names=no "$WORK/$m.g.trace" >"$WORK/$m.g.dump"
  for line in 'glPushGroupMarkerEXT(7, "frame 0")' 'glPushGroupMarkerEXT(0, "background")' \
    'glPopGroupMarkerEXT()' 'glInsertEventMarkerEXT(10, "rectangles")' \
    'glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, -1, "rectangles")' \
    'glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 2, GL_DEBUG_SEVERITY_NOTIFICATION, -1, "drew the rectangles")' \
    'glPopDebugGroup()' 'glStringMarkerGREMEDY(12, "frame 3 done")' 'glFrameTerminatorGREMEDY()' \
    'glObjectLabel(GL_BUFFER, 1, -1, "vertex buffer")' \
    'glLabelObjectEXT(GL_BUFFER_OBJECT_EXT, 1, 0, "vertex buffer (EXT)")'; do
    has "$m: recorded $line" "$WORK/$m.g.dump" "$line"
  done
  # the whole dump as apitrace's of its own recording
  for opt in "" -v; do
    "$gltrace" dump --color=never --call-nos=no --arg-names=no $opt "$WORK/$m.g.trace" |
      norm >"$WORK/$m.g.norm"
    apitrace dump --color=never --call-nos=no --arg-names=no $opt "$WORK/$m.a.trace" |
      norm >"$WORK/$m.a.norm"
    compare_files "$m: dump${opt:+ $opt} == apitrace's dump of its recording" \
      "$WORK/$m.a.norm" "$WORK/$m.g.norm"
  done

  # frames unchanged by tracing
  for k in $(seq 0 $((FRAMES - 1))); do
    f=$(printf '%010u.png' "$k")
    for r in g a; do
      if python3 "$compare_png" "$WORK/$m.u-$f" "$WORK/$m.$r-$f" >"$WORK/cmp.txt" 2>&1; then
        pass "$m: frame $k under ${r/g/gltrace}${r/a/pitrace} as untraced"
      else fail "$m: frame $k traced ($r) differs: $(cat "$WORK/cmp.txt")"; fi
    done
  done

  # replay: no errors, no warnings; our snapshots are the app's frames
  for r in g a; do
    run "$m.replay.$r" "$bin/glretrace" -s "$WORK/$m.r$r-" "$WORK/$m.$r.trace"
    if grep -q . "$WORK/$m.replay.$r.err"; then
      fail "$m.replay.$r: glretrace warns: $(head -3 "$WORK/$m.replay.$r.err" | tr '\n' ' ')"
    else pass "$m.replay.$r: no warnings"; fi
  done
  mapfile -t snaps < <(ls "$WORK/$m.rg-"*.png 2>/dev/null | sort)
  if [ "${#snaps[@]}" -eq "$FRAMES" ]; then pass "$m: $FRAMES replay snapshots"; else
    fail "$m: ${#snaps[@]} replay snapshots, expected $FRAMES"; fi
  for k in $(seq 0 $((${#snaps[@]} - 1))); do
    f=$(printf '%010u.png' "$k")
    if python3 "$compare_png" "$WORK/$m.u-$f" "${snaps[$k]}" >"$WORK/cmp.txt" 2>&1; then
      pass "$m: replayed frame $k is the app's"
    else fail "$m: replayed frame $k differs: $(cat "$WORK/cmp.txt")"; fi
  done

  # the timeline: group markers nested, event/string markers instants
  run "$m.fxt" "$bin/glretrace" --fxt "$WORK/$m.fxt" "$WORK/$m.g.trace"
  "$gltrace" convert --print "$WORK/$m.fxt" >"$WORK/$m.fxt.txt"
  python3 - "$WORK/$m.fxt.txt" "$FRAMES" >"$WORK/$m.fxt.check" <<'EOF'
import sys
frames = int(sys.argv[2])
ev = []
for line in open(sys.argv[1]):
    f = line.rstrip('\n').split('\t')
    if len(f) > 6 and f[5] == 'marker':
        ev.append((int(f[1]), f[0], f[6]))
ev.sort(key=lambda e: e[0])
stack, spans, ok, depth, instants = [], [], True, 0, []
for ts, kind, name in ev:
    if kind == 'begin':
        stack.append(name)
        depth = max(depth, len(stack))
        spans.append((name, len(stack)))
    elif kind == 'end':
        ok = ok and bool(stack)
        if stack:
            stack.pop()
    elif kind == 'instant':
        instants.append((name, len(stack)))
def say(good, what, got):
    print('%s %s%s' % ('PASS' if good else 'FAIL', what, '' if good else ': got %s' % (got,)))
say(ok and not stack and depth == 2, 'group markers nest (depth 2, balanced)',
    'depth %d, %d open' % (depth, len(stack)))
want = []
for k in range(frames):
    want += [('frame %d' % k, 1), ('background', 2), ('rectangles', 2)]
say(spans == want, 'slices frame N > background, rectangles', spans[:6])
want = []
for k in range(frames):
    want += [('rectangles', 1), ('drew the rectangles', 2), ('frame %d done' % k, 1)]
say(instants == want, 'instants: event marker, debug message (in its group), string marker',
    instants[:6])
EOF
  while read -r verdict rest; do
    if [ "$verdict" = PASS ]; then pass "$m: fxt: $rest"; else fail "$m: fxt: $rest"; fi
  done <"$WORK/$m.fxt.check"
  grep -q . "$WORK/$m.fxt.check" || fail "$m: fxt check printed nothing"
done

it_finish
