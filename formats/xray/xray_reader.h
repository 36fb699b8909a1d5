/* Reader of LLVM XRay logs: flight-data-recorder mode (type 1, versions 1 to 5)
 * and basic mode (type 0, versions 1 to 3), either byte order, into the
 * timeline model.
 *
 * Mapping: a function entry is GT_TL_BEGIN and an exit or tail exit GT_TL_END
 * (named, cat "xray") on the track (pid, tid): tid from NewBuffer (FDR) or the
 * record (basic); pid from PIDEntry (FDR v3+), the thread id in v2 (as
 * llvm-xray does), else 0. Call arguments become U64 args "arg0".."argN" of the
 * BEGIN. Custom events are GT_TL_INSTANT "xray_custom_event" and typed events
 * "xray_typed_event" (arg "type"), each with the payload as STRING arg "data".
 * Names come from opts->instr_map (an instrumented ELF binary), else "fn#ID".
 * Timestamps are TSC * 1e9 / cycle frequency (exact, 128-bit), on the TSC's
 * own clock; only when the first TSC would take more than half of int64 (slow
 * clocks, as in LLVM's test logs) are times counted from that TSC. The first
 * buffer's WallClockTime, with the TSC of the NewCPUId after it, anchors the
 * clock: tl->wall_offset_ns when it is Unix time, else tl->mono_offset_ns (LLVM's
 * runtime writes CLOCK_MONOTONIC).
 *
 * Events are produced buffer by buffer, each buffer's records in order; v2+
 * buffers are taken in time order (the TSC of their NewCPUId), as a runtime
 * that recycles buffers writes a thread's later buffers first (llvm-xray sorts
 * them too); v1 buffers in file order. Liberal (warned through opts->warn): buffers
 * that end inside a record (the rest of the buffer is skipped), exits without
 * entries (still sent as END), entries never exited (left open, one warning per
 * thread), records out of LLVM's expected order, trailing bytes. opts->strict
 * refuses all of these. */
#ifndef XRAY_READER_H
#define XRAY_READER_H

#include <stddef.h>
#include <stdint.h>

#include "gt_timeline.h"

typedef struct gt_xray_header {
    uint16_t version;
    uint16_t type;          /* 0 basic, 1 FDR */
    uint32_t bitfield;      /* bit 0 constant TSC, bit 1 nonstop TSC */
    uint64_t cycle_frequency;
    uint64_t buffer_size;
    int big_endian;
} gt_xray_header;

/* Parses and checks the 32-byte header (type and version supported). */
int gt_xray_read_header(const uint8_t *data, size_t size, const char *name, gt_xray_header *h,
                        gt_error *err);

int gt_xray_read(const char *path, gt_timeline *tl, gt_tl_sink *sink, const gt_tl_read_opts *opts,
                 gt_error *err);
int gt_xray_read_mem(const uint8_t *data, size_t size, const char *name, gt_timeline *tl,
                     gt_tl_sink *sink, const gt_tl_read_opts *opts, gt_error *err);

#endif
