/* Chrome JSON reader and writer on the shared corpus (real files from Catapult
 * and Perfetto): events per kind equal what test_chrome_counts.py finds with
 * Python's json module; JSON -> model -> JSON keeps every event, the output is
 * valid JSON for Python, reads back strictly and
 * writes again to the same text. */
#include "test_chrome_util.h"

#include "chrome_source.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct counts {
    uint64_t kind[GT_TL_KIND_COUNT];
    gt_chrome_read_stats st;
} counts;

/* Python's counts; returns its exit status (3: not a trace). */
static int python_counts(const char *path, counts *c)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "python3 %s '%s'", CHROME_COUNTS_PY, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    memset(c, 0, sizeof *c);
    char name[64];
    unsigned long long v;
    while (fscanf(p, "%63s %llu", name, &v) == 2) {
        bool known = true;
        if (!strcmp(name, "events")) c->st.events = v;
        else if (!strcmp(name, "metadata_other")) c->st.metadata_other = v;
        else if (!strcmp(name, "skipped")) c->st.skipped = v;
        else if (!strcmp(name, "v2_flows")) c->st.v2_flows = v;
        else {
            known = false;
            for (int k = 1; k < GT_TL_KIND_COUNT; k++)
                if (!strcmp(name, gt_tl_kind_name(k))) {
                    c->kind[k] = v;
                    known = true;
                }
        }
        if (!known)
            fail_msg("%s: python printed an unknown kind %s", path, name);
    }
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

static void python_accepts(const char *text)
{
    FILE *p = popen("python3 -c 'import json,sys; json.load(sys.stdin)'", "w");
    assert_non_null(p);
    fputs(text, p);
    assert_int_equal(pclose(p), 0);
}

static void kinds_of(const gt_tl_buffer *b, uint64_t *kind)
{
    memset(kind, 0, GT_TL_KIND_COUNT * sizeof *kind);
    for (size_t i = 0; i < b->count; i++)
        kind[b->events[i].kind]++;
}

static void one_file(const char *path)
{
    counts want, got;
    int py = python_counts(path, &want);
    size_t len;
    char *data = slurp(path, &len);
    gt_timeline tl;
    gt_timeline_init(&tl);
    gt_tl_buffer b;
    gt_error err;
    int rc = tc_read(&tl, data, len, false, &b, &got.st, &err);
    if (py == 3) { /* valid JSON, no trace: refused clearly */
        assert_int_equal(rc, -1);
        assert_non_null(strstr(err.msg, "not a Chrome trace"));
        goto out;
    }
    assert_int_equal(py, 0);
    if (rc != 0)
        fail_msg("%s", err.msg);
    kinds_of(&b, got.kind);
    for (int k = 1; k < GT_TL_KIND_COUNT; k++)
        if (got.kind[k] != want.kind[k])
            fail_msg("%s: %s: %llu, python %llu", path, gt_tl_kind_name(k),
                     (unsigned long long)got.kind[k], (unsigned long long)want.kind[k]);
    assert_int_equal(got.st.events, want.st.events);
    assert_int_equal(got.st.metadata_other, want.st.metadata_other);
    assert_int_equal(got.st.skipped, want.st.skipped);
    assert_int_equal(got.st.v2_flows, want.st.v2_flows);
    assert_int_equal(got.st.frames, want.kind[GT_TL_STACK_FRAME]);

    /* from the file, through a window that refills at every byte: the same events */
    for (size_t chunk = 1; chunk <= 4096; chunk *= 4096) {
        gt_tl_buffer fb;
        gt_tl_buffer_init(&fb);
        gt_tl_sink fs = gt_tl_buffer_sink(&fb);
        gt_tl_read_opts o = {0};
        cr_source_chunk = chunk;
        int frc = gt_chrome_read(path, &tl, &fs, &o, &err);
        cr_source_chunk = 256u << 10;
        if (frc != 0)
            fail_msg("%s by %zu bytes: %s", path, chunk, err.msg);
        assert_int_equal(fb.count, b.count);
        for (size_t i = 0; i < b.count; i++) {
            const char *why = tc_diff(&tl, &fb.events[i], &b.events[i]);
            if (why)
                fail_msg("%s by %zu bytes: event %zu: %s", path, chunk, i, why);
        }
        gt_tl_buffer_free(&fb);
    }

    /* JSON -> model -> JSON -> model -> JSON */
    char *out = tc_write(&tl, b.events, b.count);
    python_accepts(out);
    gt_tl_buffer again;
    if (tc_read(&tl, out, strlen(out), true, &again, NULL, &err) != 0)
        fail_msg("%s re-read: %s", path, err.msg);
    assert_int_equal(again.count, b.count);
    for (size_t i = 0; i < b.count; i++) {
        const char *why = tc_diff(&tl, &again.events[i], &b.events[i]);
        if (why && b.events[i].kind != GT_TL_STACK_FRAME) /* frames move to the end */
            fail_msg("%s: event %zu (%s) changed: %s", path, i, gt_tl_kind_name(b.events[i].kind), why);
    }
    char *out2 = tc_write(&tl, again.events, again.count);
    assert_string_equal(out2, out);
    free(out2);
    free(out);
    gt_tl_buffer_free(&again);
out:
    gt_tl_buffer_free(&b);
    gt_timeline_free(&tl);
    free(data);
}

