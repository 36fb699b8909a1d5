#!/usr/bin/env bash
# bench_snapshot: what frame ranges cost and save (gltrace --frames). A benchmark, run by
# hand on an idle machine, never a test (see README.md).
#   usage: bench_snapshot.sh BUILD_DIR [MIB] [RUNS]
# Prints, medians of RUNS runs (default 3):
#   - the state snapshot of snapshot_textures_app --mib=MIB (default 256 MiB of textures
#     more): the time it takes (what the recorder says), the range trace's size against
#     the full recording's of the same frames, and the program's peak memory;
#   - heavy_app (about 7,000 calls a frame, two threads) frames 1000-1009: the range
#     trace's size and the run's wall time against a full recording of frames 0-1009 and
#     an untraced run;
#   - the recorder's cost per call while paused before a range (bench_calls' mix of
#     calls, no driver): ns a call over the untraced loop.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/bench/bench_lib.sh
. "$here/bench_lib.sh"
build=$(cd "${1:?usage: bench_snapshot.sh BUILD_DIR [MIB] [RUNS]}" && pwd)
mib=${2:-256}
runs=${3:-3}
bin=$build/bin
lib=$build/lib/libgltrace.so
bench_workdir bench_snapshot
bench_xvfb bench_snapshot 1024x768x24
cd "$work"

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
now() { date +%s.%N; }

# ---- a snapshot of MIB MiB of textures -----------------------------------------------
app=("$bin/snapshot_textures_app" "--mib=$mib" --frames 6)
snap_s=() range_b=() full_b=() rss_range=() rss_plain=()
for ((r = 0; r < runs; r++)); do
  rm -f t.*
  /usr/bin/time -f %M -o rss.txt "$bin/gltrace" --backtrace=none -o t.trace --frames=3-4 \
    -- "${app[@]}" >/dev/null 2>range.log
  snap_s+=("$(sed -n 's/.*state snapshot written in \([0-9.]*\) s/\1/p' range.log)")
  range_b+=("$(stat -c %s t.3-4.trace)")
  rss_range+=("$(cat rss.txt)")
  "$bin/gltrace" --backtrace=none -o full.trace -- "${app[@]}" --frames 5 >/dev/null 2>&1
  full_b+=("$(stat -c %s full.trace)")
  /usr/bin/time -f %M -o rss.txt "${app[@]}" >/dev/null 2>&1
  rss_plain+=("$(cat rss.txt)")
done
echo "snapshot of ${mib} MiB of textures more (snapshot_textures_app, frames 3-4):" \
  "$(printf '%s\n' "${snap_s[@]}" | median) s;" \
  "range trace $(printf '%s\n' "${range_b[@]}" | median) bytes," \
  "full recording of frames 0-4 $(printf '%s\n' "${full_b[@]}" | median) bytes;" \
  "peak RSS $(printf '%s\n' "${rss_range[@]}" | median) KiB recording the range," \
  "$(printf '%s\n' "${rss_plain[@]}" | median) KiB untraced"

# ---- frames 1000-1009 of heavy_app ---------------------------------------------------------
w_range=() w_full=() w_plain=() b_range=() b_full=()
for ((r = 0; r < runs; r++)); do
  rm -f g.*
  t0=$(now)
  "$bin/gltrace" --backtrace=none -o g.trace --frames=1000-1009 --quit-after -- \
    "$bin/heavy_app" --frames 1010 >/dev/null 2>&1
  t1=$(now)
  "$bin/gltrace" --backtrace=none -o g.full.trace -- "$bin/heavy_app" --frames 1010 \
    >/dev/null 2>&1
  t2=$(now)
  "$bin/heavy_app" --frames 1010 >/dev/null 2>&1
  t3=$(now)
  w_range+=("$(echo "$t1 - $t0" | bc)") w_full+=("$(echo "$t2 - $t1" | bc)")
  w_plain+=("$(echo "$t3 - $t2" | bc)")
  b_range+=("$(stat -c %s g.1000-1009.trace)") b_full+=("$(stat -c %s g.full.trace)")
done
echo "heavy_app frames 1000-1009: range trace $(printf '%s\n' "${b_range[@]}" | median) bytes" \
  "in $(printf '%s\n' "${w_range[@]}" | median) s; full recording of frames 0-1009" \
  "$(printf '%s\n' "${b_full[@]}" | median) bytes in $(printf '%s\n' "${w_full[@]}" | median) s;" \
  "untraced $(printf '%s\n' "${w_plain[@]}" | median) s"

# ---- paused before a range: the cost per call ------------------------------------------
paused=() plain=()
for ((r = 0; r < runs; r++)); do
  paused+=("$(GLTRACE_OUTPUT="$work/p.trace" GLTRACE_FRAMES=1000000-1000001 \
    LD_PRELOAD="$lib" "$bin/bench_calls" 4000000 | awk '{ print $8 }')")
  plain+=("$("$bin/bench_calls" 4000000 | awk '{ print $8 }')")
done
p=$(printf '%s\n' "${paused[@]}" | median)
u=$(printf '%s\n' "${plain[@]}" | median)
echo "paused before a range (bench_calls, 4 M calls): $p ns a call, untraced $u:" \
  "$(echo "$p - $u" | bc) ns over"
