/* The layout of a .dat file: the initial header, then either the v6 fixed
 * sequence (header_page/header_event, ftrace and event formats, kallsyms,
 * printk formats, saved cmdlines, CPU count, options, flyrecord CPU table) or
 * the v7 chain of options sections pointing at sections (optionally
 * compressed), with one BUFFER option per trace instance. Fills tc_file with
 * the metadata the event decoder needs; the events themselves are read by
 * tc_reader.c. */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "tc_internal.h"

#define MAX_OPTION_SECTIONS 256
#define MAX_CPUS 65536

int tc_inflate_budget(tc_file *f, uint64_t more, uint64_t at)
{
    uint64_t limit = (64ull << 20) + 32ull * f->size;
    if (more > limit || f->inflated > limit - more)
        return tc_fail(f, at, "decompressed data would exceed %llu bytes for a %zu-byte file",
                       (unsigned long long)limit, f->size);
    f->inflated += more;
    return 0;
}

int tc_file_own(tc_file *f, void *p)
{
    if (GT_GROW(f->owned, f->owned_cap, f->nowned + 1, 16) != 0) {
        free(p);
        return -1;
    }
    f->owned[f->nowned++] = p;
    return 0;
}

void tc_file_free(tc_file *f)
{
    for (size_t i = 0; i < f->nowned; i++)
        free(f->owned[i]);
    free(f->owned);
    for (size_t i = 0; i < f->nbufs; i++)
        free(f->bufs[i].cpus);
    free(f->bufs);
    tc_events_free(&f->evs);
}

static int truncated(tc_file *f, const tc_cur *c, const char *what)
{
    return tc_fail(f, tc_off(c), "truncated: %s", what);
}

/* ---- metadata blocks: the same bytes in a v6 sequence and in v7 sections ---- */

static int read_header_info(tc_file *f, tc_cur *c)
{
    static const char page_tag[12] = "header_page", event_tag[13] = "header_event";
    const uint8_t *tag, *text;
    uint64_t n;
    const char *why;
    if (!tc_bytes(c, 12, &tag) || memcmp(tag, page_tag, 12) != 0)
        return tc_fail(f, tc_off(c), "expected \"header_page\"");
    uint64_t at = tc_off(c);
    if (!tc_u64(c, &n) || !tc_bytes(c, n, &text))
        return truncated(f, c, "header_page");
    if (tc_header_page_parse((const char *)text, (size_t)n, &f->ph, &why) < 0)
        return tc_fail(f, at, "%s", why);
    if (!tc_bytes(c, 13, &tag) || memcmp(tag, event_tag, 13) != 0)
        return tc_fail(f, tc_off(c), "expected \"header_event\"");
    at = tc_off(c);
    if (!tc_u64(c, &n) || !tc_bytes(c, n, &text))
        return truncated(f, c, "header_event");
    /* the event header is fixed since Linux 2.6.31; refuse the older layout */
    if (n && !memmem(text, (size_t)n, "type_len", 8))
        return tc_fail(f, at, "unsupported ring-buffer event header (kernel before 2.6.31)");
    return 0;
}

static int read_format(tc_file *f, tc_cur *c, const char *sys, size_t sys_len)
{
    uint64_t at = tc_off(c), n;
    const uint8_t *text;
    const char *why;
    size_t line;
    if (!tc_u64(c, &n) || !tc_bytes(c, n, &text))
        return truncated(f, c, "event format");
    if (tc_format_parse(&f->evs, sys, sys_len, (const char *)text, (size_t)n, f->ph.commit_size,
                        f->tl, &why, &line) == 0)
        return 0;
    if (!strcmp(why, "out of memory"))
        return tc_fail(f, at, "out of memory");
    /* trace-cmd skips formats it cannot parse; so do we, outside strict mode */
    return tc_deviation(f, c->virt ? at : at + 8 + line, "event format of system %.*s: %s", (int)sys_len,
                        sys, why);
}

static int read_ftrace_formats(tc_file *f, tc_cur *c)
{
    uint32_t count;
    if (!tc_u32(c, &count))
        return truncated(f, c, "ftrace format count");
    for (uint32_t i = 0; i < count; i++)
        if (read_format(f, c, "ftrace", 6) < 0)
            return -1;
    return 0;
}

