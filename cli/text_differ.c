/* text_differ.h: Differ.compare, _fancy_replace, _fancy_helper, _plain_replace and
 * _qformat of CPython 3.11's difflib, over seqmatch.h's SequenceMatcher (no junk). */
#include <stdlib.h>
#include <string.h>

#include "dump_lines.h"
#include "gt_grow.h"
#include "seqmatch.h"
#include "text_differ.h"

typedef struct td {
    dl_pool pool;
    dl_lines a, b;
    td_emit emit;
    void *ctx;
    int oom;
} td;

typedef struct cps { /* one line's characters, as compact ids shared with its pair */
    uint32_t *v;
    size_t n;
} cps;

static void emit_line(td *t, char tag, uint32_t id)
{
    t->emit(t->ctx, tag, t->pool.text + t->pool.off[id], t->pool.len[id]);
}

static void dump_range(td *t, char tag, const dl_lines *l, size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi; ++i)
        emit_line(t, tag, l->ids[i]);
}

static void plain_replace(td *t, size_t alo, size_t ahi, size_t blo, size_t bhi)
{
    if (bhi - blo < ahi - alo) { /* the shorter block first */
        dump_range(t, '+', &t->b, blo, bhi);
        dump_range(t, '-', &t->a, alo, ahi);
    } else {
        dump_range(t, '-', &t->a, alo, ahi);
        dump_range(t, '+', &t->b, blo, bhi);
    }
}

/* Decodes UTF-8 into code points (a byte that starts no sequence stands for itself). */
static size_t decode(const char *s, size_t n, uint32_t *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
        uint32_t cp = len == 1 ? c : c & (0x3f >> (len - 1));
        if (i + len > n)
            len = 1, cp = c;
        for (size_t j = 1; j < len; ++j) {
            if (((unsigned char)s[i + j] & 0xc0) != 0x80) {
                len = 1;
                cp = c;
                break;
            }
            cp = cp << 6 | ((unsigned char)s[i + j] & 0x3f);
        }
        out[k++] = cp;
        i += len;
    }
    return k;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* Both lines' code points, renumbered 0.. over the pair (seqmatch indexes by id). */
static int chars_of(td *t, uint32_t ida, uint32_t idb, cps *ca, cps *cb)
{
    size_t la = t->pool.len[ida], lb = t->pool.len[idb];
    uint32_t *all = malloc((la + lb + 1) * sizeof *all);
    ca->v = malloc((la + 1) * sizeof *ca->v);
    cb->v = malloc((lb + 1) * sizeof *cb->v);
    if (!all || !ca->v || !cb->v) {
        free(all);
        return -1;
    }
    ca->n = decode(t->pool.text + t->pool.off[ida], la, ca->v);
    cb->n = decode(t->pool.text + t->pool.off[idb], lb, cb->v);
    memcpy(all, ca->v, ca->n * sizeof *all);
    memcpy(all + ca->n, cb->v, cb->n * sizeof *all);
    size_t n = ca->n + cb->n, u = 0;
    qsort(all, n, sizeof *all, cmp_u32);
    for (size_t i = 0; i < n; ++i)
        if (!u || all[u - 1] != all[i])
            all[u++] = all[i];
    for (size_t i = 0; i < ca->n; ++i)
        ca->v[i] = (uint32_t)((uint32_t *)bsearch(&ca->v[i], all, u, sizeof *all, cmp_u32) - all);
    for (size_t i = 0; i < cb->n; ++i)
        cb->v[i] = (uint32_t)((uint32_t *)bsearch(&cb->v[i], all, u, sizeof *all, cmp_u32) - all);
    free(all);
    return 0;
}

static double calc_ratio(size_t matches, size_t total)
{
    return total ? 2.0 * (double)matches / (double)total : 1.0;
}

/* quick_ratio: the multisets' intersection (ids are below la + lb). */
static double quick_ratio(const cps *a, const cps *b)
{
    size_t n = a->n + b->n, matches = 0;
    uint32_t *avail = calloc(n ? n : 1, sizeof *avail);
    if (!avail)
        return 1.0; /* an upper bound all the same: ratio() decides */
    for (size_t j = 0; j < b->n; ++j)
        avail[b->v[j]]++;
    for (size_t i = 0; i < a->n; ++i)
        if (avail[a->v[i]]) {
            avail[a->v[i]]--;
            ++matches;
        }
    free(avail);
    return calc_ratio(matches, n);
}

