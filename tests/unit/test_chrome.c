/* Chrome Trace Event JSON: the writer's exact text for every kind, string
 * escaping, nanosecond times, and write -> read -> compare of every kind and
 * argument type. Bad input: test_chrome_bad.c; the corpus: test_chrome_corpus.c. */
#include "test_chrome_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome_text.h"

static void line_is(gt_timeline *tl, const gt_tl_event *ev, const char *want)
{
    char *got = tc_line(tl, ev);
    assert_string_equal(got, want);
    free(got);
}

static void writer_text_per_kind(void **state)
{
    (void)state;
    gt_timeline tl;
    gt_timeline_init(&tl);
    gt_tl_arg call = {.name = S(&tl, "call"), .kind = GT_TL_ARG_I64, .v.i = 42};
    gt_tl_event x = {.kind = GT_TL_COMPLETE, .ts = 1234567, .dur = 1000, .pid = 1, .tid = 2,
                     .cat = S(&tl, "gl"), .name = S(&tl, "glDraw"), .nargs = 1, .args = &call};
    line_is(&tl, &x, "{\"ph\":\"X\",\"ts\":1234.567,\"dur\":1,\"pid\":1,\"tid\":2,\"cat\":\"gl\","
                     "\"name\":\"glDraw\",\"args\":{\"call\":42}}");
    gt_tl_event b = {.kind = GT_TL_BEGIN, .ts = 1, .pid = 1, .tid = 2, .name = S(&tl, "a"), .stack = 9};
    line_is(&tl, &b, "{\"ph\":\"B\",\"ts\":0.001,\"pid\":1,\"tid\":2,\"name\":\"a\",\"sf\":9}");
    gt_tl_event e = {.kind = GT_TL_END, .ts = -500, .pid = 1, .tid = 2};
    line_is(&tl, &e, "{\"ph\":\"E\",\"ts\":-0.5,\"pid\":1,\"tid\":2}");
    gt_tl_event i = {.kind = GT_TL_INSTANT, .ts = 1000, .pid = 1, .name = S(&tl, "frame"),
                     .scope = GT_TL_SCOPE_PROCESS};
    line_is(&tl, &i, "{\"ph\":\"i\",\"ts\":1,\"pid\":1,\"tid\":0,\"name\":\"frame\",\"s\":\"p\"}");
    i.scope = GT_TL_SCOPE_GLOBAL;
    line_is(&tl, &i, "{\"ph\":\"i\",\"ts\":1,\"pid\":1,\"tid\":0,\"name\":\"frame\",\"s\":\"g\"}");
    gt_tl_arg series[2] = {{.name = S(&tl, "used"), .kind = GT_TL_ARG_DOUBLE, .v.d = 1.5},
                           {.name = S(&tl, "free"), .kind = GT_TL_ARG_U64, .v.u = 3}};
    gt_tl_event c = {.kind = GT_TL_COUNTER, .ts = 1000, .pid = 1, .name = S(&tl, "mem"), .id = 7,
                     .nargs = 2, .args = series};
    line_is(&tl, &c, "{\"ph\":\"C\",\"ts\":1,\"pid\":1,\"tid\":0,\"name\":\"mem\",\"id\":\"0x7\","
                     "\"args\":{\"used\":1.5,\"free\":3}}");
    c.id = 0;
    c.nargs = 0;
    line_is(&tl, &c, "{\"ph\":\"C\",\"ts\":1,\"pid\":1,\"tid\":0,\"name\":\"mem\",\"args\":{}}");
    static const struct { gt_tl_kind k; const char *ph; } idk[] = {
        {GT_TL_ASYNC_BEGIN, "b"}, {GT_TL_ASYNC_INSTANT, "n"}, {GT_TL_ASYNC_END, "e"},
        {GT_TL_FLOW_BEGIN, "s"},  {GT_TL_FLOW_STEP, "t"},
    };
    for (size_t k = 0; k < sizeof idk / sizeof idk[0]; k++) {
        gt_tl_event a = {.kind = idk[k].k, .ts = 2000, .pid = 1, .tid = 2, .cat = S(&tl, "c"),
                         .name = S(&tl, "req"), .id = 0xff};
        char want[256];
        snprintf(want, sizeof want, "{\"ph\":\"%s\",\"ts\":2,\"pid\":1,\"tid\":2,\"cat\":\"c\","
                                    "\"name\":\"req\",\"id\":\"0xff\"}", idk[k].ph);
        line_is(&tl, &a, want);
    }
    gt_tl_event f = {.kind = GT_TL_FLOW_END, .ts = 3000, .pid = 1, .tid = 2, .name = S(&tl, "q"),
                     .id = UINT64_MAX};
    line_is(&tl, &f, "{\"ph\":\"f\",\"ts\":3,\"pid\":1,\"tid\":2,\"name\":\"q\","
                     "\"id\":\"0xffffffffffffffff\",\"bp\":\"e\"}");
    f.scope = GT_TL_FLOW_BIND_NEXT;
    line_is(&tl, &f, "{\"ph\":\"f\",\"ts\":3,\"pid\":1,\"tid\":2,\"name\":\"q\","
                     "\"id\":\"0xffffffffffffffff\"}");
    const char *snap = "{\"a\":[1,2,{\"b\":null}]}";
    gt_tl_arg sa = {.name = S(&tl, "snapshot"), .kind = GT_TL_ARG_JSON,
                    .v.s = {snap, (uint32_t)strlen(snap)}};
    gt_tl_event o = {.kind = GT_TL_OBJECT, .ts = 0, .pid = 1, .tid = 1, .name = S(&tl, "Obj"),
                     .id = 0x1000, .scope = 'O', .nargs = 1, .args = &sa};
    line_is(&tl, &o, "{\"ph\":\"O\",\"ts\":0,\"pid\":1,\"tid\":1,\"name\":\"Obj\",\"id\":\"0x1000\","
                     "\"args\":{\"snapshot\":{\"a\":[1,2,{\"b\":null}]}}}");
    /* verbatim JSON keeps escaped lone surrogates; bytes that are not UTF-8 become U+FFFD */
    const char *odd = "[\"\\ud800\",\"x\xffy\"]";
    gt_tl_arg oa = {.name = S(&tl, "odd"), .kind = GT_TL_ARG_JSON, .v.s = {odd, (uint32_t)strlen(odd)}};
    gt_tl_event oe = {.kind = GT_TL_INSTANT, .nargs = 1, .args = &oa};
    line_is(&tl, &oe, "{\"ph\":\"i\",\"ts\":0,\"pid\":0,\"tid\":0,\"name\":\"\",\"s\":\"t\","
                      "\"args\":{\"odd\":[\"\\ud800\",\"x\xef\xbf\xbdy\"]}}");
    o.scope = 'D';
    o.nargs = 0;
    line_is(&tl, &o, "{\"ph\":\"D\",\"ts\":0,\"pid\":1,\"tid\":1,\"name\":\"Obj\",\"id\":\"0x1000\"}");
    gt_tl_event p = {.kind = GT_TL_SAMPLE, .ts = 5, .pid = 1, .tid = 2, .name = S(&tl, "s"), .stack = 3};
    line_is(&tl, &p, "{\"ph\":\"P\",\"ts\":0.005,\"pid\":1,\"tid\":2,\"name\":\"s\",\"sf\":3}");
    gt_tl_event pn = {.kind = GT_TL_PROCESS_NAME, .pid = 1, .name = S(&tl, "game")};
    line_is(&tl, &pn, "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"game\"}}");
    gt_tl_event tn = {.kind = GT_TL_THREAD_NAME, .pid = 7, .tid = GT_TL_GPU_TID(7), .name = S(&tl, "GPU")};
    char want[256];
    snprintf(want, sizeof want, "{\"ph\":\"M\",\"pid\":7,\"tid\":\"%llu\",\"name\":\"thread_name\","
             "\"args\":{\"name\":\"GPU\"}}", (unsigned long long)GT_TL_GPU_TID(7));
    line_is(&tl, &tn, want);
    gt_tl_event cs = {.kind = GT_TL_CONTEXT_SWITCH, .ts = 1000,
                      .cs = {.cpu = 3, .out_state = 1, .out_pid = 10, .out_tid = 11, .in_pid = 20,
                             .in_tid = 21, .out_prio = -2, .in_prio = 120}};
    snprintf(want, sizeof want, "{\"ph\":\"i\",\"ts\":1,\"pid\":\"%llu\",\"tid\":3,\"s\":\"t\","
             "\"cat\":\"gltrace.context_switch\",\"name\":\"context_switch\",\"args\":{\"cpu\":3,"
             "\"out_state\":1,\"out_pid\":10,\"out_tid\":11,\"out_prio\":-2,\"in_pid\":20,"
             "\"in_tid\":21,\"in_prio\":120}}", (unsigned long long)GT_TL_CPU_PID);
    line_is(&tl, &cs, want);
    gt_timeline_free(&tl);
}