static int read_event_formats(tc_file *f, tc_cur *c)
{
    uint32_t systems, count;
    if (!tc_u32(c, &systems))
        return truncated(f, c, "event system count");
    for (uint32_t s = 0; s < systems; s++) {
        const char *sys;
        size_t sys_len;
        if (!tc_str(c, &sys, &sys_len))
            return truncated(f, c, "event system name");
        if (!tc_u32(c, &count))
            return truncated(f, c, "event count");
        for (uint32_t i = 0; i < count; i++)
            if (read_format(f, c, sys, sys_len) < 0)
                return -1;
    }
    return 0;
}

/* A size-prefixed text block (kallsyms, printk: u32; cmdlines: u64). */
static int read_text(tc_file *f, tc_cur *c, unsigned size_bytes, const char *what, const char **text,
                     size_t *len)
{
    uint64_t n;
    const uint8_t *p;
    if (!tc_num(c, size_bytes, &n) || !tc_bytes(c, n, &p))
        return truncated(f, c, what);
    *text = (const char *)p;
    *len = (size_t)n;
    return 0;
}

/* ---- options ---------------------------------------------------------------- */

static int buffer_add(tc_file *f, tc_buffer **out)
{
    tc_buffer *b = realloc(f->bufs, (f->nbufs + 1) * sizeof *b);
    if (!b)
        return tc_fail(f, 0, "out of memory");
    f->bufs = b;
    *out = &b[f->nbufs++];
    memset(*out, 0, sizeof **out);
    return 0;
}

/* v7 BUFFER: offset, name, clock, page size, CPU count, {cpu, offset, size}... */
static int option_buffer_v7(tc_file *f, tc_cur *o)
{
    uint64_t sec_off;
    const char *name, *clock;
    size_t name_len, clock_len;
    uint32_t page_size, ncpu;
    uint64_t at = tc_off(o);
    if (!tc_u64(o, &sec_off) || !tc_str(o, &name, &name_len) || !tc_str(o, &clock, &clock_len) ||
        !tc_u32(o, &page_size) || !tc_u32(o, &ncpu))
        return tc_fail(f, at, "BUFFER option too short");
    if (ncpu > MAX_CPUS || (uint64_t)ncpu * 20 > tc_left(o))
        return tc_fail(f, at, "BUFFER option: %u CPUs do not fit in it", ncpu);
    if (page_size < f->ph.data_off + 4 || page_size > (1u << 24))
        return tc_fail(f, at, "BUFFER option: bad page size %u", page_size);
    if (name_len == 0 && clock_len == 4 && memcmp(clock, "mono", 4) == 0)
        f->clock_mono = true; /* the top buffer runs on CLOCK_MONOTONIC */
    tc_buffer *b = NULL;
    if (buffer_add(f, &b) < 0)
        return -1;
    b->name = name;
    b->page_size = page_size;
    if (ncpu && !(b->cpus = calloc(ncpu, sizeof *b->cpus)))
        return tc_fail(f, at, "out of memory");
    for (uint32_t i = 0; i < ncpu; i++) {
        (void)tc_u32(o, &b->cpus[i].cpu);
        (void)tc_u64(o, &b->cpus[i].off);
        (void)tc_u64(o, &b->cpus[i].size);
    }
    b->ncpu = ncpu;
    if (!ncpu)
        return 0;
    /* the flyrecord section's flags say whether the CPU data is compressed */
    if (sec_off > f->size || f->size - sec_off < 16)
        return tc_fail(f, at, "BUFFER option: section offset %llu beyond the file",
                       (unsigned long long)sec_off);
    tc_cur s = tc_cur_make(f->data + sec_off, 4, sec_off, f->be);
    uint16_t id = 0, flags = 0;
    (void)tc_u16(&s, &id);
    (void)tc_u16(&s, &flags);
    if (id != TC_OPT_BUFFER)
        return tc_fail(f, sec_off, "expected a flyrecord section (id 3), found id %u", id);
    b->compressed = (flags & TC_SEC_FL_COMPRESS) != 0;
    if (b->compressed && f->comp == TC_COMP_NONE)
        return tc_fail(f, sec_off, "compressed flyrecord section in a file without compression");
    return 0;
}

static int option_number(tc_file *f, const uint8_t *p, uint32_t n, int64_t *v)
{
    char buf[32];
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, p, n);
    buf[n] = 0;
    char *end;
    long long x = strtoll(buf, &end, 0);
    (void)f;
    if (end == buf)
        return -1;
    *v = x;
    return 0;
}

