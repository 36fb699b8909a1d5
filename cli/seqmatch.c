/* difflib.SequenceMatcher (CPython 3's difflib.py), steps and tie-breaks kept as they
 * are there so that the opcodes are the same: find_longest_match, then
 * get_matching_blocks' stack of ranges, then get_opcodes. isjunk is None (what
 * jsondiff.py and tracediff.py's external tools give); autojunk is on. */
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "seqmatch.h"

typedef struct sm_block {
    size_t i, j, k;
} sm_block;

typedef struct sm {
    const uint32_t *a, *b;
    size_t na, nb;
    size_t *b2j_start; /* per id: where its indices in b begin in b2j (nid + 1 entries) */
    size_t *b2j;       /* indices of b, grouped by id, ascending within an id */
    uint32_t nid;
    size_t *len[2];    /* j2len of the previous and the current row, valid where */
    uint64_t *stamp[2]; /* ... the stamp is that row's */
    uint64_t row;
} sm;

/* b2j as __chain_b builds it, less the popular ids (autojunk). */
static int chain_b(sm *m)
{
    uint32_t nid = 0;
    for (size_t i = 0; i < m->na; ++i)
        nid = m->a[i] >= nid ? m->a[i] + 1 : nid;
    for (size_t j = 0; j < m->nb; ++j)
        nid = m->b[j] >= nid ? m->b[j] + 1 : nid;
    m->nid = nid;
    m->b2j_start = calloc((size_t)nid + 1, sizeof *m->b2j_start);
    m->b2j = malloc((m->nb ? m->nb : 1) * sizeof *m->b2j);
    if (!m->b2j_start || !m->b2j)
        return -1;
    for (size_t j = 0; j < m->nb; ++j)
        m->b2j_start[m->b[j] + 1]++;
    if (m->nb >= 200) {
        size_t ntest = m->nb / 100 + 1;
        for (uint32_t id = 0; id < nid; ++id)
            if (m->b2j_start[id + 1] > ntest)
                m->b2j_start[id + 1] = 0; /* popular: no entries */
    }
    for (uint32_t id = 0; id < nid; ++id)
        m->b2j_start[id + 1] += m->b2j_start[id];
    size_t *fill = malloc(((size_t)nid + 1) * sizeof *fill);
    if (!fill)
        return -1;
    memcpy(fill, m->b2j_start, ((size_t)nid + 1) * sizeof *fill);
    for (size_t j = 0; j < m->nb; ++j) {
        uint32_t id = m->b[j];
        if (fill[id] < m->b2j_start[id + 1])
            m->b2j[fill[id]++] = j;
    }
    free(fill);
    return 0;
}

static sm_block longest_match(sm *m, size_t alo, size_t ahi, size_t blo, size_t bhi)
{
    sm_block best = {alo, blo, 0};
    int cur = 0;
    m->row += 2; /* the row before the first has no entries */
    for (size_t i = alo; i < ahi; ++i, ++m->row) {
        int prev = cur;
        cur ^= 1;
        uint32_t id = m->a[i];
        for (size_t e = m->b2j_start[id]; e < m->b2j_start[id + 1]; ++e) {
            size_t j = m->b2j[e];
            if (j < blo)
                continue;
            if (j >= bhi)
                break;
            size_t k = 1;
            if (j > 0 && m->stamp[prev][j - 1] == m->row - 1)
                k = m->len[prev][j - 1] + 1;
            m->len[cur][j] = k;
            m->stamp[cur][j] = m->row;
            if (k > best.k) {
                best.i = i - k + 1;
                best.j = j - k + 1;
                best.k = k;
            }
        }
    }
    /* No junk: only the extension over equal (popular) items applies. */
    while (best.i > alo && best.j > blo && m->a[best.i - 1] == m->b[best.j - 1]) {
        --best.i;
        --best.j;
        ++best.k;
    }
    while (best.i + best.k < ahi && best.j + best.k < bhi &&
           m->a[best.i + best.k] == m->b[best.j + best.k])
        ++best.k;
    return best;
}

