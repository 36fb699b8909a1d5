/* bench_fxt_writer: throughput of the FXT writer (formats/fxt) in isolation, with the
 * events the live timeline writes (wrappers/timeline_live.c): complete events with two
 * U32 args (`call`, `thread`), category "gl", names from 200 function names.
 * A benchmark, not a test (never registered with ctest). See README.md.
 *
 * usage: bench_fxt_writer [-n EVENTS] [-r RUNS] [-d DIR]
 *   -n EVENTS  events per run (default 5,000,000)
 *   -r RUNS    runs per variant (default 5); the median is reported
 *   -d DIR     where the file variants write (default $TMPDIR, else /tmp)
 * Variants:
 *   devnull          one thread, to /dev/null: the encoder alone
 *   file             one thread, to a file (page cache; no fsync)
 *   file+lock        as file, with a mutex taken around each event, as the recorder does
 *   file+lock, 2 thr two threads sharing one writer through that mutex (contended)
 * Prints a markdown table: median seconds, events/s, ns/event and bytes/event (file
 * size / events: string and thread records included). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fxt_writer.h"

enum { NAMES = 200, MAX_RUNS = 99 };

typedef struct bench {
    gt_timeline tl;
    gt_tl_sink sink;
    gt_tl_str names[NAMES], cat, a_call, a_thread;
    pthread_mutex_t lock;
    int locked;
    unsigned long events; /* per thread */
    int failed;
} bench;

typedef struct worker {
    bench *b;
    uint32_t thread;
} worker;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *emit_all(void *arg)
{
    worker *wk = arg;
    bench *b = wk->b;
    gt_tl_arg args[2] = {{.name = b->a_call, .kind = GT_TL_ARG_U32},
                         {.name = b->a_thread, .kind = GT_TL_ARG_U32, .v.u = wk->thread}};
    gt_tl_event ev = {.kind = GT_TL_COMPLETE, .pid = 4242, .tid = 4242 + wk->thread,
                      .cat = b->cat, .nargs = 2, .args = args};
    gt_error err;
    gt_error_clear(&err);
    for (unsigned long i = 0; i < b->events; i++) {
        ev.ts = 1000000000 + (int64_t)i * 700;
        ev.dur = 300 + (int64_t)(i & 255);
        ev.name = b->names[(i * 7) % NAMES];
        args[0].v.u = (uint32_t)(i * 2 + wk->thread);
        if (b->locked)
            pthread_mutex_lock(&b->lock);
        int rc = gt_tl_emit(&b->sink, &b->tl, &ev, &err);
        if (b->locked)
            pthread_mutex_unlock(&b->lock);
        if (rc != 0) {
            fprintf(stderr, "bench_fxt_writer: %s\n", err.msg);
            b->failed = 1;
            return NULL;
        }
    }
    return NULL;
}

/* One run: seconds, and the bytes written (0 for /dev/null). -1 on failure. */
static double run(const char *path, int locked, int threads, unsigned long events,
                  double *bytes)
{
    bench b;
    memset(&b, 0, sizeof b);
    gt_error err;
    gt_error_clear(&err);
    if (gt_timeline_init(&b.tl) != 0)
        return -1;
    char name[32];
    for (int i = 0; i < NAMES; i++) {
        snprintf(name, sizeof name, "glFunction%03d", i);
        b.names[i] = gt_tl_intern_cstr(&b.tl, name);
    }
    b.cat = gt_tl_intern_cstr(&b.tl, "gl");
    b.a_call = gt_tl_intern_cstr(&b.tl, "call");
    b.a_thread = gt_tl_intern_cstr(&b.tl, "thread");
    pthread_mutex_init(&b.lock, NULL);
    b.locked = locked;
    b.events = events / (unsigned long)threads;
    gt_fxt_writer *w = gt_fxt_writer_open(path, "bench", &err);
    if (!w) {
        fprintf(stderr, "bench_fxt_writer: %s\n", err.msg);
        gt_timeline_free(&b.tl);
        return -1;
    }
    b.sink = gt_fxt_writer_sink(w);
    worker wk[2] = {{&b, 0}, {&b, 1}};
    pthread_t t[2];
    double t0 = now();
    for (int i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, emit_all, &wk[i]);
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    int rc = gt_tl_finish(&b.sink, &b.tl, &err);
    gt_fxt_writer_free(w);
    double secs = now() - t0;
    gt_timeline_free(&b.tl);
    pthread_mutex_destroy(&b.lock);
    if (rc != 0 || b.failed)
        return -1;
    struct stat st;
    *bytes = strcmp(path, "/dev/null") && stat(path, &st) == 0 ? (double)st.st_size : 0;
    return secs;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    unsigned long events = 5000000;
    int runs = 5;
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    int opt;
    while ((opt = getopt(argc, argv, "n:r:d:h")) != -1) {
        switch (opt) {
        case 'n': events = strtoul(optarg, NULL, 10); break;
        case 'r': runs = atoi(optarg); break;
        case 'd': dir = optarg; break;
        default:
            fprintf(stderr, "usage: bench_fxt_writer [-n EVENTS] [-r RUNS] [-d DIR]\n");
            return opt == 'h' ? 0 : 2;
        }
    }
    if (events < 2 || runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "bench_fxt_writer: need EVENTS >= 2 and 1 <= RUNS <= %d\n", MAX_RUNS);
        return 2;
    }
    char file[4096];
    snprintf(file, sizeof file, "%s/bench_fxt_writer.%d.fxt", dir, (int)getpid());
    static const struct {
        const char *name;
        int to_file, locked, threads;
    } variants[] = {
        {"devnull", 0, 0, 1},
        {"file", 1, 0, 1},
        {"file+lock", 1, 1, 1},
        {"file+lock, 2 threads", 1, 1, 2},
    };
    printf("FXT writer: %lu complete events with 2 args per run, median of %d runs\n\n", events,
           runs);
    printf("| variant | s | M events/s | ns/event | bytes/event |\n|---|---|---|---|---|\n");
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        double secs[MAX_RUNS], bytes = 0;
        const char *path = variants[v].to_file ? file : "/dev/null";
        run(path, variants[v].locked, variants[v].threads, events / 10, &bytes); /* warm-up */
        for (int r = 0; r < runs; r++) {
            secs[r] = run(path, variants[v].locked, variants[v].threads, events, &bytes);
            if (secs[r] < 0) {
                unlink(file);
                return 1;
            }
        }
        double m = median(secs, runs);
        unsigned long n = events / (unsigned long)variants[v].threads *
                          (unsigned long)variants[v].threads;
        char per[32] = "-";
        if (bytes > 0)
            snprintf(per, sizeof per, "%.2f", bytes / (double)n);
        printf("| %s | %.3f | %.2f | %.1f | %s |\n", variants[v].name, m, (double)n / m / 1e6,
               m / (double)n * 1e9, per);
        fflush(stdout);
    }
    unlink(file);
    return 0;
}
