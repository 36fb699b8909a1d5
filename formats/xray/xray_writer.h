/* Writer of LLVM XRay FDR logs (version 5, little-endian) from the timeline
 * model, for llvm-xray (convert, account, graph, stack).
 *
 * Each distinct slice name gets a function id (1, 2, ... in order of first
 * use). GT_TL_COMPLETE becomes an entry and an exit, GT_TL_BEGIN/GT_TL_END an
 * entry and an exit of the innermost open slice; a per-thread stack emits the
 * exits of complete slices when the next event on the thread starts at or
 * after their end, so the records nest. Other event kinds carry nothing XRay
 * can show and are skipped, except instants: custom events (v5), whose payload is
 * the "data" string argument or else the name; an instant named
 * "xray_typed_event" with a U32 "type" argument is a typed event (the reader's
 * own mapping, so XRay logs survive a round trip). Integer arguments of a slice
 * (up to 64, in order) become CallArgument records of an entry with arguments.
 * The header says 1 GHz, so TSC = ns. Each thread fills buffers of at most GT_XRAY_BUFFER_SIZE bytes, each written as
 * BufferExtents NewBuffer WallClockTime PIDEntry NewCPUId records..., with
 * TSCWrap where a delta passes 32 bits. WallClockTime stamps are the timeline's
 * CLOCK_MONOTONIC anchor (as LLVM writes them), else its Unix one; without
 * either they are its own clock, which a reader then takes for an anchor. pid/tid beyond int32 (the GPU track)
 * get small synthetic ids counting down from 0x7fffffff.
 *
 * Refused (the writer is strict): negative timestamps or durations, events of
 * a thread out of time order, an unnamed END with nothing open (a named one
 * becomes an exit record without entry, as in logs whose first buffers were
 * lost). A timeline without slices gives one empty buffer of thread 0 (llvm-xray-14
 * refuses a log of a header alone). Slices still open at
 * finish are left without exit (as FDR allows); a complete slice that outlives
 * its enclosing slice is cut at the enclosing slice's end.
 *
 * Names for llvm-xray: finish also writes an instrumentation map next to the
 * log (PATH.map, or gt_xray_writer_set_map_path): a minimal x86-64 ELF whose
 * xray_instr_map section and symbol table give each id its slice name, for
 * `llvm-xray account|convert -instr_map=PATH.map -symbolize`. */
#ifndef XRAY_WRITER_H
#define XRAY_WRITER_H

#include "gt_timeline.h"

#define GT_XRAY_BUFFER_SIZE 65536

typedef struct gt_xray_writer gt_xray_writer;

gt_xray_writer *gt_xray_writer_open(const char *path, gt_error *err); /* "-" = stdout */
/* The map's path (a copy is kept); NULL writes no map. Default PATH.map, none for stdout. */
int gt_xray_writer_set_map_path(gt_xray_writer *w, const char *map_path);
gt_tl_sink gt_xray_writer_sink(gt_xray_writer *w);
void gt_xray_writer_free(gt_xray_writer *w);

/* Writes the instrumentation-map ELF for names[0..n-1] (function ids 1..n). */
int gt_xray_write_instrmap(const char *path, const char *const *names, uint32_t n, gt_error *err);

#endif
