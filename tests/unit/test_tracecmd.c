/* formats/tracecmd: event format parsing, header_page, ring-buffer pages (every
 * type_len case, time extends, absolute stamps, padding, commit sizes, both byte
 * orders), the writer read back, the corpus, and damaged files rejected with
 * their offsets. */
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
#include <zlib.h>

#include "chrome_reader.h"
#include "chrome_writer.h"
#include "fxt_reader.h"
#include "fxt_writer.h"
#include "tc_internal.h"
#include "tc_reader.h"
#include "tc_writer.h"

/* ---- helpers ---------------------------------------------------------------------- */

typedef struct bytes {
    uint8_t *p;
    size_t n;
} bytes;

static bytes slurp(const char *path)
{
    bytes b = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return b;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b.p = malloc(n > 0 ? (size_t)n : 1);
    assert_non_null(b.p);
    b.n = fread(b.p, 1, (size_t)n, f);
    fclose(f);
    return b;
}

typedef struct warns {
    int n;
    char last[GT_ERROR_MAX + 64];
} warns;

static void collect(void *ctx, const char *msg)
{
    warns *w = ctx;
    w->n++;
    snprintf(w->last, sizeof w->last, "%s", msg);
}

/* Reads data into a buffer; returns the reader's result, err filled. */
static int read_mem(const uint8_t *p, size_t n, bool strict, gt_timeline *tl, gt_tl_buffer *buf, gt_error *err,
                    warns *w)
{
    gt_tl_sink sink = gt_tl_buffer_sink(buf);
    gt_tl_read_opts o = {.strict = strict, .warn = collect, .warn_ctx = w};
    gt_error_clear(err);
    return gt_tracecmd_read_mem(p, n, "t.dat", tl, &sink, &o, err);
}

static const char *str(const gt_timeline *tl, gt_tl_str id)
{
    return gt_tl_str_get(tl, id, NULL);
}

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

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
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

/* ---- the corpus ---------------------------------------------------------------------------- */

typedef struct corpus_case {
    const char *file;
    uint64_t records; /* trace-cmd report's event lines */
    uint64_t switches;
} corpus_case;

