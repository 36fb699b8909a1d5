/* Basic-mode ("naive") logs (type 0, versions 1 to 3): after the header,
 * 32-byte records, each with its own thread and absolute TSC:
 *   u16 record type (0 function, 1 argument payload), u8 cpu, u8 action,
 *   i32 function id, u64 tsc, u32 tid, u32 pid (v3), 8 bytes padding.
 * An argument payload: u16 type 1, 2 bytes unused, i32 function id, u32 tid,
 * u32 pid, u64 argument; it belongs to the function record before it. */
#include "xray_read_internal.h"

typedef struct basic_last {
    int valid;
    uint32_t fid;
    uint64_t tid, pid;
} basic_last;

static int payload(xr_reader *r, const uint8_t *p, size_t off, const basic_last *last)
{
    int be = r->h.big_endian;
    uint32_t fid = (uint32_t)xray_load(p + 4, 4, be);
    uint64_t tid = xray_load(p + 8, 4, be), pid = xray_load(p + 12, 4, be);
    if (!last->valid || last->fid != fid || last->tid != tid ||
        (r->h.version >= 3 && last->pid != pid))
        return xr_deviation(r, off, "argument payload of function %u does not follow its function "
                                    "record; ignored", fid);
    return xr_arg(r, xray_load(p + 16, 8, be), off);
}

static int function(xr_reader *r, const uint8_t *p, size_t off, basic_last *last)
{
    int be = r->h.big_endian;
    unsigned action = p[3];
    uint32_t fid = (uint32_t)xray_load(p + 4, 4, be);
    uint64_t tsc = xray_load(p + 8, 8, be);
    uint64_t tid = xray_load(p + 16, 4, be), pid = xray_load(p + 20, 4, be);
    if (action > XRAY_ENTRY_ARGS)
        return xr_fail(r, off, "unknown function record type %u", action);
    if (fid == 0) /* ids start at 1: a zeroed record, as in a sparse or wiped file */
        return xr_bad_record(r, off, "function id 0");
    if (fid > XRAY_MAX_FUNC_ID &&
        xr_deviation(r, off, "function id %u beyond 28 bits", fid) != 0)
        return -1;
    xr_thread *th = xr_thread_get(r, pid, tid);
    if (!th)
        return -1;
    *last = (basic_last){1, fid, tid, pid};
    if (action == XRAY_ENTRY || action == XRAY_ENTRY_ARGS)
        return xr_entry(r, th, fid, tsc, off);
    return xr_exit(r, th, fid, tsc, off);
}

int xr_read_basic(xr_reader *r)
{
    basic_last last = {0};
    size_t off = XRAY_HEADER_SIZE;
    for (; r->size - off >= XRAY_BASIC_RECORD_SIZE; off += XRAY_BASIC_RECORD_SIZE) {
        const uint8_t *p = xr_at(r, off, XRAY_BASIC_RECORD_SIZE);
        if (!p)
            return -1;
        unsigned type = (unsigned)xray_load(p, 2, r->h.big_endian);
        int rc;
        if (type == 0)
            rc = function(r, p, off, &last);
        else if (type == 1)
            rc = payload(r, p, off, &last);
        else
            rc = xr_fail(r, off, "unknown basic-mode record type %u", type);
        if (rc != 0)
            return -1;
    }
    if (off < r->size)
        return xr_deviation(r, off, "log ends inside a record (%zu of 32 bytes)", r->size - off);
    return 0;
}
