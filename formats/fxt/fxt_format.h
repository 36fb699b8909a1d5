/* Fuchsia trace format (FXT) constants shared by the writer and the reader:
 * record, event and argument types, field positions, limits
 * (../shared/formats/fuchsia-trace-format.md), and the gltrace conventions
 * for timeline-model kinds FXT has no record for. */
#ifndef FXT_FORMAT_H
#define FXT_FORMAT_H

#include <stdint.h>

/* ---- records ---- */
enum {
    FXT_REC_METADATA = 0,
    FXT_REC_INIT = 1,
    FXT_REC_STRING = 2,
    FXT_REC_THREAD = 3,
    FXT_REC_EVENT = 4,
    FXT_REC_BLOB = 5,
    FXT_REC_USEROBJ = 6,
    FXT_REC_KOBJ = 7,
    FXT_REC_CSWITCH = 8,
    FXT_REC_LOG = 9,
    FXT_REC_LARGE = 15,
};

enum { /* metadata record subtypes */
    FXT_META_PROVIDER_INFO = 1,
    FXT_META_PROVIDER_SECTION = 2,
    FXT_META_PROVIDER_EVENT = 3,
    FXT_META_TRACE_INFO = 4,
};

/* The magic number record as one little-endian word. */
#define FXT_MAGIC_WORD 0x0016547846040010ull

enum { /* event record subtypes */
    FXT_EV_INSTANT = 0,
    FXT_EV_COUNTER = 1,
    FXT_EV_BEGIN = 2,
    FXT_EV_END = 3,
    FXT_EV_COMPLETE = 4,
    FXT_EV_ASYNC_BEGIN = 5,
    FXT_EV_ASYNC_INSTANT = 6,
    FXT_EV_ASYNC_END = 7,
    FXT_EV_FLOW_BEGIN = 8,
    FXT_EV_FLOW_STEP = 9,
    FXT_EV_FLOW_END = 10,
    FXT_EV_COUNT = 11,
};

/* Argument types. Boolean (9: value in bit 32, bits 33..63 reserved) is the
 * later Fuchsia addition, written as the upstream spec defines it. */
enum {
    FXT_ARG_NULL = 0,
    FXT_ARG_I32 = 1,
    FXT_ARG_U32 = 2,
    FXT_ARG_I64 = 3,
    FXT_ARG_U64 = 4,
    FXT_ARG_DOUBLE = 5,
    FXT_ARG_STRING = 6,
    FXT_ARG_POINTER = 7,
    FXT_ARG_KOID = 8,
    FXT_ARG_BOOL = 9,
};

/* ZX_OBJ_TYPE_* values of the kernel objects we name. */
enum { FXT_KOBJ_PROCESS = 1, FXT_KOBJ_THREAD = 2 };

/* ---- limits ---- */
#define FXT_MAX_RECORD_WORDS 4095u  /* 12-bit size field */
#define FXT_MAX_STRING_INDEX 0x7fffu /* string table: 1..32767 */
#define FXT_MAX_THREAD_INDEX 0xffu  /* thread table: 1..255 */
#define FXT_MAX_STRING_LEN 32000u   /* the spec's conservative limit */
#define FXT_MAX_ARGS 15u
#define FXT_STRREF_INLINE 0x8000u   /* string ref: inline, low 15 bits = length */

/* ---- header field helpers ---- */
static inline uint64_t fxt_field(uint64_t w, unsigned lo, unsigned bits)
{
    return (w >> lo) & ((bits >= 64 ? 0 : (1ull << bits)) - 1);
}
#define FXT_HDR_TYPE(w) ((unsigned)((w)&0xf))
#define FXT_HDR_SIZE(w) ((unsigned)(((w) >> 4) & 0xfff))
#define FXT_WORDS(nbytes) (((uint64_t)(nbytes) + 7) / 8)

/* ---- gltrace conventions for model kinds FXT lacks ----------------------------
 * They travel as FXT instant events (or as extra arguments on an event) whose
 * trailing arguments carry a marker, so our reader restores the kind exactly:
 *
 *  GT_TL_OBJECT       instant, args..., "chrome.ph" = "N" | "O" | "D" (the
 *                     model's scope byte), "chrome.id" = uint64 id
 *  GT_TL_SAMPLE       instant, args..., "chrome.ph" = "P"
 *  GT_TL_STACK_FRAME  instant at ts 0 on thread (0, 0), cat = module,
 *                     name = function, "chrome.ph" = "F", "chrome.id" = frame id
 *                     (uint64), "chrome.parent" = parent frame id (uint64)
 *  INSTANT scope      "chrome.s" = "p" (process) or "g" (global) last;
 *                     none for thread scope (FXT's own meaning)
 *  event stack        any event with a backtrace ends with
 *                     "chrome.stack" = uint32 frame id
 *
 *  clock anchors      (the timeline's wall_offset_ns: ts + offset = ns since
 *                     the Unix epoch; mono_offset_ns: ts + offset = the
 *                     recording machine's CLOCK_MONOTONIC) an instant at ts 0
 *                     on thread (0, 0) without category or name whose only
 *                     arguments are "gltrace.wall_offset_ns" and/or
 *                     "gltrace.mono_offset_ns" = int64; written once, when the
 *                     writer first sees an anchor; the reader takes them into
 *                     the timeline context instead of emitting an event
 *
 * The reader removes these arguments when their types and values are the
 * ones above; otherwise they stay ordinary arguments. */
#define FXT_MARK_PH "chrome.ph"
#define FXT_MARK_ID "chrome.id"
#define FXT_MARK_PARENT "chrome.parent"
#define FXT_MARK_SCOPE "chrome.s"
#define FXT_MARK_STACK "chrome.stack"
#define FXT_MARK_WALL "gltrace.wall_offset_ns"
#define FXT_MARK_MONO "gltrace.mono_offset_ns"
/* The kernel-object argument naming a thread's process (spec convention). */
#define FXT_KOBJ_ARG_PROCESS "process"

#endif
