/* myers.h: E. W. Myers, "An O(ND) Difference Algorithm and Its Variations" (1986),
 * section 4b (the middle snake, found from both ends), with GNU diff's shortcuts and
 * its layout of the changes (the same choices, so that the output is the same). */
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "myers.h"

#define SNAKE 20 /* a "long" run of equal lines, for the shortcuts below */

typedef struct my {
    const uint32_t *x, *y; /* the sequences searched (unmatched lines set aside) */
    ptrdiff_t *fd, *bd;     /* furthest x per diagonal, forwards and backwards, offset */
    uint8_t *cx, *cy;       /* changed flags of x and y */
    ptrdiff_t too_expensive; /* edits after which a search settles for a good point */
} my;

/* A search's box and where it stands (diagonal d holds the points with x - y = d). */
typedef struct box {
    ptrdiff_t xoff, xlim, yoff, ylim;
    ptrdiff_t fmid, bmid, fmin, fmax, bmin, bmax;
} box;

/* The point where a search splits its box, and whether each half must be minimal. */
typedef struct split {
    ptrdiff_t x, y;
    int lo_minimal, hi_minimal;
} split;

/* Whether the SNAKE lines ending before (x, y) (dir -1), or starting at it (dir 1),
 * are equal. */
static int snake_at(const my *m, ptrdiff_t x, ptrdiff_t y, int dir)
{
    for (ptrdiff_t k = 0; k < SNAKE; ++k) {
        ptrdiff_t i = dir < 0 ? x - 1 - k : x + k, j = dir < 0 ? y - 1 - k : y + k;
        if (m->x[i] != m->y[j])
            return 0;
    }
    return 1;
}

/* After 200 edits, when a long snake was met: a diagonal whose progress is large
 * against the edits spent (v > 12 * (c + its distance from the start)) and that ends
 * (forwards) or starts (backwards) with a long snake is taken as the split. */
static int progress_split(const my *m, const box *b, ptrdiff_t c, split *sp)
{
    ptrdiff_t best = 0;
    for (ptrdiff_t d = b->fmax; d >= b->fmin; d -= 2) {
        ptrdiff_t dd = d - b->fmid, x = m->fd[d], y = x - d, v = (x - b->xoff) * 2 - dd;
        if (v > 12 * (c + (dd < 0 ? -dd : dd)) && v > best && b->xoff + SNAKE <= x && x < b->xlim &&
            b->yoff + SNAKE <= y && y < b->ylim && snake_at(m, x, y, -1)) {
            best = v;
            *sp = (split){x, y, 1, 0};
        }
    }
    if (best > 0)
        return 1;
    for (ptrdiff_t d = b->bmax; d >= b->bmin; d -= 2) {
        ptrdiff_t dd = d - b->bmid, x = m->bd[d], y = x - d, v = (b->xlim - x) * 2 + dd;
        if (v > 12 * (c + (dd < 0 ? -dd : dd)) && v > best && b->xoff < x && x <= b->xlim - SNAKE &&
            b->yoff < y && y <= b->ylim - SNAKE && snake_at(m, x, y, 1)) {
            best = v;
            *sp = (split){x, y, 0, 1};
        }
    }
    return best > 0;
}

/* Too many edits: the furthest point of either search (x + y furthest from its start). */
static void give_up_split(const my *m, const box *b, split *sp)
{
    ptrdiff_t fxy = -1, fx = 0, bxy = PTRDIFF_MAX, bx = 0;
    for (ptrdiff_t d = b->fmax; d >= b->fmin; d -= 2) {
        ptrdiff_t x = m->fd[d] < b->xlim ? m->fd[d] : b->xlim, y = x - d;
        if (y > b->ylim) {
            x = b->ylim + d;
            y = b->ylim;
        }
        if (fxy < x + y) {
            fxy = x + y;
            fx = x;
        }
    }
    for (ptrdiff_t d = b->bmax; d >= b->bmin; d -= 2) {
        ptrdiff_t x = m->bd[d] > b->xoff ? m->bd[d] : b->xoff, y = x - d;
        if (y < b->yoff) {
            x = b->yoff + d;
            y = b->yoff;
        }
        if (x + y < bxy) {
            bxy = x + y;
            bx = x;
        }
    }
    if ((b->xlim + b->ylim) - bxy < fxy - (b->xoff + b->yoff))
        *sp = (split){fx, fxy - fx, 1, 0};
    else
        *sp = (split){bx, bxy - bx, 0, 1};
}

/* One more edit forwards on every diagonal in reach: 1 when the search meets the
 * backward one (a middle snake); *big when a snake longer than SNAKE was followed. */
