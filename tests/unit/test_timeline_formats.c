/* The table of timeline formats (formats/timeline_formats.c) through timeline_io.h:
 * every row complete, every name ending found, first bytes before names (but a weak
 * test giving way to a name), and each writer's file recognised again as its format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "timeline_io.h"

static char dir[256];

static int make_dir(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/tl_formats.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static void path_of(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", dir, name);
}

static void write_file(const char *name, const void *bytes, size_t n)
{
    char p[512];
    path_of(p, sizeof p, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static const tl_format *of_file(const char *name)
{
    char p[512];
    path_of(p, sizeof p, name);
    gt_error err;
    gt_error_clear(&err);
    const tl_format *f = tl_format_of_file(p, &err);
    assert_true(f != NULL || err.set);
    return f;
}

static void rows_complete(void **state)
{
    (void)state;
    size_t n = 0;
    for (const tl_format *const *f = tl_formats; *f; f++, n++) {
        assert_non_null((*f)->name);
        assert_non_null((*f)->exts[0]);
        assert_true((*f)->read || (*f)->replayed || (*f)->write_open);
        assert_true(!(*f)->write_open == !(*f)->write_close);
        for (size_t i = 0; i < TL_NEXTS && (*f)->exts[i]; i++) {
            char name[64];
            snprintf(name, sizeof name, "x%s", (*f)->exts[i]);
            assert_ptr_equal(tl_format_of_name(name), *f);
        }
    }
    assert_true(n >= 6);
    assert_null(tl_format_of_name("x.unknown"));
}

static void first_bytes(void **state)
{
    (void)state;
    static const unsigned char fxt[8] = {0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00};
    static const unsigned char gz[4] = {0x1f, 0x8b, 8, 0};
    unsigned char xray[32] = {3, 0, 1, 0};
    write_file("fxt.json", fxt, sizeof fxt); /* the bytes win over the name */
    write_file("gz.bin", gz, sizeof gz);
    write_file("json.bin", " \n[{}]", 6);
    write_file("at.bin", "at\0\0", 4);
    write_file("xray.bin", xray, sizeof xray);
    write_file("xray.fxt", xray, sizeof xray); /* a weak test: the name wins */
    write_file("junk.bin", "junk", 4);
    assert_ptr_equal(of_file("fxt.json"), &tl_format_fxt);
    assert_string_equal(of_file("gz.bin")->name, "Chrome JSON");
    assert_string_equal(of_file("json.bin")->name, "Chrome JSON");
    assert_true(of_file("at.bin")->replayed);
    assert_string_equal(of_file("xray.bin")->name, "XRay");
    assert_ptr_equal(of_file("xray.fxt"), &tl_format_fxt);
    assert_null(of_file("junk.bin"));
}

/* Each format with a writer and a reader: an empty timeline written, then recognised. */
static void writers_recognised(void **state)
{
    (void)state;
    for (const tl_format *const *f = tl_formats; *f; f++) {
        if (!(*f)->write_open || !(*f)->read)
            continue;
        char name[64], p[512];
        snprintf(name, sizeof name, "w%s", (*f)->exts[0]);
        path_of(p, sizeof p, name);
        gt_error err;
        gt_error_clear(&err);
        gt_timeline tl;
        assert_int_equal(gt_timeline_init(&tl), 0);
        tl_output o;
        if (tl_output_open(&o, p, *f, NULL, 0, &err) != 0 ||
            gt_tl_finish(&o.sink, &tl, &err) != 0 || tl_output_commit(&o, &err) != 0)
            fail_msg("%s: %s", (*f)->name, err.msg);
        tl_output_abort(&o);
        gt_timeline_free(&tl);
        assert_ptr_equal(of_file(name), *f);
    }
}

static void no_writer_refused(void **state)
{
    (void)state;
    char p[512];
    path_of(p, sizeof p, "out.trace");
    gt_error err;
    gt_error_clear(&err);
    tl_output o;
    assert_int_equal(tl_output_open(&o, p, tl_format_of_name(p), NULL, 0, &err), -1);
    assert_non_null(strstr(err.msg, "cannot write apitrace timelines"));
    assert_int_equal(access(p, F_OK), -1); /* refused before anything is made */
    gt_error_clear(&err);
    assert_int_equal(tl_output_open(&o, p, NULL, NULL, 0, &err), -1);
    assert_non_null(strstr(err.msg, ".fxt"));
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_complete),
        cmocka_unit_test(first_bytes),
        cmocka_unit_test(writers_recognised),
        cmocka_unit_test(no_writer_refused),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