/* One option; section options (v7) record the offsets of their sections. */
static int handle_option(tc_file *f, uint16_t id, tc_cur *o, uint64_t sec[32])
{
    uint64_t at = tc_off(o);
    uint32_t n = (uint32_t)tc_left(o);
    const uint8_t *p = o->p + o->pos;
    int64_t v;
    switch (id) {
    case TC_OPT_DATE:
        if (option_number(f, p, n, &v) < 0)
            return tc_deviation(f, at, "DATE option is not a number");
        if (v > INT64_MAX / 1000 || v < INT64_MIN / 1000)
            return tc_deviation(f, at, "DATE option out of range");
        f->has_date = true;
        f->date_ns = v * 1000; /* microseconds */
        return 0;
    case TC_OPT_OFFSET:
        if (option_number(f, p, n, &v) < 0)
            return tc_deviation(f, at, "OFFSET option is not a number");
        f->ts_offset = (int64_t)((uint64_t)f->ts_offset + (uint64_t)v);
        return 0;
    case TC_OPT_TSC2NSEC:
        if (n < 16)
            return tc_deviation(f, at, "TSC2NSEC option shorter than 16 bytes");
        f->tsc_mult = (uint32_t)tc_get_num(p, 4, f->be);
        f->tsc_shift = (uint32_t)tc_get_num(p + 4, 4, f->be);
        if (f->tsc_shift > 32)
            return tc_fail(f, at, "TSC2NSEC shift %u above 32", f->tsc_shift);
        return 0;
    case TC_OPT_TIME_SHIFT:
        tc_warn(f, at, "TIME_SHIFT (host/guest clock sync) is not applied");
        return 0;
    case TC_OPT_BUFFER:
        return f->version >= 7 ? option_buffer_v7(f, o) : 0; /* v6: handled by the caller */
    case TC_OPT_BUFFER_TEXT:
        tc_warn(f, at, "latency (text) buffer ignored");
        return 0;
    case TC_OPT_HEADER_INFO: case TC_OPT_FTRACE_EVENTS: case TC_OPT_EVENT_FORMATS:
    case TC_OPT_KALLSYMS: case TC_OPT_PRINTK: case TC_OPT_CMDLINES:
        if (n < 8)
            return tc_fail(f, at, "section option %u shorter than 8 bytes", id);
        sec[id] = tc_get_num(p, 8, f->be);
        return 0;
    case TC_OPT_TRACECLOCK: /* "local global [mono] ...": the selected clock in brackets */
        for (uint32_t i = 0; i + 6 <= n; i++)
            if (memcmp(p + i, "[mono]", 6) == 0)
                f->clock_mono = true;
        return 0;
    default:
        return 0; /* CPUSTAT, UNAME, VERSION, ...: nothing to apply */
    }
}

/* ---- v7 ------------------------------------------------------------------------ */

/* Opens the section at off: checks its id, decompresses it when flagged. */
static int section_open(tc_file *f, uint64_t off, uint16_t want, tc_cur *out)
{
    if (off > f->size || f->size - off < 16)
        return tc_fail(f, off, "section offset beyond the end of the file");
    tc_cur h = tc_cur_make(f->data + off, 16, off, f->be);
    uint16_t id = 0, flags = 0;
    uint32_t desc = 0;
    uint64_t size = 0;
    (void)tc_u16(&h, &id);
    (void)tc_u16(&h, &flags);
    (void)tc_u32(&h, &desc);
    (void)tc_u64(&h, &size);
    if (id != want)
        return tc_fail(f, off, "expected section id %u, found %u", want, id);
    uint64_t data = off + 16;
    if (size > f->size - data)
        return tc_fail(f, off, "section size %llu beyond the end of the file", (unsigned long long)size);
    if (!(flags & TC_SEC_FL_COMPRESS)) {
        *out = tc_cur_make(f->data + data, (size_t)size, data, f->be);
        return 0;
    }
    if (f->comp == TC_COMP_NONE)
        return tc_fail(f, off, "compressed section in a file without compression");
    tc_cur z = tc_cur_make(f->data + data, (size_t)size, data, f->be);
    uint32_t csize, rsize;
    const uint8_t *src;
    if (!tc_u32(&z, &csize) || !tc_u32(&z, &rsize) || !tc_bytes(&z, csize, &src))
        return tc_fail(f, data, "compressed section: sizes beyond the section");
    if (rsize > TC_MAX_INFLATE || (rsize > (1u << 20) && rsize / 1024 > csize))
        return tc_fail(f, data, "compressed section claims %u bytes from %u", rsize, csize);
    if (tc_inflate_budget(f, rsize, data) < 0)
        return -1;
    uint8_t *buf = malloc(rsize ? rsize : 1);
    size_t got;
    const char *why;
    if (!buf || tc_file_own(f, buf) < 0)
        return tc_fail(f, data, "out of memory");
    if (tc_decompress(f->comp, src, csize, buf, rsize, &got, &why) < 0)
        return tc_fail(f, data + 8, "%s", why);
    if (got != rsize && tc_deviation(f, data, "section decompressed to %zu bytes, not %u", got, rsize) < 0)
        return -1;
    *out = tc_cur_make(buf, got, off, f->be);
    out->virt = true;
    return 0;
}