static int step_forward(my *m, box *b, int odd, int *big, split *sp)
{
    ptrdiff_t *fd = m->fd, dmin = b->xoff - b->ylim, dmax = b->xlim - b->yoff;
    if (b->fmin > dmin) fd[--b->fmin - 1] = -1; else ++b->fmin;
    if (b->fmax < dmax) fd[++b->fmax + 1] = -1; else --b->fmax;
    for (ptrdiff_t d = b->fmax; d >= b->fmin; d -= 2) {
        ptrdiff_t lo = fd[d - 1], hi = fd[d + 1];
        ptrdiff_t x0 = lo < hi ? hi : lo + 1, x = x0, y = x0 - d;
        while (x < b->xlim && y < b->ylim && m->x[x] == m->y[y]) { ++x; ++y; }
        *big |= x - x0 > SNAKE;
        fd[d] = x;
        if (odd && b->bmin <= d && d <= b->bmax && m->bd[d] <= x) {
            *sp = (split){x, y, 1, 1};
            return 1;
        }
    }
    return 0;
}

/* The same backwards. */
static int step_backward(my *m, box *b, int odd, int *big, split *sp)
{
    ptrdiff_t *bd = m->bd, dmin = b->xoff - b->ylim, dmax = b->xlim - b->yoff;
    if (b->bmin > dmin) bd[--b->bmin - 1] = PTRDIFF_MAX; else ++b->bmin;
    if (b->bmax < dmax) bd[++b->bmax + 1] = PTRDIFF_MAX; else --b->bmax;
    for (ptrdiff_t d = b->bmax; d >= b->bmin; d -= 2) {
        ptrdiff_t lo = bd[d - 1], hi = bd[d + 1];
        ptrdiff_t x0 = lo < hi ? lo : hi - 1, x = x0, y = x0 - d;
        while (b->xoff < x && b->yoff < y && m->x[x - 1] == m->y[y - 1]) { --x; --y; }
        *big |= x0 - x > SNAKE;
        bd[d] = x;
        if (!odd && b->fmin <= d && d <= b->fmax && x <= m->fd[d]) {
            *sp = (split){x, y, 1, 1};
            return 1;
        }
    }
    return 0;
}

/* Where to split the box x[xoff:xlim], y[yoff:ylim] (both ends already differ): the
 * middle snake of a shortest edit script; unless `minimal`, a point that is good enough
 * once the search grows long, as GNU diff (with --speed-large-files) settles for. */
static split middle(my *m, ptrdiff_t xoff, ptrdiff_t xlim, ptrdiff_t yoff, ptrdiff_t ylim, int minimal)
{
    box b = {xoff, xlim, yoff, ylim, xoff - yoff, xlim - ylim, 0, 0, 0, 0};
    b.fmin = b.fmax = b.fmid;
    b.bmin = b.bmax = b.bmid;
    int odd = (b.fmid - b.bmid) & 1;
    split sp;
    m->fd[b.fmid] = xoff;
    m->bd[b.bmid] = xlim;
    for (ptrdiff_t c = 1;; ++c) {
        int big = 0;
        if (step_forward(m, &b, odd, &big, &sp) || step_backward(m, &b, odd, &big, &sp))
            return sp;
        if (minimal)
            continue;
        if (c > 200 && big && progress_split(m, &b, c, &sp))
            return sp;
        if (c >= m->too_expensive) {
            give_up_split(m, &b, &sp);
            return sp;
        }
    }
}

/* Marks the lines of an edit script of the two ranges as changed. */
static void compare(my *m, ptrdiff_t xoff, ptrdiff_t xlim, ptrdiff_t yoff, ptrdiff_t ylim, int minimal)
{
    while (xoff < xlim && yoff < ylim && m->x[xoff] == m->y[yoff]) { ++xoff; ++yoff; }
    while (xoff < xlim && yoff < ylim && m->x[xlim - 1] == m->y[ylim - 1]) { --xlim; --ylim; }
    if (xoff == xlim) {
        while (yoff < ylim) m->cy[yoff++] = 1;
    } else if (yoff == ylim) {
        while (xoff < xlim) m->cx[xoff++] = 1;
    } else {
        split sp = middle(m, xoff, xlim, yoff, ylim, minimal);
        compare(m, xoff, sp.x, yoff, sp.y, sp.lo_minimal);
        compare(m, sp.x, xlim, sp.y, ylim, sp.hi_minimal);
    }
}

/* Slides each run of changed lines of one sequence (flags c, sentinels c[-1] and c[n]
 * unchanged, and oc's too) as GNU diff does: up while the line before the run equals the run's last
 * line (merging with runs above), then down while the run's first line equals the line
 * after it (merging below), repeated while it grows; then back up to the last place
 * where its end lines up with a run of changes of the other sequence (oc, n_other), if
 * there was one. j follows, in the other sequence, the unchanged line that
 * corresponds to line i. */
