/* A trace's dump as interned lines (dump_lines.h). */
#include <stdlib.h>
#include <string.h>

#include "dump_lines.h"
#include "gt_grow.h"

void dl_pool_free(dl_pool *p)
{
    free(p->text);
    free(p->off);
    free(p->len);
    free(p->table);
    memset(p, 0, sizeof *p);
}

void dl_lines_free(dl_lines *l)
{
    free(l->ids);
    memset(l, 0, sizeof *l);
}

static uint64_t hash_line(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; ++i)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* Doubles the table, placing every id again. */
static int rehash(dl_pool *p)
{
    size_t size = p->table_size ? p->table_size * 2 : 1024;
    uint32_t *t = calloc(size, sizeof *t);
    if (!t)
        return -1;
    for (uint32_t id = 0; id < p->n; ++id) {
        size_t at = hash_line(p->text + p->off[id], p->len[id]) & (size - 1);
        while (t[at])
            at = (at + 1) & (size - 1);
        t[at] = id + 1;
    }
    free(p->table);
    p->table = t;
    p->table_size = size;
    return 0;
}

int dl_intern(dl_pool *p, const char *s, size_t n, uint32_t *id)
{
    if ((size_t)p->n * 2 >= p->table_size && rehash(p) < 0)
        return -1;
    size_t mask = p->table_size - 1, at = hash_line(s, n) & mask;
    for (; p->table[at]; at = (at + 1) & mask) {
        uint32_t k = p->table[at] - 1;
        if (p->len[k] == n && !memcmp(p->text + p->off[k], s, n)) {
            *id = k;
            return 0;
        }
    }
    if (n > UINT32_MAX || p->n == UINT32_MAX - 1 || GT_GROW(p->off, p->off_cap, p->n + 1, 1024) < 0 ||
        GT_GROW(p->len, p->len_cap, p->n + 1, 1024) < 0 ||
        GT_GROW(p->text, p->text_cap, p->text_len + n + 1, 65536) < 0)
        return -1;
    memcpy(p->text + p->text_len, s, n);
    p->off[p->n] = p->text_len;
    p->len[p->n] = (uint32_t)n;
    p->text_len += n;
    p->table[at] = p->n + 1;
    *id = p->n++;
    return 0;
}

/* Moves the complete lines of buf into out's ids, keeping a partial last line. */
static int take_lines(dl_pool *p, dl_lines *out, gt_strbuf *buf, size_t max_lines,
                      const char *path, gt_error *err)
{
    size_t start = 0;
    for (char *nl; start < buf->len && (nl = memchr(buf->data + start, '\n', buf->len - start));) {
        uint32_t id;
        size_t n = (size_t)(nl - (buf->data + start));
        if (out->n >= max_lines) {
            gt_error_set(err, "%s: more than %zu lines of calls to compare (choose fewer with --calls)",
                         path, max_lines);
            return -1;
        }
        if (dl_intern(p, buf->data + start, n, &id) < 0 || GT_GROW(out->ids, out->cap, out->n + 1, 1024) < 0) {
            gt_error_set(err, "%s: out of memory holding the calls to compare", path);
            return -1;
        }
        out->ids[out->n++] = id;
        start += n + 1;
    }
    if (start) {
        memmove(buf->data, buf->data + start, buf->len - start);
        buf->len -= start;
    }
    return 0;
}

static int cmp_property(const void *a, const void *b)
{
    return strcmp((*(const at_property *const *)a)->name, (*(const at_property *const *)b)->name);
}

void dl_print_properties(const at_reader *r, gt_strbuf *out, const at_dump_options *o)
{
    unsigned n = at_reader_num_properties(r);
    const at_property **sorted = n ? malloc(n * sizeof *sorted) : NULL;
    if (!sorted)
        return;
    for (unsigned i = 0; i < n; ++i)
        sorted[i] = at_reader_property(r, i);
    qsort(sorted, n, sizeof *sorted, cmp_property);
    for (unsigned i = 0; i < n; ++i) {
        unsigned last = i;
        while (last + 1 < n && !strcmp(sorted[last + 1]->name, sorted[i]->name))
            ++last;
        at_dump_property(out, sorted[i]->name, sorted[last]->value, o);
        i = last;
    }
    free(sorted);
}

static int read_calls(at_reader *r, dl_pool *p, dl_lines *out, gt_strbuf *buf, const gt_callset *calls,
                      const at_dump_options *o, size_t max_lines, const char *path, gt_error *err)
{
    uint32_t last = gt_callset_last(calls);
    gt_call *c;
    while ((c = at_reader_next(r))) {
        uint32_t no = c->no;
        if (gt_callset_contains(calls, no, c->flags) && !(c->flags & GT_CALL_FLAG_VERBOSE)) {
            at_dump_call(buf, c, o);
            if (!o->multiline)
                gt_strbuf_putc(buf, '\n');
        }
        at_reader_release(r, c);
        if (buf->oom) {
            gt_error_set(err, "%s: out of memory", path);
            return -1;
        }
        if (take_lines(p, out, buf, max_lines, path, err) < 0)
            return -1;
        if (no >= last)
            break;
    }
    if (at_reader_error(r)) {
        gt_error_set(err, "%s", at_reader_error(r));
        return -1;
    }
    return 0;
}

int dl_read_trace(dl_pool *p, dl_lines *out, const char *path, const gt_callset *calls,
                  const at_dump_options *o, size_t max_lines, gt_error *err)
{
    at_reader_options ropt = {.skip_blob_data = true};
    at_reader *r = at_reader_open(path, &ropt, err);
    if (!r)
        return -1;
    gt_strbuf buf;
    gt_strbuf_init(&buf);
    dl_print_properties(r, &buf, o);
    int rc = read_calls(r, p, out, &buf, calls, o, max_lines, path, err);
    if (rc == 0 && buf.len) { /* a last line without its newline */
        gt_strbuf_putc(&buf, '\n');
        rc = take_lines(p, out, &buf, max_lines, path, err);
    }
    gt_strbuf_free(&buf);
    at_reader_close(r);
    return rc;
}
