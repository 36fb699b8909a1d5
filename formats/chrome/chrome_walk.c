/* The Chrome reader's walk over its input window (chrome_reader_internal.h):
 * the document's structure is read token by token, each event or stack frame
 * is first framed whole in the window, then parsed in place. */
#include <string.h>

#include "chrome_reader_internal.h"

void cr_sync(cr_state *r)
{
    r->lx.p = r->src.buf;
    r->lx.end = r->src.len;
    r->lx.base = r->src.base;
}

int cr_more(cr_state *r)
{
    int m = cr_source_more(&r->src);
    cr_sync(r);
    return m;
}

/* Forgets the window up to pos (everything before it was read). */
static void drop_read(cr_state *r)
{
    size_t n = cr_source_drop(&r->src, r->lx.pos);
    cr_sync(r);
    r->lx.pos -= n;
}

/* Between values only: drops the text read once it is half the window, so
 * each byte moves at most about once. */
void cr_compact(cr_state *r)
{
    if (r->lx.pos < (64u << 10) || r->lx.pos < r->lx.end / 2)
        return;
    drop_read(r);
}

/* The next token, reading more input as needed; drop: forget the text read so far
 * while only white space is left (it is never needed again). */
static cj_type peek(cr_state *r, bool drop)
{
    for (;;) {
        cj_type t = cj_peek(&r->lx);
        if (t != CJ_NONE)
            return t;
        if (drop)
            drop_read(r); /* only white space was left: nothing moves */
        int m = cr_more(r);
        if (m < 0)
            return CJ_BAD; /* the source's message is already in err */
        if (m == 0)
            return CJ_NONE;
    }
}

cj_type cr_peek(cr_state *r) { return peek(r, false); }

bool cr_accept(cr_state *r, char c)
{
    cr_peek(r);
    return cj_accept(&r->lx, c);
}

cj_type cr_peek_free(cr_state *r) { return peek(r, true); }

bool cr_accept_free(cr_state *r, char c)
{
    cr_peek_free(r);
    return cj_accept(&r->lx, c);
}

/* The end of one JSON value, found byte by byte: strings are skipped, brackets
 * matched (not checked); a number or literal ends before the first byte that
 * cannot be part of it. */
typedef struct value_scan {
    bool scalar, str, esc;
    long depth;
} value_scan;

static value_scan scan_start(char first)
{
    return (value_scan){.scalar = first != '"' && first != '{' && first != '['};
}

/* 0: c is inside the value; 1: the value ends with c; -1: it ended before c. */
static int scan_byte(value_scan *s, char c)
{
    if (s->scalar)
        return c == ',' || c == ']' || c == '}' || c == ':' || c == ' ' || c == '\t' || c == '\n' ||
                       c == '\r'
                   ? -1
                   : 0;
    if (s->str) {
        if (s->esc)
            s->esc = false;
        else if (c == '\\')
            s->esc = true;
        else if (c == '"' && (s->str = false, s->depth == 0))
            return 1;
    } else if (c == '"') {
        s->str = true;
    } else if (c == '{' || c == '[') {
        s->depth++;
    } else if ((c == '}' || c == ']') && --s->depth <= 0) {
        return 1;
    }
    return 0;
}

/* The value at pos scanned to its end, more input read as needed; keep: the
 * window holds the whole value (cr_frame), else it is dropped as it is read, so
 * a value skipped unread (systemTraceEvents, otherData) costs no memory however
 * large (cr_skip, which leaves pos past the value). */
static int scan_value(cr_state *r, bool keep)
{
    size_t i = r->lx.pos;
    value_scan s = scan_start(r->lx.p[i]);
    for (;;) {
        for (; i < r->lx.end; i++) {
            int end = scan_byte(&s, r->lx.p[i]);
            if (end) {
                if (!keep)
                    r->lx.pos = end > 0 ? i + 1 : i;
                return 0;
            }
        }
        if (!keep) {
            r->lx.pos = i;
            drop_read(r);
            i = r->lx.pos;
        }
        int m = cr_more(r);
        if (m < 0)
            return -1;
        if (m == 0)
            return keep || s.scalar ? 0 : cj_fail(&r->lx, r->lx.pos, "unexpected end of input");
    }
}

int cr_skip(cr_state *r)
{
    return r->lx.pos >= r->lx.end ? 0 : scan_value(r, false);
}

/* Reads until the value at pos ends within the window: its closing quote or
 * bracket (strings skipped), or the byte after a number or literal. At the
 * end of input it stops; the parser then says what is missing. */
int cr_frame(cr_state *r)
{
    return r->src.eof || r->lx.pos >= r->lx.end ? 0 : scan_value(r, true);
}

int cr_member(cr_state *r, bool *first, gt_tl_bytes *key, size_t *key_at, bool frame_value)
{
    cj_lex *lx = &r->lx;
    /* nothing of the window is held before a member: white space is dropped */
    if (cr_accept_free(r, '}'))
        return 0;
    if (!*first && !cr_accept_free(r, ','))
        return cj_fail(lx, lx->pos, lx->pos < lx->end ? "expected , or } in an object" : "unexpected end of input");
    *first = false;
    if (cr_peek_free(r) != CJ_STRING)
        return cj_fail(lx, lx->pos, lx->pos < lx->end ? "expected a key string in an object"
                                                       : "unexpected end of input");
    if (cr_frame(r) != 0)
        return -1;
    size_t key_off = lx->pos;
    if (key_at)
        *key_at = key_off;
    if (cj_string(lx, key) != 0)
        return -1;
    if (!cr_accept(r, ':'))
        return cj_fail(lx, lx->pos, lx->pos < lx->end ? "expected : after a key" : "unexpected end of input");
    if (frame_value && (cr_peek(r), cr_frame(r) != 0))
        return -1;
    /* reading on may have moved the window: the key again, from where it now is */
    size_t at = lx->pos;
    lx->pos = key_off;
    int rc = cj_string(lx, key);
    lx->pos = at;
    return rc == 0 ? 1 : -1;
}
