/* json_tree.h: a recursive descent over the file held in memory. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "json_tree.h"

typedef struct jt_parser {
    const char *p, *end, *start;
    const char *path;
    gt_arena *arena;
    const jt_options *opt;
    gt_error *err;
} jt_parser;

static int fail(jt_parser *ps, const char *at, const char *what)
{
    unsigned long line = 1;
    for (const char *q = ps->start; q < at && q < ps->end; ++q)
        line += *q == '\n';
    gt_error_set(ps->err, "%s: line %lu: %s", ps->path, line, what);
    return -1;
}

/* Whitespace, and // comments to the end of their line. */
static void skip_ws(jt_parser *ps)
{
    while (ps->p < ps->end) {
        char c = *ps->p;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            ++ps->p;
        } else if (c == '/' && ps->p + 1 < ps->end && ps->p[1] == '/') {
            while (ps->p < ps->end && *ps->p != '\n' && *ps->p != '\r')
                ++ps->p;
        } else {
            break;
        }
    }
}

static void *alloc(jt_parser *ps, size_t size)
{
    void *m = gt_arena_alloc(ps->arena, size ? size : 1);
    if (!m)
        fail(ps, ps->p, "out of memory");
    return m;
}

static size_t put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xc0 | cp >> 6); o[1] = (char)(0x80 | (cp & 0x3f)); return 2; }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | cp >> 12); o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | cp >> 18); o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f)); o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

static int hex4(jt_parser *ps, const char *q, uint32_t *v)
{
    *v = 0;
    if (ps->end - q < 4)
        return fail(ps, q, "a \\u escape cut short");
    for (int k = 0; k < 4; ++k) {
        char c = q[k];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return fail(ps, q, "a \\u escape with a digit that is not hexadecimal");
        *v = *v << 4 | (uint32_t)d;
    }
    return 0;
}

/* One escape after the backslash at ps->p: its UTF-8 into o, *n bytes. A lone
 * surrogate becomes U+FFFD. */
static int escape(jt_parser *ps, char *o, size_t *n)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *q = ps->p + 1;
    if (q >= ps->end)
        return fail(ps, ps->p, "a string cut short");
    const char *f = strchr(from, *q);
    if (*q && f) {
        *o = to[f - from];
        *n = 1;
        ps->p = q + 1;
        return 0;
    }
    uint32_t cp, lo;
    if (*q != 'u')
        return fail(ps, ps->p, "an invalid escape in a string");
    if (hex4(ps, q + 1, &cp) < 0)
        return -1;
    ps->p = q + 5;
    if (cp >= 0xd800 && cp < 0xdc00 && ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u' &&
        hex4(ps, ps->p + 2, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        ps->p += 6;
    } else if (cp >= 0xd800 && cp < 0xe000) {
        cp = 0xfffd;
    }
    *n = put_utf8(o, cp);
    return 0;
}

static int string(jt_parser *ps, const char **s, size_t *len)
{
    const char *open = ps->p++;
    const char *q = ps->p;
    while (q < ps->end && *q != '"')
        q += *q == '\\' ? 2 : 1;
    if (q >= ps->end)
        return fail(ps, open, "a string without its closing quote");
    char *o = alloc(ps, (size_t)(q - ps->p) + 1);
    size_t n = 0;
    if (!o)
        return -1;
    while (*ps->p != '"') {
        if (*ps->p == '\\') {
            size_t k;
            if (escape(ps, o + n, &k) < 0)
                return -1;
            n += k;
        } else {
            o[n++] = *ps->p++;
        }
    }
    ++ps->p;
    o[n] = 0;
    *s = o;
    *len = n;
    return 0;
}

