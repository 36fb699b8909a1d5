#!/usr/bin/env bash
# xray_corpus: formats/xray reads every LLVM XRay log of the corpus like llvm-xray-14.
#   usage: xray_corpus.sh BIN_DIR CORPUS_DIR
# For every X.xray in CORPUS_DIR/xray-fdr (printed by xray_tool print, the reader's
# events as text lines):
#   1. it reads (exit 0);
#   2. with X.xray.yaml (llvm-xray-14 convert --output-format=yaml): per thread, the
#      function entries and exits (id, kind, call arguments) in order, their times
#      (TSC * 1e9 / frequency, within 1 ns) and the number of custom and typed events
#      equal the YAML's;
#   3. with X.xray.fdr-dump.txt (llvm-xray-14 fdr-dump): per thread, the sequence of
#      (entry/exit, id) equals the dump's, its buffers put in time order;
#   4. the REFERENCE-CONVERT-FAILS log (llvm-xray-14 convert refuses it: its last buffer
#      ends inside a TSCWrap record) reads with a warning at that offset, every function
#      record before it as fdr-dump lists them, and --strict refuses it at that offset;
#   5. --strict accepts each log, or refuses it at an offset when the liberal read
#      warned (entries never exited, records cut by their buffer's end);
#   6. each log copied through our writer (xray_tool copy: read, write FDR v5 and the
#      instrumentation map) reads back with the same entries (and their arguments),
#      exits and custom/typed events per thread (names through the map, times to the
#      ns), and llvm-xray-14 convert reads the copy
#      with as many function records as ours.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init xray_corpus

[ $# -eq 2 ] || die "usage: $0 BIN_DIR CORPUS_DIR"
tool="$1/xray_tool"
require_file "$tool" "build xray_tool first"
require_tool python3
corpus="$2/xray-fdr"
[ -d "$corpus" ] || die "no XRay corpus in $corpus"

# compare.py MODE REF OURS: MODE yaml or dump; prints the first difference, exit 1.
cat >"$WORK/compare.py" <<'PY'
import re, sys
from collections import defaultdict

def ours(path):
    recs = []
    for line in open(path, encoding="utf-8", errors="replace"):
        f = line.rstrip("\n").split("\t")
        kind, ts, pid, tid, name, args = f[0], int(f[1]), int(f[3]), int(f[4]), f[6], f[9]
        if kind in ("begin", "end"):
            fid = int(name[3:]) if name.startswith("fn#") else name
            a = tuple(int(m) for m in re.findall(r"arg\d+=(\d+)", args))
            recs.append(((pid, tid), "E" if kind == "begin" else "X", fid, ts, a))
        elif kind == "instant":
            recs.append(((pid, tid), "T" if "typed" in name else "C", None, ts, ()))
    return recs

def yaml(path):
    freq, recs = None, []
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"\s*cycle-frequency:\s*(\d+)", line)
        if m:
            freq = int(m.group(1))
        if not line.lstrip().startswith("- {"):
            continue
        g = lambda k: re.search(k + r":\s*([^,}]+)", line).group(1).strip()
        kind = g("kind")
        a = re.search(r"args:\s*\[([^\]]*)\]", line)
        a = tuple(int(x) for x in a.group(1).split(",") if x.strip()) if a else ()
        k = {"function-enter": "E", "function-enter-arg": "E", "function-exit": "X",
             "function-tail-exit": "X", "custom-event": "C", "typed-event": "T"}[kind]
        pid = int(g("process")) if "process:" in line else 0  # basic v1: none
        recs.append(((pid, int(g("thread"))), k,
                     int(g("func-id")) if k in "EX" else None, int(g("tsc")), a))
    return freq, recs

def per_thread(recs):
    d = defaultdict(list)
    for r in recs:
        d[r[0]].append(r[1:])
    return d

