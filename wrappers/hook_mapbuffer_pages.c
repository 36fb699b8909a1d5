/* Coherent persistent maps written as apitrace 11 writes them (wrappers/glmemshadow.cpp).
 *
 * apitrace hands the program a shadow of the buffer, page-aligned at buffer offset 0 and
 * write-protected; the first write to a page faults and marks it dirty, and a commit
 * writes each run of consecutive dirty pages of the mapped range as one memcpy, clipped
 * to the range: a dirty page of a map at buffer offset 1000 gives a memcpy of the map's
 * bytes [0, 3096), two dirty pages further on one of 8192 bytes. When the program writes
 * a page right after the page it last dirtied, apitrace marks twice as many pages as the
 * time before (1, 2, 4, ...: log(n) faults for n pages written in order), pages the
 * program may not have written.
 *
 * Here the program writes the driver's memory directly, and a page is dirty when it
 * differs from the copy of what the trace already holds. The faults apitrace would have
 * taken are replayed in address order (a program that fills a range writes it in that
 * order), so the runs are apitrace's: the same memcpy calls, the same sizes
 * (tests/apps/coherent_app.c's patterns). What a comparison with a copy cannot see, and
 * apitrace's write faults do: the order of writes (pages written in descending order,
 * page 1 then page 0, are 2 pages for apitrace, 3 here: replayed in address order the
 * second fault doubles) and writes that leave the bytes as they were (a memcpy for
 * apitrace, nothing here). Seeing those needs write faults on memory the program writes,
 * which also turns a system call that writes into the map (read(2) into a mapped buffer)
 * into EFAULT, as it does under apitrace; this recorder does not harm the program so. */
#include "hook_mapbuffer_pages.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t page_size(void)
{
    static size_t page;
    if (!page) {
        long p = sysconf(_SC_PAGESIZE);
        page = p > 0 ? (size_t)p : 4096;
    }
    return page;
}

/* Whether the part of buffer page `p` inside the map differs from the shadow. */
static int page_differs(const struct map_pages *m, size_t p, size_t page)
{
    size_t lo = p * page, hi = lo + page, end = m->offset + m->length;
    if (lo < m->offset)
        lo = m->offset;
    if (hi > end)
        hi = end;
    return lo < hi && memcmp(m->ptr + (lo - m->offset), m->shadow + (lo - m->offset), hi - lo);
}

/* apitrace's onAddressWrite for the faults at the differing pages, in address order:
 * dirty[i] for buffer page first + i. */
static void mark_dirty(const struct map_pages *m, size_t first, size_t count, size_t page,
                       unsigned char *dirty)
{
    size_t total = m->buffer_pages > first + count ? m->buffer_pages : first + count;
    size_t run = 1, last = (size_t)-2; /* (size_t)-2: no page dirtied since the commit */
    for (size_t i = 0; i < count; ++i) {
        size_t p = first + i;
        if (dirty[i] || !page_differs(m, p, page))
            continue;
        run = (p == last + 1 && i > 0 && dirty[i - 1]) ? run * 2 : 1;
        size_t end = p + run < total ? p + run : total;
        for (size_t q = p; q < end && q < first + count; ++q)
            dirty[q - first] = 1;
        last = end - 1;
    }
}

void map_pages_commit(const struct map_pages *m, map_pages_write_fn write, void *ctx)
{
    size_t page = page_size();
    size_t first = m->offset / page, end = (m->offset + m->length + page - 1) / page;
    size_t count = end - first, skew = m->offset % page;
    unsigned char *dirty = calloc(count ? count : 1, 1);
    if (!dirty)
        return;
    mark_dirty(m, first, count, page, dirty);
    for (size_t i = 0; i < count; ++i) {
        if (!dirty[i])
            continue;
        size_t j = i;
        while (j + 1 < count && dirty[j + 1])
            ++j;
        size_t pages = j - i + 1, off, n; /* off: from the map's start */
        if (i == 0) {
            off = 0;
            n = pages * page - skew < m->length ? pages * page - skew : m->length;
        } else {
            off = i * page - skew;
            n = m->length - off < pages * page ? m->length - off : pages * page;
        }
        write(ctx, off, n);
        i = j;
    }
    free(dirty);
}
