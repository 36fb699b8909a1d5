/* Entry points of the XRay reader: the file header, loading the file, and the
 * dispatch to the FDR or basic-mode parser. */
#include "xray_read_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gt_input.h"

static int header_fields(const uint8_t *d, int be, gt_xray_header *h)
{
    h->version = (uint16_t)xray_load(d, 2, be);
    h->type = (uint16_t)xray_load(d + 2, 2, be);
    h->bitfield = (uint32_t)xray_load(d + 4, 4, be);
    h->cycle_frequency = xray_load(d + 8, 8, be);
    h->buffer_size = xray_load(d + 16, 8, be);
    h->big_endian = be;
    if (h->type == XRAY_TYPE_FDR)
        return h->version >= 1 && h->version <= XRAY_FDR_MAX_VERSION;
    if (h->type == XRAY_TYPE_BASIC)
        return h->version >= 1 && h->version <= XRAY_BASIC_MAX_VERSION;
    return 0;
}

int gt_xray_read_header(const uint8_t *data, size_t size, const char *name, gt_xray_header *h,
                        gt_error *err)
{
    if (size < XRAY_HEADER_SIZE) {
        gt_error_at(err, name, size, "not an XRay log: %zu bytes, shorter than the 32-byte header",
                    size);
        return -1;
    }
    /* Little-endian first, as llvm-xray tries it. */
    if (header_fields(data, 0, h) || header_fields(data, 1, h))
        return 0;
    header_fields(data, 0, h);
    if (h->type != XRAY_TYPE_FDR && h->type != XRAY_TYPE_BASIC)
        gt_error_at(err, name, 2, "not an XRay log: type %u (0 basic, 1 FDR)", h->type);
    else
        gt_error_at(err, name, 0, "unsupported XRay %s log version %u", h->type ? "FDR" : "basic",
                    h->version);
    return -1;
}

static int reader_init(xr_reader *r, const gt_tl_read_opts *opts)
{
    static const char *argn[XR_MAX_ARGS] = {"arg0", "arg1", "arg2", "arg3", "arg4", "arg5",
                                            "arg6", "arg7", "arg8", "arg9", "arg10", "arg11",
                                            "arg12", "arg13", "arg14", "arg15"};
    gt_timeline *tl = r->tl;
    r->s_cat = gt_tl_intern_cstr(tl, "xray");
    r->s_custom = gt_tl_intern_cstr(tl, "xray_custom_event");
    r->s_typed = gt_tl_intern_cstr(tl, "xray_typed_event");
    r->s_data = gt_tl_intern_cstr(tl, "data");
    r->s_type = gt_tl_intern_cstr(tl, "type");
    int bad = r->s_cat == (gt_tl_str)-1 || r->s_custom == (gt_tl_str)-1 ||
              r->s_typed == (gt_tl_str)-1 || r->s_data == (gt_tl_str)-1 ||
              r->s_type == (gt_tl_str)-1;
    for (int i = 0; i < XR_MAX_ARGS; i++) {
        r->s_arg[i] = gt_tl_intern_cstr(tl, argn[i]);
        bad |= r->s_arg[i] == (gt_tl_str)-1;
    }
    if (bad) {
        gt_error_set(r->err, "%s: out of memory", r->name);
        return -1;
    }
    if (opts->instr_map && !(r->map = gt_xray_instrmap_load(opts->instr_map, r->err)))
        return -1;
    return 0;
}

static void reader_free(xr_reader *r)
{
    gt_xray_instrmap_free(r->map);
    xray_map_free(&r->names);
    xray_map_free(&r->thread_ix);
    for (size_t i = 0; i < r->nthreads; i++)
        free(r->threads[i]);
    free(r->threads);
}

/* Entries still open at the end: the log stopped inside them (allowed by the
 * spec: buffers run out, the program finalizes early). They stay open. */
static int check_open(xr_reader *r)
{
    for (size_t i = 0; i < r->nthreads; i++) {
        xr_thread *t = r->threads[i];
        if (t->depth &&
            xr_deviation(r, r->size,
                         "thread %llu (pid %llu): %llu function entries never exited; left open",
                         (unsigned long long)t->tid, (unsigned long long)t->pid,
                         (unsigned long long)t->depth) != 0)
            return -1;
    }
    return 0;
}

/* Header checked, r->win/size/fd set: parses the records after it. */
static int read_log(xr_reader *r, const uint8_t *header)
{
    if (gt_xray_read_header(header, r->size, r->name, &r->h, r->err) != 0)
        return -1;
    int rc = reader_init(r, r->opts);
    if (rc == 0 && r->h.cycle_frequency == 0)
        rc = xr_deviation(r, 8, "cycle frequency 0: assuming 1 GHz");
    if (rc == 0)
        rc = r->h.type == XRAY_TYPE_FDR ? xr_read_fdr(r) : xr_read_basic(r);
    if (rc == 0)
        rc = xr_flush_pending(r);
    if (rc == 0)
        rc = check_open(r);
    /* a header and nothing usable after it: an error, not an empty timeline
     * (an empty log of LLVM's or ours still has its buffers' NewBuffer) */
    if (rc == 0 && r->nevents == 0 && r->nbuffers == 0 && r->size > XRAY_HEADER_SIZE)
        rc = xr_fail(r, XRAY_HEADER_SIZE, "no XRay records in the %zu bytes after the header",
                     r->size - XRAY_HEADER_SIZE);
    reader_free(r);
    return rc;
}

int gt_xray_read_mem(const uint8_t *data, size_t size, const char *name, gt_timeline *tl,
                     gt_tl_sink *sink, const gt_tl_read_opts *opts, gt_error *err)
{
    static const gt_tl_read_opts none;
    xr_reader r = {.win = data, .win_len = size, .size = size, .fd = -1,
                   .name = name ? name : "xray", .tl = tl, .sink = sink,
                   .opts = opts ? opts : &none, .err = err};
    return read_log(&r, data);
}

/* The file is read through a window (XR_WINDOW bytes, or the largest record),
 * and its header is checked before anything else is read: memory follows what
 * the timeline keeps, not the file's size. */
int gt_xray_read(const char *path, gt_timeline *tl, gt_tl_sink *sink, const gt_tl_read_opts *opts,
                 gt_error *err)
{
    static const gt_tl_read_opts none;
    uint64_t fsize;
    int fd = gt_input_open(path, &fsize, err);
    if (fd < 0)
        return -1;
    xr_reader r = {.size = fsize > SIZE_MAX ? SIZE_MAX : (size_t)fsize, .fd = fd, .name = path,
                   .tl = tl, .sink = sink, .opts = opts ? opts : &none, .err = err};
    uint8_t header[XRAY_HEADER_SIZE] = {0};
    const uint8_t *h = r.size >= XRAY_HEADER_SIZE ? xr_fetch(&r, 0, XRAY_HEADER_SIZE) : header;
    int rc = -1;
    if (h) {
        memcpy(header, h, XRAY_HEADER_SIZE);
        rc = read_log(&r, header);
    }
    free(r.buf);
    close(fd);
    return rc;
}
