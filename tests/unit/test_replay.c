/* The replayer as a library (retrace/include/replay.h), called in process as `gltrace convert`
 * calls it: headless replays of real traces from the shared corpus, one after another
 * in one process (each must start from nothing: a second replay of a trace gives the
 * same frames and the same timeline as the first, whatever replayed between them),
 * snapshots, the call limit, and errors returned rather than printed. Needs Mesa's EGL
 * (SDL's offscreen driver), no X server. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fxt_reader.h"
#include "gt_timeline.h"
#include "replay.h"

#define THREADS_TRACE REPLAY_CORPUS_DIR "/glthreads.trace" /* 3 threads, 3 frames */
#define DEMO_TRACE REPLAY_CORPUS_DIR "/glxdemo.trace"      /* 1 thread, 1 frame */

static char *temp_path(const char *suffix)
{
    const char *dir = getenv("TMPDIR");
    char *p = malloc(512);
    assert_non_null(p);
    static unsigned n;
    snprintf(p, 512, "%s/test_replay.%ld.%u%s", dir && *dir ? dir : "/tmp", (long)getpid(), n++,
             suffix);
    return p;
}

/* Replays TRACE headless, timed into an FXT file, and counts the file's events (read
 * strictly: our own output). */
static replay_result replay_counted(const char *trace, gt_tl_counts *counts)
{
    char *fxt = temp_path(".fxt");
    replay_options o;
    replay_options_init(&o, trace);
    o.headless = true;
    o.benchmark = true;
    o.pcpu = true;
    o.fxt_path = fxt;
    replay_result res;
    gt_error err;
    gt_error_clear(&err);
    int rc = replay_run(&o, &res, &err);
    if (rc != 0)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, 0);

    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    memset(counts, 0, sizeof *counts);
    gt_tl_sink sink = gt_tl_counts_sink(counts);
    gt_tl_read_opts ro = {.strict = true};
    rc = gt_fxt_read(fxt, &tl, &sink, &ro, &err);
    if (rc != 0)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, 0);
    gt_timeline_free(&tl);
    unlink(fxt);
    free(fxt);
    return res;
}

static void test_replays_in_sequence(void **state)
{
    (void)state;
    gt_tl_counts a, b, c;
    replay_result ra = replay_counted(THREADS_TRACE, &a);
    replay_result rb = replay_counted(DEMO_TRACE, &b);
    replay_result rc = replay_counted(THREADS_TRACE, &c);
    assert_int_equal(ra.frames, 3);
    assert_int_equal(ra.calls, 240);
    assert_int_equal(rb.frames, 1);
    assert_int_equal(rb.calls, 11);
    /* a slice per call, its three threads named, a frame instant at each frame's start */
    assert_int_equal(a.n[GT_TL_COMPLETE], 240);
    assert_int_equal(a.n[GT_TL_THREAD_NAME], 3);
    assert_int_equal(b.n[GT_TL_COMPLETE], 11);
    assert_int_equal(b.n[GT_TL_THREAD_NAME], 1);
    /* the second replay of the first trace is the first again: nothing carried over */
    assert_int_equal(rc.frames, ra.frames);
    assert_int_equal(rc.calls, ra.calls);
    assert_memory_equal(&c, &a, sizeof a);
}

static unsigned count_pngs(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    unsigned n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".png"))
            n++;
    }
    closedir(d);
    return n;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    char path[1024];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    closedir(d);
    rmdir(dir);
}

/* One snapshot per frame by default, an explicit call set otherwise; the call limit
 * stops the replay (and its snapshots) early. */
static void test_snapshots_and_limit(void **state)
{
    (void)state;
    char *dir = temp_path(".snap");
    char prefix[600];
    snprintf(prefix, sizeof prefix, "%s/", dir);
    replay_options o;
    replay_options_init(&o, THREADS_TRACE);
    o.headless = true;
    o.snapshot_prefix = prefix;
    replay_result res;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(replay_run(&o, &res, &err), 0);
    assert_int_equal(res.frames, 3);
    assert_int_equal(count_pngs(dir), 3);
    remove_dir(dir);

    gt_callset calls;
    assert_int_equal(gt_callset_init_all(&calls), 0);
    assert_int_equal(gt_callset_merge(&calls, "draw", &err), 0);
    o.snapshot_calls = &calls;
    o.call_limit = 159; /* the second frame's swap (calls come as they returned: 92 after 158) */
    assert_int_equal(replay_run(&o, &res, &err), 0);
    assert_int_equal(res.calls, 160);
    assert_int_equal(res.frames, 2);
    unsigned draws = count_pngs(dir);
    assert_true(draws > 0);
    remove_dir(dir);
    gt_callset_free(&calls);
    free(dir);
}

/* Errors come back with the file named, nothing printed in their stead. */
static void test_errors(void **state)
{
    (void)state;
    replay_options o;
    replay_options_init(&o, REPLAY_CORPUS_DIR "/no-such.trace");
    o.headless = true;
    replay_result res;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(replay_run(&o, &res, &err), -1);
    assert_non_null(strstr(err.msg, "no-such.trace"));
    assert_int_equal(res.frames, 0);

    /* a timeline output in a directory that does not exist */
    replay_options_init(&o, DEMO_TRACE);
    o.headless = true;
    o.fxt_path = "/nonexistent-dir/x.fxt";
    gt_error_clear(&err);
    assert_int_equal(replay_run(&o, &res, &err), -1);
    assert_non_null(strstr(err.msg, "/nonexistent-dir/x.fxt"));
    /* and the library is usable again after a failure */
    gt_tl_counts counts;
    assert_int_equal(replay_counted(DEMO_TRACE, &counts).frames, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replays_in_sequence),
        cmocka_unit_test(test_snapshots_and_limit),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