def cmp_yaml(ref, out):
    freq, yr = yaml(ref)
    yt, ot = per_thread(yr), per_thread(ours(out))
    if set(yt) != set(ot):
        return "threads differ: yaml %s, ours %s" % (sorted(yt), sorted(ot))
    n = 0
    for t in yt:
        ys, os_ = yt[t], ot[t]
        if len(ys) != len(os_):
            return "thread %s: %d records in yaml, %d ours" % (t, len(ys), len(os_))
        for i, (y, o) in enumerate(zip(ys, os_)):
            if (y[0], y[1], y[3]) != (o[0], o[1], o[3]) and y[0] in "EX":
                return "thread %s record %d: yaml %s, ours %s" % (t, i, y, o)
            if y[0] != o[0]:
                return "thread %s record %d: yaml kind %s, ours %s" % (t, i, y[0], o[0])
            want = (y[2] - ys[0][2]) * 10**9 / freq
            got = o[2] - os_[0][2]
            if abs(want - got) > 1:
                return "thread %s record %d: time %d ns, yaml says %.1f" % (t, i, got, want)
        n += len(ys)
    print("%d threads, %d records equal" % (len(yt), n))

def cmp_dump(ref, out):
    # fdr-dump lists buffers in file order; we read them in time order (by the TSC
    # of their NewCPUId), and skip what follows an EndOfBuffer (v1) as llvm-xray
    # convert does
    bufs, cur, skip = [], None, False
    for line in open(ref, encoding="utf-8", errors="replace"):
        m = re.match(r"<Thread ID: (\d+)>", line)
        if m:
            cur = {"tid": int(m.group(1)), "key": None, "recs": []}
            bufs.append(cur)
            skip = False
        m = re.match(r"<CPU: id = \d+, tsc = (\d+)>", line)
        if m and cur and cur["key"] is None:
            cur["key"] = int(m.group(1))
        if line.startswith("<End of Buffer>"):
            skip = True
        m = re.match(r"<Function (Enter|Enter With Arg|Exit|Tail Exit): #(\d+)", line)
        if m and cur and not skip:
            cur["recs"].append(("E" if m.group(1).startswith("Enter") else "X", int(m.group(2))))
    bufs.sort(key=lambda b: b["key"] or 0)
    want = defaultdict(list)
    for b in bufs:
        want[b["tid"]] += b["recs"]
    got = defaultdict(list)
    for r in ours(out):
        if r[1] in "EX":
            got[r[0][1]].append((r[1], r[2]))
    n = 0
    for t in sorted(set(want) | set(got)):
        a, b = want[t], got[t]
        if a != b:
            i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            return "thread %d record %d differs (dump %d records, ours %d): dump %s, ours %s" % (
                t, i, len(a), len(b), a[i:i + 1], b[i:i + 1])
        n += len(a)
    print("%d function records equal" % n)

def cmp_copy(orig, copy):
    a, b = per_thread(ours(orig)), per_thread(ours(copy))
    name = lambda f: f if f is None or isinstance(f, str) else "fn#%d" % f
    a = {t: [(k, name(f), ts, args) for k, f, ts, args in v] for t, v in a.items()}
    b = {t: [(k, name(f), ts, args) for k, f, ts, args in v] for t, v in b.items()}
    if a != b:
        t = next(t for t in sorted(set(a) | set(b)) if a.get(t) != b.get(t))
        x, y = a.get(t, []), b.get(t, [])
        i = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
        return "thread %s record %d: read %s, copy %s" % (t, i, x[i:i + 1], y[i:i + 1])
    print("%d records (functions with arguments, custom and typed events) equal" % sum(
        len(v) for v in a.values()))

def cmp_count(yml, out):
    n = sum(1 for l in open(yml) if "kind: function-" in l)
    m = sum(1 for r in ours(out) if r[1] in "EX")
    if n != m:
        return "llvm-xray convert: %d function records, ours %d" % (n, m)
    print("%d function records" % n)

sys.exit({"yaml": cmp_yaml, "fdr": cmp_dump, "copy": cmp_copy, "count": cmp_count}[sys.argv[1]](
    sys.argv[2], sys.argv[3]))
PY

