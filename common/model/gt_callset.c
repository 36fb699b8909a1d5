#include "gt_callset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "gt_input.h"
#include "gt_model.h"

static int add(gt_callset *s, gt_callrange r)
{
    if (r.start > r.stop || r.freq == 0)
        return 1; /* empty, as apitrace ignores it */
    if (GT_GROW(s->ranges, s->cap, s->n + 1, 8) != 0)
        return 0;
    s->ranges[s->n++] = r;
    return 1;
}

int gt_callset_init_all(gt_callset *s)
{
    memset(s, 0, sizeof *s);
    return add(s, (gt_callrange){0, UINT32_MAX, 1, GT_FREQ_ALL}) ? 0 : -1;
}

void gt_callset_free(gt_callset *s)
{
    free(s->ranges);
    memset(s, 0, sizeof *s);
}

typedef struct {
    const char *p;
    const char *src; /* for messages */
    gt_error *err;
} cs_parser;

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
static void skip_ws(cs_parser *ps) { while (is_space(*ps->p)) ps->p++; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_alpha(char c) { return c >= 'a' && c <= 'z'; }

static int op(cs_parser *ps, char c)
{
    if (*ps->p != c)
        return 0;
    ps->p++;
    skip_ws(ps);
    return 1;
}

static int number(cs_parser *ps, uint32_t *out)
{
    if (!is_digit(*ps->p)) {
        gt_error_set(ps->err, "call set \"%s\": expected a number at \"%s\"", ps->src, ps->p);
        return 0;
    }
    uint64_t v = 0;
    while (is_digit(*ps->p)) {
        v = v * 10 + (uint64_t)(*ps->p++ - '0');
        if (v > UINT32_MAX) {
            gt_error_set(ps->err, "call set \"%s\": number too large", ps->src);
            return 0;
        }
    }
    skip_ws(ps);
    *out = (uint32_t)v;
    return 1;
}

static int frequency(cs_parser *ps, uint32_t *out)
{
    const char *start = ps->p;
    while (is_alpha(*ps->p))
        ps->p++;
    size_t n = (size_t)(ps->p - start);
#define IS(w) (n == sizeof(w) - 1 && memcmp(start, w, n) == 0)
    if (IS("frame"))
        *out = GT_CALL_FLAG_END_FRAME;
    else if (IS("rendertarget") || IS("fbo"))
        *out = GT_CALL_FLAG_END_FRAME | GT_CALL_FLAG_SWAP_RENDERTARGET;
    else if (IS("render") || IS("draw"))
        *out = GT_CALL_FLAG_RENDER;
    else {
        gt_error_set(ps->err, "call set \"%s\": expected frame, rendertarget, fbo, render or "
                     "draw at \"%.*s\"", ps->src, (int)(n ? n : 1), start);
        return 0;
    }
#undef IS
    skip_ws(ps);
    return 1;
}

static int range(cs_parser *ps, gt_callset *s)
{
    gt_callrange r = {0, UINT32_MAX, 1, GT_FREQ_ALL};
    if (is_alpha(*ps->p)) {
        if (!frequency(ps, &r.freq))
            return 0;
    } else {
        if (!op(ps, '*')) {
            if (!number(ps, &r.start))
                return 0;
            if (op(ps, '-')) {
                if (is_digit(*ps->p) && !number(ps, &r.stop))
                    return 0;
            } else {
                r.stop = r.start;
            }
        }
        if (op(ps, '/')) {
            if (is_digit(*ps->p)) {
                if (!number(ps, &r.step))
                    return 0;
                if (r.step == 0) {
                    gt_error_set(ps->err, "call set \"%s\": step must not be 0", ps->src);
                    return 0;
                }
            } else if (!frequency(ps, &r.freq)) {
                return 0;
            }
        }
    }
    if (!add(s, r)) {
        gt_error_set(ps->err, "out of memory");
        return 0;
    }
    return 1;
}

static int parse_text(gt_callset *s, const char *text, const char *src, gt_error *err)
{
    cs_parser ps = {text, src, err};
    skip_ws(&ps);
    while (*ps.p) {
        const char *before = ps.p;
        if (!range(&ps, s))
            return 0;
        op(&ps, ',');
        if (ps.p == before) {
            gt_error_set(err, "call set \"%s\": unexpected \"%c\"", src, *ps.p);
            return 0;
        }
    }
    return 1;
}

static int parse_file(gt_callset *s, const char *path, gt_error *err)
{
    gt_error why;
    gt_error_clear(&why);
    FILE *f = gt_input_fopen(path, NULL, &why);
    if (!f) {
        gt_error_set(err, "call set file %s", why.msg);
        return 0;
    }
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    int ok = buf != NULL;
    size_t n;
    while (ok && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2)
            ok = cap < (64u << 20) && GT_GROW(buf, cap, cap + 1, 0) == 0;
    }
    fclose(f);
    if (!ok) {
        free(buf);
        gt_error_set(err, "call set file %s: too large", path);
        return 0;
    }
    buf[len] = '\0';
    ok = parse_text(s, buf, path, err);
    free(buf);
    return ok;
}

int gt_callset_merge(gt_callset *s, const char *str, gt_error *err)
{
    if (!s->replaced) {
        s->n = 0;
        s->replaced = true;
    }
    /* comma-separated tokens, each a file (@name) or ranges */
    const char *p = str;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char *tok = malloc(n + 1);
        if (!tok) {
            gt_error_set(err, "out of memory");
            return -1;
        }
        memcpy(tok, p, n);
        tok[n] = '\0';
        int ok = tok[0] == '@' ? parse_file(s, tok + 1, err) : parse_text(s, tok, str, err);
        free(tok);
        if (!ok)
            return -1;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

bool gt_callset_contains(const gt_callset *s, uint32_t no, uint32_t flags)
{
    for (size_t i = 0; i < s->n; ++i) {
        const gt_callrange *r = &s->ranges[i];
        if (no >= r->start && no <= r->stop && (no - r->start) % r->step == 0 &&
            (r->freq == GT_FREQ_ALL || (flags & r->freq)))
            return true;
    }
    return false;
}

uint32_t gt_callset_last(const gt_callset *s)
{
    uint32_t last = 0;
    for (size_t i = 0; i < s->n; ++i)
        if (s->ranges[i].stop > last)
            last = s->ranges[i].stop;
    return last;
}