static int read_options_v7(tc_file *f, uint64_t off, uint64_t sec[32])
{
    for (int chain = 0; off; chain++) {
        if (chain == MAX_OPTION_SECTIONS)
            return tc_fail(f, off, "more than %d options sections (a loop?)", MAX_OPTION_SECTIONS);
        if (chain && off >= f->size) /* a cut file loses its last options */
            return tc_deviation(f, f->size, "next options section at %llu beyond the end of the file (truncated?)",
                                (unsigned long long)off);
        tc_cur c;
        if (section_open(f, off, TC_OPT_DONE, &c) < 0)
            return -1;
        uint64_t next = 0;
        bool done = false;
        while (!done) {
            uint16_t id;
            uint32_t size;
            const uint8_t *p;
            uint64_t at = tc_off(&c);
            if (!tc_u16(&c, &id) || !tc_u32(&c, &size) || !tc_bytes(&c, size, &p))
                return tc_fail(f, at, "option cut by the end of its section");
            tc_cur o = tc_cur_make(p, size, c.virt ? c.base : at + 6, f->be);
            o.virt = c.virt;
            if (id == TC_OPT_DONE) {
                if (size < 8)
                    return tc_fail(f, at, "DONE option shorter than 8 bytes");
                next = tc_get_num(p, 8, f->be);
                done = true;
            } else if (handle_option(f, id, &o, sec) < 0) {
                return -1;
            }
        }
        off = next;
    }
    return 0;
}

static int read_sections_v7(tc_file *f, const uint64_t sec[32])
{
    tc_cur c;
    if (!sec[TC_OPT_HEADER_INFO])
        return tc_fail(f, 0, "no HEADER_INFO section");
    if (section_open(f, sec[TC_OPT_HEADER_INFO], TC_OPT_HEADER_INFO, &c) < 0 || read_header_info(f, &c) < 0)
        return -1;
    if (sec[TC_OPT_FTRACE_EVENTS] && (section_open(f, sec[TC_OPT_FTRACE_EVENTS], TC_OPT_FTRACE_EVENTS, &c) < 0 ||
                                      read_ftrace_formats(f, &c) < 0))
        return -1;
    if (sec[TC_OPT_EVENT_FORMATS] && (section_open(f, sec[TC_OPT_EVENT_FORMATS], TC_OPT_EVENT_FORMATS, &c) < 0 ||
                                      read_event_formats(f, &c) < 0))
        return -1;
    if (sec[TC_OPT_KALLSYMS] && (section_open(f, sec[TC_OPT_KALLSYMS], TC_OPT_KALLSYMS, &c) < 0 ||
                                 read_text(f, &c, 4, "kallsyms", &f->kallsyms, &f->kallsyms_len) < 0))
        return -1;
    if (sec[TC_OPT_PRINTK] && (section_open(f, sec[TC_OPT_PRINTK], TC_OPT_PRINTK, &c) < 0 ||
                               read_text(f, &c, 4, "printk formats", &f->printk, &f->printk_len) < 0))
        return -1;
    if (sec[TC_OPT_CMDLINES] && (section_open(f, sec[TC_OPT_CMDLINES], TC_OPT_CMDLINES, &c) < 0 ||
                                 read_text(f, &c, 8, "saved cmdlines", &f->cmdlines, &f->cmdlines_len) < 0))
        return -1;
    return 0;
}

