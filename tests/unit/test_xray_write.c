/* formats/xray: instrumentation maps (a header over zeros refused, maps written and
 * read back) and writer -> reader round trips; run by test_xray.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_xray.h"
#include "xray_format.h"
#include "xray_instrmap.h"
#include "xray_reader.h"
#include "xray_writer.h"

/* ---- instrumentation maps ---------------------------------------------------------------- */
static char *tmp_path(const char *suffix)
{
    const char *dir = getenv("TMPDIR");
    char *p = malloc(512);
    assert_non_null(p);
    snprintf(p, 512, "%s/test_xray_%d%s", dir ? dir : "/tmp", (int)getpid(), suffix);
    return p;
}

/* A valid header over zeros (a sparse or wiped file) or nothing usable: an
 * error at once, from memory and from a file read through the reader's
 * window, never an empty timeline. 16 MiB of zeros stands for gigabytes. */
void header_over_zeros(void **state)
{
    (void)state;
    static const struct { unsigned version, type; const char *needle; } kinds[] = {
        {5, 1, "no BufferExtents record"}, {2, 1, "no BufferExtents record"},
        {1, 1, "records in a row skipped"}, {2, 0, "records in a row skipped"},
        {3, 0, "records in a row skipped"}};
    size_t n = 16u << 20;
    uint8_t *d = calloc(1, n);
    assert_non_null(d);
    char *path = tmp_path("_zeros.xray");
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        lb h = {0};
        lb_header(&h, kinds[k].version, kinds[k].type, 1000000000, 4096);
        memcpy(d, h.d, h.n);
        result *r = read_log(d, n, false, NULL);
        assert_int_equal(r->rc, -1);
        print_message("%s\n", r->err.msg);
        assert_non_null(strstr(r->err.msg, kinds[k].needle));
        free_result(r);
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(d, 1, n, f), n);
        fclose(f);
        gt_timeline tl;
        gt_timeline_init(&tl);
        gt_tl_buffer buf;
        gt_tl_buffer_init(&buf);
        gt_tl_sink s = gt_tl_buffer_sink(&buf);
        gt_tl_read_opts o = {0};
        gt_error err;
        gt_error_clear(&err);
        assert_int_equal(gt_xray_read(path, &tl, &s, &o, &err), -1);
        assert_non_null(strstr(err.msg, kinds[k].needle));
        assert_non_null(strstr(err.msg, ": offset "));
        gt_tl_buffer_free(&buf);
        gt_timeline_free(&tl);
    }
    /* a few bytes after the header that hold no record: also an error */
    lb b = {0};
    lb_header(&b, 5, 1, 1000000000, 4096);
    lb_put(&b, 0, 8);
    result *r = read_log(b.d, b.n, false, NULL);
    assert_int_equal(r->rc, -1);
    assert_non_null(strstr(r->err.msg, "no XRay records"));
    free_result(r);
    unlink(path);
    free(path);
    free(d);
}

void instrmap_written_and_read(void **state)
{
    (void)state;
    const char *names[] = {"glClear", "glDrawArrays", "glXSwapBuffers"};
    char *path = tmp_path(".map");
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_xray_write_instrmap(path, names, 3, &err), 0);
    gt_xray_instrmap *m = gt_xray_instrmap_load(path, &err);
    assert_non_null(m);
    assert_int_equal(gt_xray_instrmap_count(m), 3);
    for (uint32_t i = 1; i <= 3; i++)
        assert_string_equal(gt_xray_instrmap_name(m, i), names[i - 1]);
    assert_null(gt_xray_instrmap_name(m, 4));
    assert_int_equal(gt_xray_instrmap_addr(m, 2), 0x401010);
    gt_xray_instrmap_free(m);
    /* every truncation of the map: an error or a map, never a crash */
    FILE *f = fopen(path, "rb");
    uint8_t img[4096];
    size_t n = fread(img, 1, sizeof img, f);
    fclose(f);
    for (size_t cut = 0; cut < n; cut++) {
        gt_error_clear(&err);
        m = gt_xray_instrmap_load_mem(img, cut, "cut.map", &err);
        assert_true(m != NULL || err.set);
        gt_xray_instrmap_free(m);
    }
    gt_error_clear(&err);
    assert_null(gt_xray_instrmap_load_mem((const uint8_t *)"\x7f" "ELF", 4, "x", &err));
    assert_non_null(strstr(err.msg, "not an ELF file"));
    unlink(path);
    free(path);
}

/* ---- writer ------------------------------------------------------------------------------ */
static void emit(gt_tl_sink *s, gt_timeline *tl, gt_tl_kind kind, int64_t ts, int64_t dur,
                 uint64_t tid, const char *name, int rc_expected)
{
    gt_error err;
    gt_error_clear(&err);
    gt_tl_event ev = {.kind = kind, .ts = ts, .dur = dur, .pid = 5, .tid = tid,
                      .name = name ? gt_tl_intern_cstr(tl, name) : 0};
    assert_int_equal(gt_tl_emit(s, tl, &ev, &err), rc_expected);
}

