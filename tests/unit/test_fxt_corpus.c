/* Every FXT file of the shared corpus (written by other tools) reads in
 * liberal mode with the event counts MANIFEST.md states, and what it reads
 * goes through our writer and back strictly with the same events. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_reader.h"
#include "test_fxt_util.h"

#ifndef FXT_CORPUS_DIR
#define FXT_CORPUS_DIR "../shared/corpus/fxt"
#endif

typedef struct corpus_file {
    const char *name;
    unsigned names; /* PROCESS_NAME + THREAD_NAME */
    unsigned complete, begin, end, instant, counter, async_begin, async_end;
    unsigned flow_begin, flow_step, flow_end;
} corpus_file;

/* From MANIFEST.md (jane_tracing_test's one kernel object names a thread). */
static const corpus_file files[] = {
    {"jane_tracing_test.fxt", 1, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0},
    {"ocaml_trace_t1.fxt", 2, 250, 0, 0, 400, 200, 100, 100, 0, 0, 0},
    {"ocaml_trace_t2_first.fxt", 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0},
    {"ocaml_trace_t2_second.fxt", 0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0},
    {"ftr_expr.fxt", 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"ftr_mix_3threads.fxt", 2, 67, 3, 3, 11, 29, 0, 0, 8, 24, 8},
};

static void print_warn(void *ctx, const char *msg)
{
    (void)ctx;
    printf("  warning: %s\n", msg);
}

static void check_counts(const corpus_file *f, const gt_tl_counts *c)
{
    assert_int_equal(c->n[GT_TL_PROCESS_NAME] + c->n[GT_TL_THREAD_NAME], f->names);
    assert_int_equal(c->n[GT_TL_COMPLETE], f->complete);
    assert_int_equal(c->n[GT_TL_BEGIN], f->begin);
    assert_int_equal(c->n[GT_TL_END], f->end);
    assert_int_equal(c->n[GT_TL_INSTANT], f->instant);
    assert_int_equal(c->n[GT_TL_COUNTER], f->counter);
    assert_int_equal(c->n[GT_TL_ASYNC_BEGIN], f->async_begin);
    assert_int_equal(c->n[GT_TL_ASYNC_END], f->async_end);
    assert_int_equal(c->n[GT_TL_FLOW_BEGIN], f->flow_begin);
    assert_int_equal(c->n[GT_TL_FLOW_STEP], f->flow_step);
    assert_int_equal(c->n[GT_TL_FLOW_END], f->flow_end);
}

static void count_buffer(const gt_tl_buffer *b, gt_tl_counts *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < b->count; i++)
        c->n[b->events[i].kind]++;
}

static void corpus_reads_liberally(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", FXT_CORPUS_DIR, files[i].name);
        FILE *probe = fopen(path, "rb");
        if (!probe) {
            printf("  %s: not found, skipped\n", path);
            continue;
        }
        fclose(probe);
        gt_timeline tl;
        assert_int_equal(gt_timeline_init(&tl), 0);
        gt_tl_buffer b;
        gt_tl_buffer_init(&b);
        gt_tl_sink sink = gt_tl_buffer_sink(&b);
        gt_tl_read_opts opts = {.warn = print_warn};
        gt_error err;
        gt_error_clear(&err);
        printf("  %s\n", files[i].name);
        if (gt_fxt_read(path, &tl, &sink, &opts, &err))
            fail_msg("%s", err.msg);
        gt_tl_counts c;
        count_buffer(&b, &c);
        check_counts(&files[i], &c);
        /* through our writer and back, strictly */
        fxt_bytes f = fxt_write_buffer(&b, &tl);
        gt_tl_buffer back;
        if (fxt_read_into(f.p, f.n, true, &tl, &back, NULL, &err))
            fail_msg("%s rewritten: %s", files[i].name, err.msg);
        assert_int_equal(back.count, b.count);
        for (size_t k = 0; k < b.count; k++)
            fxt_assert_event_equal(&b.events[k], &back.events[k]);
        free(f.p);
        gt_tl_buffer_free(&back);
        gt_tl_buffer_free(&b);
        gt_timeline_free(&tl);
    }
}

void test_fxt_corpus_register(struct CMUnitTest *t, size_t *n)
{
    t[(*n)++] = (struct CMUnitTest)cmocka_unit_test(corpus_reads_liberally);
}
