/* LLVM XRay log layouts shared by the reader and the writer: the 32-byte file
 * header, FDR function and metadata records (versions 1 to 5), basic-mode
 * records. The spec is ../shared/formats/xray-fdr-format.md (version 1); the
 * later kinds follow LLVM's llvm/lib/XRay (FDRRecordProducer, RecordInitializer). */
#ifndef XRAY_FORMAT_H
#define XRAY_FORMAT_H

#include <stdint.h>
#include <string.h>

#define XRAY_HEADER_SIZE 32
#define XRAY_FUNCTION_SIZE 8
#define XRAY_METADATA_SIZE 16
#define XRAY_BASIC_RECORD_SIZE 32

enum xray_log_type { XRAY_TYPE_BASIC = 0, XRAY_TYPE_FDR = 1 };

#define XRAY_FDR_MAX_VERSION 5
#define XRAY_BASIC_MAX_VERSION 3

/* header bitfield */
#define XRAY_CONSTANT_TSC 0x1u
#define XRAY_NONSTOP_TSC 0x2u

enum xray_action { XRAY_ENTRY = 0, XRAY_EXIT = 1, XRAY_TAIL_EXIT = 2, XRAY_ENTRY_ARGS = 3 };

enum xray_meta_kind {
    XRAY_M_NEW_BUFFER = 0,
    XRAY_M_END_OF_BUFFER = 1,
    XRAY_M_NEW_CPU_ID = 2,
    XRAY_M_TSC_WRAP = 3,
    XRAY_M_WALLCLOCK = 4,
    XRAY_M_CUSTOM_EVENT = 5,
    XRAY_M_CALL_ARGUMENT = 6,
    XRAY_M_BUFFER_EXTENTS = 7,
    XRAY_M_TYPED_EVENT = 8,
    XRAY_M_PID = 9,
    XRAY_M_KIND_COUNT
};

#define XRAY_MAX_FUNC_ID 0x0fffffffu

/* Byte-order-aware loads and stores; be = big-endian. */
static inline uint64_t xray_load(const uint8_t *p, unsigned n, int be)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
    return v;
}

static inline void xray_store_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The first byte of a record: metadata or function. Little-endian writers put
 * the discriminant in bit 0, big-endian ones in bit 7 (the spec's bitfields). */
static inline int xray_is_metadata(uint8_t b, int be) { return be ? (b >> 7) & 1 : b & 1; }
static inline unsigned xray_meta_kind(uint8_t b, int be) { return be ? b & 0x7fu : b >> 1; }

/* The first 32 bits of a function record: action and function id. */
static inline unsigned xray_fn_action(uint32_t w, int be) { return be ? (w >> 28) & 7u : (w >> 1) & 7u; }
static inline uint32_t xray_fn_id(uint32_t w, int be) { return be ? w & XRAY_MAX_FUNC_ID : w >> 4; }

#endif