static int number(jt_parser *ps, jt_value *v)
{
    const char *q = ps->p;
    int is_float = 0;
    if (q < ps->end && *q == '-')
        ++q;
    if (q >= ps->end || *q < '0' || *q > '9')
        return fail(ps, ps->p, "a value was expected");
    if (*q == '0')
        ++q;
    else
        while (q < ps->end && *q >= '0' && *q <= '9') ++q;
    if (q + 1 < ps->end && *q == '.' && q[1] >= '0' && q[1] <= '9') {
        is_float = 1;
        for (++q; q < ps->end && *q >= '0' && *q <= '9'; ++q) {}
    }
    if (q < ps->end && (*q == 'e' || *q == 'E')) {
        const char *e = q + 1;
        if (e < ps->end && (*e == '+' || *e == '-'))
            ++e;
        if (e < ps->end && *e >= '0' && *e <= '9') {
            is_float = 1;
            for (q = e; q < ps->end && *q >= '0' && *q <= '9'; ++q) {}
        }
    }
    size_t n = (size_t)(q - ps->p);
    char *text = alloc(ps, n + 1);
    if (!text)
        return -1;
    memcpy(text, ps->p, n);
    text[n] = 0;
    ps->p = q;
    v->d = strtod(text, NULL);
    v->type = is_float ? JT_FLOAT : JT_INT;
    if (!is_float) {
        errno = 0;
        v->i = strtoll(text, NULL, 10);
        v->int_big = errno == ERANGE;
        v->s = text;
        v->n = n;
    }
    return 0;
}

static int value(jt_parser *ps, jt_value *v, int depth);

static int array(jt_parser *ps, jt_value *v, int depth)
{
    jt_value *items = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    ++ps->p;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == ']') {
        ++ps->p;
    } else {
        for (;;) {
            if (GT_GROW(items, cap, n + 1, 16) < 0) { rc = fail(ps, ps->p, "out of memory"); break; }
            if ((rc = value(ps, &items[n], depth + 1)) < 0)
                break;
            ++n;
            skip_ws(ps);
            if (ps->p < ps->end && *ps->p == ',') { ++ps->p; continue; }
            if (ps->p < ps->end && *ps->p == ']') { ++ps->p; break; }
            rc = fail(ps, ps->p, "',' or ']' expected in an array");
            break;
        }
    }
    v->type = JT_ARRAY;
    v->n = n;
    if (rc == 0 && (v->items = alloc(ps, n * sizeof *items)) != NULL && n)
        memcpy(v->items, items, n * sizeof *items);
    free(items);
    return rc == 0 && v->items ? 0 : -1;
}

static int cmp_member(const void *a, const void *b)
{
    const jt_member *x = a, *y = b;
    size_t n = x->klen < y->klen ? x->klen : y->klen;
    int c = memcmp(x->key, y->key, n);
    if (c)
        return c;
    if (x->klen != y->klen)
        return x->klen < y->klen ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos; /* a repeated key: in file order */
}

static int is_dunder(const jt_member *m)
{
    return m->klen >= 4 && !memcmp(m->key, "__", 2) && !memcmp(m->key + m->klen - 2, "__", 2);
}

static int same_key(const jt_member *x, const jt_member *y)
{
    return x->klen == y->klen && !memcmp(x->key, y->key, x->klen);
}

/* Sorted by key, the last of a repeated key kept, then jsondiff.py's object hook. */
static void finish_object(jt_parser *ps, jt_value *v, jt_member *m, size_t n)
{
    size_t k = 0;
    if (n > 1)
        qsort(m, n, sizeof *m, cmp_member);
    for (size_t i = 0; i < n; ++i) {
        if (i + 1 < n && same_key(&m[i], &m[i + 1]))
            continue;
        if (ps->opt->strip_images && m[i].klen == 9 && !memcmp(m[i].key, "__class__", 9)) {
            v->type = JT_NULL;
            v->n = 0;
            return;
        }
        if (ps->opt->strip_images && is_dunder(&m[i]))
            continue;
        m[k++] = m[i];
    }
    v->n = k;
}