static void test_corpus(void **state)
{
    (void)state;
    static const corpus_case cases[] = {
        {"v6_x86qemu_1cpu_sched_switch.dat", 102, 102},
        {"v7_uncompressed_converted_from_v6_x86qemu.dat", 102, 102},
        {"v6_arm32_1cpu_irq_sched.dat", 997, 0},
        {"v7_zstd_converted_from_v6_arm32_1cpu.dat", 997, 0},
        {"v6_arm32_8cpu_thermal_bprint.dat", 547, 0},
        {"v6_arm32_8cpu_thermal_ipa.dat", 1411, 0},
        {"v6_x86qemu_funcgraph_irq.dat", 21, 0},
        {"v7_zstd_x86_64_16cpu_no_event_data.dat", 0, 0},
        {"v7_zstd_x86_64_4cpu_stacktraces.dat", 41400, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", TRACECMD_CORPUS_DIR, cases[i].file);
        bytes b = slurp(path);
        if (!b.p) {
            print_message("skipped (no corpus): %s\n", path);
            continue;
        }
        gt_timeline tl;
        gt_tl_buffer buf;
        gt_error err;
        warns w = {0};
        assert_int_equal(gt_timeline_init(&tl), 0);
        gt_tl_buffer_init(&buf);
        if (read_mem(b.p, b.n, false, &tl, &buf, &err, &w) != 0)
            fail_msg("%s: %s", cases[i].file, err.msg);
        uint64_t recs = 0, cs = 0;
        for (size_t k = 0; k < buf.count; k++) {
            gt_tl_kind kd = buf.events[k].kind;
            recs += kd != GT_TL_THREAD_NAME && kd != GT_TL_STACK_FRAME;
            cs += kd == GT_TL_CONTEXT_SWITCH;
        }
        assert_int_equal(recs, cases[i].records);
        if (cases[i].switches)
            assert_int_equal(cs, cases[i].switches);
        gt_tl_buffer_free(&buf);
        gt_timeline_free(&tl);
        free(b.p);
    }
}

/* The first sched_switch of the x86 file: "trace-cmd:90 [120] S ==> trace-cmd:91 [120]"
 * at 585.229564 on CPU 0. */
static void test_corpus_sched_switch(void **state)
{
    (void)state;
    bytes b = slurp(TRACECMD_CORPUS_DIR "/v6_x86qemu_1cpu_sched_switch.dat");
    if (!b.p)
        skip();
    gt_timeline tl;
    gt_tl_buffer buf;
    gt_error err;
    warns w = {0};
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer_init(&buf);
    assert_int_equal(read_mem(b.p, b.n, false, &tl, &buf, &err, &w), 0);
    const gt_tl_event *first = NULL;
    bool named = false;
    for (size_t k = 0; k < buf.count && !first; k++) {
        const gt_tl_event *ev = &buf.events[k];
        if (ev->kind == GT_TL_CONTEXT_SWITCH)
            first = ev;
        if (ev->kind == GT_TL_THREAD_NAME && ev->tid == 90 && !strcmp(str(&tl, ev->name), "trace-cmd"))
            named = true;
    }
    assert_non_null(first);
    assert_true(named);
    assert_int_equal((first->ts + 500) / 1000, 585229564); /* report rounds to microseconds */
    assert_int_equal(first->cs.cpu, 0);
    assert_int_equal(first->cs.out_tid, 90);
    assert_int_equal(first->cs.in_tid, 91);
    assert_int_equal(first->cs.out_prio, 120);
    assert_int_equal(first->cs.in_prio, 120);
    assert_int_equal(first->cs.out_state, 1); /* S */
    gt_tl_buffer_free(&buf);
    gt_timeline_free(&tl);
    free(b.p);
}

/* Compressed sections claiming absurd sizes, corrupt zstd data, CPU offsets
 * beyond the end (liberal: warned; strict: refused). */
static void test_corpus_damaged(void **state)
{
    (void)state;
    bytes b = slurp(TRACECMD_CORPUS_DIR "/v7_zstd_converted_from_v6_arm32_1cpu.dat");
    if (!b.p)
        skip();
    gt_timeline tl;
    gt_tl_buffer buf;
    gt_error err;
    warns w = {0};
    assert_int_equal(gt_timeline_init(&tl), 0);
    /* HEADER_INFO section at 37: header 16 bytes, then csize, rsize */
    put_le(b.p + 37 + 16 + 4, 0x7fffffff, 4);
    gt_tl_buffer_init(&buf);
    assert_int_equal(read_mem(b.p, b.n, false, &tl, &buf, &err, &w), -1);
    assert_non_null(strstr(err.msg, "offset 53: compressed section claims"));
    gt_tl_buffer_free(&buf);
    put_le(b.p + 37 + 16 + 4, 426, 4);
    b.p[37 + 16 + 8 + 20] ^= 0x55; /* inside the zstd frame */
    gt_tl_buffer_init(&buf);
    assert_int_equal(read_mem(b.p, b.n, false, &tl, &buf, &err, &w), -1);
    assert_non_null(strstr(err.msg, "offset 61: zstd"));
    gt_tl_buffer_free(&buf);
    b.p[37 + 16 + 8 + 20] ^= 0x55;
    /* cut the file inside the CPU data: liberal reads what is there */
    size_t cut = 688128 + 2000;
    gt_tl_buffer_init(&buf);
    w.n = 0;
    if (read_mem(b.p, cut, false, &tl, &buf, &err, &w) != 0)
        fail_msg("%s", err.msg);
    assert_true(w.n >= 1);
    gt_tl_buffer_free(&buf);
    gt_tl_buffer_init(&buf);
    assert_int_equal(read_mem(b.p, cut, true, &tl, &buf, &err, &w), -1);
    assert_non_null(strstr(err.msg, "truncated"));
    gt_tl_buffer_free(&buf);
    gt_timeline_free(&tl);
    free(b.p);
}

/* ---- decompression and files trace-cmd converted ---------------------------------------- */

static void test_zlib(void **state)
{
    (void)state;
    uint8_t src[5000], z[6000], out[5000];
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (uint8_t)(i * 7 % 13);
    uLongf zn = sizeof z;
    assert_int_equal(compress2(z, &zn, src, sizeof src, 6), Z_OK);
    size_t got;
    const char *why;
    assert_int_equal(tc_decompress(TC_COMP_ZLIB, z, zn, out, sizeof out, &got, &why), 0);
    assert_int_equal(got, sizeof src);
    assert_memory_equal(out, src, sizeof src);
    assert_int_equal(tc_decompress(TC_COMP_ZLIB, z, zn, out, 100, &got, &why), -1); /* larger than declared */
    assert_non_null(strstr(why, "larger"));
    z[zn / 2] ^= 0xff;
    assert_int_equal(tc_decompress(TC_COMP_ZLIB, z, zn, out, sizeof out, &got, &why), -1);
    assert_int_equal(tc_comp_from_name("zlib", 4), TC_COMP_ZLIB);
    assert_int_equal(tc_comp_from_name("lz4", 3), -1);
}

/* tracecmd_tool write OUT 20, that file through trace-cmd convert to v6 and to
 * zstd-compressed v7, and compressed with zlib by make_zlib_seed.py
 * (tests/fuzz/regressions_tracecmd/README). */
static void test_converted_seeds(void **state)
{
    (void)state;
    static const char *const files[] = {"seed_ours_v7.dat", "seed_converted_v6.dat", "seed_converted_v7_zstd.dat",
                                        "seed_zlib_v7.dat"};
    for (size_t f = 0; f < 4; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", TRACECMD_SEEDS_DIR, files[f]);
        bytes b = slurp(path);
        assert_non_null(b.p);
        gt_timeline tl;
        gt_tl_buffer buf;
        gt_error err;
        warns w = {0};
        assert_int_equal(gt_timeline_init(&tl), 0);
        gt_tl_buffer_init(&buf);
        if (read_mem(b.p, b.n, true, &tl, &buf, &err, &w) != 0)
            fail_msg("%s: %s", files[f], err.msg);
        unsigned calls = 0;
        for (size_t k = 0; k < buf.count; k++) {
            const gt_tl_event *ev = &buf.events[k];
            if (ev->kind != GT_TL_COMPLETE)
                continue;
            uint64_t no = ev->args[0].v.u;
            char name[32];
            snprintf(name, sizeof name, "glCall%u", (unsigned)no);
            assert_string_equal(str(&tl, ev->name), name);
            assert_int_equal(ev->dur, (int64_t)no * 10);
            assert_int_equal(ev->ts, 1000000 + (int64_t)no * 1000);
            calls++;
        }
        assert_int_equal(calls, 20);
        gt_tl_buffer_free(&buf);
        gt_timeline_free(&tl);
        free(b.p);
    }
}

/* ---- a merged timeline through FXT and Chrome JSON ----------------------------------------- */

/* Reads a .dat into buf (liberal). */
static void read_file_into(const char *path, gt_timeline *tl, gt_tl_buffer *buf)
{
    bytes b = slurp(path);
    assert_non_null(b.p);
    gt_error err;
    warns w = {0};
    if (read_mem(b.p, b.n, false, tl, buf, &err, &w) != 0)
        fail_msg("%s: %s", path, err.msg);
    free(b.p);
}

static void count_kinds(const gt_tl_buffer *b, gt_tl_counts *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < b->count; i++)
        c->n[b->events[i].kind]++;
}