static void writer_document(void **state)
{
    (void)state;
    gt_timeline tl;
    gt_timeline_init(&tl);
    char *doc = tc_write(&tl, NULL, 0);
    assert_string_equal(doc, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n],\n\"stackFrames\":{}}\n");
    free(doc);
    gt_tl_event fr[3] = {
        {.kind = GT_TL_STACK_FRAME, .id = 2, .parent = 1, .name = S(&tl, "draw"), .cat = S(&tl, "game")},
        {.kind = GT_TL_STACK_FRAME, .id = 1, .name = S(&tl, "main"), .cat = S(&tl, "game")},
        {.kind = GT_TL_STACK_FRAME, .id = 2, .parent = 1, .name = S(&tl, "draw"), .cat = S(&tl, "game")},
    };
    fr[0].name = S(&tl, "replaced"); /* a frame defined again: the later wins, as in JSON */
    tl.has_wall = true;
    tl.wall_offset_ns = -5;
    tl.has_mono = true;
    tl.mono_offset_ns = 9223372036854775807ll;
    doc = tc_write(&tl, fr, 3);
    assert_string_equal(doc, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n],\n\"stackFrames\":{\n"
                             "\"1\":{\"name\":\"main\",\"category\":\"game\"},\n"
                             "\"2\":{\"name\":\"draw\",\"category\":\"game\",\"parent\":\"1\"}},\n"
                             "\"metadata\":{\"gltrace_wall_offset_ns\":\"-5\","
                             "\"gltrace_mono_offset_ns\":\"9223372036854775807\"}}\n");
    /* the anchors and the frames come back */
    tl.has_wall = tl.has_mono = false;
    gt_tl_buffer b;
    gt_error err;
    assert_int_equal(tc_read(&tl, doc, strlen(doc), true, &b, NULL, &err), 0);
    assert_true(tl.has_wall);
    assert_int_equal(tl.wall_offset_ns, -5);
    assert_true(tl.has_mono);
    assert_int_equal(tl.mono_offset_ns, 9223372036854775807ll);
    assert_int_equal(b.count, 2);
    assert_null(tc_diff(&tl, &b.events[0], &fr[1]));
    assert_null(tc_diff(&tl, &b.events[1], &fr[2]));
    gt_tl_buffer_free(&b);
    free(doc);
    gt_timeline_free(&tl);
}