static void slide(const uint32_t *v, uint8_t *c, ptrdiff_t n, const uint8_t *oc)
{
    ptrdiff_t i = 0, j = 0;
    for (;;) {
        for (; i < n && !c[i]; ++i)
            while (oc[j++]) {}
        if (i == n)
            return;
        ptrdiff_t start = i, len, corr;
        while (c[++i]) {}
        while (oc[j]) ++j;
        do {
            len = i - start;
            while (start && v[start - 1] == v[i - 1]) {
                c[--start] = 1;
                c[--i] = 0;
                while (start && c[start - 1]) --start;
                while (oc[--j]) {}
            }
            corr = j && oc[j - 1] ? i : n;
            while (i != n && v[start] == v[i]) {
                c[start++] = 0;
                c[i++] = 1;
                while (c[i]) ++i;
                while (oc[++j]) corr = i;
            }
        } while (len != i - start);
        while (corr < i) {
            c[--start] = 1;
            c[--i] = 0;
            while (oc[--j]) {}
        }
    }
}

/* How many times each id occurs in v (n lines; saturating). */
static uint32_t *count_ids(const uint32_t *v, size_t n, uint32_t nid)
{
    uint32_t *cnt = calloc(nid ? nid : 1, sizeof *cnt);
    if (cnt)
        for (size_t i = 0; i < n; ++i)
            cnt[v[i]] += cnt[v[i]] < UINT32_MAX;
    return cnt;
}

/* In a run of len set-aside lines: a stretch of provisional ones of about
 * sqrt(len / 4) + 1 or more is kept (two or more stand when len >= 16, four when
 * len >= 64). */
static void cancel_subruns(uint8_t *dis, size_t len)
{
    size_t minimum = 1, consec = 0;
    for (size_t tem = len >> 2; (tem >>= 2) > 0;)
        minimum <<= 1;
    ++minimum;
    for (size_t j = 0; j < len; ++j) {
        if (dis[j] != 2)
            consec = 0;
        else if (++consec == minimum)
            j -= consec; /* back to the stretch's start: all of it is kept */
        else if (consec > minimum)
            dis[j] = 0;
    }
}

/* From one end of a run (step 1 from its first line, -1 from its last), provisional
 * lines are kept until three lines set aside for good follow each other, or one is
 * met 8 lines in. */
static void cancel_ends(uint8_t *dis, size_t len, ptrdiff_t step)
{
    size_t consec = 0;
    for (size_t j = 0; j < len; ++j) {
        uint8_t *d = dis + (ptrdiff_t)j * step;
        if (j >= 8 && *d == 1)
            break;
        if (*d == 2) {
            consec = 0;
            *d = 0;
        } else if (*d == 0) {
            consec = 0;
        } else if (++consec == 3) {
            break;
        }
    }
}

/* Which lines are set aside before the search, as GNU diff decides (its
 * discard_confusing_lines): 1 for a line the other sequence lacks; 2, provisionally,
 * for one the other has more than about 5 * sqrt(n / 64) times, kept unless it lies
 * well inside a run of set-aside lines. */
static void mark_discards(const uint32_t *v, size_t n, const uint32_t *other_count, uint8_t *dis)
{
    size_t many = 5;
    for (size_t tem = n / 64; (tem >>= 2) > 0;)
        many *= 2;
    for (size_t i = 0; i < n; ++i)
        dis[i] = !other_count[v[i]] ? 1 : other_count[v[i]] > many ? 2 : 0;
    for (size_t i = 0; i < n; ++i) {
        if (dis[i] == 2) {
            dis[i] = 0; /* not inside a run that starts with a line set aside for good */
            continue;
        }
        if (!dis[i])
            continue;
        size_t j = i, prov = 0;
        for (; j < n && dis[j]; ++j)
            prov += dis[j] == 2;
        while (j > i && dis[j - 1] == 2) {
            dis[--j] = 0;
            --prov;
        }
        size_t len = j - i;
        if (prov * 4 > len) { /* a quarter provisional: keep them all */
            for (size_t k = i; k < j; ++k)
                if (dis[k] == 2)
                    dis[k] = 0;
        } else {
            cancel_subruns(dis + i, len);
            cancel_ends(dis + i, len, 1);
            cancel_ends(dis + i + len - 1, len, -1);
        }
        i += len - 1;
    }
}

/* The lines of v not set aside (kept, with their indices in v); the others are
 * marked changed in c. */
static size_t keep(const uint32_t *v, size_t n, const uint8_t *dis, uint32_t *kept, size_t *index,
                   uint8_t *c)
{
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!dis[i]) {
            kept[k] = v[i];
            index[k++] = i;
        } else {
            c[i] = 1;
        }
    }
    return k;
}

static int push(sm_opcode **ops, size_t *nops, size_t *cap, sm_opcode op)
{
    if (GT_GROW(*ops, *cap, *nops + 1, 64) < 0)
        return -1;
    (*ops)[(*nops)++] = op;
    return 0;
}