static int object(jt_parser *ps, jt_value *v, int depth)
{
    jt_member *m = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    ++ps->p;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == '}') {
        ++ps->p;
    } else {
        for (;;) {
            if (GT_GROW(m, cap, n + 1, 16) < 0) { rc = fail(ps, ps->p, "out of memory"); break; }
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != '"') { rc = fail(ps, ps->p, "a member name in quotes expected"); break; }
            if ((rc = string(ps, &m[n].key, &m[n].klen)) < 0)
                break;
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') { rc = fail(ps, ps->p, "':' expected after a member name"); break; }
            ++ps->p;
            m[n].pos = n;
            if ((rc = value(ps, &m[n].v, depth + 1)) < 0)
                break;
            ++n;
            skip_ws(ps);
            if (ps->p < ps->end && *ps->p == ',') { ++ps->p; continue; }
            if (ps->p < ps->end && *ps->p == '}') { ++ps->p; break; }
            rc = fail(ps, ps->p, "',' or '}' expected in an object");
            break;
        }
    }
    v->type = JT_OBJECT;
    if (rc == 0) {
        finish_object(ps, v, m, n);
        if (v->type == JT_OBJECT && (v->members = alloc(ps, v->n * sizeof *m)) != NULL) {
            if (v->n)
                memcpy(v->members, m, v->n * sizeof *m);
        }
        else if (v->type == JT_OBJECT)
            rc = -1;
    }
    free(m);
    return rc;
}

static int word(jt_parser *ps, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, w, n))
        return 0;
    ps->p += n;
    return 1;
}

static int value(jt_parser *ps, jt_value *v, int depth)
{
    memset(v, 0, sizeof *v);
    if (depth > JT_MAX_DEPTH)
        return fail(ps, ps->p, "nested deeper than 1000 levels");
    skip_ws(ps);
    if (ps->p >= ps->end)
        return fail(ps, ps->p, "a value was expected, the file ends");
    switch (*ps->p) {
    case '{': return object(ps, v, depth);
    case '[': return array(ps, v, depth);
    case '"': v->type = JT_STRING; return string(ps, &v->s, &v->n);
    default: break;
    }
    if (word(ps, "null")) { v->type = JT_NULL; return 0; }
    if (word(ps, "true")) { v->type = JT_TRUE; return 0; }
    if (word(ps, "false")) { v->type = JT_FALSE; return 0; }
    v->type = JT_FLOAT;
    if (word(ps, "NaN")) { v->d = NAN; return 0; }
    if (word(ps, "Infinity")) { v->d = INFINITY; return 0; }
    if (word(ps, "-Infinity")) { v->d = -INFINITY; return 0; }
    return number(ps, v);
}

