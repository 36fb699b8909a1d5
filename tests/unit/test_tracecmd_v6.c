/* formats/tracecmd on hand-built v6 files: big-endian with two buffer instances,
 * and ftrace function and function-graph events named through kallsyms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_internal.h"
#include "tc_reader.h"
#include "test_tracecmd.h"

/* ---- a hand-built v6 file: big-endian, two buffer instances --------------------------------- */

typedef struct fbuild {
    uint8_t *p;
    size_t n, cap;
    bool be;
} fbuild;

static void fb_bytes(fbuild *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void fb_num(fbuild *b, uint64_t v, unsigned n)
{
    uint8_t x[8];
    for (unsigned i = 0; i < n; i++)
        x[b->be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
    fb_bytes(b, x, n);
}

static void fb_text(fbuild *b, const char *s, unsigned size_bytes)
{
    fb_num(b, strlen(s), size_bytes);
    fb_bytes(b, s, strlen(s));
}

static void fb_pad(fbuild *b, size_t to)
{
    while (b->n < to)
        fb_num(b, 0, 1);
}

/* One page at ts base with two 8-byte "tick" events of pid 42, 10 ns apart. */
static void fb_page(fbuild *b, uint64_t base)
{
    size_t start = b->n;
    fb_num(b, base, 8);
    fb_num(b, 2 * 12, 4); /* commit: a 4-byte kernel long */
    for (int i = 0; i < 2; i++) {
        fb_num(b, b->be ? (2u << 27) | 10u : (10u << 5) | 2u, 4); /* type_len 2: 8 bytes, delta 10 */
        fb_num(b, 9, 2);       /* common_type */
        fb_num(b, 0, 2);       /* flags, preempt count */
        fb_num(b, 42, 4);      /* common_pid */
    }
    (void)start;
}

void test_v6_big_endian_instances(void **state)
{
    (void)state;
    fbuild b = {.be = true};
    fb_bytes(&b, "\x17\x08\x44tracing6", 12); /* with the version's NUL */
    fb_num(&b, 1, 1); /* big endian */
    fb_num(&b, 4, 1);
    fb_num(&b, 4096, 4);
    fb_bytes(&b, "header_page", 12);
    fb_text(&b, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
                "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
                "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n", 8);
    fb_bytes(&b, "header_event", 13);
    fb_text(&b, "\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n", 8);
    fb_num(&b, 0, 4); /* no ftrace formats */
    fb_num(&b, 1, 4); /* one system */
    fb_bytes(&b, "demo", 5);
    fb_num(&b, 1, 4);
    fb_text(&b, "name: tick\nID: 9\nformat:\n"
                "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
                "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n", 8);
    fb_num(&b, 0, 4);                  /* kallsyms */
    fb_num(&b, 0, 4);                  /* printk */
    fb_text(&b, "42 ticker\n", 8);      /* cmdlines */
    fb_num(&b, 1, 4);                  /* one CPU */
    fb_bytes(&b, "options  ", 10);
    size_t buf_opt = b.n;
    fb_num(&b, 3, 2); /* BUFFER: offset, name */
    fb_num(&b, 8 + 6, 4);
    fb_num(&b, 0, 8); /* patched */
    fb_bytes(&b, "inst2", 6);
    fb_num(&b, 0, 2); /* DONE */
    fb_bytes(&b, "flyrecord", 10);
    fb_num(&b, 8192, 8);
    fb_num(&b, 4096, 8);
    size_t inst = b.n;
    fb_bytes(&b, "flyrecord", 10);
    fb_num(&b, 12288, 8);
    fb_num(&b, 4096, 8);
    for (unsigned i = 0; i < 8; i++) /* the BUFFER option's offset */
        b.p[buf_opt + 6 + i] = (uint8_t)(inst >> (8 * (7 - i)));
    fb_pad(&b, 8192);
    fb_page(&b, 1000);
    fb_pad(&b, 12288);
    fb_page(&b, 1005);
    fb_pad(&b, 16384);

    gt_timeline tl;
    gt_tl_buffer buf;
    gt_error err;
    warns w = {0};
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer_init(&buf);
    if (read_mem(b.p, b.n, true, &tl, &buf, &err, &w) != 0)
        fail_msg("%s", err.msg);
    int64_t want_ts[] = {1010, 1015, 1020, 1025}; /* merged: top 1010, 1020; inst2 1015, 1025 */
    size_t k = 0;
    for (size_t i = 0; i < buf.count; i++) {
        const gt_tl_event *ev = &buf.events[i];
        if (ev->kind == GT_TL_THREAD_NAME) {
            assert_int_equal(ev->tid, 42);
            assert_string_equal(str(&tl, ev->name), "ticker");
            continue;
        }
        assert_int_equal(ev->kind, GT_TL_INSTANT);
        assert_true(k < 4);
        assert_int_equal(ev->ts, want_ts[k++]);
        assert_int_equal(ev->tid, 42);
        assert_string_equal(str(&tl, ev->cat), "demo");
        assert_string_equal(str(&tl, ev->name), "tick");
    }
    assert_int_equal(k, 4);
    gt_tl_buffer_free(&buf);
    gt_timeline_free(&tl);
    free(b.p);
}

/* ftrace:function events name their ip and parent_ip through kallsyms; funcgraph
 * entry/exit become slices named by the function (a little-endian v6 file). */
void test_v6_function_events(void **state)
{
    (void)state;
    fbuild b = {.be = false};
    fb_bytes(&b, "\x17\x08\x44tracing6", 12);
    fb_num(&b, 0, 1);
    fb_num(&b, 4, 1);
    fb_num(&b, 4096, 4);
    fb_bytes(&b, "header_page", 12);
    fb_text(&b, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
                "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
                "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n", 8);
    fb_bytes(&b, "header_event", 13);
    fb_text(&b, "\ttype_len    :    5 bits\n", 8);
    fb_num(&b, 3, 4); /* ftrace formats */
    fb_text(&b, "name: function\nID: 1\nformat:\n"
                "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
                "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
                "\tfield:unsigned long ip;\toffset:8;\tsize:4;\tsigned:0;\n"
                "\tfield:unsigned long parent_ip;\toffset:12;\tsize:4;\tsigned:0;\n", 8);
    fb_text(&b, "name: funcgraph_entry\nID: 11\nformat:\n"
                "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
                "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
                "\tfield:unsigned long func;\toffset:8;\tsize:4;\tsigned:0;\n"
                "\tfield:int depth;\toffset:12;\tsize:4;\tsigned:1;\n", 8);
    fb_text(&b, "name: funcgraph_exit\nID: 10\nformat:\n"
                "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
                "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
                "\tfield:unsigned long func;\toffset:8;\tsize:4;\tsigned:0;\n"
                "\tfield:int depth;\toffset:12;\tsize:4;\tsigned:1;\n", 8);
    fb_num(&b, 0, 4); /* no event systems */
    fb_text(&b, "c0100000 T start_kernel\nc0100100 t helper\nc0200000 D some_data\n", 4);
    fb_num(&b, 0, 4);
    fb_text(&b, "5 worker\n", 8);
    fb_num(&b, 1, 4);
    fb_bytes(&b, "flyrecord", 10);
    fb_num(&b, 4096, 8);
    fb_num(&b, 4096, 8);
    fb_pad(&b, 4096);
    /* page: graph entry helper, function helper<-start_kernel, graph exit helper */
    uint32_t recs[3][4] = {{11, 5, 0xc0100100, 1}, {1, 5, 0xc0100104, 0xc0100010}, {10, 5, 0xc0100100, 1}};
    fb_num(&b, 2000, 8);
    fb_num(&b, 3 * 20, 4);
    for (int i = 0; i < 3; i++) {
        fb_num(&b, (7u << 5) | 4u, 4); /* 16 bytes, delta 7 */
        fb_num(&b, recs[i][0], 4);      /* common_type, flags, preempt count */
        fb_num(&b, recs[i][1], 4);
        fb_num(&b, recs[i][2], 4);
        fb_num(&b, recs[i][3], 4);
    }
    fb_pad(&b, 8192);

    gt_timeline tl;
    gt_tl_buffer buf;
    gt_error err;
    warns w = {0};
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer_init(&buf);
    if (read_mem(b.p, b.n, true, &tl, &buf, &err, &w) != 0)
        fail_msg("%s", err.msg);
    static const gt_tl_kind kinds[] = {GT_TL_THREAD_NAME, GT_TL_BEGIN, GT_TL_INSTANT, GT_TL_END};
    assert_int_equal(buf.count, 4);
    for (size_t i = 0; i < 4; i++) {
        const gt_tl_event *ev = &buf.events[i];
        assert_int_equal(ev->kind, kinds[i]);
        assert_int_equal(ev->tid, 5);
        if (i)
            assert_int_equal(ev->ts, 2000 + 7 * (int64_t)i);
    }
    assert_string_equal(str(&tl, buf.events[1].name), "helper");
    assert_string_equal(str(&tl, buf.events[3].name), "helper");
    assert_string_equal(str(&tl, buf.events[2].name), "function");
    const gt_tl_arg *fn = gt_tl_arg_find(&tl, &buf.events[2], "func");
    const gt_tl_arg *parent = gt_tl_arg_find(&tl, &buf.events[2], "parent");
    assert_non_null(fn);
    assert_non_null(parent);
    assert_int_equal(fn->v.s.len, 6);
    assert_memory_equal(fn->v.s.p, "helper", 6);
    assert_int_equal(parent->v.s.len, 12);
    assert_memory_equal(parent->v.s.p, "start_kernel", 12);
    const gt_tl_arg *cpu = gt_tl_arg_find(&tl, &buf.events[1], "cpu");
    assert_non_null(cpu);
    assert_int_equal(cpu->v.u, 0);
    gt_tl_buffer_free(&buf);
    gt_timeline_free(&tl);
    free(b.p);
}

