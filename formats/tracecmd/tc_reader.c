/* The trace-cmd reader's driver: maps the file, parses its layout
 * (tc_sections.c), then walks every CPU of every buffer instance page by page
 * (one page, or one decompressed chunk, held per CPU) and merges the records by
 * timestamp into tc_conv, lower CPU first on ties as trace-cmd report does. */
#include "tc_reader.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gt_input.h"
#include "tc_internal.h"

#define MAX_CHUNK (64u << 20)

typedef struct tc_stream {
    tc_file *f;
    uint32_t cpu, page_size;
    bool compressed;
    uint64_t off, end;      /* raw: the data left; compressed: the next chunk header */
    uint32_t chunks_left;
    uint8_t *chunk;         /* the current decompressed chunk */
    size_t chunk_len, chunk_cap, chunk_pos;
    uint64_t page_at;       /* file offset of the page (of the chunk when compressed) */
    tc_page pg;
    bool in_page, done, warned_lost;
    tc_rec rec;
    int64_t ts;
} tc_stream;

/* ---- pages of one CPU ----------------------------------------------------------- */

static int load_chunk(tc_stream *s)
{
    tc_file *f = s->f;
    tc_cur c = tc_cur_make(f->data + s->off, (size_t)(s->end - s->off), s->off, f->be);
    uint32_t csize, usize;
    const uint8_t *src;
    if (!tc_u32(&c, &csize) || !tc_u32(&c, &usize) || !tc_bytes(&c, csize, &src))
        return tc_deviation(f, s->off, "CPU %u: compressed chunk cut by the end of its data", s->cpu) < 0
                   ? -1 : (s->done = true, 0);
    if (usize > MAX_CHUNK || (usize > (1u << 20) && usize / 1024 > csize))
        return tc_fail(f, s->off, "CPU %u: chunk claims %u bytes from %u", s->cpu, usize, csize);
    if (usize > s->chunk_cap) {
        if (tc_inflate_budget(f, usize - s->chunk_cap, s->off) < 0)
            return -1;
        uint8_t *b = realloc(s->chunk, usize);
        if (!b)
            return tc_fail(f, s->off, "out of memory");
        s->chunk = b;
        s->chunk_cap = usize;
    }
    const char *why;
    if (tc_decompress(f->comp, src, csize, s->chunk, usize, &s->chunk_len, &why) < 0)
        return tc_fail(f, s->off + 8, "CPU %u: %s", s->cpu, why);
    s->page_at = s->off;
    s->off += 8 + (uint64_t)csize;
    s->chunks_left--;
    s->chunk_pos = 0;
    return 0;
}

/* Finds the next page; s->done when there is none. */
static int next_page(tc_stream *s)
{
    const uint8_t *page;
    size_t len;
    if (!s->compressed) {
        if (s->off >= s->end)
            return s->done = true, 0;
        len = s->end - s->off < s->page_size ? (size_t)(s->end - s->off) : s->page_size;
        page = s->f->data + s->off;
        s->page_at = s->off;
        s->off += len;
    } else {
        while (s->chunk_pos >= s->chunk_len) {
            if (!s->chunks_left)
                return s->done = true, 0;
            if (load_chunk(s) < 0 || s->done)
                return s->done ? 0 : -1;
        }
        len = s->chunk_len - s->chunk_pos < s->page_size ? s->chunk_len - s->chunk_pos : s->page_size;
        page = s->chunk + s->chunk_pos;
        s->chunk_pos += len;
    }
    const char *why;
    uint32_t at;
    if (tc_page_load(&s->pg, page, len, &s->f->ph, s->f->be, &why, &at) < 0)
        /* a damaged page: the others may still be good */
        return tc_deviation(s->f, s->compressed ? s->page_at : s->page_at + at, "CPU %u: %s (page skipped)",
                            s->cpu, why);
    s->in_page = true;
    if (s->pg.missed && !s->warned_lost) { /* the kernel's buffer overran: not a file defect */
        s->warned_lost = true;
        tc_warn(s->f, s->page_at, "CPU %u: events were lost (ring buffer overrun; warned once per CPU)", s->cpu);
    }
    return 0;
}

static int64_t convert_ts(const tc_file *f, uint64_t ts)
{
    if (f->tsc_mult) { /* mul_u64_u32_shr, as trace-cmd does */
        uint64_t lo = (uint32_t)ts, hi = ts >> 32;
        uint64_t r = (lo * f->tsc_mult) >> f->tsc_shift;
        if (hi)
            r += (hi * f->tsc_mult) << (32 - f->tsc_shift);
        ts = r;
    }
    return (int64_t)(ts + (uint64_t)f->ts_offset); /* wraps, never overflows */
}

/* Advances to the next record: 1 found, 0 end of this CPU, -1 error. */
static int stream_next(tc_stream *s)
{
    while (!s->done) {
        if (!s->in_page) {
            if (next_page(s) < 0)
                return -1;
            continue;
        }
        const char *why;
        uint32_t at;
        int rc = tc_page_next(&s->pg, &s->rec, &why, &at);
        if (rc > 0) {
            s->ts = convert_ts(s->f, s->rec.ts);
            return 1;
        }
        s->in_page = false;
        if (rc < 0 && tc_deviation(s->f, s->compressed ? s->page_at : s->page_at + at,
                                   "CPU %u: %s (rest of page skipped)", s->cpu, why) < 0)
            return -1;
    }
    return 0;
}

