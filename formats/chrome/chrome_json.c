/* The JSON pull parser (chrome_json.h). */
#include "chrome_json.h"
#include "gt_json.h"

#include <string.h>

void cj_init(cj_lex *lx, const char *data, size_t size, const char *name, gt_arena *arena,
             gt_error *err)
{
    memset(lx, 0, sizeof *lx);
    lx->p = data;
    lx->end = size;
    lx->name = name;
    lx->arena = arena;
    lx->err = err;
}

void cj_sub(cj_lex *sub, const cj_lex *parent, const cj_value *raw)
{
    *sub = *parent;
    sub->pos = raw->off;
    sub->end = raw->off + raw->s.len;
}

int cj_fail(cj_lex *lx, size_t off, const char *what)
{
    if (lx->err)
        gt_error_at(lx->err, lx->name, lx->base + off, "%s", what);
    return -1;
}

static void skip_ws(cj_lex *lx)
{
    while (lx->pos < lx->end) {
        char c = lx->p[lx->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return;
        lx->pos++;
    }
}

static cj_type type_of(char c)
{
    switch (c) {
    case '"': return CJ_STRING;
    case '{': return CJ_OBJECT;
    case '[': return CJ_ARRAY;
    case 't': return CJ_TRUE;
    case 'f': return CJ_FALSE;
    case 'n': return CJ_NULL;
    default: return c == '-' || (c >= '0' && c <= '9') ? CJ_NUMBER : CJ_BAD;
    }
}

cj_type cj_peek(cj_lex *lx)
{
    skip_ws(lx);
    return lx->pos < lx->end ? type_of(lx->p[lx->pos]) : CJ_NONE;
}

bool cj_accept(cj_lex *lx, char c)
{
    skip_ws(lx);
    if (lx->pos < lx->end && lx->p[lx->pos] == c) {
        lx->pos++;
        return true;
    }
    return false;
}

int cj_expect(cj_lex *lx, char c, const char *what)
{
    if (cj_accept(lx, c))
        return 0;
    return cj_fail(lx, lx->pos, lx->pos < lx->end ? what : "unexpected end of input");
}

/* ---- strings ---- */

static int hex4(const char *s, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v << 4 | (uint32_t)d;
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | cp >> 12);
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | cp >> 18);
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* Scans to the closing quote: checks control bytes, escapes and (strict)
 * UTF-8; returns whether any escape needs decoding. */
static int scan_string(cj_lex *lx, size_t *close, bool *escaped)
{
    size_t i = lx->pos + 1;
    *escaped = false;
    while (i < lx->end) {
        unsigned char c = (unsigned char)lx->p[i];
        if (c == '"') {
            *close = i;
            return 0;
        }
        if (c < 0x20)
            return cj_fail(lx, i, "control character in a string");
        if (c == '\\') {
            *escaped = true;
            if (i + 1 >= lx->end)
                break;
            char e = lx->p[i + 1];
            if (e == 'u') {
                uint32_t cp;
                if (i + 6 > lx->end || hex4(lx->p + i + 2, &cp) != 0)
                    return cj_fail(lx, i, "bad \\u escape in a string");
                i += 6;
            } else if (strchr("\"\\/bfnrt", e) && e) {
                i += 2;
            } else {
                return cj_fail(lx, i, "bad escape in a string");
            }
            continue;
        }
        if (c >= 0x80 && lx->strict) {
            size_t n = gt_utf8_len((const unsigned char *)lx->p + i, lx->end - i);
            if (n == 0)
                return cj_fail(lx, i, "invalid UTF-8 in a string");
            i += n;
            continue;
        }
        i++;
    }
    return cj_fail(lx, lx->pos, "unterminated string");
}

/* Decodes the escapes of raw string text (checked by scan_string) into o. */
static int decode(cj_lex *lx, size_t i, size_t close, char *o, size_t *olen)
{
    size_t n = 0;
    while (i < close) {
        char c = lx->p[i];
        if (c != '\\') {
            o[n++] = c;
            i++;
            continue;
        }
        char e = lx->p[i + 1];
        if (e != 'u') {
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            o[n++] = to[strchr(from, e) - from];
            i += 2;
            continue;
        }
        uint32_t cp = 0, lo = 0;
        hex4(lx->p + i + 2, &cp);
        size_t at = i;
        i += 6;
        if (cp >= 0xd800 && cp <= 0xdbff && i + 6 <= close && lx->p[i] == '\\' &&
            lx->p[i + 1] == 'u' && hex4(lx->p + i + 2, &lo) == 0 && lo >= 0xdc00 && lo <= 0xdfff) {
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            i += 6;
        } else if (cp >= 0xd800 && cp <= 0xdfff) {
            if (lx->strict)
                return cj_fail(lx, at, "lone surrogate in a \\u escape");
            cp = 0xfffd; /* what browsers' JSON.parse shows for it */
        }
        n += put_utf8(o + n, cp);
    }
    *olen = n;
    return 0;
}

int cj_string(cj_lex *lx, gt_tl_bytes *out)
{
    skip_ws(lx);
    if (lx->pos >= lx->end || lx->p[lx->pos] != '"')
        return cj_fail(lx, lx->pos, "expected a string");
    size_t close = 0;
    bool escaped;
    if (scan_string(lx, &close, &escaped) != 0)
        return -1;
    size_t raw = close - lx->pos - 1;
    if (raw > UINT32_MAX)
        return cj_fail(lx, lx->pos, "string longer than 4 GiB");
    if (!escaped) {
        out->p = lx->p + lx->pos + 1;
        out->len = (uint32_t)raw;
    } else {
        /* decoding never lengthens: each escape is at least as long as its bytes */
        char *o = gt_arena_alloc(lx->arena, raw + 1);
        if (!o)
            return cj_fail(lx, lx->pos, "out of memory decoding a string");
        size_t n = 0;
        if (decode(lx, lx->pos + 1, close, o, &n) != 0)
            return -1;
        o[n] = '\0';
        out->p = o;
        out->len = (uint32_t)n;
    }
    lx->pos = close + 1;
    return 0;
}