static int parse_v7(tc_file *f, tc_cur *c)
{
    const char *zname, *zver;
    size_t zn, zv;
    uint64_t opt_off;
    if (!tc_str(c, &zname, &zn) || !tc_str(c, &zver, &zv))
        return truncated(f, c, "compression header");
    if ((f->comp = tc_comp_from_name(zname, zn)) < 0)
        return tc_fail(f, tc_off(c), "unknown compression \"%.*s\"", (int)(zn > 32 ? 32 : zn), zname);
    if (!tc_u64(c, &opt_off))
        return truncated(f, c, "options offset");
    if (!opt_off)
        return tc_fail(f, tc_off(c) - 8, "no options section");
    uint64_t sec[32] = {0};
    /* options come first (they locate the sections); BUFFER page sizes are
     * checked against the page header once HEADER_INFO is read */
    if (read_options_v7(f, opt_off, sec) < 0)
        return -1;
    if (read_sections_v7(f, sec) < 0)
        return -1;
    for (size_t i = 0; i < f->nbufs; i++)
        if (f->bufs[i].page_size < f->ph.data_off + 4)
            return tc_fail(f, opt_off, "buffer page size %u below the page header", f->bufs[i].page_size);
    return 0;
}

/* ---- v6 ------------------------------------------------------------------------- */

/* A CPU table: cpus x {u64 offset, u64 size}, after a "flyrecord" tag. */
static int read_cpu_table(tc_file *f, tc_cur *c, uint32_t cpus, const char *name)
{
    const uint8_t *tag;
    uint64_t at = tc_off(c);
    if (!tc_bytes(c, 10, &tag))
        return truncated(f, c, "data type tag");
    if (memcmp(tag, "latency", 7) == 0)
        return tc_deviation(f, at, "latency trace (text) is not read: no events");
    if (memcmp(tag, "flyrecord", 9) != 0)
        return tc_fail(f, at, "expected \"flyrecord\" or \"latency\"");
    if ((uint64_t)cpus * 16 > tc_left(c))
        return truncated(f, c, "CPU table");
    tc_buffer *b = NULL;
    if (buffer_add(f, &b) < 0)
        return -1;
    b->name = name;
    b->page_size = f->page_size;
    if (cpus && !(b->cpus = calloc(cpus, sizeof *b->cpus)))
        return tc_fail(f, at, "out of memory");
    for (uint32_t i = 0; i < cpus; i++) {
        b->cpus[i].cpu = i;
        (void)tc_u64(c, &b->cpus[i].off);
        (void)tc_u64(c, &b->cpus[i].size);
    }
    b->ncpu = cpus;
    return 0;
}

typedef struct v6_buf {
    uint64_t off;
    const char *name;
} v6_buf;

static int read_options_v6(tc_file *f, tc_cur *c, v6_buf *bufs, size_t *nbufs, size_t max)
{
    uint64_t sec[32] = {0};
    for (;;) {
        uint16_t id;
        uint32_t size;
        const uint8_t *p;
        uint64_t at = tc_off(c);
        if (!tc_u16(c, &id))
            return truncated(f, c, "options");
        if (id == TC_OPT_DONE)
            return 0;
        if (!tc_u32(c, &size) || !tc_bytes(c, size, &p))
            return truncated(f, c, "option");
        tc_cur o = tc_cur_make(p, size, at + 6, f->be);
        if (id == TC_OPT_BUFFER) {
            const char *name;
            size_t n;
            if (!tc_u64(&o, &bufs[*nbufs].off) || !tc_str(&o, &name, &n))
                return tc_fail(f, at, "BUFFER option too short");
            bufs[*nbufs].name = name;
            if (*nbufs + 1 < max)
                ++*nbufs;
            continue;
        }
        if (handle_option(f, id, &o, sec) < 0)
            return -1;
    }
}

