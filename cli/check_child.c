/* One replay of gltrace check (check_child.h): the snapshot of the last frame, taken
 * as piglit has eglretrace take it (`--headless --snapshot=CALL`, CALL the last call
 * `apitrace dump --calls=frame` prints), by the replayer module in this process; or
 * piglit's profiling command line run by our glretrace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "at_reader.h"
#include "check_child.h"
#include "gt_callset.h"
#include "replay_loader.h"

/* The number of the last frame-ending call as the trace's calls come out (apitrace
 * dump's order, whose last numbered line piglit takes): 1 found, 0 none, -1 with err
 * set when the trace cannot be opened. A damaged trace gives what was read before
 * the damage, as apitrace dump prints it. */
static int last_frame_call(const char *trace, uint32_t *no, gt_error *err)
{
    at_reader_options ro = {.skip_blob_data = true};
    at_reader *r = at_reader_open(trace, &ro, err);
    if (!r)
        return -1;
    int found = 0;
    gt_call *c;
    while ((c = at_reader_next(r))) {
        if (c->flags & GT_CALL_FLAG_END_FRAME) {
            *no = c->no;
            found = 1;
        }
        at_reader_release(r, c);
    }
    if (at_reader_error(r))
        fprintf(stderr, "gltrace check: %s\n", at_reader_error(r));
    at_reader_close(r);
    return found;
}

static int snapshot(const check_child_job *j)
{
    gt_error err;
    gt_error_clear(&err);
    gt_callset calls;
    if (gt_callset_init_all(&calls) != 0)
        return CHECK_CHILD_FAILED;
    char last[16];
    const char *spec = j->calls;
    if (!spec) {
        uint32_t no = 0;
        int found = last_frame_call(j->trace, &no, &err);
        if (found <= 0) {
            fprintf(stderr, "gltrace check: %s\n",
                    found < 0 ? err.msg : "the trace has no frame-ending call to snapshot");
            gt_callset_free(&calls);
            return found < 0 ? CHECK_CHILD_FAILED : CHECK_CHILD_NO_FRAME;
        }
        snprintf(last, sizeof last, "%u", (unsigned)no);
        spec = last;
    }
    int status = CHECK_CHILD_FAILED;
    const replay_api *replay = NULL;
    if (gt_callset_merge(&calls, spec, &err) != 0 || !(replay = replay_load(&err))) {
        fprintf(stderr, "gltrace check: %s\n", err.msg);
    } else {
        replay_options o;
        replay->options_init(&o, j->trace);
        o.headless = true;
        o.snapshot_prefix = j->prefix;
        o.snapshot_calls = &calls;
        replay_result res;
        memset(&res, 0, sizeof res);
        if (replay->run(&o, &res, &err) != 0)
            fprintf(stderr, "gltrace check: %s\n", err.msg);
        else if (!res.snapshots || res.snapshot_failures)
            fprintf(stderr, "gltrace check: %llu of %llu snapshots written\n",
                    (unsigned long long)(res.snapshots - res.snapshot_failures),
                    (unsigned long long)res.snapshots);
        else
            status = 0;
    }
    gt_callset_free(&calls);
    return status;
}

static void profile(const check_child_job *j)
{
    char loop[32];
    snprintf(loop, sizeof loop, "--loop=%ld", j->loops);
    /* piglit's command line (framework/replay/backends/apitrace.py) */
    char *argv[] = {"glretrace", "--headless", "--benchmark", "--singlethread", loop,
                    "--pframes", "opengl:GPU Duration", (char *)j->trace, NULL};
    execv(j->glretrace, argv);
    perror(j->glretrace);
}

void check_child_main(const check_child_job *j)
{
    int status = CHECK_CHILD_FAILED;
    if (j->glretrace)
        profile(j); /* returns only when it could not run */
    else
        status = snapshot(j);
    fflush(NULL);
    _exit(status);
}
