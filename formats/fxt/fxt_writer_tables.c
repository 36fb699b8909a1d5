/* The FXT writer's string and thread tables. Model strings map to FXT string
 * indices through an array indexed by the model's dense string id (no hashing
 * on the hot path); threads through a small open-addressing hash. When a
 * table is full, indices are reused round robin by writing a new string or
 * thread record for the index, as the spec allows. */
#include <stdlib.h>
#include <string.h>

#include "fxt_writer_internal.h"
#include "gt_grow.h"

static const char *const fixed_strings[FXT_FIX_COUNT + 1] = {
    [FXT_FIX_PROCESS] = FXT_KOBJ_ARG_PROCESS,
    [FXT_FIX_PH] = FXT_MARK_PH,
    [FXT_FIX_ID] = FXT_MARK_ID,
    [FXT_FIX_PARENT] = FXT_MARK_PARENT,
    [FXT_FIX_SCOPE] = FXT_MARK_SCOPE,
    [FXT_FIX_STACK] = FXT_MARK_STACK,
    [FXT_FIX_N] = "N", [FXT_FIX_O] = "O", [FXT_FIX_D] = "D", [FXT_FIX_P] = "P",
    [FXT_FIX_F] = "F", [FXT_FIX_p] = "p", [FXT_FIX_g] = "g",
    [FXT_FIX_WALL] = FXT_MARK_WALL, [FXT_FIX_MONO] = FXT_MARK_MONO,
};

#define FIRST_DYNAMIC (FXT_FIX_COUNT + 1u)

void fxt_w_tables_init(gt_fxt_writer *w)
{
    w->snext = FIRST_DYNAMIC;
    w->tnext = 1;
}

void fxt_w_tables_free(gt_fxt_writer *w)
{
    free(w->sidx);
    w->sidx = NULL;
    w->sidx_cap = 0;
}

uint64_t *fxt_w_stream(uint64_t *p, const char *s, uint32_t n)
{
    uint32_t nw = (n + 7) / 8;
    if (nw) {
        p[nw - 1] = 0; /* the padding */
        memcpy(p, s, n);
    }
    return p + nw;
}

static int put_string_record(gt_fxt_writer *w, uint16_t idx, const char *s, uint32_t len,
                             gt_error *err)
{
    if (len > FXT_MAX_STRING_LEN)
        len = FXT_MAX_STRING_LEN; /* the spec's limit; longer strings are cut */
    uint32_t words = 1 + (len + 7) / 8;
    if (fxt_w_reserve(w, words, err) != 0)
        return -1;
    uint64_t *p = w->buf + w->nw;
    p[0] = FXT_REC_STRING | (uint64_t)words << 4 | (uint64_t)idx << 16 | (uint64_t)len << 32;
    fxt_w_stream(p + 1, s, len);
    w->nw += words;
    return 0;
}

static int grow_sidx(gt_fxt_writer *w, gt_tl_str id, gt_error *err)
{
    size_t cap = w->sidx_cap; /* a uint32_t */
    if (GT_GROW(w->sidx, cap, (size_t)id + 1, 1024) != 0) {
        gt_error_set(err, "%s: out of memory (string table)", w->name);
        return -1;
    }
    memset(w->sidx + w->sidx_cap, 0, (cap - w->sidx_cap) * sizeof *w->sidx);
    w->sidx_cap = (uint32_t)cap;
    return 0;
}

int fxt_w_strref_slow(gt_fxt_writer *w, const gt_timeline *tl, gt_tl_str id, uint16_t *ref,
                      gt_error *err)
{
    if (id >= w->sidx_cap && (id == UINT32_MAX || grow_sidx(w, id, err) != 0))
        return -1;
    uint16_t idx = (uint16_t)w->snext;
    w->snext = idx == FXT_MAX_STRING_INDEX ? FIRST_DYNAMIC : idx + 1u;
    if (w->sowner[idx]) /* reused: its old string is no longer registered */
        w->sidx[w->sowner[idx] - 1] = 0;
    uint32_t len;
    const char *s = gt_tl_str_get(tl, id, &len);
    if (put_string_record(w, idx, s, len, err) != 0)
        return -1;
    w->sowner[idx] = id + 1;
    w->sidx[id] = idx;
    *ref = idx;
    return 0;
}

int fxt_w_fixref(gt_fxt_writer *w, unsigned fix, uint16_t *ref, gt_error *err)
{
    if (!w->fixed_done[fix]) {
        const char *s = fixed_strings[fix];
        if (put_string_record(w, (uint16_t)fix, s, (uint32_t)strlen(s), err) != 0)
            return -1;
        w->fixed_done[fix] = true;
    }
    *ref = (uint16_t)fix;
    return 0;
}

/* ---- threads ---- */

static uint32_t thash_of(uint64_t pid, uint64_t tid)
{
    uint64_t h = pid * 0x9e3779b97f4a7c15ull ^ (tid + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(h >> 54) & (FXT_THASH - 1);
}

static void thash_remove(gt_fxt_writer *w, uint8_t ref)
{
    uint32_t i = thash_of(w->tpid[ref], w->ttid[ref]);
    while (w->thash[i] != ref)
        i = (i + 1) & (FXT_THASH - 1);
    /* backward-shift deletion keeps every probe chain unbroken */
    for (uint32_t j = (i + 1) & (FXT_THASH - 1); w->thash[j]; j = (j + 1) & (FXT_THASH - 1)) {
        uint8_t r = w->thash[j];
        uint32_t home = thash_of(w->tpid[r], w->ttid[r]);
        if (((j - home) & (FXT_THASH - 1)) >= ((j - i) & (FXT_THASH - 1))) {
            w->thash[i] = r;
            i = j;
        }
    }
    w->thash[i] = 0;
}

static int put_thread_record(gt_fxt_writer *w, uint8_t ref, uint64_t pid, uint64_t tid,
                             gt_error *err)
{
    if (fxt_w_reserve(w, 3, err) != 0)
        return -1;
    uint64_t *p = w->buf + w->nw;
    p[0] = FXT_REC_THREAD | 3u << 4 | (uint64_t)ref << 16;
    p[1] = pid;
    p[2] = tid;
    w->nw += 3;
    return 0;
}

int fxt_w_threadref_slow(gt_fxt_writer *w, uint64_t pid, uint64_t tid, uint8_t *ref,
                         gt_error *err)
{
    uint32_t i = thash_of(pid, tid);
    for (uint8_t r; (r = w->thash[i]) != 0; i = (i + 1) & (FXT_THASH - 1))
        if (w->tpid[r] == pid && w->ttid[r] == tid) {
            *ref = w->tlast = r;
            return 0;
        }
    uint8_t r = (uint8_t)w->tnext;
    w->tnext = r == FXT_MAX_THREAD_INDEX ? 1 : r + 1u;
    if (w->tused[r]) /* in use: reuse it */
        thash_remove(w, r);
    if (put_thread_record(w, r, pid, tid, err) != 0)
        return -1;
    w->tpid[r] = pid;
    w->ttid[r] = tid;
    w->tused[r] = true;
    i = thash_of(pid, tid); /* the removal may have moved the free slot */
    while (w->thash[i])
        i = (i + 1) & (FXT_THASH - 1);
    w->thash[i] = r;
    *ref = w->tlast = r;
    return 0;
}