/* The kernel events of a corpus .dat and the GL calls of a .dat we wrote, in one
 * timeline: the FXT writer's file reads back strictly with as many events of every
 * kind, the Chrome writer's with as many slices and instants. */
static void test_merged_fxt_chrome(void **state)
{
    (void)state;
    char kernel[1024];
    snprintf(kernel, sizeof kernel, "%s/v7_zstd_x86_64_4cpu_stacktraces.dat", TRACECMD_CORPUS_DIR);
    FILE *probe = fopen(kernel, "rb");
    if (!probe)
        skip();
    fclose(probe);
    gt_timeline tl;
    gt_tl_buffer in;
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer_init(&in);
    read_file_into(kernel, &tl, &in);
    read_file_into(TRACECMD_SEEDS_DIR "/seed_ours_v7.dat", &tl, &in);
    gt_tl_counts want;
    count_kinds(&in, &want);
    assert_true(want.n[GT_TL_CONTEXT_SWITCH] > 0 && want.n[GT_TL_COMPLETE] == 20 && want.n[GT_TL_INSTANT] > 0);
    for (int fmt = 0; fmt < 2; fmt++) {
        char *p = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&p, &n);
        assert_non_null(f);
        gt_error err;
        gt_error_clear(&err);
        gt_fxt_writer *fw = fmt == 0 ? gt_fxt_writer_open_stream(f, "m.fxt", NULL, &err) : NULL;
        gt_chrome_writer *cw = fmt == 1 ? gt_chrome_writer_open_stream(f, "m.json", &err) : NULL;
        assert_true(fw || cw);
        gt_tl_sink s = fw ? gt_fxt_writer_sink(fw) : gt_chrome_writer_sink(cw);
        if (gt_tl_buffer_replay(&in, &tl, &s, &err) != 0 || gt_tl_finish(&s, &tl, &err) != 0)
            fail_msg("write: %s", err.msg);
        gt_fxt_writer_free(fw);
        gt_chrome_writer_free(cw);
        assert_int_equal(fclose(f), 0);
        gt_tl_buffer out;
        gt_tl_buffer_init(&out);
        gt_tl_sink os = gt_tl_buffer_sink(&out);
        gt_tl_read_opts strict = {.strict = true};
        gt_error_clear(&err);
        int rc = fmt == 0 ? gt_fxt_read_mem((uint8_t *)p, n, "m.fxt", &tl, &os, &strict, &err)
                          : gt_chrome_read_mem((uint8_t *)p, n, "m.json", &tl, &os, &strict, &err);
        if (rc != 0)
            fail_msg("%s read back: %s", fmt ? "chrome" : "fxt", err.msg);
        gt_tl_counts got;
        count_kinds(&out, &got);
        assert_int_equal(got.n[GT_TL_COMPLETE], want.n[GT_TL_COMPLETE]);
        assert_int_equal(got.n[GT_TL_INSTANT], want.n[GT_TL_INSTANT]);
        if (fmt == 0)
            assert_int_equal(got.n[GT_TL_CONTEXT_SWITCH], want.n[GT_TL_CONTEXT_SWITCH]);
        gt_tl_buffer_free(&out);
        free(p);
    }
    gt_tl_buffer_free(&in);
    gt_timeline_free(&tl);
}

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

static void test_v6_big_endian_instances(void **state)
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

/* ftrace:function events name their ip and parent_ip through kallsyms; funcgraph
 * entry/exit become slices named by the function (a little-endian v6 file). */
static void test_v6_function_events(void **state)
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
