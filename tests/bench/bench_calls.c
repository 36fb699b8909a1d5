/* bench_calls: what recording costs per call, without a driver. Run under the
 * recorder (`gltrace -o x.trace bench_calls`, or LD_PRELOAD=libgltrace.so) it calls
 * the wrappers of heavy_app's mix of functions, which find no driver (the program
 * links no GL library: the wrappers record the calls and answer zeroes), so every ns
 * measured is the wrapper's. Without the recorder the same calls go to empty
 * functions: the loop's own cost. A benchmark, never a test (see README.md).
 *
 * usage: bench_calls [CALLS_PER_THREAD [THREADS]]   (default 2000000 1)
 * Prints one line per run: calls, threads, seconds, ns per call (wall), the
 * process's CPU ns per call (the recorder's own threads included: its compressor) and
 * the calling threads' alone. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

typedef void (*vertex3f_fn)(float, float, float);
typedef void (*uniform4f_fn)(int, float, float, float, float);
typedef void (*matrix4fv_fn)(int, int, unsigned char, const float *);
typedef void (*subdata_fn)(unsigned, intptr_t, intptr_t, const void *);

static void none_vertex(float x, float y, float z) { (void)x, (void)y, (void)z; }
static void none_uniform(int l, float a, float b, float c, float d)
{
    (void)l, (void)a, (void)b, (void)c, (void)d;
}
static void none_matrix(int l, int n, unsigned char t, const float *m) { (void)l, (void)n, (void)t, (void)m; }
static void none_subdata(unsigned t, intptr_t o, intptr_t n, const void *p) { (void)t, (void)o, (void)n, (void)p; }

static struct {
    vertex3f_fn color, vertex;
    uniform4f_fn uniform;
    matrix4fv_fn matrix;
    subdata_fn subdata;
} gl;

static void *sym(const char *name, void *none)
{
    void *p = dlsym(RTLD_DEFAULT, name);
    return p ? p : none;
}

static long calls_per_thread = 2000000;
static _Atomic long caller_cpu_ns; /* the calling threads' CPU time, summed */

/* heavy_app's frame in proportion: per 63 calls, 24 glColor3f + 24 glVertex3f, 8
 * glUniform4f, 2 glUniformMatrix4fv, 2 more glUniform4f, 2 glBufferSubData (64 bytes),
 * 1 more glVertex3f. */
static void *run(void *arg)
{
    (void)arg;
    static const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float data[16] = {0};
    long done = 0;
    for (long i = 0; done < calls_per_thread; ++i) {
        float v = (float)(i & 1023) * 0.001f;
        for (int k = 0; k < 24; ++k) {
            gl.color(v, 1.0f - v, 0.5f);
            gl.vertex(v, -v, (float)k);
        }
        for (int k = 0; k < 10; ++k)
            gl.uniform(k, v, -v, 0.0f, 1.0f);
        gl.matrix(3, 1, 0, m);
        gl.matrix(4, 1, 0, m);
        data[0] = v;
        gl.subdata(0x8892, 0, sizeof data, data);
        gl.subdata(0x8892, 64, sizeof data, data);
        gl.vertex(v, v, v);
        done += 63;
    }
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    caller_cpu_ns += (long)ts.tv_sec * 1000000000L + ts.tv_nsec;
    return NULL;
}

static double now(int clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        calls_per_thread = atol(argv[1]);
    int threads = argc > 2 ? atoi(argv[2]) : 1;
    if (calls_per_thread <= 0 || threads <= 0 || threads > 64) {
        fprintf(stderr, "usage: bench_calls [CALLS_PER_THREAD [THREADS]]\n");
        return 2;
    }
    gl.color = (vertex3f_fn)sym("glColor3f", (void *)none_vertex);
    gl.vertex = (vertex3f_fn)sym("glVertex3f", (void *)none_vertex);
    gl.uniform = (uniform4f_fn)sym("glUniform4f", (void *)none_uniform);
    gl.matrix = (matrix4fv_fn)sym("glUniformMatrix4fv", (void *)none_matrix);
    gl.subdata = (subdata_fn)sym("glBufferSubData", (void *)none_subdata);
    run(NULL); /* warm-up: first-call lookups, the trace file, page faults */
    caller_cpu_ns = 0;
    double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    pthread_t t[64];
    for (int i = 0; i < threads; ++i)
        if (pthread_create(&t[i], NULL, run, NULL) != 0)
            return 1;
    for (int i = 0; i < threads; ++i)
        pthread_join(t[i], NULL);
    double wall = now(CLOCK_MONOTONIC) - t0, cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
    double n = (double)calls_per_thread * threads;
    printf("calls %.0f threads %d wall %.4f s  %.1f ns/call  cpu %.1f ns/call  callers %.1f ns/call\n",
           n, threads, wall, wall * 1e9 / n, cpu * 1e9 / n, (double)caller_cpu_ns / n);
    return 0;
}