static int read_file(const char *path, char **data, size_t *size, gt_error *err)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 0, n = 0;
    *data = NULL;
    if (!f) {
        gt_error_set(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    for (;;) {
        if (GT_GROW(*data, cap, n + 65536, 65536) < 0) {
            gt_error_set(err, "%s: out of memory reading it", path);
            break;
        }
        size_t got = fread(*data + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                gt_error_set(err, "%s: cannot read: %s", path, strerror(errno));
            else {
                fclose(f);
                *size = n;
                return 0;
            }
            break;
        }
    }
    fclose(f);
    free(*data);
    *data = NULL;
    return -1;
}

int jt_load(const char *path, const jt_options *opt, gt_arena *arena, jt_value *root, gt_error *err)
{
    char *data;
    size_t size;
    if (read_file(path, &data, &size, err) < 0)
        return -1;
    jt_parser ps = {data, data + size, data, path, arena, opt, err};
    int rc = value(&ps, root, 0);
    if (rc == 0) {
        skip_ws(&ps);
        if (ps.p < ps.end)
            rc = fail(&ps, ps.p, "extra data after the JSON value");
    }
    free(data);
    return rc;
}

/* ---- printing as Python does -------------------------------------------------------------- */

void jt_print_float(gt_strbuf *b, double d)
{
    if (isnan(d)) { gt_strbuf_puts(b, "NaN"); return; }
    if (isinf(d)) { gt_strbuf_puts(b, d > 0 ? "Infinity" : "-Infinity"); return; }
    char e[40], digits[24];
    int prec = 1;
    for (; prec < 17; ++prec) { /* the shortest text that reads back as d: repr's digits */
        snprintf(e, sizeof e, "%.*e", prec - 1, d);
        if (strtod(e, NULL) == d)
            break;
    }
    snprintf(e, sizeof e, "%.*e", prec - 1, d);
    const char *q = e;
    size_t nd = 0;
    if (*q == '-') { gt_strbuf_putc(b, '-'); ++q; }
    for (; *q && *q != 'e'; ++q)
        if (*q != '.')
            digits[nd++] = *q;
    while (nd > 1 && digits[nd - 1] == '0') /* %.Ne pads; repr does not */
        --nd;
    int exp = atoi(q + 1);
    if (exp < -4 || exp >= 16) { /* d.ddde+XX */
        gt_strbuf_putc(b, digits[0]);
        if (nd > 1) { gt_strbuf_putc(b, '.'); gt_strbuf_put(b, digits + 1, nd - 1); }
        gt_strbuf_printf(b, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
        return;
    }
    if (exp < 0) {
        gt_strbuf_puts(b, "0.");
        for (int k = -1; k > exp; --k)
            gt_strbuf_putc(b, '0');
        gt_strbuf_put(b, digits, nd);
        return;
    }
    for (int k = 0; k <= exp; ++k)
        gt_strbuf_putc(b, (size_t)k < nd ? digits[k] : '0');
    gt_strbuf_putc(b, '.');
    if ((size_t)exp + 1 < nd)
        gt_strbuf_put(b, digits + exp + 1, nd - (size_t)exp - 1);
    else
        gt_strbuf_putc(b, '0');
}

/* Decodes one UTF-8 sequence at s (n > 0 bytes): its code point, *len bytes; a byte
 * that starts none is U+FFFD, one byte. */
static uint32_t utf8_at(const unsigned char *s, size_t n, size_t *len)
{
    size_t need = s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
    if (s[0] >= 0xf5)
        need = 0;
    *len = 1;
    if (s[0] < 0x80)
        return s[0];
    if (!need || n < need)
        return 0xfffd;
    uint32_t cp = s[0] & (0x3f >> (need - 1));
    for (size_t k = 1; k < need; ++k) {
        if ((s[k] & 0xc0) != 0x80)
            return 0xfffd;
        cp = cp << 6 | (s[k] & 0x3f);
    }
    *len = need;
    return cp;
}

/* json.dumps of a str with ensure_ascii. */
static void print_string(gt_strbuf *b, const char *s, size_t n)
{
    gt_strbuf_putc(b, '"');
    for (size_t i = 0; i < n;) {
        size_t len;
        uint32_t cp = utf8_at((const unsigned char *)s + i, n - i, &len);
        i += len;
        switch (cp) {
        case '"': gt_strbuf_puts(b, "\\\""); continue;
        case '\\': gt_strbuf_puts(b, "\\\\"); continue;
        case '\n': gt_strbuf_puts(b, "\\n"); continue;
        case '\r': gt_strbuf_puts(b, "\\r"); continue;
        case '\t': gt_strbuf_puts(b, "\\t"); continue;
        case '\b': gt_strbuf_puts(b, "\\b"); continue;
        case '\f': gt_strbuf_puts(b, "\\f"); continue;
        default: break;
        }
        if (cp >= 0x20 && cp < 0x7f)
            gt_strbuf_putc(b, (char)cp);
        else if (cp < 0x10000)
            gt_strbuf_printf(b, "\\u%04x", (unsigned)cp);
        else
            gt_strbuf_printf(b, "\\u%04x\\u%04x", (unsigned)(0xd800 + ((cp - 0x10000) >> 10)),
                             (unsigned)(0xdc00 + ((cp - 0x10000) & 0x3ff)));
    }
    gt_strbuf_putc(b, '"');
}

void jt_print_scalar(gt_strbuf *b, const jt_value *v)
{
    switch (v->type) {
    case JT_NULL: gt_strbuf_puts(b, "null"); break;
    case JT_TRUE: gt_strbuf_puts(b, "true"); break;
    case JT_FALSE: gt_strbuf_puts(b, "false"); break;
    case JT_INT:
        if (v->int_big)
            gt_strbuf_put(b, v->s, v->n);
        else
            gt_strbuf_i64(b, v->i);
        break;
    case JT_FLOAT: jt_print_float(b, v->d); break;
    case JT_STRING: print_string(b, v->s, v->n); break;
    default: break;
    }
}
