/* Chrome JSON reader on bad input: malformed JSON with its offset, valid JSON
 * that is no trace, deviations read with a warning (liberal) or refused
 * (strict), bounds on nesting and on gzip inflation. */
#include "test_chrome_util.h"

#include "chrome_json.h"
#include "chrome_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct bad_case {
    const char *text;
    const char *error; /* liberal mode: exact message, "" = reads */
} bad_case;

#define EV "{\"traceEvents\":["

static const bad_case malformed[] = {
    {"", "t.json: offset 0: empty input"},
    {"  \n", "t.json: offset 3: empty input"},
    {"<html>", "t.json: offset 0: not JSON: expected [ or {"},
    /* truncated */
    {EV "{\"ph\":\"X\",\"ts\":1", "t.json: offset 32: unexpected end of input"},
    {EV "{\"ph\":\"X\",\"ts\":1,\"dur\":2}", "t.json: offset 41: unexpected end of input in traceEvents"},
    {EV "{\"ph\":\"i\",\"ts\":1}]", "t.json: offset 34: unexpected end of input"},
    {EV "{\"ph\":\"i\",\"name\":\"abc", "t.json: offset 33: unterminated string"},
    {"[{\"ph\":\"i\",\"ts\":1,", "t.json: offset 18: unexpected end of input"},
    /* bad tokens */
    {EV "{\"ph\":\"i\",\"ts\":1,\"name\":nope}]}", "t.json: offset 40: bad literal"},
    {EV "{\"ph\":\"i\",\"ts\":01}]}", "t.json: offset 31: bad number"},
    {EV "{\"ph\":\"i\",\"ts\":1.}]}", "t.json: offset 31: bad number"},
    {EV "{\"ph\":\"i\",\"ts\":-}]}", "t.json: offset 31: bad number"},
    {EV "{\"ph\":\"i\" \"ts\":1}]}", "t.json: offset 26: expected , or } in an object"},
    {EV "{\"ph\":\"i\",\"ts\" 1}]}", "t.json: offset 31: expected : after a key"},
    {EV "{ph:\"i\"}]}", "t.json: offset 17: expected a key string in an object"},
    {EV "{\"ph\":\"i\",\"ts\":1} {}]}", "t.json: offset 34: expected , or ] after an event"},
    {EV "{\"ph\":\"i\",\"name\":\"a\x01\"}]}", "t.json: offset 35: control character in a string"},
    {EV "{\"ph\":\"i\",\"name\":\"a\\x\"}]}", "t.json: offset 35: bad escape in a string"},
    {EV "{\"ph\":\"i\",\"name\":\"a\\u12g4\"}]}", "t.json: offset 35: bad \\u escape in a string"},
    /* wrong types */
    {EV "{\"ph\":\"i\",\"ts\":true}]}", "t.json: offset 31: ts is not a number"},
    {EV "{\"ph\":\"i\",\"ts\":\"abc\"}]}", "t.json: offset 31: ts is not a number"},
    {EV "{\"ph\":\"X\",\"ts\":1,\"dur\":[1]}]}", "t.json: offset 39: dur is not a number"},
    {EV "{\"ph\":7,\"ts\":1}]}", "t.json: offset 22: ph is not a one-character string"},
    {EV "{\"ph\":\"XX\",\"ts\":1}]}", "t.json: offset 22: ph is not a one-character string"},
    {EV "{\"ts\":1}]}", "t.json: offset 16: event without ph"},
    {EV "{\"ph\":\"i\",\"ts\":1,\"pid\":1.5}]}", "t.json: offset 39: pid is not a whole number"},
    {EV "{\"ph\":\"i\",\"ts\":1,\"tid\":{}}]}", "t.json: offset 39: tid is not a number or a string"},
    {EV "{\"ph\":\"i\",\"ts\":1,\"name\":3}]}", "t.json: offset 40: name is not a string"},
    {EV "{\"ph\":\"b\",\"ts\":1,\"id\":true}]}", "t.json: offset 38: id is not a string or a number"},
    {EV "3]}", "t.json: offset 16: expected an event object"},
    {"{\"traceEvents\":{}}", "t.json: offset 15: not a Chrome trace: traceEvents is not an array"},
    {"{\"traceEvents\":[],\"stackFrames\":[]}", "t.json: offset 32: stackFrames is not an object"},
    {"{\"traceEvents\":[],\"stackFrames\":{\"1\":{\"name\":1}}}", "t.json: offset 45: stack frame name or category is not a string"},
    /* absurd numbers */
    {EV "{\"ph\":\"i\",\"ts\":1e999999999999}]}", "t.json: offset 31: ts out of range"},
    {EV "{\"ph\":\"i\",\"ts\":1,\"pid\":123456789012345678901234567890}]}", "t.json: offset 39: pid is not a whole number"},
    {EV "{\"ph\":\"X\",\"ts\":1,\"dur\":-1e30}]}", "t.json: offset 39: dur out of range"},
    /* valid JSON, not a trace */
    {"{\"projectId\":\"p\",\"spans\":[]}",
     "t.json: not a Chrome trace: the top-level object has no traceEvents (keys: \"projectId\", \"spans\")"},
    {"{}", "t.json: not a Chrome trace: the top-level object has no traceEvents (keys: none)"},
    {"\"traceEvents\"", "t.json: not a Chrome trace: the document is a single JSON string"},
    {"42", "t.json: not a Chrome trace: the document is a single JSON number"},
    /* read in liberal mode */
    {"[{\"ph\":\"B\",\"ts\":1,\"pid\":1,\"tid\":1},{\"ph\":\"E\",\"ts\":2,\"pid\":1,\"tid\":1}", ""},
    {"[{\"ph\":\"B\",\"ts\":1,\"pid\":1,\"tid\":1},{\"ph\":\"E\",\"ts\":2,\"pid\":1,\"tid\":1},\n", ""},
    {"[]", ""},
    {"[", ""},
    {EV "{\"ph\":\"i\",\"ts\":1}],\"displayTimeUnit\":\"ms\",\"otherData\":{\"v\":[1,{}]}}", ""},
};

