/* glretrace --state-server (state.h). Runs on whichever replay thread replays
 * the call (one at a time: replay_workers.h), so its state needs no lock. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "state.h"
#include "state_dump.h"

enum { PROGRESS_EVERY = 1024 }; /* calls between looks at the clock */

static struct {
    uint64_t target;  /* the call asked for */
    bool pending;     /* asked and not yet answered */
    uint64_t since;   /* calls since the last look at the clock */
    int64_t last_ns;  /* when the last progress line went out */
} ss;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The next request: 1 with ss.target set, 0 at EOF. Bad lines are answered and skipped. */
static int read_request(void)
{
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
        char *end;
        unsigned long long n = strtoull(line, &end, 10);
        if (end != line && (*end == '\n' || *end == '\0') && line[0] != '-') {
            ss.target = n;
            ss.pending = true;
            ss.last_ns = now_ns();
            return 1;
        }
        line[strcspn(line, "\n")] = '\0';
        printf("error bad request \"%s\": a call number per line\n", line);
        fflush(stdout);
    }
    return 0;
}

int state_server_begin(void)
{
    memset(&ss, 0, sizeof ss);
    return read_request();
}

static void progress(uint32_t no)
{
    if (++ss.since < PROGRESS_EVERY)
        return;
    ss.since = 0;
    int64_t t = now_ns();
    if (t - ss.last_ns < 100000000)
        return;
    ss.last_ns = t;
    printf("progress %u\n", no);
    fflush(stdout);
}

/* The state after c, framed with its length. */
static void answer(const gt_call *c, bool single_buffer)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    gt_error err;
    gt_error_clear(&err);
    int rc = mem ? state_dump(mem, c, single_buffer, &err) : -1;
    if (mem && fclose(mem) != 0 && rc == 0) {
        rc = -1;
        gt_error_set(&err, "out of memory");
    }
    if (rc == 0) {
        printf("state %u %zu\n", c->no, len);
        fwrite(buf, 1, len, stdout);
    } else {
        printf("error %s\n", mem ? err.msg : "out of memory");
    }
    fflush(stdout);
    free(buf);
}

bool state_server_after(const gt_call *c, bool can_dump, bool single_buffer)
{
    if (!ss.pending)
        return true;
    if (c->no < ss.target || !can_dump) {
        progress(c->no);
        return false;
    }
    answer(c, single_buffer);
    ss.pending = false;
    uint64_t from = ss.target; /* calls from..c->no all have this answer */
    while (read_request()) {
        if (ss.target > c->no)
            return false;
        if (ss.target >= from) {
            answer(c, single_buffer); /* the same state again */
            ss.pending = false;
            continue;
        }
        printf("error behind: the replay stands at call %u, after call %llu\n", c->no,
               (unsigned long long)ss.target);
        fflush(stdout);
        return true;
    }
    return true; /* stdin closed */
}

void state_server_end(uint32_t last_call)
{
    if (!ss.pending)
        return;
    printf("error the trace ends at call %u before any call numbered %llu or later with a "
           "current context\n", last_call, (unsigned long long)ss.target);
    fflush(stdout);
    ss.pending = false;
}
