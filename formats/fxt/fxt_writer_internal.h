/* The FXT writer's state, shared by its record code (fxt_writer.c) and its
 * string and thread tables (fxt_writer_tables.c). Not a public interface. */
#ifndef FXT_WRITER_INTERNAL_H
#define FXT_WRITER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fxt_format.h"
#include "fxt_writer.h"

/* Strings the writer itself needs (argument names and marker values of
 * fxt_format.h): fixed string indices 1..FXT_FIX_COUNT, registered at first use
 * and never reused for model strings. */
enum {
    FXT_FIX_PROCESS = 1,
    FXT_FIX_PH,
    FXT_FIX_ID,
    FXT_FIX_PARENT,
    FXT_FIX_SCOPE,
    FXT_FIX_STACK,
    FXT_FIX_N, FXT_FIX_O, FXT_FIX_D, FXT_FIX_P, FXT_FIX_F, FXT_FIX_p, FXT_FIX_g,
    FXT_FIX_WALL, FXT_FIX_MONO,
    FXT_FIX_COUNT = FXT_FIX_MONO
};

#define FXT_BUF_WORDS (1u << 17) /* 1 MiB of output buffered */
#define FXT_THASH 1024u          /* thread hash slots: load below 1/4 */

struct gt_fxt_writer {
    FILE *f;
    bool own;
    char *name;
    uint64_t *buf; /* whole records, words in host (little-endian) order */
    uint32_t nw;
    /* strings: model id -> FXT index (0: not registered), and back */
    uint16_t *sidx;
    uint32_t sidx_cap;
    uint32_t sowner[FXT_MAX_STRING_INDEX + 1]; /* index -> model id + 1; 0 free */
    uint32_t snext;                            /* next index to (re)assign */
    bool fixed_done[FXT_FIX_COUNT + 1];
    /* threads: (pid, tid) -> ref 1..255 */
    uint64_t tpid[FXT_MAX_THREAD_INDEX + 1], ttid[FXT_MAX_THREAD_INDEX + 1];
    bool tused[FXT_MAX_THREAD_INDEX + 1];
    uint8_t thash[FXT_THASH]; /* slot -> ref, 0 empty */
    uint32_t tnext;           /* next ref to (re)assign */
    uint8_t tlast;            /* last ref used: the hot path's one-entry cache */
    uint64_t dropped_args;    /* beyond FXT's 15 per record */
    bool wall_written;        /* the clock anchor record is out */
};

/* Makes room for n words, flushing when the buffer is full. */
int fxt_w_reserve(gt_fxt_writer *w, uint32_t n, gt_error *err);

/* The string ref of a model string (indexed; a string record is written the
 * first time and whenever its index was reused since). */
int fxt_w_strref_slow(gt_fxt_writer *w, const gt_timeline *tl, gt_tl_str id, uint16_t *ref,
                      gt_error *err);
static inline int fxt_w_strref(gt_fxt_writer *w, const gt_timeline *tl, gt_tl_str id,
                               uint16_t *ref, gt_error *err)
{
    if (id == 0) {
        *ref = 0;
        return 0;
    }
    if (id < w->sidx_cap && w->sidx[id]) {
        *ref = w->sidx[id];
        return 0;
    }
    return fxt_w_strref_slow(w, tl, id, ref, err);
}
/* The index of one of the writer's own strings (FXT_FIX_*). */
int fxt_w_fixref(gt_fxt_writer *w, unsigned fix, uint16_t *ref, gt_error *err);

/* The thread ref of (pid, tid); writes a thread record when new or reused. */
int fxt_w_threadref_slow(gt_fxt_writer *w, uint64_t pid, uint64_t tid, uint8_t *ref,
                         gt_error *err);
static inline int fxt_w_threadref(gt_fxt_writer *w, uint64_t pid, uint64_t tid, uint8_t *ref,
                                  gt_error *err)
{
    uint8_t r = w->tlast;
    if (r && w->tpid[r] == pid && w->ttid[r] == tid) {
        *ref = r;
        return 0;
    }
    return fxt_w_threadref_slow(w, pid, tid, ref, err);
}

void fxt_w_tables_init(gt_fxt_writer *w);
void fxt_w_tables_free(gt_fxt_writer *w);

/* Copies n bytes as a zero-padded stream; returns the word after it. */
uint64_t *fxt_w_stream(uint64_t *p, const char *s, uint32_t n);

#endif