static int stream_open(tc_stream *s, tc_file *f, const tc_buffer *b, const tc_cpu_data *d)
{
    *s = (tc_stream){.f = f, .cpu = d->cpu, .page_size = b->page_size, .compressed = b->compressed,
                     .off = d->off, .end = d->off + d->size};
    if (!d->size)
        return s->done = true, 0;
    if (s->compressed) {
        tc_cur c = tc_cur_make(f->data + d->off, (size_t)d->size + 4, d->off, f->be);
        if (!tc_u32(&c, &s->chunks_left))
            return tc_fail(f, d->off, "CPU %u: no chunk count", d->cpu);
        s->off += 4;
        s->end += 4; /* the size leaves the count out (checked in tc_sections.c) */
    }
    return 0;
}

/* ---- the merge ------------------------------------------------------------------- */

typedef struct merge {
    tc_stream *s;
    size_t n;
    size_t *heap; /* stream indices, earliest record first */
    size_t nheap;
} merge;

static bool before(const merge *m, size_t a, size_t b)
{
    return m->s[a].ts < m->s[b].ts || (m->s[a].ts == m->s[b].ts && a < b);
}

static void sift_down(merge *m, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, min = i;
        if (l < m->nheap && before(m, m->heap[l], m->heap[min]))
            min = l;
        if (r < m->nheap && before(m, m->heap[r], m->heap[min]))
            min = r;
        if (min == i)
            return;
        size_t t = m->heap[i];
        m->heap[i] = m->heap[min];
        m->heap[min] = t;
        i = min;
    }
}

static int merge_open(merge *m, tc_file *f)
{
    size_t n = 0;
    for (size_t i = 0; i < f->nbufs; i++)
        n += f->bufs[i].ncpu;
    m->n = 0;
    m->nheap = 0;
    m->s = calloc(n ? n : 1, sizeof *m->s);
    m->heap = calloc(n ? n : 1, sizeof *m->heap);
    if (!m->s || !m->heap)
        return tc_fail(f, 0, "out of memory");
    for (size_t i = 0; i < f->nbufs; i++)
        for (uint32_t k = 0; k < f->bufs[i].ncpu; k++) {
            tc_stream *s = &m->s[m->n];
            if (stream_open(s, f, &f->bufs[i], &f->bufs[i].cpus[k]) < 0)
                return -1;
            m->n++;
            int rc = stream_next(s);
            if (rc < 0)
                return -1;
            if (rc)
                m->heap[m->nheap++] = m->n - 1;
        }
    for (size_t i = m->nheap / 2; i-- > 0;)
        sift_down(m, i);
    return 0;
}

static void merge_close(merge *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->s[i].chunk);
    free(m->s);
    free(m->heap);
}

static int merge_run(merge *m, tc_conv *cv)
{
    while (m->nheap) {
        tc_stream *s = &m->s[m->heap[0]];
        uint64_t at = s->compressed ? s->page_at : s->page_at + s->rec.at;
        if (tc_conv_record(cv, s->cpu, s->ts, &s->rec, at) < 0)
            return -1;
        int rc = stream_next(s);
        if (rc < 0)
            return -1;
        if (!rc)
            m->heap[0] = m->heap[--m->nheap];
        sift_down(m, 0);
    }
    return 0;
}

/* ---- entry points ----------------------------------------------------------------- */

int gt_tracecmd_read_mem(const uint8_t *data, size_t size, const char *name, gt_timeline *tl,
                         gt_tl_sink *sink, const gt_tl_read_opts *opts, gt_error *err)
{
    tc_file f = {.name = name ? name : "<memory>", .data = data, .size = size, .opts = opts, .err = err, .tl = tl};
    merge m = {0};
    tc_conv *cv = NULL;
    int rc = -1;
    if (tc_file_parse(&f) < 0)
        goto out;
    if (f.has_date) {
        tl->has_wall = true;
        tl->wall_offset_ns = f.date_ns;
    }
    if (f.clock_mono) { /* `trace-cmd record -C mono`: the live timeline's clock */
        tl->has_mono = true;
        tl->mono_offset_ns = 0;
    }
    if (!(cv = tc_conv_new(&f, sink))) {
        tc_fail(&f, 0, "out of memory");
        goto out;
    }
    if (tc_conv_names(cv) < 0 || merge_open(&m, &f) < 0 || merge_run(&m, cv) < 0)
        goto out;
    rc = 0;
out:
    if (rc < 0 && err && !err->set)
        gt_error_at(err, f.name, 0, "read failed");
    merge_close(&m);
    tc_conv_free(cv);
    tc_file_free(&f);
    return rc;
}

int gt_tracecmd_read(const char *path, gt_timeline *tl, gt_tl_sink *sink, const gt_tl_read_opts *opts,
                     gt_error *err)
{
    uint64_t fsize;
    int fd = gt_input_open(path, &fsize, err);
    if (fd < 0)
        return -1;
    if (fsize > SIZE_MAX) {
        gt_error_set(err, "%s: too large to map", path);
        close(fd);
        return -1;
    }
    size_t size = (size_t)fsize;
    void *map = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
    close(fd);
    if (size && map == MAP_FAILED) {
        gt_error_set(err, "%s: cannot map the file", path);
        return -1;
    }
    static const uint8_t empty[1];
    int rc = gt_tracecmd_read_mem(size ? map : empty, size, path, tl, sink, opts, err);
    if (size)
        munmap(map, size);
    return rc;
}