/* ---- numbers and literals ---- */

static size_t digits(const cj_lex *lx, size_t i)
{
    while (i < lx->end && lx->p[i] >= '0' && lx->p[i] <= '9')
        i++;
    return i;
}

static int number(cj_lex *lx, cj_value *v)
{
    size_t s = lx->pos, i = s;
    if (lx->p[i] == '-')
        i++;
    size_t d = digits(lx, i);
    if (d == i || (lx->p[i] == '0' && d > i + 1))
        return cj_fail(lx, s, "bad number");
    i = d;
    if (i < lx->end && lx->p[i] == '.') {
        d = digits(lx, i + 1);
        if (d == i + 1)
            return cj_fail(lx, s, "bad number");
        i = d;
    }
    if (i < lx->end && (lx->p[i] == 'e' || lx->p[i] == 'E')) {
        i++;
        if (i < lx->end && (lx->p[i] == '+' || lx->p[i] == '-'))
            i++;
        d = digits(lx, i);
        if (d == i)
            return cj_fail(lx, s, "bad number");
        i = d;
    }
    if (i - s > UINT32_MAX)
        return cj_fail(lx, s, "number too long");
    v->s.p = lx->p + s;
    v->s.len = (uint32_t)(i - s);
    lx->pos = i;
    return 0;
}

static int literal(cj_lex *lx, const char *word)
{
    size_t n = strlen(word);
    if (lx->end - lx->pos < n || memcmp(lx->p + lx->pos, word, n) != 0)
        return cj_fail(lx, lx->pos, "bad literal");
    lx->pos += n;
    return 0;
}

/* ---- containers ---- */

int cj_member(cj_lex *lx, bool *first, gt_tl_bytes *key)
{
    if (cj_accept(lx, '}'))
        return 0;
    if (!*first && cj_expect(lx, ',', "expected , or } in an object") != 0)
        return -1;
    *first = false;
    if (cj_peek(lx) != CJ_STRING)
        return cj_fail(lx, lx->pos, lx->pos < lx->end ? "expected a key string in an object"
                                                       : "unexpected end of input");
    if (cj_string(lx, key) != 0 || cj_expect(lx, ':', "expected : after a key") != 0)
        return -1;
    return 1;
}

int cj_element(cj_lex *lx, bool *first)
{
    if (cj_accept(lx, ']'))
        return 0;
    if (!*first && cj_expect(lx, ',', "expected , or ] in an array") != 0)
        return -1;
    *first = false;
    return 1;
}

/* Skips an object or array with an explicit stack of open brackets, so
 * nesting costs no C stack and is bounded by CJ_MAX_DEPTH. */
static int skip_container(cj_lex *lx)
{
    char open[CJ_MAX_DEPTH];
    bool first[CJ_MAX_DEPTH];
    int depth = 0;
    gt_tl_bytes key;
    open[depth] = lx->p[lx->pos++];
    first[depth++] = true;
    while (depth > 0) {
        int r = open[depth - 1] == '{' ? cj_member(lx, &first[depth - 1], &key)
                                       : cj_element(lx, &first[depth - 1]);
        if (r < 0)
            return -1;
        if (r == 0) {
            depth--;
            continue;
        }
        cj_type t = cj_peek(lx);
        if (t == CJ_OBJECT || t == CJ_ARRAY) {
            if (depth == CJ_MAX_DEPTH)
                return cj_fail(lx, lx->pos, "JSON nested too deeply");
            open[depth] = lx->p[lx->pos++];
            first[depth++] = true;
            continue;
        }
        cj_value v;
        if (cj_value_read(lx, &v) != 0)
            return -1;
    }
    return 0;
}

int cj_value_read(cj_lex *lx, cj_value *v)
{
    cj_type t = cj_peek(lx);
    v->type = t;
    v->off = lx->pos;
    v->s.p = NULL;
    v->s.len = 0;
    switch (t) {
    case CJ_NONE: return cj_fail(lx, lx->pos, "unexpected end of input");
    case CJ_BAD: return cj_fail(lx, lx->pos, "expected a JSON value");
    case CJ_STRING: return cj_string(lx, &v->s);
    case CJ_NUMBER: return number(lx, v);
    case CJ_TRUE: return literal(lx, "true");
    case CJ_FALSE: return literal(lx, "false");
    case CJ_NULL: return literal(lx, "null");
    case CJ_OBJECT:
    case CJ_ARRAY:
        if (skip_container(lx) != 0)
            return -1;
        if (lx->pos - v->off > UINT32_MAX)
            return cj_fail(lx, v->off, "JSON value longer than 4 GiB");
        v->s.p = lx->p + v->off;
        v->s.len = (uint32_t)(lx->pos - v->off);
        return 0;
    }
    return -1;
}

bool cj_is_json(const char *p, size_t n)
{
    gt_arena a;
    gt_arena_init(&a);
    cj_lex lx;
    cj_init(&lx, p, n, "", &a, NULL); /* not strict: the reader keeps such values liberally */
    cj_value v;
    bool ok = cj_value_read(&lx, &v) == 0 && cj_peek(&lx) == CJ_NONE;
    gt_arena_free(&a);
    return ok;
}