static void malformed_input(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        const char *got = tc_read_error(malformed[i].text, strlen(malformed[i].text), false);
        if (strcmp(got, malformed[i].error) != 0) {
            print_error("case %zu %s:\n got  %s\n want %s\n", i, malformed[i].text, got, malformed[i].error);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* Read liberally with one warning each, refused in strict mode ("": read). */
static const struct {
    const char *text, *warning, *strict_error;
} deviations[] = {
    {"[{\"ph\":\"i\",\"ts\":1,\"pid\":1,\"tid\":1}", "t.json: the event array has no closing ]",
     "t.json: offset 0: array form (our writer writes the object form)"},
    {EV "{\"ph\":\"i\",\"ts\":1},]}", "t.json: trailing comma in the event array",
     "t.json: offset 34: trailing comma in the event array"},
    /* the timeline's, not the format's: strict mode reads them too, with the warning */
    {EV "{\"ph\":\"E\",\"ts\":1,\"pid\":1,\"tid\":2}]}", "t.json: E event without a B on its thread", ""},
    {EV "{\"ph\":\"B\",\"ts\":1,\"pid\":1,\"tid\":2}]}", "t.json: 1 B events never ended", ""},
    {EV "{\"ph\":\"i\",\"ts\":\"5\"}]}", "t.json: ts is a string", "t.json: offset 31: ts is a string"},
    {EV "{\"ph\":\"V\",\"ts\":1}]}", "t.json: events of phase 'V' skipped (the model has no such event)",
     "t.json: offset 22: events of phase 'V' skipped (the model has no such event)"},
    {EV "{\"ph\":\"i\",\"ts\":1,\"s\":\"x\"}]}",
     "t.json: instant scope is not \"t\", \"p\" or \"g\": thread",
     "t.json: offset 37: instant scope is not \"t\", \"p\" or \"g\": thread"},
    {EV "{\"ph\":\"b\",\"ts\":1,\"id\":\"req-1\"}]}", "t.json: id that is no hex number: hashed",
     "t.json: offset 38: id that is no hex number: hashed"},
    {EV "{\"ph\":\"b\",\"ts\":1}]}", "t.json: event without the id its phase needs: id 0",
     "t.json: offset 16: event without the id its phase needs: id 0"},
    {EV "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":1}}]}",
     "t.json: metadata events other than process_name/thread_name skipped",
     "t.json: offset 16: metadata events other than process_name/thread_name skipped"},
    {"{\"systemTraceEvents\":\"# tracer: nop\\n\",\"traceEvents\":[]}",
     "t.json: systemTraceEvents (ftrace text) skipped",
     "t.json: offset 21: systemTraceEvents (ftrace text) skipped"},
    {EV "{\"ph\":\"i\",\"ts\":1}]} x", "t.json: data after the end of the JSON document ignored",
     "t.json: offset 36: data after the end of the JSON document ignored"},
    {"{\"traceEvents\":[],\"stackFrames\":{\"1\":{\"name\":\"a\"},\"1\":{\"name\":\"b\"}}}",
     "t.json: stack frame defined twice: the later wins",
     "t.json: offset 50: stack frame defined twice: the later wins"},
    {EV "{\"ph\":\"P\",\"ts\":1,\"stack\":[1]}]}", "t.json: stack is not an array of strings: ignored",
     "t.json: offset 41: event key our writer never writes"},
    {"\xef\xbb\xbf[]", "t.json: UTF-8 byte order mark skipped", "t.json: offset 0: UTF-8 byte order mark skipped"},
    {EV "{\"ph\":\"i\",\"ts\":1,\"args\":[1]}]}", "t.json: args is not an object: ignored",
     "t.json: offset 40: args is not an object: ignored"},
    {EV "{\"ph\":\"i\",\"ts\":1,\"name\":\"\\ud800\"}]}", "",
     "t.json: offset 41: lone surrogate in a \\u escape"},
    {EV "{\"ph\":\"i\",\"ts\":1,\"name\":\"\xff\"}]}", "", "t.json: offset 41: invalid UTF-8 in a string"},
    {EV "{\"ph\":\"i\",\"ts\":1,\"tts\":5}]}", "", "t.json: offset 39: event key our writer never writes"},
    {EV "{\"ph\":\"I\",\"ts\":1}]}", "", "t.json: offset 22: phase our writer never writes"},
    {EV "{\"ph\":\"i\",\"ts\":0.0001}]}", "", "t.json: offset 31: ts has digits below a nanosecond"},
    {EV "{\"ph\":\"i\",\"ts\":1,\"pid\":\"browser\"}]}", "",
     "t.json: offset 39: pid is a string that is no number"},
};