void writer_round_trip(void **state)
{
    (void)state;
    char *path = tmp_path(".xray");
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_timeline_init(&tl), 0);
    tl.has_mono = true; /* written as the WallClockTime stamps, read back as the anchor */
    tl.mono_offset_ns = 123456789900;
    gt_xray_writer *w = gt_xray_writer_open(path, &err);
    assert_non_null(w);
    gt_tl_sink s = gt_xray_writer_sink(w);
    {
        gt_tl_arg args[3] = {
            {.name = gt_tl_intern_cstr(&tl, "n"), .kind = GT_TL_ARG_I64, .v.i = -5},
            {.name = gt_tl_intern_cstr(&tl, "s"), .kind = GT_TL_ARG_STRING, .v.s = {"x", 1}},
            {.name = gt_tl_intern_cstr(&tl, "p"), .kind = GT_TL_ARG_POINTER, .v.u = 0xdead},
        };
        gt_tl_event ev = {.kind = GT_TL_COMPLETE, .ts = 100, .dur = 50, .pid = 5, .tid = 1,
                          .name = gt_tl_intern_cstr(&tl, "frame"), .nargs = 3, .args = args};
        assert_int_equal(gt_tl_emit(&s, &tl, &ev, &err), 0);
    }
    emit(&s, &tl, GT_TL_COMPLETE, 110, 10, 1, "glClear", 0);
    emit(&s, &tl, GT_TL_COMPLETE, 120, 0, 1, "glFlush", 0);      /* zero length */
    emit(&s, &tl, GT_TL_BEGIN, 130, 0, 1, "swap", 0);
    emit(&s, &tl, GT_TL_COMPLETE, 131, 100, 1, "inner", 0);      /* outlives swap: cut */
    emit(&s, &tl, GT_TL_END, 140, 0, 1, NULL, 0);
    emit(&s, &tl, GT_TL_COMPLETE, 200, 5, 0x6770750000000001ull, "gpu", 0); /* synthetic tid */
    emit(&s, &tl, GT_TL_COMPLETE, 5000000200ll, 7, 1, "glClear", 0); /* past 2^32 ns: TSCWrap */
    emit(&s, &tl, GT_TL_INSTANT, 5000000300ll, 0, 1, "marker", 0); /* a custom event */
    emit(&s, &tl, GT_TL_COUNTER, 5000000300ll, 0, 1, "ignored", 0);
    emit(&s, &tl, GT_TL_COMPLETE, 100, 1, 1, "late", -1);        /* out of order */
    emit(&s, &tl, GT_TL_END, 5000000300ll, 0, 2, NULL, -1);      /* nothing open, no name */
    emit(&s, &tl, GT_TL_COMPLETE, -1, 1, 3, "neg", -1);
    assert_int_equal(gt_tl_finish(&s, &tl, &err), 0);
    gt_xray_writer_free(w);

    char *map = tmp_path(".xray.map");
    result *r;
    {
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        static uint8_t d[1 << 16];
        size_t n = fread(d, 1, sizeof d, f);
        fclose(f);
        /* the header llvm-xray needs: v5 FDR, 1 GHz; a TSCWrap record somewhere */
        assert_int_equal(d[0], 5);
        assert_int_equal(d[2], 1);
        assert_int_equal(xray_load(d + 8, 8, 0), 1000000000);
        assert_non_null(memchr(d, XRAY_M_TSC_WRAP << 1 | 1, n));
        r = read_log(d, n, true, map);
    }
    assert_int_equal(r->rc, 0);
    const struct { gt_tl_kind k; int64_t ts; const char *name; } want[] = {
        {GT_TL_BEGIN, 100, "frame"}, {GT_TL_BEGIN, 110, "glClear"}, {GT_TL_END, 120, "glClear"},
        {GT_TL_BEGIN, 120, "glFlush"}, {GT_TL_END, 120, "glFlush"}, {GT_TL_BEGIN, 130, "swap"},
        {GT_TL_BEGIN, 131, "inner"}, {GT_TL_END, 140, "inner"}, {GT_TL_END, 140, "swap"},
        {GT_TL_END, 150, "frame"}, {GT_TL_BEGIN, 5000000200ll, "glClear"},
        {GT_TL_END, 5000000207ll, "glClear"}, {GT_TL_INSTANT, 5000000300ll, "xray_custom_event"},
        {GT_TL_BEGIN, 200, "gpu"}, {GT_TL_END, 205, "gpu"},
    };
    assert_int_equal(r->buf.count, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < r->buf.count; i++) {
        assert_int_equal(r->buf.events[i].kind, want[i].k);
        assert_int_equal(r->buf.events[i].ts, want[i].ts);
        assert_string_equal(name_of(r, i), want[i].name);
    }
    assert_true(r->tl.has_mono);
    assert_int_equal(r->tl.mono_offset_ns, 123456789900);
    assert_int_equal(r->buf.events[0].pid, 5);
    assert_int_equal(r->buf.events[0].nargs, 2); /* the integer arguments */
    assert_int_equal(r->buf.events[0].args[0].v.u, (uint64_t)-5);
    assert_int_equal(r->buf.events[0].args[1].v.u, 0xdead);
    assert_int_equal(r->buf.events[12].args[0].v.s.len, 6);
    assert_memory_equal(r->buf.events[12].args[0].v.s.p, "marker", 6);
    assert_int_equal(r->buf.events[13].tid, 0x7fffffff);
    free_result(r);
    unlink(path);
    unlink(map);
    free(path);
    free(map);
    gt_timeline_free(&tl);
}