logs=("$corpus"/*.xray)
echo "xray_corpus: ${#logs[@]} logs in $corpus"
for log in "${logs[@]}"; do
  name=$(basename "$log")
  if ! "$tool" print "$log" >"$WORK/out.txt" 2>"$WORK/err.txt"; then
    fail "$name: xray_tool print exits non-zero: $(head -1 "$WORK/err.txt")"
    continue
  fi
  pass "$name: reads"
  for mode in yaml fdr-dump; do
    ref="$log.$mode"
    [ "$mode" = fdr-dump ] && ref="$log.fdr-dump.txt"
    [ -f "$ref" ] || continue
    if msg=$(python3 "$WORK/compare.py" "${mode%-dump}" "$ref" "$WORK/out.txt" 2>&1); then
      pass "$name: equal to llvm-xray $mode ($msg)"
    else
      fail "$name: differs from llvm-xray $mode: $msg"
    fi
  done
  # --strict: a clean log passes; one that ends inside entries or records is refused
  # with an offset (strict refuses exactly what the liberal read warned about)
  if "$tool" print --strict "$log" >/dev/null 2>"$WORK/serr.txt"; then
    if [ -s "$WORK/err.txt" ]; then
      fail "$name: warned ($(head -1 "$WORK/err.txt")) but --strict accepts it"
    else
      pass "$name: --strict accepts it"
    fi
  elif grep -q "offset [0-9]*:.*(strict)" "$WORK/serr.txt" && [ -s "$WORK/err.txt" ]; then
    pass "$name: --strict refuses what the liberal read warned about"
  else
    fail "$name: --strict fails without an offset or a liberal warning: $(head -1 "$WORK/serr.txt")"
  fi

  # round trip through our writer
  copy="$WORK/copy.xray"
  if ! "$tool" copy "$log" "$copy" 2>"$WORK/err.txt"; then
    fail "$name: xray_tool copy fails: $(head -1 "$WORK/err.txt")"
    continue
  fi
  "$tool" print --instr-map="$copy.map" "$copy" >"$WORK/copy.txt" 2>/dev/null || true
  if msg=$(python3 "$WORK/compare.py" copy "$WORK/out.txt" "$WORK/copy.txt" 2>&1); then
    pass "$name: copied through our writer, reads back the same ($msg)"
  else
    fail "$name: copy through our writer differs: $msg"
  fi
  if command -v llvm-xray-14 >/dev/null; then
    if llvm-xray-14 convert --output-format=yaml "$copy" >"$WORK/copy.yaml" 2>"$WORK/err.txt" &&
      msg=$(python3 "$WORK/compare.py" count "$WORK/copy.yaml" "$WORK/copy.txt" 2>&1); then
      pass "$name: llvm-xray-14 convert reads our copy ($msg)"
    else
      fail "$name: llvm-xray-14 convert on our copy: $(head -1 "$WORK/err.txt") ${msg:-}"
    fi
  fi
done

bad="$corpus/wl_fdr_longsleep_REFERENCE-CONVERT-FAILS.xray"
if [ -f "$bad" ]; then
  "$tool" print "$bad" >"$WORK/out.txt" 2>"$WORK/err.txt" || true
  if grep -q "offset 5478: buffer ends inside a metadata record (8 of 16 bytes)" "$WORK/err.txt"; then
    pass "REFERENCE-CONVERT-FAILS: warns at the cut TSCWrap record (offset 5478)"
  else
    fail "REFERENCE-CONVERT-FAILS: no warning at offset 5478: $(head -2 "$WORK/err.txt")"
  fi
  if "$tool" print --strict "$bad" >/dev/null 2>"$WORK/err.txt"; then
    fail "REFERENCE-CONVERT-FAILS: --strict accepts it"
  elif grep -q "offset 5478:" "$WORK/err.txt"; then
    pass "REFERENCE-CONVERT-FAILS: --strict refuses it at offset 5478"
  else
    fail "REFERENCE-CONVERT-FAILS: --strict error without offset 5478: $(cat "$WORK/err.txt")"
  fi
else
  fail "the REFERENCE-CONVERT-FAILS log is missing from $corpus"
fi

it_finish
