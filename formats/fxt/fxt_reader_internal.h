/* The FXT reader's state and the helpers its record code (fxt_reader.c) and
 * its argument and reference code (fxt_reader_args.c) share. Not public. */
#ifndef FXT_READER_INTERNAL_H
#define FXT_READER_INTERNAL_H

#include <stdbool.h>
#include <string.h>

#include "fxt_format.h"
#include "fxt_reader.h"

/* Deviations: strict mode refuses them, liberal mode warns once per kind. */
enum {
    FXT_W_MAGIC, FXT_W_INIT, FXT_W_RESERVED, FXT_W_PADDING, FXT_W_ARG_SIZE0, FXT_W_ARG_SIZE,
    FXT_W_UNDEF_STR, FXT_W_UNDEF_THREAD, FXT_W_TRUNCATED, FXT_W_EXTRA, FXT_W_SHORT,
    FXT_W_INDEX0, FXT_W_RATE, FXT_W_PROVIDERS, FXT_W_COUNT
};
/* Notes that are no deviation (skipped content the spec allows): warned once. */
enum { FXT_N_ARG_TYPE, FXT_N_EVENT_TYPE, FXT_N_SCHED, FXT_N_DROPPED, FXT_N_COUNT };

/* Results of the record helpers: 0 go on, -1 failed (err set), FXT_SKIP the
 * rest of this record cannot be read (liberal mode, already warned). */
#define FXT_SKIP 1

/* A provider's string and thread tables: an archive of several providers
 * switches between them at provider info and provider section records. The
 * tick rate is shared (one clock per system). */
typedef struct fxt_tables {
    uint32_t provider;
    uint32_t str[FXT_MAX_STRING_INDEX + 1]; /* index -> model id + 1; 0 undefined */
    uint64_t tpid[FXT_MAX_THREAD_INDEX + 1], ttid[FXT_MAX_THREAD_INDEX + 1];
    bool tdef[FXT_MAX_THREAD_INDEX + 1];
} fxt_tables;

#define FXT_MAX_PROVIDERS 64 /* 135 KiB of tables each */

typedef struct fxt_rd {
    const char *name;
    gt_timeline *tl;
    gt_tl_sink *sink;
    gt_error *err;
    const gt_tl_read_opts *opts;
    bool strict;
    uint32_t warned; /* bits: FXT_W_* then FXT_N_* << 16 */
    uint64_t nrec;
    bool seen_init;
    uint64_t rate; /* ticks per second */
    fxt_tables *t;                      /* the current provider's */
    fxt_tables *prov[FXT_MAX_PROVIDERS]; /* allocated as providers appear */
    uint32_t nprov;
    /* names the reader uses or recognises, interned once */
    gt_tl_str s_log, s_message, s_process, m_ph, m_id, m_parent, m_scope, m_stack, m_wall,
        m_mono;
    /* the record being read */
    const uint8_t *rec;
    uint32_t nw, pos;
    uint64_t off;
    gt_tl_arg args[FXT_MAX_ARGS];
    uint32_t nargs;
} fxt_rd;

static inline uint64_t fxt_rd_word_at(const fxt_rd *r, uint32_t i)
{
    uint64_t w;
    memcpy(&w, r->rec + (size_t)i * 8, 8);
    return w;
}
static inline uint64_t fxt_rd_off(const fxt_rd *r) { return r->off + (uint64_t)r->pos * 8; }

/* A deviation at offset off: -1 in strict mode, 0 after a warning otherwise. */
int fxt_rd_dev(fxt_rd *r, unsigned kind, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A note (never an error): warned once per kind. */
void fxt_rd_note(fxt_rd *r, unsigned kind, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The record ends before what it declares: -1 strict, FXT_SKIP liberal. */
int fxt_rd_short(fxt_rd *r, const char *what);
/* Reserved bits of a word must be zero. */
int fxt_rd_reserved(fxt_rd *r, uint64_t word, uint64_t mask, uint64_t off);

int fxt_rd_word(fxt_rd *r, uint64_t *w);
/* A stream of len bytes: its padding must be zero. */
int fxt_rd_stream(fxt_rd *r, uint32_t len, const char **s);
/* A string ref: empty, inline (read now) or indexed; interned when id != NULL. */
int fxt_rd_strref(fxt_rd *r, uint16_t ref, gt_tl_str *id, gt_tl_bytes *b);
/* A thread ref: indexed, or inline (its two words are read now). */
int fxt_rd_thread(fxt_rd *r, uint8_t ref, uint64_t *pid, uint64_t *tid);
/* n arguments into r->args / r->nargs. */
int fxt_rd_args(fxt_rd *r, unsigned n);
/* Turns the marker arguments of fxt_format.h back into the event's kind,
 * scope, id, parent and stack, removing them from r->args. */
void fxt_rd_markers(fxt_rd *r, gt_tl_event *ev);
/* Removes argument i from r->args. */
void fxt_rd_drop_arg(fxt_rd *r, uint32_t i);
/* Makes provider id's tables current (new ones empty). */
int fxt_rd_provider(fxt_rd *r, uint32_t id);

#endif
