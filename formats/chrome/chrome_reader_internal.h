/* Shared state of the Chrome reader's parts: the document walk
 * (chrome_reader.c), one event to the model (chrome_event.c), numbers and ids
 * (chrome_values.c). */
#ifndef CHROME_READER_INTERNAL_H
#define CHROME_READER_INTERNAL_H

#include <stdbool.h>

#include "chrome_json.h"
#include "chrome_map.h"
#include "chrome_reader.h"
#include "chrome_source.h"

#define CR_STR_KOID 0x7374720000000000ull /* "str": synthetic koids of string pids/tids */
#define CR_FRAME_DENSE 0x80000000u        /* first id given to non-decimal frame ids */

typedef struct cr_state {
    cj_lex lx;         /* over src's window */
    cr_source src;
    gt_timeline *tl;
    gt_tl_sink *sink;
    const gt_tl_read_opts *opts;
    bool strict;
    gt_error *err;
    gt_arena scratch; /* one event's decoded strings, reset per event */
    gt_tl_arg *args;
    uint32_t capargs;
    chrome_map frames; /* frame id text -> model frame id */
    uint32_t next_frame;
    chrome_map koids;  /* string pid/tid -> synthetic koid */
    uint64_t next_koid;
    chrome_map named;  /* (pid, tid) named for a synthetic id */
    chrome_map open;   /* (pid, tid) -> B events not yet ended */
    chrome_map defined; /* stack frame ids defined so far */
    chrome_map raw_frames; /* (parent id, name) of "stack" arrays -> frame id */
    uint64_t open_total;
    uint32_t warned;   /* one bit per warning already given */
    gt_chrome_read_stats st;
} cr_state;

/* Liberal: warns once per kind (bit) and returns 0; strict: fails at off. */
int cr_deviation(cr_state *r, unsigned bit, size_t off, const char *what);
void cr_warn(cr_state *r, unsigned bit, const char *what);

/* The walk over the window (chrome_walk.c): cj_peek, cj_accept and
 * cj_member that read more input when the window runs out. Pointers into the
 * window stay valid until the next of these calls, except that a value framed
 * by cr_frame (or cr_member's frame_value) stays put until cr_compact. */
void cr_sync(cr_state *r);
void cr_compact(cr_state *r);
cj_type cr_peek(cr_state *r);
bool cr_accept(cr_state *r, char c);
/* The same between values, where no position in the window is held: white
 * space is dropped as it is skipped, so a run of it costs no memory. */
cj_type cr_peek_free(cr_state *r);
bool cr_accept_free(cr_state *r, char c);
/* Skips the value at pos, dropping the window as it goes (nothing is kept). */
int cr_skip(cr_state *r);
int cr_frame(cr_state *r);
int cr_member(cr_state *r, bool *first, gt_tl_bytes *key, size_t *key_at, bool frame_value);
int cr_more(cr_state *r);

/* One event object (the lexer is at its '{', framed). */
int cr_event(cr_state *r);
/* The args object raw (CJ_NONE: none) into r->args, *n of them; with
 * skip_name, the "name" member goes to *name_out instead (metadata events). */
int cr_args(cr_state *r, const cj_value *raw, uint32_t *n, bool skip_name, cj_value *name_out);

/* Stack frames (chrome_frames.c): a frame id ("sf", keys, parents) to the
 * model's; the stackFrames object at the lexer; a raw "stack" array, sending
 * its new frames, to the id of its leaf. */
int cr_frame_id(cr_state *r, const cj_value *v, uint32_t *id);
int cr_stack_frames(cr_state *r);
int cr_raw_stack(cr_state *r, const cj_value *raw, uint32_t *leaf);

/* Values (chrome_values.c). */
int cr_time_ns(cr_state *r, const cj_value *v, const char *what, int64_t *ns);
int cr_id(cr_state *r, const cj_value *v, uint64_t *id);
int cr_koid(cr_state *r, const cj_value *v, const char *what, uint64_t *koid, bool *synthetic);
/* Decimal digits only, no leading zero. */
int cr_all_digits(const gt_tl_bytes *s);
/* Integer text: 1 if it is an integer in range (*neg for negatives), 0 if not. */
int cr_integer(const gt_tl_bytes *text, uint64_t *mag, bool *neg);
gt_tl_str cr_intern(cr_state *r, const gt_tl_bytes *s, size_t off);

enum {
    CRW_ARRAY_END = 0, CRW_TRAILING_COMMA, CRW_SYSTEM_TRACE, CRW_UNKNOWN_PHASE, CRW_STRING_TS,
    CRW_NO_TS, CRW_NO_DUR, CRW_BAD_SCOPE, CRW_HASHED_ID, CRW_NO_ID, CRW_BAD_ARGS, CRW_UNMATCHED_E,
    CRW_OPEN_B, CRW_NAMELESS_META, CRW_BOM, CRW_TRAILING, CRW_OTHER_META, CRW_BAD_FLAG, CRW_DUP_FRAME, CRW_BAD_STACK,
};

#endif