/* Opcodes from the changed flags: runs of unchanged lines pair up in order. */
static int to_opcodes(const uint8_t *ca, size_t na, const uint8_t *cb, size_t nb, sm_opcode **ops,
                      size_t *nops)
{
    size_t i = 0, j = 0, cap = 0;
    while (i < na || j < nb) {
        size_t i0 = i, j0 = j;
        while (i < na && j < nb && !ca[i] && !cb[j]) { ++i; ++j; }
        if (i > i0 && push(ops, nops, &cap, (sm_opcode){SM_EQUAL, i0, i, j0, j}) < 0)
            return -1;
        i0 = i;
        j0 = j;
        while (i < na && ca[i]) ++i;
        while (j < nb && cb[j]) ++j;
        if (i == i0 && j == j0) /* (cannot happen: the unchanged lines pair up) */
            break;
        sm_tag tag = i > i0 && j > j0 ? SM_REPLACE : i > i0 ? SM_DELETE : SM_INSERT;
        if (push(ops, nops, &cap, (sm_opcode){tag, i0, i, j0, j}) < 0)
            return -1;
    }
    return 0;
}

/* Marks the changes between a and b (na, nb lines) in fa and fb (each with a
 * sentinel before and after): discards, the search, the slides. 0, or -1 when memory
 * runs out. */
static int align(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, uint8_t *fa, uint8_t *fb)
{
    uint32_t nid = 0;
    for (size_t i = 0; i < na; ++i) nid = a[i] >= nid ? a[i] + 1 : nid;
    for (size_t j = 0; j < nb; ++j) nid = b[j] >= nid ? b[j] + 1 : nid;
    uint32_t *cnt_a = count_ids(a, na, nid), *cnt_b = count_ids(b, nb, nid);
    uint32_t *kx = malloc((na + 1) * sizeof *kx), *ky = malloc((nb + 1) * sizeof *ky);
    size_t *ix = malloc((na + 1) * sizeof *ix), *iy = malloc((nb + 1) * sizeof *iy);
    uint8_t *cx = calloc(na + 1, 1), *cy = calloc(nb + 1, 1);
    size_t diags = na + nb + 3;
    ptrdiff_t *fd = malloc(2 * diags * sizeof *fd);
    int rc = -1;
    if (cnt_a && cnt_b && kx && ky && ix && iy && cx && cy && fd) {
        mark_discards(a, na, cnt_b, cx);
        mark_discards(b, nb, cnt_a, cy);
        size_t nx = keep(a, na, cx, kx, ix, fa), ny = keep(b, nb, cy, ky, iy, fb);
        memset(cx, 0, na + 1);
        memset(cy, 0, nb + 1);
        ptrdiff_t te = 1;
        for (size_t n = nx + ny + 3; n; n >>= 2)
            te <<= 1;
        my m = {kx, ky, fd + nb + 1, fd + diags + nb + 1, cx, cy, te > 4096 ? te : 4096};
        compare(&m, 0, (ptrdiff_t)nx, 0, (ptrdiff_t)ny, 0);
        for (size_t k = 0; k < nx; ++k) fa[ix[k]] |= cx[k];
        for (size_t k = 0; k < ny; ++k) fb[iy[k]] |= cy[k];
        slide(a, fa, (ptrdiff_t)na, fb);
        slide(b, fb, (ptrdiff_t)nb, fa);
        rc = 0;
    }
    free(cnt_a); free(cnt_b); free(kx); free(ky);
    free(ix); free(iy); free(cx); free(cy); free(fd);
    return rc;
}

int myers_opcodes(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, sm_opcode **ops,
                  size_t *nops)
{
    *ops = NULL;
    *nops = 0;
    uint8_t *fa = calloc(na + 2, 1), *fb = calloc(nb + 2, 1); /* flags with a sentinel each side */
    int rc = -1;
    if (fa && fb) {
        /* As GNU diff, the identical first and last lines are left out of everything:
         * the counts, the search and the slides. */
        size_t p = 0, s = 0;
        while (p < na && p < nb && a[p] == b[p])
            ++p;
        while (s < na - p && s < nb - p && a[na - 1 - s] == b[nb - 1 - s])
            ++s;
        /* an empty side may be NULL: no offset is added to it */
        const uint32_t *ap = na ? a + p : a, *bp = nb ? b + p : b;
        if (align(ap, na - p - s, bp, nb - p - s, fa + 1 + p, fb + 1 + p) == 0)
            rc = to_opcodes(fa + 1, na, fb + 1, nb, ops, nops);
    }
    if (rc < 0) {
        free(*ops);
        *ops = NULL;
        *nops = 0;
    }
    free(fa);
    free(fb);
    return rc;
}
