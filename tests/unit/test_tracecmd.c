/* formats/tracecmd: event format parsing, header_page, ring-buffer pages (every
 * type_len case, time extends, absolute stamps, padding, commit sizes, both byte
 * orders), the writer read back, and damaged files rejected with their offsets. Runs
 * the cases of test_tracecmd_corpus.c (the corpus) and test_tracecmd_v6.c too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tc_internal.h"
#include "tc_reader.h"
#include "tc_writer.h"
#include "test_tracecmd.h"

/* ---- event formats ------------------------------------------------------------------ */

static const char sample_format[] =
    "name: sample\n"
    "ID: 77\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
    "\tfield:s8 small;\toffset:24;\tsize:1;\tsigned:1;\n"
    "\tfield:u16 half;\toffset:26;\tsize:2;\tsigned:0;\n"
    "\tfield:long big;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:__data_loc char[] msg;\toffset:40;\tsize:4;\tsigned:1;\n"
    "\tfield:__rel_loc char[] rel;\toffset:44;\tsize:4;\tsigned:1;\n"
    "\tfield:u32 vals[2];\toffset:48;\tsize:8;\tsigned:0;\n"
    "\tfield:__data_loc u16[] dyn;\toffset:56;\tsize:4;\tsigned:0;\n"
    "\tfield:unsigned int old;\toffset:60;\tsize:4;\n"
    "\tfield:char tail;\toffset:64;\tsize:0;\tsigned:0;\n"
    "\n"
    "print fmt: \"%s\", REC->comm\n";

static void test_format_fields(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    tc_events evs = {0};
    const char *why = NULL;
    size_t at;
    assert_int_equal(tc_format_parse(&evs, "demo", 4, sample_format, sizeof sample_format - 1, 8, &tl, &why, &at), 0);
    const tc_event *e = tc_events_find(&evs, 77);
    assert_non_null(e);
    assert_string_equal(e->name, "sample");
    assert_string_equal(e->system, "demo");
    assert_int_equal(e->nfields, 14);
    assert_int_equal(e->pid_field, 3);
    const tc_field *f = tc_event_field(e, "common_pid");
    assert_true(f->common && f->is_signed && f->kind == TC_F_INT && f->size == 4);
    f = tc_event_field(e, "comm");
    assert_true(f->kind == TC_F_CHARS && f->offset == 8 && f->size == 16 && !f->common);
    f = tc_event_field(e, "small");
    assert_true(f->kind == TC_F_INT && f->is_signed && f->size == 1);
    f = tc_event_field(e, "half");
    assert_true(f->kind == TC_F_INT && !f->is_signed && f->offset == 26);
    f = tc_event_field(e, "big");
    assert_true(f->kind == TC_F_INT && f->is_signed && f->size == 8);
    f = tc_event_field(e, "msg");
    assert_true(f->kind == TC_F_LOC_STR && !f->rel && f->offset == 40);
    f = tc_event_field(e, "rel");
    assert_true(f->kind == TC_F_LOC_STR && f->rel);
    f = tc_event_field(e, "vals");
    assert_true(f->kind == TC_F_ARRAY && f->elem == 4 && f->size == 8);
    f = tc_event_field(e, "dyn");
    assert_true(f->kind == TC_F_LOC_ARRAY && f->elem == 2);
    f = tc_event_field(e, "old"); /* no signed: attribute: from the type */
    assert_true(f->kind == TC_F_INT && !f->is_signed);
    f = tc_event_field(e, "tail");
    assert_true(f->kind == TC_F_CHARS && f->tail);
    assert_null(tc_events_find(&evs, 78));
    tc_events_free(&evs);
    gt_timeline_free(&tl);
}

