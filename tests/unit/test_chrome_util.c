/* Helpers of the Chrome JSON unit tests (test_chrome_util.h). */
#include "test_chrome_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tc_warnings;
char tc_last_warning[512];

static void on_warn(void *ctx, const char *msg)
{
    (void)ctx;
    tc_warnings++;
    snprintf(tc_last_warning, sizeof tc_last_warning, "%s", msg);
}

char *tc_write(gt_timeline *tl, const gt_tl_event *ev, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    gt_error err;
    gt_error_clear(&err);
    gt_chrome_writer *w = gt_chrome_writer_open_stream(f, "mem.json", &err);
    assert_non_null(w);
    gt_tl_sink s = gt_chrome_writer_sink(w);
    for (size_t i = 0; i < n; i++)
        if (gt_tl_emit(&s, tl, &ev[i], &err) != 0)
            fail_msg("write: %s", err.msg);
    if (gt_tl_finish(&s, tl, &err) != 0)
        fail_msg("finish: %s", err.msg);
    gt_chrome_writer_free(w);
    fclose(f);
    return text;
}

char *tc_line(gt_timeline *tl, const gt_tl_event *ev)
{
    char *doc = tc_write(tl, ev, 1);
    const char *start = strstr(doc, "[\n");
    const char *end = strstr(doc, "\n],");
    assert_non_null(start);
    assert_non_null(end);
    start += 2;
    size_t n = (size_t)(end - start);
    char *line = malloc(n + 1);
    memcpy(line, start, n);
    line[n] = '\0';
    free(doc);
    return line;
}

int tc_read(gt_timeline *tl, const char *text, size_t len, bool strict, gt_tl_buffer *b,
            gt_chrome_read_stats *st, gt_error *err)
{
    gt_tl_buffer_init(b);
    gt_tl_sink s = gt_tl_buffer_sink(b);
    gt_tl_read_opts o = {.strict = strict, .warn = on_warn};
    tc_warnings = 0;
    tc_last_warning[0] = '\0';
    gt_error_clear(err);
    return gt_chrome_read_mem_stats((const uint8_t *)text, len, "t.json", tl, &s, &o, st, err);
}

const char *tc_read_error(const char *text, size_t len, bool strict)
{
    static gt_error err;
    gt_timeline tl;
    gt_timeline_init(&tl);
    gt_tl_buffer b;
    int rc = tc_read(&tl, text, len, strict, &b, NULL, &err);
    gt_tl_buffer_free(&b);
    gt_timeline_free(&tl);
    if (rc == 0)
        return "";
    assert_true(err.set);
    return err.msg;
}

static const char *diff_arg(const gt_timeline *tl, const gt_tl_arg *a, const gt_tl_arg *b)
{
    static char why[256];
    const char *an = gt_tl_str_get(tl, a->name, NULL), *bn = gt_tl_str_get(tl, b->name, NULL);
    if (strcmp(an, bn) != 0 || a->kind != b->kind) {
        snprintf(why, sizeof why, "arg %s kind %d vs %s kind %d", an, a->kind, bn, b->kind);
        return why;
    }
    bool same = true;
    switch (a->kind) {
    case GT_TL_ARG_NULL: break;
    case GT_TL_ARG_I32:
    case GT_TL_ARG_I64: same = a->v.i == b->v.i; break;
    case GT_TL_ARG_DOUBLE: same = memcmp(&a->v.d, &b->v.d, sizeof(double)) == 0; break;
    case GT_TL_ARG_BOOL: same = a->v.b == b->v.b; break;
    case GT_TL_ARG_STRING:
    case GT_TL_ARG_JSON:
        same = a->v.s.len == b->v.s.len && memcmp(a->v.s.p, b->v.s.p, a->v.s.len) == 0;
        break;
    default: same = a->v.u == b->v.u; break;
    }
    if (same)
        return NULL;
    snprintf(why, sizeof why, "arg %s value differs", an);
    return why;
}

const char *tc_diff(const gt_timeline *tl, const gt_tl_event *a, const gt_tl_event *b)
{
#define FIELD(f)                                                                                   \
    if (a->f != b->f)                                                                              \
        return #f;
    FIELD(kind) FIELD(ts) FIELD(dur) FIELD(pid) FIELD(tid) FIELD(cat) FIELD(name) FIELD(id)
    FIELD(parent) FIELD(stack) FIELD(scope) FIELD(nargs)
    FIELD(cs.cpu) FIELD(cs.out_state) FIELD(cs.out_pid) FIELD(cs.out_tid) FIELD(cs.in_pid)
    FIELD(cs.in_tid) FIELD(cs.out_prio) FIELD(cs.in_prio)
#undef FIELD
    for (uint32_t i = 0; i < a->nargs; i++) {
        const char *why = diff_arg(tl, &a->args[i], &b->args[i]);
        if (why)
            return why;
    }
    return NULL;
}