static int cmp_block(const void *pa, const void *pb)
{
    const sm_block *x = pa, *y = pb;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    if (x->j != y->j)
        return x->j < y->j ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

typedef struct sm_range {
    size_t alo, ahi, blo, bhi;
} sm_range;

/* get_matching_blocks before the adjacent blocks are joined: *out, *nout. */
static int matching_blocks(sm *m, sm_block **out, size_t *nout)
{
    sm_range *stack = NULL;
    size_t nstack = 0, stack_cap = 0, cap = 0;
    *out = NULL;
    *nout = 0;
    if (GT_GROW(stack, stack_cap, 1, 16) < 0)
        return -1;
    stack[nstack++] = (sm_range){0, m->na, 0, m->nb};
    while (nstack) {
        sm_range r = stack[--nstack];
        sm_block x = longest_match(m, r.alo, r.ahi, r.blo, r.bhi);
        if (!x.k)
            continue;
        if (GT_GROW(*out, cap, *nout + 1, 64) < 0 || GT_GROW(stack, stack_cap, nstack + 2, 16) < 0) {
            free(stack);
            return -1;
        }
        (*out)[(*nout)++] = x;
        if (r.alo < x.i && r.blo < x.j)
            stack[nstack++] = (sm_range){r.alo, x.i, r.blo, x.j};
        if (x.i + x.k < r.ahi && x.j + x.k < r.bhi)
            stack[nstack++] = (sm_range){x.i + x.k, r.ahi, x.j + x.k, r.bhi};
    }
    free(stack);
    if (*nout)
        qsort(*out, *nout, sizeof **out, cmp_block);
    return 0;
}

static int push_op(sm_opcode **ops, size_t *nops, size_t *cap, sm_opcode op)
{
    if (GT_GROW(*ops, *cap, *nops + 1, 64) < 0)
        return -1;
    (*ops)[(*nops)++] = op;
    return 0;
}

/* get_opcodes over the blocks joined where adjacent, then the (na, nb, 0) sentinel. */
static int opcodes_of(const sm *m, const sm_block *blocks, size_t nblocks, sm_opcode **ops,
                      size_t *nops)
{
    size_t cap = 0, i = 0, j = 0, n = 0;
    *ops = NULL;
    *nops = 0;
    for (;;) {
        sm_block x = {m->na, m->nb, 0};
        int last = n >= nblocks;
        if (!last) {
            x = blocks[n++];
            while (n < nblocks && blocks[n].i == x.i + x.k && blocks[n].j == x.j + x.k)
                x.k += blocks[n++].k;
        }
        sm_opcode op = {SM_EQUAL, i, x.i, j, x.j};
        op.tag = i < x.i && j < x.j ? SM_REPLACE : i < x.i ? SM_DELETE : SM_INSERT;
        if ((i < x.i || j < x.j) && push_op(ops, nops, &cap, op) < 0)
            return -1;
        i = x.i + x.k;
        j = x.j + x.k;
        if (x.k && push_op(ops, nops, &cap, (sm_opcode){SM_EQUAL, x.i, i, x.j, j}) < 0)
            return -1;
        if (last)
            return 0;
    }
}

int sm_opcodes(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, sm_opcode **ops,
               size_t *nops)
{
    sm m = {.a = a, .b = b, .na = na, .nb = nb};
    sm_block *blocks = NULL;
    size_t nblocks = 0;
    int rc = -1;
    *ops = NULL;
    *nops = 0;
    size_t w = nb ? nb : 1;
    m.len[0] = malloc(w * sizeof(size_t));
    m.len[1] = malloc(w * sizeof(size_t));
    m.stamp[0] = calloc(w, sizeof(uint64_t));
    m.stamp[1] = calloc(w, sizeof(uint64_t));
    if (m.len[0] && m.len[1] && m.stamp[0] && m.stamp[1] && chain_b(&m) == 0 &&
        matching_blocks(&m, &blocks, &nblocks) == 0)
        rc = opcodes_of(&m, blocks, nblocks, ops, nops);
    if (rc < 0) {
        free(*ops);
        *ops = NULL;
        *nops = 0;
    }
    free(blocks);
    free(m.len[0]);
    free(m.len[1]);
    free(m.stamp[0]);
    free(m.stamp[1]);
    free(m.b2j_start);
    free(m.b2j);
    return rc;
}