static void test_format_errors(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    tc_events evs = {0};
    const char *why = NULL;
    size_t at = 0;
    static const char no_id[] = "name: x\nformat:\n";
    assert_int_equal(tc_format_parse(&evs, "s", 1, no_id, sizeof no_id - 1, 8, &tl, &why, &at), -1);
    assert_non_null(strstr(why, "ID"));
    static const char bad_field[] = "name: x\nID: 3\nformat:\n\tfield:int a;\toffset:zz;\tsize:4;\n";
    assert_int_equal(tc_format_parse(&evs, "s", 1, bad_field, sizeof bad_field - 1, 8, &tl, &why, &at), -1);
    assert_int_equal(at, 22); /* the field's line */
    static const char noname[] = "name: x\nID: 3\nformat:\n\tfield:int ;\toffset:0;\tsize:4;\n";
    assert_int_equal(tc_format_parse(&evs, "s", 1, noname, sizeof noname - 1, 8, &tl, &why, &at), -1);
    assert_int_equal(evs.n, 0);
    tc_events_free(&evs);
    gt_timeline_free(&tl);
}

static void test_header_page(void **state)
{
    (void)state;
    static const char hp4[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
                              "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
                              "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
                              "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:0;\n";
    tc_page_hdr h;
    const char *why;
    assert_int_equal(tc_header_page_parse(hp4, sizeof hp4 - 1, &h, &why), 0);
    assert_int_equal(h.commit_size, 4);
    assert_int_equal(h.data_off, 12);
    static const char bad[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n";
    assert_int_equal(tc_header_page_parse(bad, sizeof bad - 1, &h, &why), -1);
}

/* ---- ring-buffer pages ------------------------------------------------------------------- */

typedef struct page_builder {
    uint8_t p[256];
    uint32_t at;
    bool be;
} page_builder;

static void pb_u32(page_builder *b, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        b->p[b->at + i] = (uint8_t)(b->be ? v >> (8 * (3 - i)) : v >> (8 * i));
    b->at += 4;
}

static uint32_t head(bool be, uint32_t type_len, uint32_t delta)
{
    return be ? type_len << 27 | delta : delta << 5 | type_len;
}

/* A page with: a 4-byte event (delta 10), a time extend (+2^27*3 + 5), an
 * 8-byte event (delta 1), a discarded event (padding with delta), a long
 * (type_len 0) 120-byte event, an absolute stamp, a last event, then null
 * padding; commit covers all but the null padding's length word. */
static void build_page(page_builder *b, bool be)
{
    memset(b, 0, sizeof *b);
    b->be = be;
    const tc_page_hdr h = {.ts_off = 0, .ts_size = 8, .commit_off = 8, .commit_size = 8, .data_off = 16};
    (void)h;
    b->at = 16;
    pb_u32(b, head(be, 1, 10)); /* event A: 4 bytes */
    pb_u32(b, 0xA0A0A0A0);
    pb_u32(b, head(be, 30, 5)); /* time extend */
    pb_u32(b, 3);
    pb_u32(b, head(be, 2, 1)); /* event B: 8 bytes */
    pb_u32(b, 0xB0B0B0B0);
    pb_u32(b, 0xB1B1B1B1);
    pb_u32(b, head(be, 29, 7)); /* a discarded event: padding of 8 bytes */
    pb_u32(b, 8);
    pb_u32(b, 0);
    pb_u32(b, head(be, 0, 2)); /* event C: long form, 120 bytes */
    pb_u32(b, 124);
    for (int i = 0; i < 30; i++)
        pb_u32(b, 0xC0C0C0C0);
    pb_u32(b, head(be, 31, 99)); /* absolute: (4 << 27) | 99 */
    pb_u32(b, 4);
    pb_u32(b, head(be, 1, 1)); /* event D */
    pb_u32(b, 0xD0D0D0D0);
    uint32_t commit = b->at - 16;
    pb_u32(b, head(be, 29, 0)); /* null padding: the rest of the page */
    uint64_t ts = 1000;
    for (unsigned i = 0; i < 8; i++) {
        b->p[be ? 7 - i : i] = (uint8_t)(ts >> (8 * i));
        b->p[be ? 15 - i : 8 + i] = (uint8_t)((uint64_t)commit >> (8 * i));
    }
}

static void check_page(bool be)
{
    page_builder b;
    build_page(&b, be);
    const tc_page_hdr h = {.ts_off = 0, .ts_size = 8, .commit_off = 8, .commit_size = 8, .data_off = 16};
    tc_page pg;
    tc_rec r;
    const char *why;
    uint32_t at;
    assert_int_equal(tc_page_load(&pg, b.p, sizeof b.p, &h, be, &why, &at), 0);
    assert_int_equal(tc_page_next(&pg, &r, &why, &at), 1);
    assert_int_equal(r.ts, 1010);
    assert_int_equal(r.len, 4);
    assert_int_equal(r.data[0], 0xA0);
    assert_int_equal(tc_page_next(&pg, &r, &why, &at), 1);
    assert_int_equal(r.ts, 1010 + (3ull << 27) + 5 + 1);
    assert_int_equal(r.len, 8);
    assert_int_equal(r.data[4], 0xB1);
    assert_int_equal(tc_page_next(&pg, &r, &why, &at), 1);
    /* the discarded event's delta counts: the kernel keeps time through it */
    assert_int_equal(r.ts, 1010 + (3ull << 27) + 5 + 1 + 2);
    assert_int_equal(r.len, 120);
    assert_int_equal(r.data[119], 0xC0);
    assert_int_equal(tc_page_next(&pg, &r, &why, &at), 1);
    assert_int_equal(r.ts, (4ull << 27) + 99 + 1);
    assert_int_equal(r.data[0], 0xD0);
    assert_int_equal(tc_page_next(&pg, &r, &why, &at), 0);
}

static void test_page_types_le(void **state)
{
    (void)state;
    check_page(false);
}

static void test_page_types_be(void **state)
{
    (void)state;
    check_page(true);
}

static void test_page_bad(void **state)
{
    (void)state;
    const tc_page_hdr h = {.ts_off = 0, .ts_size = 8, .commit_off = 8, .commit_size = 8, .data_off = 16};
    page_builder b;
    tc_page pg;
    tc_rec r;
    const char *why;
    uint32_t at;
    build_page(&b, false);
    b.p[8] = 0xf0; /* commit 240 + ... beyond 256 - 16 */
    b.p[9] = 0x01;
    assert_int_equal(tc_page_load(&pg, b.p, sizeof b.p, &h, false, &why, &at), -1);
    assert_int_equal(at, 8);
    build_page(&b, false);
    b.p[8] = 6; /* commit cuts event B */
    assert_int_equal(tc_page_load(&pg, b.p, sizeof b.p, &h, false, &why, &at), 0);
    assert_int_equal(tc_page_next(&pg, &r, &why, &at), -1);
    assert_int_equal(at, 16);
    build_page(&b, false);
    b.p[16 + 40 + 4] = 0xff; /* type_len 0 length word: beyond the commit */
    b.p[16 + 40 + 5] = 0xff;
    assert_int_equal(tc_page_load(&pg, b.p, sizeof b.p, &h, false, &why, &at), 0);
    int rc;
    while ((rc = tc_page_next(&pg, &r, &why, &at)) == 1)
        ;
    assert_int_equal(rc, -1);
    assert_int_equal(at, 16 + 40);
    assert_int_equal(tc_page_load(&pg, b.p, 12, &h, false, &why, &at), -1); /* shorter than the header */
}

/* ---- writer and reader ---------------------------------------------------------------------- */

static bytes write_timeline(unsigned ncalls)
{
    char path[] = "/tmp/test_tracecmd_XXXXXX";
    const char *dir = getenv("TMPDIR");
    char buf[512];
    snprintf(buf, sizeof buf, "%s/test_tracecmd_XXXXXX", dir ? dir : "/tmp");
    int fd = mkstemp(buf);
    (void)path;
    assert_true(fd >= 0);
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tracecmd_writer *w = gt_tracecmd_writer_open(buf, &err);
    assert_non_null(w);
    gt_tl_sink s = gt_tracecmd_writer_sink(w);
    gt_tl_str call = gt_tl_intern_cstr(&tl, "call"), gl = gt_tl_intern_cstr(&tl, "gl");
    gt_tl_event tn = {.kind = GT_TL_THREAD_NAME, .pid = 7, .tid = 8, .name = gt_tl_intern_cstr(&tl, "render")};
    assert_int_equal(gt_tl_emit(&s, &tl, &tn, &err), 0);
    for (unsigned i = 0; i < ncalls; i++) {
        char name[32];
        snprintf(name, sizeof name, "glDraw%u", i);
        gt_tl_arg a = {.name = call, .kind = GT_TL_ARG_U64, .v.u = i + 1};
        /* gaps beyond 2^27 ns every 7th call: time extends */
        int64_t ts = 5000 + (int64_t)i * 300 + (int64_t)(i / 7) * (1ll << 28);
        gt_tl_event ev = {.kind = GT_TL_COMPLETE, .ts = ts, .dur = i, .pid = 7, .tid = i % 2 ? 8 : 7,
                          .cat = gl, .name = gt_tl_intern_cstr(&tl, name), .nargs = 1, .args = &a};
        assert_int_equal(gt_tl_emit(&s, &tl, &ev, &err), 0);
    }
    gt_tl_event back = {.kind = GT_TL_INSTANT, .ts = 10, .pid = 7, .tid = 7, .cat = gl,
                        .name = gt_tl_intern_cstr(&tl, "early")};
    assert_int_equal(gt_tl_emit(&s, &tl, &back, &err), 0); /* before the others: absolute stamp */
    assert_int_equal(gt_tl_finish(&s, &tl, &err), 0);
    gt_tracecmd_writer_free(w);
    gt_timeline_free(&tl);
    bytes b = slurp(buf);
    close(fd);
    unlink(buf);
    assert_true(b.n > 4096);
    return b;
}

static void test_roundtrip(void **state)
{
    (void)state;
    const unsigned n = 3000; /* several pages per CPU */
    bytes b = write_timeline(n);
    gt_timeline tl;
    gt_tl_buffer buf;
    gt_error err;
    warns w = {0};
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer_init(&buf);
    int rc = read_mem(b.p, b.n, true, &tl, &buf, &err, &w);
    if (rc)
        fail_msg("%s", err.msg);
    assert_int_equal(w.n, 0);
    unsigned calls = 0, names = 0, early = 0;
    uint64_t next_even = 1, next_odd = 2;
    for (size_t i = 0; i < buf.count; i++) {
        const gt_tl_event *ev = &buf.events[i];
        if (ev->kind == GT_TL_THREAD_NAME) {
            names++;
            assert_int_equal(ev->tid, 8);
            assert_string_equal(str(&tl, ev->name), "render");
            continue;
        }
        if (ev->kind == GT_TL_INSTANT) {
            early++;
            assert_int_equal(ev->ts, 10);
            assert_string_equal(str(&tl, ev->name), "early");
            continue;
        }
        assert_int_equal(ev->kind, GT_TL_COMPLETE);
        assert_int_equal(ev->nargs, 1);
        uint64_t no = ev->args[0].v.u, i0 = no - 1;
        /* each thread's calls come in order; threads interleave by time */
        if (ev->tid == 7) {
            assert_int_equal(no, next_even);
            next_even += 2;
        } else {
            assert_int_equal(ev->tid, 8);
            assert_int_equal(no, next_odd);
            next_odd += 2;
        }
        assert_int_equal(ev->ts, 5000 + (int64_t)i0 * 300 + (int64_t)(i0 / 7) * (1ll << 28));
        assert_int_equal(ev->dur, (int64_t)i0);
        char name[32];
        snprintf(name, sizeof name, "glDraw%u", (unsigned)i0);
        assert_string_equal(str(&tl, ev->name), name);
        assert_string_equal(str(&tl, ev->cat), "gl");
        calls++;
    }
    assert_int_equal(calls, n);
    assert_int_equal(names, 1);
    assert_int_equal(early, 1);
    gt_tl_buffer_free(&buf);
    gt_timeline_free(&tl);
    free(b.p);
}

/* Every prefix of a written file: an error naming an offset, or (a cut inside the
 * last section, the strings) a clean read; never a crash. */
static void test_truncations(void **state)
{
    (void)state;
    bytes b = write_timeline(200);
    gt_timeline tl;
    gt_error err;
    warns w = {0};
    assert_int_equal(gt_timeline_init(&tl), 0);
    unsigned failed = 0;
    for (size_t n = 0; n < b.n; n += n < 2000 ? 1 : 97) {
        gt_tl_buffer buf;
        gt_tl_buffer_init(&buf);
        if (read_mem(b.p, n, false, &tl, &buf, &err, &w) != 0) {
            failed++;
            assert_non_null(strstr(err.msg, "t.dat: offset "));
        }
        gt_tl_buffer_free(&buf);
    }
    assert_true(failed > 1000);
    gt_timeline_free(&tl);
    free(b.p);
}

static void test_bitflips(void **state)
{
    (void)state;
    bytes b = write_timeline(100);
    gt_timeline tl;
    gt_error err;
    warns w = {0};
    assert_int_equal(gt_timeline_init(&tl), 0);
    uint8_t *m = malloc(b.n);
    assert_non_null(m);
    srand(8);
    for (int k = 0; k < 3000; k++) {
        memcpy(m, b.p, b.n);
        size_t at = (size_t)rand() % (k < 2000 ? 8192 : b.n); /* mostly metadata */
        m[at] ^= (uint8_t)(1u << (rand() % 8));
        gt_tl_buffer buf;
        gt_tl_buffer_init(&buf);
        for (int strict = 0; strict < 2; strict++)
            if (read_mem(m, b.n, strict, &tl, &buf, &err, &w) != 0)
                assert_non_null(strstr(err.msg, "offset"));
        gt_tl_buffer_free(&buf);
    }
    free(m);
    gt_timeline_free(&tl);
    free(b.p);
}


/* Offsets of the written layout (tc_writer_layout.c): header 32 bytes, then
 * HEADER_INFO at 32. */
static void test_absurd_values(void **state)
{
    (void)state;
    bytes b = write_timeline(10);
    gt_timeline tl;
    gt_error err;
    warns w = {0};
    gt_tl_buffer buf;
    assert_int_equal(gt_timeline_init(&tl), 0);
    uint8_t *m = malloc(b.n);
    assert_non_null(m);
    uint64_t opt = 0;
    for (unsigned i = 0; i < 8; i++)
        opt |= (uint64_t)b.p[24 + i] << (8 * i);
    struct {
        size_t at;
        uint64_t v;
        unsigned n;
        const char *msg;
    } cases[] = {
        {24, (uint64_t)1 << 40, 8, "offset 1099511627776: section offset beyond the end"},
        {24, 32, 8, "offset 32: expected section id 0, found 16"},
        {32 + 8, (uint64_t)1 << 50, 8, "offset 32: section size"},
        {48 + 12, (uint64_t)1 << 60, 8, "truncated: header_page"},
        {(size_t)opt + 16 + 2, 1u << 30, 4, "option cut by the end of its section"},
        {3, 'X', 1, "offset 0: not a trace-cmd file"},
        {10, '9', 1, "offset 10: unsupported file version"},
        {12, 7, 1, "offset 12: bad endianness"},
        {14, 3, 4, "offset 14: bad page size 3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(m, b.p, b.n);
        put_le(m + cases[i].at, cases[i].v, cases[i].n);
        gt_tl_buffer_init(&buf);
        assert_int_equal(read_mem(m, b.n, false, &tl, &buf, &err, &w), -1);
        if (!strstr(err.msg, cases[i].msg))
            fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err.msg, cases[i].msg);
        gt_tl_buffer_free(&buf);
    }
    free(m);
    gt_timeline_free(&tl);
    free(b.p);
}

/* A GPU track (tid GT_TL_GPU_TID(pid)) gets a pid of its own: its name does not
 * replace the main thread's, and its calls stay apart. */
static void test_writer_gpu_track(void **state)
{
    (void)state;
    char path[512];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/test_tracecmd_gpu_XXXXXX", dir ? dir : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tracecmd_writer *w = gt_tracecmd_writer_open(path, &err);
    assert_non_null(w);
    gt_tl_sink s = gt_tracecmd_writer_sink(w);
    uint64_t gpu = GT_TL_GPU_TID(7);
    gt_tl_event evs[] = {
        {.kind = GT_TL_THREAD_NAME, .pid = 7, .tid = 7, .name = gt_tl_intern_cstr(&tl, "main")},
        {.kind = GT_TL_THREAD_NAME, .pid = 7, .tid = gpu, .name = gt_tl_intern_cstr(&tl, "GPU")},
        {.kind = GT_TL_COMPLETE, .ts = 100, .dur = 5, .pid = 7, .tid = 7, .name = gt_tl_intern_cstr(&tl, "glDraw")},
        {.kind = GT_TL_COMPLETE, .ts = 120, .dur = 9, .pid = 7, .tid = gpu, .name = gt_tl_intern_cstr(&tl, "draw")},
    };
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++)
        assert_int_equal(gt_tl_emit(&s, &tl, &evs[i], &err), 0);
    assert_int_equal(gt_tl_finish(&s, &tl, &err), 0);
    gt_tracecmd_writer_free(w);
    bytes b = slurp(path);
    unlink(path);
    gt_tl_buffer buf;
    warns wn = {0};
    gt_tl_buffer_init(&buf);
    if (read_mem(b.p, b.n, true, &tl, &buf, &err, &wn) != 0)
        fail_msg("%s", err.msg);
    int found = 0;
    for (size_t i = 0; i < buf.count; i++) {
        const gt_tl_event *ev = &buf.events[i];
        const char *name = str(&tl, ev->name);
        if (ev->kind == GT_TL_THREAD_NAME && ev->tid == 7)
            assert_string_equal(name, "main"), found |= 1;
        else if (ev->kind == GT_TL_THREAD_NAME && ev->tid == 1u << 30)
            assert_string_equal(name, "GPU"), found |= 2;
        else if (ev->kind == GT_TL_COMPLETE && !strcmp(name, "glDraw"))
            assert_int_equal(ev->tid, 7), found |= 4;
        else if (ev->kind == GT_TL_COMPLETE && !strcmp(name, "draw"))
            assert_int_equal(ev->tid, 1u << 30), found |= 8;
    }
    assert_int_equal(found, 15);
    gt_tl_buffer_free(&buf);
    gt_timeline_free(&tl);
    free(b.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_fields),
        cmocka_unit_test(test_format_errors),
        cmocka_unit_test(test_header_page),
        cmocka_unit_test(test_page_types_le),
        cmocka_unit_test(test_page_types_be),
        cmocka_unit_test(test_page_bad),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_truncations),
        cmocka_unit_test(test_bitflips),
        cmocka_unit_test(test_absurd_values),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_corpus_sched_switch),
        cmocka_unit_test(test_corpus_damaged),
        cmocka_unit_test(test_zlib),
        cmocka_unit_test(test_converted_seeds),
        cmocka_unit_test(test_merged_fxt_chrome),
        cmocka_unit_test(test_v6_big_endian_instances),
        cmocka_unit_test(test_writer_gpu_track),
        cmocka_unit_test(test_v6_function_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