static void writer_refuses(void **state)
{
    (void)state;
    gt_timeline tl;
    gt_timeline_init(&tl);
    gt_error err;
    gt_error_clear(&err);
    FILE *f = tmpfile();
    gt_chrome_writer *w = gt_chrome_writer_open_stream(f, "x.json", &err);
    gt_tl_sink s = gt_chrome_writer_sink(w);
    gt_tl_arg bad = {.name = S(&tl, "j"), .kind = GT_TL_ARG_JSON, .v.s = {"{\"a\":", 5}};
    gt_tl_event o = {.kind = GT_TL_OBJECT, .scope = 'X', .name = 1};
    assert_int_equal(gt_tl_emit(&s, &tl, &o, &err), -1);
    assert_non_null(strstr(err.msg, "cannot write a object event"));
    gt_error_clear(&err);
    gt_tl_event j = {.kind = GT_TL_INSTANT, .nargs = 1, .args = &bad};
    assert_int_equal(gt_tl_emit(&s, &tl, &j, &err), -1);
    assert_non_null(strstr(err.msg, "not one valid JSON value"));
    gt_error_clear(&err);
    gt_chrome_writer_free(w);
    fclose(f);
    gt_timeline_free(&tl);
}

static void escaped_is(const char *s, size_t n, const char *want)
{
    gt_strbuf b;
    gt_strbuf_init(&b);
    gt_json_string(&b, s, n);
    gt_strbuf_putc(&b, '\0');
    assert_string_equal(b.data, want);
    gt_strbuf_free(&b);
}

