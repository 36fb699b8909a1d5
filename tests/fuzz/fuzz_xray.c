/* libFuzzer target: any bytes as an XRay log (FDR or basic mode), read liberally
 * and strictly into a buffer sink and through the XRay writer, as an
 * instrumentation-map ELF, and as a list of slice events for the writer. Nothing may crash, leak, hang or allocate far beyond
 * the input's size, whatever the bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "xray_instrmap.h"
#include "xray_reader.h"
#include "xray_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore(void *ctx, const char *msg)
{
    (void)ctx;
    (void)msg;
}

/* Reads the log; what a liberal read yields is then written as XRay (to
 * /dev/null): the writer must take any timeline the reader produces. */
static void read_log(const uint8_t *data, size_t size, bool strict)
{
    gt_timeline tl;
    if (gt_timeline_init(&tl) != 0)
        return;
    gt_tl_buffer buf;
    gt_tl_buffer_init(&buf);
    gt_tl_sink s = gt_tl_buffer_sink(&buf);
    gt_tl_read_opts o = {.strict = strict, .warn = ignore};
    gt_error err;
    gt_error_clear(&err);
    int rc = gt_xray_read_mem(data, size, "fuzz.xray", &tl, &s, &o, &err);
    if (rc == 0 && !strict) {
        gt_xray_writer *w = gt_xray_writer_open("/dev/null", &err);
        if (w) {
            gt_xray_writer_set_map_path(w, NULL);
            gt_tl_sink ws = gt_xray_writer_sink(w);
            if (gt_tl_buffer_replay(&buf, &tl, &ws, &err) == 0)
                gt_tl_finish(&ws, &tl, &err);
            gt_xray_writer_free(w);
        }
    }
    gt_tl_buffer_free(&buf);
    gt_timeline_free(&tl);
}

/* Every 4 bytes one event for the writer: kind, thread, time step, duration
 * (and name) from the bytes, so nesting, order and overlap are arbitrary. */
static void write_events(const uint8_t *data, size_t size)
{
    static const gt_tl_kind kinds[4] = {GT_TL_COMPLETE, GT_TL_BEGIN, GT_TL_END, GT_TL_INSTANT};
    static const char *names[4] = {"a", "b", "c", ""};
    gt_timeline tl;
    if (gt_timeline_init(&tl) != 0)
        return;
    gt_error err;
    gt_error_clear(&err);
    gt_xray_writer *w = gt_xray_writer_open("/dev/null", &err);
    if (w) {
        gt_xray_writer_set_map_path(w, NULL);
        gt_tl_sink s = gt_xray_writer_sink(w);
        int64_t ts = 0;
        for (size_t i = 0; i + 4 <= size; i += 4) {
            const uint8_t *p = data + i;
            ts += (int64_t)p[1] << (p[0] >> 5 & 7) * 4; /* steps up to 2^36 ns: TSC wraps */
            if (p[0] & 0x10)
                ts -= p[1]; /* sometimes back in time */
            gt_tl_event ev = {.kind = kinds[p[0] & 3], .ts = ts, .dur = p[2] * 7, .pid = 1,
                              .tid = p[3] & 3, .name = gt_tl_intern_cstr(&tl, names[p[3] >> 6])};
            gt_error_clear(&err);
            (void)gt_tl_emit(&s, &tl, &ev, &err);
        }
        gt_tl_finish(&s, &tl, &err);
        gt_xray_writer_free(w);
    }
    gt_timeline_free(&tl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    write_events(data, size);
    read_log(data, size, false);
    read_log(data, size, true);
    gt_error err;
    gt_error_clear(&err);
    gt_xray_instrmap *m = gt_xray_instrmap_load_mem(data, size, "fuzz.map", &err);
    if (m) {
        for (uint32_t id = 0; id <= gt_xray_instrmap_count(m) + 1; id++)
            (void)gt_xray_instrmap_name(m, id);
        gt_xray_instrmap_free(m);
    }
    return 0;
}