static void deviations_liberal_and_strict(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof deviations / sizeof deviations[0]; i++) {
        const char *t = deviations[i].text;
        const char *got = tc_read_error(t, strlen(t), false);
        if (got[0])
            fail_msg("case %zu liberal: %s", i, got);
        if (deviations[i].warning[0] && strcmp(tc_last_warning, deviations[i].warning) != 0)
            fail_msg("case %zu warning:\n got  %s\n want %s", i, tc_last_warning, deviations[i].warning);
        if (!deviations[i].warning[0] && tc_warnings != 0)
            fail_msg("case %zu: unexpected warning %s", i, tc_last_warning);
        got = tc_read_error(t, strlen(t), true);
        if (strcmp(got, deviations[i].strict_error) != 0) {
            print_error("case %zu strict:\n got  %s\n want %s\n", i, got, deviations[i].strict_error);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* What liberal reading makes of the deviations. */
static void liberal_results(void **state)
{
    (void)state;
    gt_timeline tl;
    gt_timeline_init(&tl);
    gt_tl_buffer b;
    gt_error err;
    gt_chrome_read_stats st;
    const char *t = "[{\"ph\":\"X\",\"ts\":\"1\",\"dur\":2.5,\"pid\":\"browser\",\"tid\":\"main\",\"name\":\"a\"},"
                    "{\"ph\":\"X\",\"ts\":2,\"dur\":1,\"pid\":\"browser\",\"tid\":\"io\",\"name\":\"b\","
                    "\"bind_id\":\"0x10\",\"flow_out\":true},"
                    "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":1,\"args\":{\"sort_index\":2}},"
                    "{\"ph\":\"f\",\"ts\":3,\"pid\":1,\"tid\":1,\"id\":16},"
                    "{\"ph\":\"c\",\"ts\":4},";
    assert_int_equal(tc_read(&tl, t, strlen(t), false, &b, &st, &err), 0);
    /* browser names: process, thread main; the X; thread io; the X; its flow; the f */
    assert_int_equal(b.count, 7);
    assert_int_equal(st.events, 5);
    assert_int_equal(st.metadata_other, 1);
    assert_int_equal(st.skipped, 1);
    assert_int_equal(st.v2_flows, 1);
    assert_int_equal(st.synthetic_ids, 3);
    const gt_tl_event *e = b.events;
    assert_int_equal(e[0].kind, GT_TL_PROCESS_NAME);
    assert_string_equal(gt_tl_str_get(&tl, e[0].name, NULL), "browser");
    assert_int_equal(e[1].kind, GT_TL_THREAD_NAME);
    assert_string_equal(gt_tl_str_get(&tl, e[1].name, NULL), "main");
    assert_int_equal(e[2].kind, GT_TL_COMPLETE);
    assert_int_equal(e[2].ts, 1000);
    assert_int_equal(e[2].dur, 2500);
    assert_int_equal(e[2].pid, e[0].pid);
    assert_int_equal(e[2].tid, e[1].tid);
    assert_int_equal(e[0].pid & 0xffffff0000000000ull, 0x7374720000000000ull);
    assert_int_equal(e[3].kind, GT_TL_THREAD_NAME);
    assert_true(e[3].tid != e[1].tid);
    assert_int_equal(e[5].kind, GT_TL_FLOW_BEGIN);
    assert_int_equal(e[5].id, 16);
    assert_int_equal(e[5].ts, 2000);
    assert_int_equal(e[5].tid, e[3].tid);
    assert_int_equal(e[6].kind, GT_TL_FLOW_END);
    assert_int_equal(e[6].id, 16);
    assert_int_equal(e[6].scope, GT_TL_FLOW_BIND_NEXT);
    gt_tl_buffer_free(&b);
    gt_timeline_free(&tl);
}

/* Raw "stack" arrays become frames, one per distinct path, and come back
 * from our own output with the same ids. */
static void raw_stacks(void **state)
{
    (void)state;
    gt_timeline tl;
    gt_timeline_init(&tl);
    gt_tl_buffer b, again;
    gt_error err;
    gt_chrome_read_stats st;
    const char *t = "[{\"ph\":\"P\",\"ts\":1,\"stack\":[\"0x1\",\"0x2\"]},"
                    "{\"ph\":\"P\",\"ts\":2,\"stack\":[\"0x1\",\"0x3\"]},"
                    "{\"ph\":\"P\",\"ts\":3,\"stack\":[\"0x1\",\"0x2\"]},"
                    "{\"ph\":\"P\",\"ts\":4,\"stack\":[\"0x2\"]}]";
    assert_int_equal(tc_read(&tl, t, strlen(t), false, &b, &st, &err), 0);
    assert_int_equal(b.count, 8);
    assert_int_equal(st.frames, 4);
    const gt_tl_event *e = b.events;
    uint64_t d = 0x80000000u;
    assert_int_equal(e[0].kind, GT_TL_STACK_FRAME);
    assert_int_equal(e[0].id, d);
    assert_int_equal(e[0].parent, 0);
    assert_string_equal(gt_tl_str_get(&tl, e[0].name, NULL), "0x1");
    assert_int_equal(e[1].id, d + 1);
    assert_int_equal(e[1].parent, d);
    assert_int_equal(e[2].stack, d + 1);
    assert_int_equal(e[3].id, d + 2);
    assert_int_equal(e[3].parent, d);
    assert_int_equal(e[4].stack, d + 2);
    assert_int_equal(e[5].stack, d + 1);
    assert_int_equal(e[6].id, d + 3); /* "0x2" at the root is another frame */
    assert_int_equal(e[6].parent, 0);
    assert_int_equal(e[7].stack, d + 3);
    char *out = tc_write(&tl, b.events, b.count);
    assert_int_equal(tc_read(&tl, out, strlen(out), true, &again, NULL, &err), 0);
    assert_int_equal(again.count, 8);
    assert_int_equal(again.events[0].stack, d + 1);
    assert_int_equal(again.events[7].id, d + 3);
    free(out);
    gt_tl_buffer_free(&again);
    gt_tl_buffer_free(&b);
    gt_timeline_free(&tl);
}

static char *nested(size_t depth, size_t *len)
{
    const char *pre = "{\"traceEvents\":[{\"ph\":\"i\",\"ts\":1,\"args\":{\"a\":";
    size_t n = strlen(pre);
    char *t = malloc(n + 2 * depth + 8);
    memcpy(t, pre, n);
    memset(t + n, '[', depth);
    memset(t + n + depth, ']', depth);
    strcpy(t + n + 2 * depth, "}}]}");
    *len = n + 2 * depth + 4;
    return t;
}

static void nesting_is_bounded(void **state)
{
    (void)state;
    size_t len;
    char *ok = nested(CJ_MAX_DEPTH - 1, &len);
    assert_string_equal(tc_read_error(ok, len, false), "");
    free(ok);
    char *deep = nested(100000, &len);
    const char *got = tc_read_error(deep, len, false);
    assert_non_null(strstr(got, "JSON nested too deeply"));
    assert_non_null(strstr(got, "offset 556:")); /* 45 + 511: the array one level too deep */
    free(deep);
    /* deep nesting in a key no one reads, and at the top */
    const char *top = "[[[[[[";
    assert_string_equal(tc_read_error(top, strlen(top), false), "t.json: offset 1: expected an event object");
}

static size_t gzip_bytes(const char *text, size_t len, unsigned char *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (Bytef *)text;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t n = z.total_out;
    deflateEnd(&z);
    return n;
}

static void gzip_input(void **state)
{
    (void)state;
    const char *t = "[{\"ph\":\"i\",\"ts\":1,\"pid\":1,\"tid\":1}]";
    unsigned char gz[256];
    size_t n = gzip_bytes(t, strlen(t), gz, sizeof gz);
    assert_string_equal(tc_read_error((char *)gz, n, false), "");
    /* two members, as cat a.gz b.gz makes */
    unsigned char two[512];
    size_t n1 = gzip_bytes("[{\"ph\":\"i\",\"ts\":1},", 19, two, sizeof two);
    size_t n2 = gzip_bytes("{\"ph\":\"i\",\"ts\":2}]", 18, two + n1, sizeof two - n1);
    gt_timeline tl;
    gt_timeline_init(&tl);
    gt_tl_buffer b;
    gt_error err;
    assert_int_equal(tc_read(&tl, (char *)two, n1 + n2, false, &b, NULL, &err), 0);
    assert_int_equal(b.count, 2);
    gt_tl_buffer_free(&b);
    gt_timeline_free(&tl);
    /* a wrong checksum after a complete document fails too, through any window */
    unsigned char crc[256];
    memcpy(crc, gz, n);
    crc[n - 8] ^= 1;
    assert_non_null(strstr(tc_read_error((char *)crc, n, false), "t.json: offset "));
    assert_non_null(strstr(tc_read_error((char *)crc, n, false), ": gzip data corrupt"));
    FILE *f = fmemopen(crc, n, "rb");
    gt_timeline tl2;
    gt_timeline_init(&tl2);
    gt_tl_counts c = {{0}};
    gt_tl_sink cs = gt_tl_counts_sink(&c);
    gt_tl_read_opts o = {0};
    gt_error_clear(&err);
    cr_source_chunk = 3;
    assert_int_equal(gt_chrome_read_stream(f, "s.json", &tl2, &cs, &o, NULL, &err), -1);
    cr_source_chunk = 256u << 10;
    assert_non_null(strstr(err.msg, "s.json: offset "));
    assert_non_null(strstr(err.msg, ": gzip data corrupt"));
    fclose(f);
    gt_timeline_free(&tl2);
    /* cut and corrupt */
    assert_non_null(strstr(tc_read_error((char *)gz, n - 6, false), "gzip data cut short"));
    gz[12] ^= 0xff;
    assert_non_null(strstr(tc_read_error((char *)gz, n, false), "gzip data corrupt"));
    /* a bomb: 64 MiB of spaces inflate beyond 1000x the input */
    size_t big = 64u << 20;
    char *spaces = malloc(big);
    memset(spaces, ' ', big);
    spaces[0] = '[';
    unsigned char *bomb = malloc(1 << 20);
    size_t nb = gzip_bytes(spaces, big, bomb, 1 << 20);
    const char *got = tc_read_error((char *)bomb, nb, false);
    assert_non_null(strstr(got, "gzip data inflates"));
    free(bomb);
    free(spaces);
}

/* White space between events and inside skipped values is not kept: a
 * stream with 8 MiB of it reads through a window of a few chunks. */
static void whitespace_not_kept(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    static const char ev[] = "{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1}";
    char *ws = malloc(1u << 20);
    assert_non_null(ws);
    memset(ws, ' ', 1u << 20);
    fputs("{\"otherData\":{\"big\":\"", f);
    for (int i = 0; i < 4; i++)
        fwrite(ws, 1, 1u << 20, f); /* a skipped value of 4 MiB */
    fputs("\"},\"traceEvents\":[", f);
    fputs(ev, f);
    for (int i = 0; i < 4; i++)
        fwrite(ws, 1, 1u << 20, f);
    fputs(",", f);
    for (int i = 0; i < 4; i++)
        fwrite(ws, 1, 1u << 20, f);
    fputs(ev, f);
    fputs("]}", f);
    free(ws);
    rewind(f);
    gt_timeline tl;
    gt_timeline_init(&tl);
    gt_tl_counts c = {{0}};
    gt_tl_sink cs = gt_tl_counts_sink(&c);
    gt_tl_read_opts o = {0};
    gt_chrome_read_stats st;
    gt_error err;
    gt_error_clear(&err);
    cr_source_chunk = 4096;
    int rc = gt_chrome_read_stream(f, "ws.json", &tl, &cs, &o, &st, &err);
    cr_source_chunk = 256u << 10;
    if (rc != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(c.n[GT_TL_COMPLETE], 2);
    print_message("window %zu bytes\n", (size_t)st.window);
    assert_true(st.window <= 64u << 10);
    fclose(f);
    gt_timeline_free(&tl);
}

void test_chrome_bad_register(struct CMUnitTest *t, size_t *n)
{
    const struct CMUnitTest mine[] = {
        cmocka_unit_test(malformed_input),
        cmocka_unit_test(deviations_liberal_and_strict),
        cmocka_unit_test(liberal_results),
        cmocka_unit_test(raw_stacks),
        cmocka_unit_test(nesting_is_bounded),
        cmocka_unit_test(gzip_input),
        cmocka_unit_test(whitespace_not_kept),
    };
    for (size_t i = 0; i < sizeof mine / sizeof mine[0]; i++)
        t[(*n)++] = mine[i];
}