static void string_escaping(void **state)
{
    (void)state;
    escaped_is("plain", 5, "\"plain\"");
    escaped_is("a\"b\\c/d", 7, "\"a\\\"b\\\\c/d\"");
    escaped_is("\x01\n\t\x1f\x7f", 5, "\"\\u0001\\u000a\\u0009\\u001f\\u007f\"");
    escaped_is("nul\0in", 6, "\"nul\\u0000in\"");
    escaped_is("caf\xc3\xa9 \xf0\x9f\x98\x80 \xe2\x80\xa8", 14, "\"caf\xc3\xa9 \xf0\x9f\x98\x80 \xe2\x80\xa8\"");
    /* not UTF-8: each bad byte becomes U+FFFD */
    escaped_is("\xff", 1, "\"\xef\xbf\xbd\"");
    escaped_is("a\xc3", 2, "\"a\xef\xbf\xbd\"");                              /* cut sequence */
    escaped_is("\xc0\xaf", 2, "\"\xef\xbf\xbd\xef\xbf\xbd\"");               /* overlong */
    escaped_is("\xed\xa0\x80", 3, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""); /* surrogate */
    escaped_is("\xf4\x90\x80\x80", 4, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
}

/* The reader decodes every escape: \u (surrogate pairs, NUL), the short ones;
 * a lone surrogate becomes U+FFFD in liberal mode. */
static void string_unescaping(void **state)
{
    (void)state;
    const char *doc = "{\"traceEvents\":[{\"ph\":\"i\",\"ts\":1,\"name\":\"n\\u00e9\","
                      "\"args\":{\"s\":\"\\u00e9\\ud83d\\ude00\\u0000\\n\\\"\\\\\\/\\b\\f\\r\\t\\u20AC\","
                      "\"lone\":\"a\\udc00b\\ud800\"}}]}";
    gt_timeline tl;
    gt_timeline_init(&tl);
    gt_tl_buffer b;
    gt_error err;
    if (tc_read(&tl, doc, strlen(doc), false, &b, NULL, &err) != 0)
        fail_msg("%s", err.msg);
    const gt_tl_event *e = &b.events[0];
    assert_string_equal(gt_tl_str_get(&tl, e->name, NULL), "n\xc3\xa9");
    static const char want[] = "\xc3\xa9\xf0\x9f\x98\x80\0\n\"\\/\b\f\r\t\xe2\x82\xac";
    assert_int_equal(e->args[0].v.s.len, sizeof want - 1);
    assert_memory_equal(e->args[0].v.s.p, want, sizeof want - 1);
    assert_int_equal(e->args[1].v.s.len, 8);
    assert_memory_equal(e->args[1].v.s.p, "a\xef\xbf\xbd" "b\xef\xbf\xbd", 8);
    gt_tl_buffer_free(&b);
    gt_timeline_free(&tl);
}

/* Odd strings as names, categories and values survive a write and a read,
 * and python's json module accepts the document. */
static void odd_strings_round_trip(void **state)
{
    (void)state;
    gt_timeline tl;
    gt_timeline_init(&tl);
    size_t big = 1 << 20;
    char *longs = malloc(big);
    for (size_t i = 0; i < big; i++)
        longs[i] = "ab\"\\\n\x01\xc3\xa9 z"[i % 10];
    longs[big - 1] = 'z'; /* no cut \xc3 at the end */
    if (longs[big - 2] == '\xc3')
        longs[big - 2] = 'y';
    static const char *odd[] = {"\"quoted\"", "back\\slash", "ctl\x01\x02\x1b", "tab\tnl\n",
                                "\xe6\x97\xa5\xe6\x9c\xac", "\xf0\x9f\x8e\xae", "", "}]\",{["};
    gt_tl_arg args[9];
    for (size_t i = 0; i < 8; i++)
        args[i] = (gt_tl_arg){.name = S(&tl, odd[(i + 1) % 8][0] ? odd[(i + 1) % 8] : "empty"),
                              .kind = GT_TL_ARG_STRING, .v.s = {odd[i], (uint32_t)strlen(odd[i])}};
    args[8] = (gt_tl_arg){.name = S(&tl, "long"), .kind = GT_TL_ARG_STRING, .v.s = {longs, (uint32_t)big}};
    gt_tl_event ev = {.kind = GT_TL_INSTANT, .ts = 1, .pid = 1, .tid = 1, .cat = S(&tl, odd[0]),
                      .name = S(&tl, odd[2]), .nargs = 9, .args = args};
    char *doc = tc_write(&tl, &ev, 1);
    gt_tl_buffer b;
    gt_error err;
    if (tc_read(&tl, doc, strlen(doc), true, &b, NULL, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(b.count, 1);
    const char *why = tc_diff(&tl, &b.events[0], &ev);
    if (why)
        fail_msg("%s", why);
    gt_tl_buffer_free(&b);
    /* invalid UTF-8 comes back as U+FFFD */
    gt_tl_arg bad = {.name = S(&tl, "bad"), .kind = GT_TL_ARG_STRING, .v.s = {"x\xffy", 3}};
    gt_tl_event ev2 = {.kind = GT_TL_INSTANT, .nargs = 1, .args = &bad};
    char *doc2 = tc_write(&tl, &ev2, 1);
    assert_int_equal(tc_read(&tl, doc2, strlen(doc2), true, &b, NULL, &err), 0);
    assert_int_equal(b.events[0].args[0].v.s.len, 5);
    assert_memory_equal(b.events[0].args[0].v.s.p, "x\xef\xbf\xbdy", 5);
    gt_tl_buffer_free(&b);
    char path[] = "/tmp/test_chrome_oddXXXXXX";
    const char *dir = getenv("TMPDIR");
    char tmpl[512];
    snprintf(tmpl, sizeof tmpl, "%s/test_chrome_oddXXXXXX", dir ? dir : "/tmp");
    (void)path;
    int fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(doc, f);
    fclose(f);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding=\"utf-8\"))' %s", tmpl);
    assert_int_equal(system(cmd), 0);
    remove(tmpl);
    free(doc);
    free(doc2);
    free(longs);
    gt_timeline_free(&tl);
}

static void us_is(int64_t ns, const char *want)
{
    gt_strbuf b;
    gt_strbuf_init(&b);
    ct_us(&b, ns);
    gt_strbuf_putc(&b, '\0');
    assert_string_equal(b.data, want);
    gt_strbuf_free(&b);
}

static int64_t read_ts(const char *num, const char **error)
{
    char doc[256];
    snprintf(doc, sizeof doc, "{\"traceEvents\":[{\"ph\":\"i\",\"ts\":%s,\"pid\":1,\"tid\":1}]}", num);
    gt_timeline tl;
    gt_timeline_init(&tl);
    gt_tl_buffer b;
    static gt_error err;
    int64_t ts = INT64_MIN + 12345;
    *error = NULL;
    if (tc_read(&tl, doc, strlen(doc), false, &b, NULL, &err) == 0)
        ts = b.events[0].ts;
    else
        *error = err.msg;
    gt_tl_buffer_free(&b);
    gt_timeline_free(&tl);
    return ts;
}

static void ts_is(const char *num, int64_t want)
{
    const char *error;
    int64_t got = read_ts(num, &error);
    if (error)
        fail_msg("%s: %s", num, error);
    if (got != want)
        fail_msg("%s: %lld ns, want %lld", num, (long long)got, (long long)want);
}

static void nanosecond_times(void **state)
{
    (void)state;
    us_is(0, "0");
    us_is(1, "0.001");
    us_is(999, "0.999");
    us_is(1000, "1");
    us_is(1234567, "1234.567");
    us_is(1234500, "1234.5");
    us_is(-1, "-0.001");
    us_is(-1500, "-1.5");
    us_is(INT64_MAX, "9223372036854775.807");
    us_is(INT64_MIN, "-9223372036854775.808");
    ts_is("1234.567", 1234567);
    ts_is("829", 829000);
    ts_is("0.001", 1);
    ts_is("-0.5", -500);
    ts_is("1e3", 1000000);
    ts_is("1.5E-3", 2);     /* 1.5 ns: half away from zero */
    ts_is("-0.0015", -2);
    ts_is("0.0004", 0);
    ts_is("1e-400", 0);
    ts_is("0.00000000000000000000001e23", 1000);
    ts_is("123456789012.3456789", 123456789012346); /* .6789 ns rounds up */
    ts_is("9223372036854775.807", INT64_MAX);
    ts_is("-9223372036854775.808", INT64_MIN);
    ts_is("\"12.5\"", 12500); /* a string in liberal mode */
    const char *error;
    read_ts("9223372036854775.808", &error);
    assert_non_null(error);
    assert_string_equal(error, "t.json: offset 31: ts out of range");
    read_ts("1e400", &error);
    assert_string_equal(error, "t.json: offset 31: ts out of range");
    read_ts("99999999999999999999999", &error);
    assert_string_equal(error, "t.json: offset 31: ts out of range");
    /* every ns value written reads back as itself */
    gt_timeline tl;
    gt_timeline_init(&tl);
    int64_t vals[] = {0, 1, -1, 999, 1001, 123456789, -987654321, INT64_MAX, INT64_MIN, INT64_MAX - 999};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        gt_tl_event x = {.kind = GT_TL_COMPLETE, .ts = vals[i], .dur = vals[(i + 3) % 10], .name = 1};
        S(&tl, "x");
        char *doc = tc_write(&tl, &x, 1);
        gt_tl_buffer b;
        gt_error err;
        if (tc_read(&tl, doc, strlen(doc), true, &b, NULL, &err) != 0)
            fail_msg("%s", err.msg);
        assert_int_equal(b.events[0].ts, vals[i]);
        assert_int_equal(b.events[0].dur, vals[(i + 3) % 10]);
        gt_tl_buffer_free(&b);
        free(doc);
    }
    gt_timeline_free(&tl);
}

/* Every kind and every argument type: written, read back strictly, equal
 * (argument types as JSON keeps them: integers I64 or U64, pointers strings). */
static void every_kind_round_trips(void **state)
{
    (void)state;
    gt_timeline tl;
    gt_timeline_init(&tl);
    const char *json = "[1,{\"k\":\"v\"},null]";
    gt_tl_arg in[] = {
        {.name = S(&tl, "null"), .kind = GT_TL_ARG_NULL},
        {.name = S(&tl, "i32"), .kind = GT_TL_ARG_I32, .v.i = -7},
        {.name = S(&tl, "u32"), .kind = GT_TL_ARG_U32, .v.u = 4000000000u},
        {.name = S(&tl, "i64"), .kind = GT_TL_ARG_I64, .v.i = INT64_MIN},
        {.name = S(&tl, "u64"), .kind = GT_TL_ARG_U64, .v.u = UINT64_MAX},
        {.name = S(&tl, "double"), .kind = GT_TL_ARG_DOUBLE, .v.d = 0.1},
        {.name = S(&tl, "whole"), .kind = GT_TL_ARG_DOUBLE, .v.d = 2.0},
        {.name = S(&tl, "tiny"), .kind = GT_TL_ARG_DOUBLE, .v.d = -5e-324},
        {.name = S(&tl, "string"), .kind = GT_TL_ARG_STRING, .v.s = {"s\"t", 3}},
        {.name = S(&tl, "pointer"), .kind = GT_TL_ARG_POINTER, .v.u = 0xdeadbeef},
        {.name = S(&tl, "koid"), .kind = GT_TL_ARG_KOID, .v.u = 1234},
        {.name = S(&tl, "bool"), .kind = GT_TL_ARG_BOOL, .v.b = true},
        {.name = S(&tl, "json"), .kind = GT_TL_ARG_JSON, .v.s = {json, (uint32_t)strlen(json)}},
    };
    gt_tl_arg want[sizeof in / sizeof in[0]];
    memcpy(want, in, sizeof in);
    want[1].kind = want[3].kind = want[10].kind = want[2].kind = GT_TL_ARG_I64;
    want[2].v.i = 4000000000;
    want[10].v.i = 1234;
    want[9].kind = GT_TL_ARG_STRING;
    want[9].v.s = (gt_tl_bytes){"0xdeadbeef", 10};
    uint32_t na = sizeof in / sizeof in[0];
    gt_tl_str c = S(&tl, "cat"), n = S(&tl, "name");
    uint64_t gpu = GT_TL_GPU_TID(77);
    gt_tl_event ev[] = {
        {.kind = GT_TL_PROCESS_NAME, .pid = 77, .name = S(&tl, "game")},
        {.kind = GT_TL_THREAD_NAME, .pid = 77, .tid = gpu, .name = S(&tl, "GPU")},
        {.kind = GT_TL_STACK_FRAME, .id = 1, .name = S(&tl, "main"), .cat = S(&tl, "game")},
        {.kind = GT_TL_STACK_FRAME, .id = 2, .parent = 1, .name = S(&tl, "draw"), .cat = S(&tl, "libGL")},
        {.kind = GT_TL_COMPLETE, .ts = 10, .dur = 5, .pid = 77, .tid = gpu, .cat = c, .name = n,
         .stack = 2, .nargs = na, .args = in},
        {.kind = GT_TL_BEGIN, .ts = -3, .pid = 77, .tid = 78, .cat = c, .name = n, .nargs = na, .args = in},
        {.kind = GT_TL_END, .ts = 4, .pid = 77, .tid = 78},
        {.kind = GT_TL_BEGIN, .ts = 5, .pid = 77, .tid = 78, .name = n},
        {.kind = GT_TL_END, .ts = 6, .pid = 77, .tid = 78, .name = n, .cat = c},
        {.kind = GT_TL_INSTANT, .ts = 7, .pid = 77, .tid = 78, .name = n, .scope = GT_TL_SCOPE_THREAD, .stack = 1},
        {.kind = GT_TL_INSTANT, .ts = 7, .pid = 77, .name = n, .scope = GT_TL_SCOPE_PROCESS},
        {.kind = GT_TL_INSTANT, .ts = 7, .name = n, .scope = GT_TL_SCOPE_GLOBAL},
        {.kind = GT_TL_COUNTER, .ts = 8, .pid = 77, .name = n, .nargs = 2, .args = &want[5]},
        {.kind = GT_TL_COUNTER, .ts = 8, .pid = 77, .name = n, .id = 3, .nargs = 1, .args = &want[1]},
        {.kind = GT_TL_ASYNC_BEGIN, .ts = 9, .pid = 77, .tid = 78, .cat = c, .name = n, .id = 1ull << 60},
        {.kind = GT_TL_ASYNC_INSTANT, .ts = 9, .pid = 77, .tid = 78, .cat = c, .name = n, .id = 1ull << 60},
        {.kind = GT_TL_ASYNC_END, .ts = 9, .pid = 77, .tid = 79, .cat = c, .name = n, .id = 1ull << 60},
        {.kind = GT_TL_FLOW_BEGIN, .ts = 10, .pid = 77, .tid = 78, .cat = c, .name = n, .id = 5},
        {.kind = GT_TL_FLOW_STEP, .ts = 11, .pid = 77, .tid = 78, .cat = c, .name = n, .id = 5},
        {.kind = GT_TL_FLOW_END, .ts = 12, .pid = 77, .tid = 78, .cat = c, .name = n, .id = 5},
        {.kind = GT_TL_FLOW_END, .ts = 12, .pid = 77, .tid = 78, .name = n, .id = 6,
         .scope = GT_TL_FLOW_BIND_NEXT},
        {.kind = GT_TL_OBJECT, .ts = 13, .pid = 77, .tid = 78, .name = n, .id = 0x1000, .scope = 'N'},
        {.kind = GT_TL_OBJECT, .ts = 14, .pid = 77, .tid = 78, .name = n, .id = 0x1000, .scope = 'O',
         .nargs = 1, .args = &in[12]},
        {.kind = GT_TL_OBJECT, .ts = 15, .pid = 77, .tid = 78, .name = n, .id = 0x1000, .scope = 'D'},
        {.kind = GT_TL_SAMPLE, .ts = 16, .pid = 77, .tid = 78, .cat = c, .name = n, .stack = 2},
        {.kind = GT_TL_CONTEXT_SWITCH, .ts = 17,
         .cs = {.cpu = 2, .out_state = 3, .out_pid = 77, .out_tid = 78, .out_prio = -20, .in_pid = 0,
                .in_tid = 0, .in_prio = 139}},
    };
    size_t nev = sizeof ev / sizeof ev[0];
    char *doc = tc_write(&tl, ev, nev);
    gt_tl_buffer b;
    gt_error err;
    if (tc_read(&tl, doc, strlen(doc), true, &b, NULL, &err) != 0)
        fail_msg("%s", err.msg);
    /* frames come last: the writer keeps them for the end */
    assert_int_equal(b.count, nev);
    size_t j = 0;
    for (size_t i = 0; i < nev; i++) {
        if (ev[i].kind == GT_TL_STACK_FRAME)
            continue;
        gt_tl_event w = ev[i];
        if (w.args == in)
            w.args = want;
        const char *why = tc_diff(&tl, &b.events[j], &w);
        if (why)
            fail_msg("event %zu (%s): %s", i, gt_tl_kind_name(ev[i].kind), why);
        j++;
    }
    assert_null(tc_diff(&tl, &b.events[j], &ev[2]));
    assert_null(tc_diff(&tl, &b.events[j + 1], &ev[3]));
    /* and the model written again is the same text */
    char *again = tc_write(&tl, b.events, b.count);
    assert_string_equal(again, doc);
    free(again);
    gt_tl_buffer_free(&b);
    free(doc);
    gt_timeline_free(&tl);
}

int main(void)
{
    struct CMUnitTest tests[64] = {
        cmocka_unit_test(writer_text_per_kind),
        cmocka_unit_test(writer_document),
        cmocka_unit_test(writer_refuses),
        cmocka_unit_test(string_escaping),
        cmocka_unit_test(string_unescaping),
        cmocka_unit_test(odd_strings_round_trip),
        cmocka_unit_test(nanosecond_times),
        cmocka_unit_test(every_kind_round_trips),
    };
    size_t n = 8;
    test_chrome_bad_register(tests, &n);
    test_chrome_corpus_register(tests, &n);
    return _cmocka_run_group_tests("chrome", tests, n, NULL, NULL);
}
