#!/usr/bin/env bash
# xray_llvm: formats/xray against llvm-xray-14 and a real XRay-instrumented program.
#   usage: xray_llvm.sh BIN_DIR
# 1. Logs we write (xray_tool demo: two threads of nested complete slices and
#    BEGIN/END pairs, a gap past 2^32 ticks) are read by llvm-xray-14 convert (every
#    record: 1000, per-function count and summed duration, pairing entries and exits per
#    thread) and llvm-xray-14 account (count and sum per function, by the names of our
#    instrumentation map OUT.xray.map) equal to what we wrote, within one tick per call;
#    our --strict reader reads the log back with the map's names.
# 2. tests/apps/xray_funcs.c built with clang -fxray-instrument (PIE and -no-pie): our
#    instrumentation map (ids, function addresses, names) equals llvm-xray-14 extract's;
#    its FDR log read with --strict --instr-map names every record as llvm-xray-14
#    convert -symbolize does, with the same kinds, TSCs and arguments.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/integration/lib.sh
. "$here/lib.sh"
it_init xray_llvm

[ $# -eq 1 ] || die "usage: $0 BIN_DIR"
tool="$1/xray_tool"
require_file "$tool" "build xray_tool first"
require_tool python3 llvm-xray-14 clang-14
xray=llvm-xray-14

cat >"$WORK/check.py" <<'PY'
import csv, re, sys
from collections import defaultdict

def yaml_records(path):
    recs = []
    for line in open(path):
        if not line.lstrip().startswith("- {"):
            continue
        f = dict(re.findall(r"([a-z-]+): ('[^']*'|\[[^\]]*\]|[^,}]+)", line))
        recs.append({k: v.strip().strip("'") for k, v in f.items()})
    return recs

def durations(recs):
    """count and summed duration per function, pairing entries and exits per thread"""
    stacks, count, total = defaultdict(list), defaultdict(int), defaultdict(int)
    for r in recs:
        t = (r["process"], r["thread"])
        if r["kind"].startswith("function-enter"):
            stacks[t].append((r["function"], int(r["tsc"])))
        elif stacks[t]:
            f, ts = stacks[t].pop()
            if f != r["function"]:
                sys.exit("exit of %s while %s is open" % (r["function"], f))
            count[f] += 1
            total[f] += int(r["tsc"]) - ts
    return count, total

def expected(path):
    return {l.split()[0]: (int(l.split()[1]), int(l.split()[2])) for l in open(path)}

def check_convert(exp, yml):
    exp, recs = expected(exp), yaml_records(yml)
    want = sum(2 * c for c, _ in exp.values())
    if len(recs) != want:
        sys.exit("llvm-xray convert: %d records, we wrote %d" % (len(recs), want))
    count, total = durations(recs)
    for f, (c, s) in exp.items():
        if count[f] != c or abs(total[f] - s) > c:
            sys.exit("llvm-xray convert: %s: %d calls, %d ns; we wrote %d, %d" % (f, count[f], total[f], c, s))
    print("%d records, %d functions: counts and durations equal" % (len(recs), len(exp)))

def check_account(exp, csvf):
    exp, rows = expected(exp), list(csv.DictReader(open(csvf)))
    got = {r["function"]: (int(r["count"]), float(r["sum"]) * 1e9) for r in rows}
    for f, (c, s) in exp.items():
        if f not in got or got[f][0] != c or abs(got[f][1] - s) > c + 1e-6 * s:
            sys.exit("llvm-xray account: %s: %s; we wrote %d calls, %d ns" % (f, got.get(f), c, s))
    if len(got) != len(exp):
        sys.exit("llvm-xray account: functions %s, we wrote %s" % (sorted(got), sorted(exp)))
    print("%d functions: counts and sums equal" % len(exp))

def check_ours(exp, txt):
    exp, n = expected(exp), defaultdict(int)
    for line in open(txt):
        f = line.split("\t")
        if f[0] == "end":
            n[f[6]] += 1
    if {k: v[0] for k, v in exp.items()} != dict(n):
        sys.exit("our reader: exits per name %s, we wrote %s" % (dict(n), exp))
    print("names and counts equal")

def check_extract(ext, ids):
    want = {}
    for r in yaml_records(ext):
        want[int(r["id"])] = (int(r["function"], 16), r.get("function-name", ""))
    got = {}
    for line in open(ids):
        i, a, n = line.rstrip("\n").split("\t")
        got[int(i)] = (int(a, 16), n)
    if want != got:
        sys.exit("ids differ: llvm-xray extract %s, ours %s" % (sorted(want.items()), sorted(got.items())))
    print("%d function ids equal" % len(got))

def check_log(yml, txt):
    want = [(r["kind"].startswith("function-enter"), r["function"], int(r["tsc"]),
             r.get("args", "[]").strip("[] ")) for r in yaml_records(yml)]
    got = []
    for line in open(txt):
        f = line.rstrip("\n").split("\t")
        if f[0] in ("begin", "end"):
            args = ", ".join(re.findall(r"arg\d+=(\d+)", f[9]))
            got.append((f[0] == "begin", f[6], int(f[1]), args))
    if want != got:
        i = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
        sys.exit("record %d: llvm-xray %s, ours %s (%d, %d records)" % (i, want[i:i+1], got[i:i+1], len(want), len(got)))
    print("%d records equal (names, kinds, TSCs, arguments)" % len(got))

globals()["check_" + sys.argv[1]](*sys.argv[2:])
PY

check() { # check NAME WHAT ARGS...: runs check.py WHAT ARGS, pass/fail as NAME
  local name=$1
  shift
  if msg=$(python3 "$WORK/check.py" "$@" 2>&1); then pass "$name ($msg)"; else fail "$name: $msg"; fi
}

# 1. our writer against llvm-xray
log="$WORK/demo.xray"
if "$tool" demo "$log" >"$WORK/expected.txt" 2>"$WORK/err.txt" && [ -s "$log.map" ]; then
  pass "xray_tool demo writes $log and $log.map"
  if $xray convert --output-format=yaml "$log" >"$WORK/demo.yaml" 2>"$WORK/err.txt"; then
    pass "llvm-xray convert reads our log"
  else
    fail "llvm-xray convert refuses our log: $(head -2 "$WORK/err.txt")"
  fi
  if $xray convert -symbolize -instr_map="$log.map" --output-format=yaml "$log" >"$WORK/sym.yaml" 2>"$WORK/err.txt"; then
    check "llvm-xray convert -symbolize with our map" convert "$WORK/expected.txt" "$WORK/sym.yaml"
  else
    fail "llvm-xray convert -symbolize refuses our log or map: $(head -2 "$WORK/err.txt")"
  fi
  if $xray account -instr_map="$log.map" -format=csv "$log" >"$WORK/account.csv" 2>"$WORK/err.txt"; then
    check "llvm-xray account with our map" account "$WORK/expected.txt" "$WORK/account.csv"
  else
    fail "llvm-xray account refuses our log or map: $(head -2 "$WORK/err.txt")"
  fi
  if "$tool" print --strict --instr-map="$log.map" "$log" >"$WORK/ours.txt" 2>"$WORK/err.txt"; then
    check "our strict reader reads our log with our map" ours "$WORK/expected.txt" "$WORK/ours.txt"
  else
    fail "our strict reader refuses our log: $(head -2 "$WORK/err.txt")"
  fi
else
  fail "xray_tool demo fails: $(head -2 "$WORK/err.txt")"
fi

# 2. a real instrumented program
for pie in pie no-pie; do
  bin="$WORK/xray_funcs-$pie"
  if ! clang-14 -O1 -"$pie" -fxray-instrument "$here/../apps/xray_funcs.c" -o "$bin" 2>"$WORK/err.txt"; then
    fail "clang-14 -fxray-instrument ($pie) fails: $(head -2 "$WORK/err.txt")"
    continue
  fi
  $xray extract -symbolize "$bin" >"$WORK/extract.yaml"
  if "$tool" ids "$bin" >"$WORK/ids.txt" 2>"$WORK/err.txt"; then
    check "$pie: our instrumentation map equals llvm-xray extract" extract "$WORK/extract.yaml" "$WORK/ids.txt"
  else
    fail "$pie: our instrumentation map fails: $(head -2 "$WORK/err.txt")"
  fi
  rm -f "$WORK"/xf-*
  XRAY_OPTIONS="xray_logfile_base=$WORK/xf-" "$bin" 30 >/dev/null 2>"$WORK/err.txt" || true
  flog=$(ls "$WORK"/xf-* 2>/dev/null | head -1)
  if [ -z "$flog" ]; then
    fail "$pie: xray_funcs wrote no FDR log: $(head -2 "$WORK/err.txt")"
    continue
  fi
  $xray convert -symbolize -instr_map="$bin" --output-format=yaml "$flog" >"$WORK/flog.yaml"
  if "$tool" print --strict --instr-map="$bin" "$flog" >"$WORK/flog.txt" 2>"$WORK/err.txt"; then
    check "$pie: its FDR log reads as llvm-xray convert -symbolize reads it" log "$WORK/flog.yaml" "$WORK/flog.txt"
  else
    fail "$pie: our strict reader refuses the runtime's log: $(head -2 "$WORK/err.txt")"
  fi
done

it_finish