/* Many events: several 64 KiB buffers per thread, read back in order. */
void writer_many_buffers(void **state)
{
    (void)state;
    char *path = tmp_path("_many.xray");
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_xray_writer *w = gt_xray_writer_open(path, &err);
    assert_non_null(w);
    assert_int_equal(gt_xray_writer_set_map_path(w, NULL), 0);
    gt_tl_sink s = gt_xray_writer_sink(w);
    for (int64_t i = 0; i < 30000; i++)
        for (uint64_t tid = 1; tid <= 2; tid++)
            emit(&s, &tl, GT_TL_COMPLETE, i * 10, 5, tid, i % 2 ? "a" : "b", 0);
    assert_int_equal(gt_tl_finish(&s, &tl, &err), 0);
    gt_xray_writer_free(w);
    result *r = calloc(1, sizeof *r);
    assert_int_equal(gt_timeline_init(&r->tl), 0);
    gt_tl_buffer_init(&r->buf);
    gt_tl_sink bs = gt_tl_buffer_sink(&r->buf);
    gt_tl_read_opts o = {.strict = true};
    assert_int_equal(gt_xray_read(path, &r->tl, &bs, &o, &r->err), 0);
    assert_int_equal(r->buf.count, 120000);
    int64_t last[3] = {-1, -1, -1};
    for (size_t i = 0; i < r->buf.count; i++) {
        const gt_tl_event *e = &r->buf.events[i];
        assert_true(e->ts >= last[e->tid]);
        last[e->tid] = e->ts;
    }
    assert_int_equal(last[1], 299995);
    free_result(r);
    unlink(path);
    free(path);
    gt_timeline_free(&tl);
}

/* A complete slice still open when a named END with no BEGIN arrives: it is cut
 * there and the END becomes an exit without entry. An empty timeline gives one
 * empty buffer, which llvm-xray-14 reads. */
void writer_edge_cases(void **state)
{
    (void)state;
    char *path = tmp_path("_edge.xray");
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_xray_writer *w = gt_xray_writer_open(path, &err);
    assert_non_null(w);
    assert_int_equal(gt_xray_writer_set_map_path(w, NULL), 0);
    gt_tl_sink s = gt_xray_writer_sink(w);
    emit(&s, &tl, GT_TL_COMPLETE, 10, 100, 4, "c", 0);
    emit(&s, &tl, GT_TL_COMPLETE, 12, 50, 4, "d", 0);
    emit(&s, &tl, GT_TL_END, 20, 0, 4, "x", 0);
    assert_int_equal(gt_tl_finish(&s, &tl, &err), 0);
    gt_xray_writer_free(w);
    gt_tl_buffer buf;
    gt_tl_buffer_init(&buf);
    gt_tl_sink bs = gt_tl_buffer_sink(&buf);
    gt_tl_read_opts o = {0};
    assert_int_equal(gt_xray_read(path, &tl, &bs, &o, &err), 0);
    const struct { gt_tl_kind k; int64_t ts; } want[] = {
        {GT_TL_BEGIN, 10}, {GT_TL_BEGIN, 12}, {GT_TL_END, 20}, {GT_TL_END, 20}, {GT_TL_END, 20}};
    assert_int_equal(buf.count, 5);
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(buf.events[i].kind, want[i].k);
        assert_int_equal(buf.events[i].ts, want[i].ts);
    }
    assert_string_equal(gt_tl_str_get(&tl, buf.events[4].name, NULL), "fn#3"); /* x: id 3 */
    gt_tl_buffer_free(&buf);

    w = gt_xray_writer_open(path, &err);
    assert_non_null(w);
    assert_int_equal(gt_xray_writer_set_map_path(w, NULL), 0);
    s = gt_xray_writer_sink(w);
    assert_int_equal(gt_tl_finish(&s, &tl, &err), 0);
    gt_xray_writer_free(w);
    FILE *f = fopen(path, "rb");
    uint8_t d[256];
    size_t n = fread(d, 1, sizeof d, f);
    fclose(f);
    assert_int_equal(n, 32 + 16 + 64);
    assert_int_equal(d[32], XRAY_M_BUFFER_EXTENTS << 1 | 1);
    gt_tl_buffer_init(&buf);
    bs = gt_tl_buffer_sink(&buf);
    o.strict = true;
    assert_int_equal(gt_xray_read(path, &tl, &bs, &o, &err), 0);
    assert_int_equal(buf.count, 0);
    gt_tl_buffer_free(&buf);
    unlink(path);
    free(path);
    gt_timeline_free(&tl);
}