static int parse_v6(tc_file *f, tc_cur *c)
{
    uint32_t cpus;
    if (read_header_info(f, c) < 0 || read_ftrace_formats(f, c) < 0 || read_event_formats(f, c) < 0 ||
        read_text(f, c, 4, "kallsyms", &f->kallsyms, &f->kallsyms_len) < 0 ||
        read_text(f, c, 4, "printk formats", &f->printk, &f->printk_len) < 0 ||
        read_text(f, c, 8, "saved cmdlines", &f->cmdlines, &f->cmdlines_len) < 0)
        return -1;
    if (f->page_size < f->ph.data_off + 4)
        return tc_fail(f, 0, "page size %u below the page header", f->page_size);
    if (!tc_u32(c, &cpus))
        return truncated(f, c, "CPU count");
    if (cpus > MAX_CPUS)
        return tc_fail(f, tc_off(c) - 4, "%u CPUs", cpus);
    const uint8_t *tag;
    uint64_t at = tc_off(c);
    if (tc_left(c) >= 10 && memcmp(c->p + c->pos, "options", 7) == 0) {
        v6_buf bufs[64];
        size_t nb = 0;
        (void)tc_bytes(c, 10, &tag);
        if (read_options_v6(f, c, bufs, &nb, 64) < 0 || read_cpu_table(f, c, cpus, "") < 0)
            return -1;
        for (size_t i = 0; i < nb; i++) {
            if (bufs[i].off > f->size)
                return tc_fail(f, at, "BUFFER option offset beyond the file");
            tc_cur b = tc_cur_make(f->data + bufs[i].off, f->size - (size_t)bufs[i].off, bufs[i].off, f->be);
            if (read_cpu_table(f, &b, cpus, bufs[i].name) < 0)
                return -1;
        }
        return 0;
    }
    return read_cpu_table(f, c, cpus, "");
}

/* ---- the initial header ------------------------------------------------------------ */

static int check_cpu_ranges(tc_file *f)
{
    for (size_t i = 0; i < f->nbufs; i++) {
        tc_buffer *b = &f->bufs[i];
        for (uint32_t k = 0; k < b->ncpu; k++) {
            tc_cpu_data *d = &b->cpus[k];
            /* compressed data starts with a chunk count its size leaves out */
            uint64_t extra = b->compressed && d->size ? 4 : 0;
            for (uint32_t j = 0; j < k; j++)
                if (b->cpus[j].cpu == d->cpu)
                    return tc_fail(f, 0, "buffer \"%s\": CPU %u listed twice", b->name, d->cpu);
            if (d->off > f->size) {
                if (tc_deviation(f, f->size, "CPU %u data at %llu beyond the end of the file (truncated?)",
                                 d->cpu, (unsigned long long)d->off) < 0)
                    return -1;
                d->size = 0;
            } else if (d->size + extra > f->size - d->off) {
                if (tc_deviation(f, f->size, "CPU %u data cut by the end of the file (truncated?)", d->cpu) < 0)
                    return -1;
                d->size = f->size - d->off >= extra ? f->size - d->off - extra : 0;
            }
        }
    }
    return 0;
}

int tc_file_parse(tc_file *f)
{
    static const uint8_t magic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
    tc_cur c = tc_cur_make(f->data, f->size, 0, false);
    const uint8_t *m;
    const char *ver;
    size_t vn;
    if (!tc_bytes(&c, 10, &m) || memcmp(m, magic, 10) != 0)
        return tc_fail(f, 0, "not a trace-cmd file (bad magic)");
    if (!tc_str(&c, &ver, &vn) || vn == 0 || vn > 3)
        return tc_fail(f, 10, "bad version string");
    f->version = atoi(ver);
    if (f->version != 6 && f->version != 7)
        return tc_fail(f, 10, "unsupported file version \"%.*s\"", (int)vn, ver);
    const uint8_t *hb;
    if (!tc_bytes(&c, 2, &hb))
        return truncated(f, &c, "initial header");
    if (hb[0] > 1 || (hb[1] != 4 && hb[1] != 8))
        return tc_fail(f, tc_off(&c) - 2, "bad endianness %u or long size %u", hb[0], hb[1]);
    f->be = c.be = hb[0] == 1;
    f->long_size = hb[1];
    if (!tc_u32(&c, &f->page_size))
        return truncated(f, &c, "page size");
    if (f->page_size < 64 || f->page_size > (1u << 24))
        return tc_fail(f, tc_off(&c) - 4, "bad page size %u", f->page_size);
    int rc = f->version == 6 ? parse_v6(f, &c) : parse_v7(f, &c);
    return rc < 0 ? -1 : check_cpu_ranges(f);
}
