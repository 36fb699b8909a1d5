/* Helpers of the FXT unit tests (test_fxt_util.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_format.h"
#include "fxt_reader.h"
#include "fxt_writer.h"
#include "test_fxt_util.h"

fxt_bytes fxt_write_buffer(const gt_tl_buffer *b, const gt_timeline *tl)
{
    fxt_bytes out = {0};
    char *p = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&p, &n);
    assert_non_null(f);
    gt_error err;
    gt_error_clear(&err);
    gt_fxt_writer *w = gt_fxt_writer_open_stream(f, "mem.fxt", NULL, &err);
    assert_non_null(w);
    gt_tl_sink sink = gt_fxt_writer_sink(w);
    int rc = gt_tl_buffer_replay(b, tl, &sink, &err);
    if (rc == 0)
        rc = gt_tl_finish(&sink, tl, &err);
    if (rc != 0)
        fail_msg("write: %s", err.msg);
    gt_fxt_writer_free(w);
    assert_int_equal(fclose(f), 0);
    out.p = (uint8_t *)p;
    out.n = n;
    assert_int_equal(n % 8, 0);
    return out;
}

static void collect(void *ctx, const char *msg)
{
    fxt_warns *w = ctx;
    w->n++;
    snprintf(w->last, sizeof w->last, "%s", msg);
}

int fxt_read_into(const uint8_t *p, size_t n, bool strict, gt_timeline *tl, gt_tl_buffer *out,
                  fxt_warns *w, gt_error *err)
{
    gt_tl_buffer_init(out);
    gt_tl_sink sink = gt_tl_buffer_sink(out);
    gt_tl_read_opts opts = {.strict = strict, .warn = w ? collect : NULL, .warn_ctx = w};
    if (w)
        memset(w, 0, sizeof *w);
    gt_error_clear(err);
    return gt_fxt_read_mem(p, n, "t.fxt", tl, &sink, &opts, err);
}

void fxt_put(fxt_words *s, uint64_t w)
{
    assert_true(s->n < sizeof s->w / sizeof s->w[0]);
    s->w[s->n++] = w;
}

void fxt_put_str(fxt_words *s, const char *str)
{
    size_t len = strlen(str);
    for (size_t i = 0; i < len; i += 8) {
        uint64_t w = 0;
        memcpy(&w, str + i, len - i < 8 ? len - i : 8);
        fxt_put(s, w);
    }
}

void fxt_put_start(fxt_words *s)
{
    fxt_put(s, FXT_MAGIC_WORD);
    fxt_put(s, FXT_REC_INIT | 2u << 4);
    fxt_put(s, 1000000000u);
}

void fxt_put_string(fxt_words *s, unsigned idx, const char *str)
{
    uint64_t len = strlen(str);
    fxt_put(s, FXT_REC_STRING | (1 + FXT_WORDS(len)) << 4 | (uint64_t)idx << 16 | len << 32);
    fxt_put_str(s, str);
}

void fxt_put_thread(fxt_words *s, unsigned idx, uint64_t pid, uint64_t tid)
{
    fxt_put(s, FXT_REC_THREAD | 3u << 4 | (uint64_t)idx << 16);
    fxt_put(s, pid);
    fxt_put(s, tid);
}

const char *fxt_str(const gt_timeline *tl, gt_tl_str id) { return gt_tl_str_get(tl, id, NULL); }

static void assert_arg_equal(const gt_tl_arg *a, const gt_tl_arg *b)
{
    assert_int_equal(a->name, b->name);
    assert_int_equal(a->kind, b->kind);
    switch (a->kind) {
    case GT_TL_ARG_NULL: break;
    case GT_TL_ARG_I32: case GT_TL_ARG_I64: assert_true(a->v.i == b->v.i); break;
    case GT_TL_ARG_DOUBLE: assert_memory_equal(&a->v.d, &b->v.d, 8); break;
    case GT_TL_ARG_BOOL: assert_int_equal(a->v.b, b->v.b); break;
    case GT_TL_ARG_STRING: case GT_TL_ARG_JSON:
        assert_int_equal(a->v.s.len, b->v.s.len);
        assert_memory_equal(a->v.s.p, b->v.s.p, a->v.s.len);
        break;
    default: assert_true(a->v.u == b->v.u); break;
    }
}

void fxt_assert_event_equal(const gt_tl_event *a, const gt_tl_event *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_true(a->ts == b->ts);
    assert_true(a->dur == b->dur);
    assert_true(a->pid == b->pid);
    assert_true(a->tid == b->tid);
    assert_int_equal(a->cat, b->cat);
    assert_int_equal(a->name, b->name);
    assert_true(a->id == b->id);
    assert_true(a->parent == b->parent);
    assert_int_equal(a->stack, b->stack);
    assert_int_equal(a->scope, b->scope);
    assert_memory_equal(&a->cs, &b->cs, sizeof a->cs);
    assert_int_equal(a->nargs, b->nargs);
    for (uint32_t i = 0; i < a->nargs; i++)
        assert_arg_equal(&a->args[i], &b->args[i]);
}
