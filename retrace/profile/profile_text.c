/* apitrace's text profile (profile_text.h). Records wait in a FIFO until their GPU
 * times are in; the FIFO holds a few frames (the GPU query ring's depth), and is
 * forced out beyond MAX_RECORDS so memory stays bounded whatever happens to queries. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile_text.h"

#define MAX_RECORDS (1u << 22)

typedef struct record {
    const char *name; /* NULL: frame_end */
    uint32_t no, program;
    bool pending;
    int64_t cpu_start, cpu_dur, gpu_start, gpu_dur;
    int64_t pixels; /* -1: not a draw call */
    int64_t vsize, vsize_dur, rss, rss_dur;
    int64_t finished; /* frame_end with --pframe-times: when its rendering finished */
} record;

static struct {
    FILE *out;
    bool cpu, gpu, on;
    bool pixels, memory;
    int64_t min_cpu, base;
    record *r;
    size_t head, n, cap; /* live records are r[head .. n) */
    uint64_t first_id;   /* id of r[head] */
    size_t committed;    /* r[head .. committed) may print */
} p;

void profile_text_init(FILE *out, bool cpu, bool gpu, int64_t min_cpu_ns, int64_t base_ns)
{
    memset(&p, 0, sizeof p);
    p.out = out;
    p.cpu = cpu;
    p.gpu = gpu;
    p.min_cpu = min_cpu_ns;
    p.base = base_ns;
    p.on = true;
    fputs("# call no gpu_start gpu_dura cpu_start cpu_dura vsize_start vsize_dura rss_start "
          "rss_dura pixels program name\n",
          out);
}

static void print_record(const record *r)
{
    if (!r->name) {
        fputs("frame_end\n", p.out);
        if (r->finished) /* an absolute time, as apitrace prints it */
            fprintf(p.out, "rendering_finished %" PRId64 "\n", r->finished);
        return;
    }
    int64_t gs = 0, gd = 0, cs = 0, cd = 0, vs = 0, vd = 0, rs = 0, rd = 0;
    if (p.gpu && r->gpu_start > 0) {
        gs = r->gpu_start - p.base;
        gd = r->gpu_dur;
    }
    if (p.cpu && r->cpu_start) {
        if (r->cpu_dur < p.min_cpu)
            return;
        cs = r->cpu_start - p.base;
        cd = r->cpu_dur;
    }
    if (p.memory && r->vsize && r->rss) { /* absolute, as apitrace prints them */
        vs = r->vsize;
        vd = r->vsize_dur;
        rs = r->rss;
        rd = r->rss_dur;
    }
    fprintf(p.out, "call %" PRIu32 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64
                   " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRIu32 " %s\n",
            r->no, gs, gd, cs, cd, vs, vd, rs, rd, p.pixels ? r->pixels : 0, r->program,
            r->name);
}

static void print_ready(bool force)
{
    while (p.head < p.committed && (force || !p.r[p.head].pending)) {
        print_record(&p.r[p.head++]);
        p.first_id++;
    }
    if (p.head == p.n) {
        p.head = p.n = p.committed = 0;
    } else if (p.head > p.cap / 2) { /* compact */
        memmove(p.r, p.r + p.head, (p.n - p.head) * sizeof *p.r);
        p.n -= p.head;
        p.committed -= p.head;
        p.head = 0;
    }
}

static record *add(void)
{
    if (p.n - p.head >= MAX_RECORDS) {
        p.committed = p.n; /* out of bounds: print as they are */
        print_ready(true);
    }
    if (p.n == p.cap) { /* not gt_grow: test_profile_text builds this file without common/ */
        size_t n = p.cap ? p.cap * 2 : 4096;
        record *a = realloc(p.r, n * sizeof *a);
        if (!a)
            return NULL;
        p.r = a;
        p.cap = n;
    }
    record *r = &p.r[p.n++];
    memset(r, 0, sizeof *r);
    return r;
}

static record *find(uint64_t id)
{
    if (id < p.first_id || id - p.first_id >= p.n - p.head)
        return NULL;
    return &p.r[p.head + (id - p.first_id)];
}

uint64_t profile_text_call(uint32_t no, const char *name, uint32_t program, int64_t cpu_start,
                           int64_t cpu_dur, bool gpu_pending)
{
    if (!p.on)
        return UINT64_MAX;
    record *r = add();
    if (!r)
        return UINT64_MAX;
    r->name = name;
    r->no = no;
    r->program = program;
    r->cpu_start = cpu_start;
    r->cpu_dur = cpu_dur;
    r->pending = gpu_pending;
    r->pixels = -1;
    return p.first_id + (uint64_t)(r - p.r - p.head);
}

void profile_text_columns(bool pixels, bool memory)
{
    p.pixels = pixels;
    p.memory = memory;
}

void profile_text_pixels(uint64_t rec, int64_t pixels)
{
    record *r = find(rec);
    if (r)
        r->pixels = pixels;
}

void profile_text_mem(uint64_t rec, int64_t vsize, int64_t vsize_dur, int64_t rss,
                      int64_t rss_dur)
{
    record *r = find(rec);
    if (!r)
        return;
    r->vsize = vsize;
    r->vsize_dur = vsize_dur;
    r->rss = rss;
    r->rss_dur = rss_dur;
}

void profile_text_set_cpu(uint64_t rec, int64_t cpu_dur)
{
    record *r = find(rec);
    if (r)
        r->cpu_dur = cpu_dur;
}

void profile_text_gpu(uint64_t rec, bool valid, int64_t start, int64_t dur)
{
    record *r = find(rec);
    if (!r)
        return;
    r->pending = false;
    if (valid) {
        r->gpu_start = start;
        r->gpu_dur = dur;
    }
    print_ready(false);
}

void profile_text_commit(void)
{
    if (!p.on)
        return;
    p.committed = p.n;
    print_ready(false);
}

void profile_text_frame_end(int64_t finished_ns)
{
    if (!p.on)
        return;
    record *r = add();
    if (r) {
        r->name = NULL;
        r->finished = finished_ns;
    }
    profile_text_commit();
}

void profile_text_finish(void)
{
    if (!p.on)
        return;
    print_ready(true);
    fflush(p.out);
    free(p.r);
    memset(&p, 0, sizeof p);
}