/* ratio(): 2 * matches / total, matches from the matching blocks; -1 when memory runs out. */
static double ratio(const cps *a, const cps *b)
{
    sm_opcode *ops;
    size_t nops, matches = 0;
    if (sm_opcodes(a->v, a->n, b->v, b->n, &ops, &nops) < 0)
        return -1;
    for (size_t k = 0; k < nops; ++k)
        if (ops[k].tag == SM_EQUAL)
            matches += ops[k].a1 - ops[k].a0;
    free(ops);
    return calc_ratio(matches, a->n + b->n);
}

static int is_space(uint32_t c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* _qformat's tag line: the marks, blanks kept as the line's own white space, then
 * rstrip(); emitted when not empty. */
static void tag_line(td *t, uint32_t id, const char *marks, size_t n)
{
    char *s = malloc(n + 1);
    uint32_t *line_cps = malloc((t->pool.len[id] + 1) * sizeof *line_cps);
    size_t len = 0;
    if (!s || !line_cps) {
        free(s);
        free(line_cps);
        t->oom = 1;
        return;
    }
    decode(t->pool.text + t->pool.off[id], t->pool.len[id], line_cps);
    for (size_t k = 0; k < n; ++k) /* (white space is ASCII here: one byte each) */
        s[k] = marks[k] == ' ' && is_space(line_cps[k]) && line_cps[k] < 0x80 ? (char)line_cps[k] : marks[k];
    for (len = n; len && (s[len - 1] == ' ' || (s[len - 1] >= '\t' && s[len - 1] <= '\r') ||
                          (s[len - 1] >= 0x1c && s[len - 1] <= 0x1f)); --len) {}
    if (len)
        t->emit(t->ctx, '?', s, len);
    free(s);
    free(line_cps);
}

/* The '-', '?', '+', '?' lines of a similar pair. */
static void qformat(td *t, uint32_t ida, uint32_t idb)
{
    cps ca = {0}, cb = {0};
    sm_opcode *ops = NULL;
    size_t nops = 0;
    char *am = NULL, *bm = NULL;
    if (chars_of(t, ida, idb, &ca, &cb) < 0 || sm_opcodes(ca.v, ca.n, cb.v, cb.n, &ops, &nops) < 0 ||
        !(am = malloc(ca.n + 1)) || !(bm = malloc(cb.n + 1))) {
        t->oom = 1;
    } else {
        for (size_t k = 0; k < nops; ++k) {
            const sm_opcode *o = &ops[k];
            char ma = o->tag == SM_REPLACE ? '^' : o->tag == SM_DELETE ? '-' : ' ';
            char mb = o->tag == SM_REPLACE ? '^' : o->tag == SM_INSERT ? '+' : ' ';
            memset(am + o->a0, ma, o->a1 - o->a0);
            memset(bm + o->b0, mb, o->b1 - o->b0);
        }
        emit_line(t, '-', ida);
        tag_line(t, ida, am, ca.n);
        emit_line(t, '+', idb);
        tag_line(t, idb, bm, cb.n);
    }
    free(am);
    free(bm);
    free(ops);
    free(ca.v);
    free(cb.v);
}

static void fancy_replace(td *t, size_t alo, size_t ahi, size_t blo, size_t bhi);

static void fancy_helper(td *t, size_t alo, size_t ahi, size_t blo, size_t bhi)
{
    if (alo < ahi && blo < bhi)
        fancy_replace(t, alo, ahi, blo, bhi);
    else if (alo < ahi)
        dump_range(t, '-', &t->a, alo, ahi);
    else if (blo < bhi)
        dump_range(t, '+', &t->b, blo, bhi);
}

/* Number of code points of each line id, as decode() counts them. */
static size_t cp_len(const td *t, uint32_t id)
{
    const unsigned char *s = (const unsigned char *)t->pool.text + t->pool.off[id];
    size_t n = 0, len = t->pool.len[id];
    uint32_t *tmp = malloc((len + 1) * sizeof *tmp);
    if (tmp)
        n = decode((const char *)s, len, tmp);
    free(tmp);
    return n;
}

/* The best similar pair: *bi, *bj and its ratio (0.74 and nothing when none beats it);
 * *eqi, *eqj the first identical pair (SIZE_MAX when none). */
static double best_pair(td *t, size_t alo, size_t ahi, size_t blo, size_t bhi, size_t *bi, size_t *bj,
                        size_t *eqi, size_t *eqj)
{
    double best = 0.74;
    *eqi = *eqj = SIZE_MAX;
    for (size_t j = blo; j < bhi && !t->oom; ++j) {
        uint32_t idb = t->b.ids[j];
        size_t lb = cp_len(t, idb);
        for (size_t i = alo; i < ahi && !t->oom; ++i) {
            uint32_t ida = t->a.ids[i];
            if (ida == idb) {
                if (*eqi == SIZE_MAX) {
                    *eqi = i;
                    *eqj = j;
                }
                continue;
            }
            size_t la = cp_len(t, ida);
            if (calc_ratio(la < lb ? la : lb, la + lb) <= best)
                continue;
            cps ca = {0}, cb = {0};
            double r = 0;
            if (chars_of(t, ida, idb, &ca, &cb) < 0)
                t->oom = 1;
            else if (quick_ratio(&ca, &cb) > best && (r = ratio(&ca, &cb)) > best) {
                best = r;
                *bi = i;
                *bj = j;
            } else if (r < 0) {
                t->oom = 1;
            }
            free(ca.v);
            free(cb.v);
        }
    }
    return best;
}

static void fancy_replace(td *t, size_t alo, size_t ahi, size_t blo, size_t bhi)
{
    size_t bi = 0, bj = 0, eqi, eqj;
    if ((double)(ahi - alo) * (double)(bhi - blo) > TD_MAX_PAIRS) {
        plain_replace(t, alo, ahi, blo, bhi);
        return;
    }
    double best = best_pair(t, alo, ahi, blo, bhi, &bi, &bj, &eqi, &eqj);
    int same = 0;
    if (best < 0.75) {
        if (eqi == SIZE_MAX) {
            plain_replace(t, alo, ahi, blo, bhi);
            return;
        }
        bi = eqi;
        bj = eqj;
        same = 1;
    }
    fancy_helper(t, alo, bi, blo, bj);
    if (same)
        emit_line(t, ' ', t->a.ids[bi]);
    else
        qformat(t, t->a.ids[bi], t->b.ids[bj]);
    fancy_helper(t, bi + 1, ahi, bj + 1, bhi);
}

/* str.splitlines() for \n, \r\n and \r. */
static int split(td *t, const char *s, size_t n, dl_lines *out)
{
    for (size_t start = 0; start < n;) {
        size_t e = start;
        while (e < n && s[e] != '\n' && s[e] != '\r')
            ++e;
        uint32_t id;
        if (dl_intern(&t->pool, s + start, e - start, &id) < 0 || GT_GROW(out->ids, out->cap, out->n + 1, 64) < 0)
            return -1;
        out->ids[out->n++] = id;
        start = e + (e + 1 < n && s[e] == '\r' && s[e + 1] == '\n' ? 2 : 1);
    }
    return 0;
}

int td_compare(const char *a, size_t na, const char *b, size_t nb, td_emit emit, void *ctx)
{
    td t = {.emit = emit, .ctx = ctx};
    sm_opcode *ops = NULL;
    size_t nops = 0;
    if (split(&t, a, na, &t.a) < 0 || split(&t, b, nb, &t.b) < 0 ||
        sm_opcodes(t.a.ids, t.a.n, t.b.ids, t.b.n, &ops, &nops) < 0)
        t.oom = 1;
    for (size_t k = 0; k < nops && !t.oom; ++k) {
        const sm_opcode *o = &ops[k];
        if (o->tag == SM_REPLACE)
            fancy_replace(&t, o->a0, o->a1, o->b0, o->b1);
        else if (o->tag == SM_DELETE)
            dump_range(&t, '-', &t.a, o->a0, o->a1);
        else if (o->tag == SM_INSERT)
            dump_range(&t, '+', &t.b, o->b0, o->b1);
        else
            dump_range(&t, ' ', &t.a, o->a0, o->a1);
    }
    free(ops);
    dl_lines_free(&t.a);
    dl_lines_free(&t.b);
    dl_pool_free(&t.pool);
    return t.oom ? -1 : 0;
}