static void corpus_files(void **state)
{
    (void)state;
    glob_t g;
    assert_int_equal(glob(CHROME_CORPUS_DIR "/*.json*", 0, NULL, &g), 0);
    assert_true(g.gl_pathc >= 17); /* MANIFEST.md lists 17 */
    for (size_t i = 0; i < g.gl_pathc; i++)
        one_file(g.gl_pathv[i]);
    globfree(&g);
}

/* Facts of single files that MANIFEST.md states. */
static void corpus_details(void **state)
{
    (void)state;
    gt_timeline tl;
    gt_timeline_init(&tl);
    gt_tl_counts c = {{0}};
    gt_tl_sink cs = gt_tl_counts_sink(&c);
    gt_error err;
    gt_error_clear(&err);
    gt_tl_read_opts o = {0};
    assert_int_equal(gt_chrome_read(CHROME_CORPUS_DIR "/catapult_simple_trace_gz.json.gz", &tl, &cs, &o, &err), 0);
    assert_int_equal(c.n[GT_TL_BEGIN] + c.n[GT_TL_END] + c.n[GT_TL_COMPLETE] + c.n[GT_TL_INSTANT] +
                         c.n[GT_TL_COUNTER] + c.n[GT_TL_SAMPLE] + c.n[GT_TL_THREAD_NAME], 35);
    memset(&c, 0, sizeof c);
    assert_int_equal(gt_chrome_read(CHROME_CORPUS_DIR "/catapult_flow.json", &tl, &cs, &o, &err), 0);
    assert_int_equal(c.n[GT_TL_BEGIN], 1625);
    assert_int_equal(c.n[GT_TL_END], 1622);
    assert_int_equal(c.n[GT_TL_FLOW_BEGIN], 866);
    assert_int_equal(c.n[GT_TL_FLOW_END], 886);
    assert_int_equal(gt_chrome_read(CHROME_CORPUS_DIR "/catapult_google_cloud_trace_NOT_TEF.json", &tl, &cs,
                                    &o, &err), -1);
    assert_string_equal(err.msg, CHROME_CORPUS_DIR "/catapult_google_cloud_trace_NOT_TEF.json: not a Chrome "
                                 "trace: the top-level object has no traceEvents (keys: \"projectId\", "
                                 "\"traceId\", \"spans\")");
    /* stack frames "1", "7", "8" keep their ids; "sf":"7" and "sf":8 point at them */
    gt_tl_buffer b;
    gt_tl_sink bs;
    gt_tl_buffer_init(&b);
    bs = gt_tl_buffer_sink(&b);
    gt_error_clear(&err);
    assert_int_equal(gt_chrome_read(CHROME_CORPUS_DIR "/catapult_flow_simple.json", &tl, &bs, &o, &err), 0);
    assert_int_equal(b.events[1].stack, 7);
    assert_int_equal(b.events[7].stack, 8);
    assert_int_equal(b.events[8].stack, 1);
    assert_int_equal(b.events[8].scope, GT_TL_FLOW_BIND_NEXT);
    assert_int_equal(b.events[1].id, 0x8780d402);
    const gt_tl_event *f = &b.events[b.count - 2];
    assert_int_equal(f->kind, GT_TL_STACK_FRAME);
    assert_int_equal(f->id, 7);
    assert_int_equal(f->parent, 1);
    assert_string_equal(gt_tl_str_get(&tl, f->name, NULL), "frame7");
    assert_string_equal(gt_tl_str_get(&tl, f->cat, NULL), "m2");
    gt_tl_buffer_free(&b);
    gt_timeline_free(&tl);
}

/* A long trace streams: 40 MB of events through a window of well under 1 MiB. */
static void long_trace_streams(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    fputs("{\"traceEvents\":[\n", f);
    size_t n = 300000;
    for (size_t i = 0; i < n; i++)
        fprintf(f, "{\"ph\":\"X\",\"ts\":%zu.%03zu,\"dur\":1.5,\"pid\":1,\"tid\":%zu,\"cat\":\"gl\","
                   "\"name\":\"glDrawArrays\",\"args\":{\"call\":%zu,\"mode\":\"GL_TRIANGLES\","
                   "\"note\":\"%s\"}},\n",
                i * 3, i % 1000, i % 4, i, "padding padding padding padding padding padding padding");
    fputs("{\"ph\":\"i\",\"ts\":0,\"pid\":1,\"tid\":1,\"name\":\"end\"}]}\n", f);
    long size = ftell(f);
    assert_true(size > 40000000);
    rewind(f);
    gt_timeline tl;
    gt_timeline_init(&tl);
    gt_tl_counts c = {{0}};
    gt_tl_sink cs = gt_tl_counts_sink(&c);
    gt_tl_read_opts o = {.strict = true};
    gt_chrome_read_stats st;
    gt_error err;
    gt_error_clear(&err);
    if (gt_chrome_read_stream(f, "long.json", &tl, &cs, &o, &st, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(c.n[GT_TL_COMPLETE], n);
    assert_int_equal(st.events, n + 1);
    assert_true(st.window > 0 && st.window <= (1u << 20));
    fclose(f);
    gt_timeline_free(&tl);
}

void test_chrome_corpus_register(struct CMUnitTest *t, size_t *n)
{
    t[(*n)++] = (struct CMUnitTest)cmocka_unit_test(corpus_files);
    t[(*n)++] = (struct CMUnitTest)cmocka_unit_test(corpus_details);
    t[(*n)++] = (struct CMUnitTest)cmocka_unit_test(long_trace_streams);
}
