/* formats/tracecmd on real files: every corpus file read (records and sched_switch
 * counts as trace-cmd report gives them), damaged corpus files rejected, zlib and zstd
 * sections, files trace-cmd converted, and a merged timeline through FXT and Chrome
 * JSON. */
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
#include "test_tracecmd.h"

/* ---- the corpus ---------------------------------------------------------------------------- */

typedef struct corpus_case {
    const char *file;
    uint64_t records; /* trace-cmd report's event lines */
    uint64_t switches;
} corpus_case;

void test_corpus(void **state)
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
void test_corpus_sched_switch(void **state)
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
void test_corpus_damaged(void **state)
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

void test_zlib(void **state)
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
void test_converted_seeds(void **state)
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
void test_merged_fxt_chrome(void **state)
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

