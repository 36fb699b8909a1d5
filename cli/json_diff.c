/* json_diff.h: jsondiff.py's Comparer, Differ and Dumper, visit for visit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_diff.h"
#include "text_differ.h"

#define TOLERANCE (1.0 / 16777216.0) /* 2 ** -24 */

typedef struct jd {
    gt_strbuf *out;
    int level;
    int ignore_added;
    int oom;
} jd;

static const jt_value null_value = {.type = JT_NULL};

/* Python's view of a scalar as a number (bool is an int there): 1, or 0 for none. */
static int as_number(const jt_value *v, double *d, int *is_float)
{
    *is_float = v->type == JT_FLOAT;
    switch (v->type) {
    case JT_TRUE: *d = 1; return 1;
    case JT_FALSE: *d = 0; return 1;
    case JT_INT: case JT_FLOAT: *d = v->d; return 1;
    default: return 0;
    }
}

static const jt_value *member(const jt_value *obj, const jt_member *key)
{
    size_t lo = 0, hi = obj->n;
    while (lo < hi) { /* members are sorted by key */
        size_t mid = (lo + hi) / 2;
        const jt_member *m = &obj->members[mid];
        size_t n = m->klen < key->klen ? m->klen : key->klen;
        int c = memcmp(m->key, key->key, n);
        if (!c)
            c = m->klen < key->klen ? -1 : m->klen > key->klen;
        if (!c)
            return &m->v;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int equal(const jd *d, const jt_value *a, const jt_value *b);

/* Comparer.visitValue: Python's ==, but floats within the tolerance. */
static int equal_scalar(const jt_value *a, const jt_value *b)
{
    double x, y;
    int xf, yf;
    int xn = as_number(a, &x, &xf), yn = as_number(b, &y, &yf);
    if (xn && yn && (xf || yf)) {
        if (x == y || (isnan(x) && isnan(y))) /* json's NaN is one object: `a is b` */
            return 1;
        return x == 0 ? fabs(y) < TOLERANCE : fabs((y - x) / x) < TOLERANCE;
    }
    if (xn && yn) {
        if (a->type == JT_INT && b->type == JT_INT && (a->int_big || b->int_big))
            return a->int_big && b->int_big && a->n == b->n && !memcmp(a->s, b->s, a->n);
        if (a->type == JT_INT && b->type == JT_INT)
            return a->i == b->i;
        return x == y;
    }
    if (a->type != b->type)
        return 0;
    if (a->type == JT_STRING)
        return a->n == b->n && !memcmp(a->s, b->s, a->n);
    return a->type == JT_NULL;
}

static int equal(const jd *d, const jt_value *a, const jt_value *b)
{
    if (a->type == JT_OBJECT) {
        if (b->type != JT_OBJECT)
            return 0;
        if (!d->ignore_added && a->n != b->n)
            return 0;
        for (size_t i = 0; i < a->n; ++i) {
            const jt_value *be = member(b, &a->members[i]);
            if (!be || !equal(d, &a->members[i].v, be))
                return 0;
        }
        return 1; /* (without ignore_added, same count and every key found: same keys) */
    }
    if (a->type == JT_ARRAY) {
        if (b->type != JT_ARRAY || a->n != b->n)
            return 0;
        for (size_t i = 0; i < a->n; ++i)
            if (!equal(d, &a->items[i], &b->items[i]))
                return 0;
        return 1;
    }
    if (b->type == JT_OBJECT || b->type == JT_ARRAY)
        return 0;
    return equal_scalar(a, b);
}

/* ---- Dumper -------------------------------------------------------------------------------- */

static void indent(jd *d)
{
    for (int i = 0; i < d->level; ++i)
        gt_strbuf_puts(d->out, "  ");
}

static void dump(jd *d, const jt_value *v);

static void enter_object(jd *d) { gt_strbuf_puts(d->out, "{\n"); ++d->level; }
static void leave_object(jd *d)
{
    --d->level;
    indent(d);
    gt_strbuf_putc(d->out, '}');
    if (d->level <= 0)
        gt_strbuf_putc(d->out, '\n');
}
static void enter_member(jd *d, const jt_member *m)
{
    indent(d);
    gt_strbuf_put(d->out, m->key, m->klen);
    gt_strbuf_puts(d->out, ": ");
}
static void leave_member(jd *d, int last) { gt_strbuf_puts(d->out, last ? "\n" : ",\n"); }
static void enter_array(jd *d) { gt_strbuf_puts(d->out, "[\n"); ++d->level; }
static void leave_array(jd *d) { --d->level; indent(d); gt_strbuf_putc(d->out, ']'); }

static void dump(jd *d, const jt_value *v)
{
    if (v->type == JT_OBJECT) {
        enter_object(d);
        for (size_t i = 0; i < v->n; ++i) {
            enter_member(d, &v->members[i]);
            dump(d, &v->members[i].v);
            leave_member(d, i + 1 == v->n);
        }
        leave_object(d);
    } else if (v->type == JT_ARRAY) {
        enter_array(d);
        for (size_t i = 0; i < v->n; ++i) {
            indent(d);
            dump(d, &v->items[i]);
            gt_strbuf_puts(d->out, i + 1 == v->n ? "\n" : ",\n");
        }
        leave_array(d);
    } else {
        jt_print_scalar(d->out, v);
    }
}

/* ---- Differ -------------------------------------------------------------------------------- */

static int multiline(const jt_value *v)
{
    return v->type == JT_STRING && memchr(v->s, '\n', v->n) != NULL;
}

/* Python's str() of a value set beside a multi-line string. */
static void py_str(gt_strbuf *b, const jt_value *v)
{
    switch (v->type) {
    case JT_STRING: gt_strbuf_put(b, v->s, v->n); break;
    case JT_NULL: gt_strbuf_puts(b, "None"); break;
    case JT_TRUE: gt_strbuf_puts(b, "True"); break;
    case JT_FALSE: gt_strbuf_puts(b, "False"); break;
    case JT_FLOAT:
        if (isnan(v->d) || isinf(v->d))
            gt_strbuf_puts(b, isnan(v->d) ? "nan" : v->d > 0 ? "inf" : "-inf");
        else
            jt_print_float(b, v->d);
        break;
    default: jt_print_scalar(b, v); break; /* (containers: not Python's repr) */
    }
}

/* One line of a changed multi-line string, as jsondiff.py prints Differ's lines. */
static void text_line(void *ctx, char tag, const char *text, size_t len)
{
    jd *d = ctx;
    gt_strbuf_putc(d->out, '\n');
    indent(d);
    if (tag == '?') { /* a hint line: its marks, after three blanks */
        gt_strbuf_puts(d->out, "   ");
        gt_strbuf_put(d->out, text, len);
        return;
    }
    gt_strbuf_putc(d->out, tag);
    gt_strbuf_puts(d->out, " \"");
    gt_strbuf_put(d->out, text, len);
    gt_strbuf_puts(d->out, "\\n\"");
}

/* The two values' texts (str()) compared line by line (text_differ.h). */
static void replace_text(jd *d, const jt_value *a, const jt_value *b)
{
    gt_strbuf sa, sb;
    gt_strbuf_init(&sa);
    gt_strbuf_init(&sb);
    py_str(&sa, a);
    py_str(&sb, b);
    ++d->level;
    if (sa.oom || sb.oom || td_compare(sa.data, sa.len, sb.data, sb.len, text_line, d) < 0)
        d->oom = 1;
    --d->level;
    gt_strbuf_free(&sa);
    gt_strbuf_free(&sb);
}

static void replace(jd *d, const jt_value *a, const jt_value *b)
{
    if (multiline(a) || multiline(b)) {
        replace_text(d, a, b);
        return;
    }
    dump(d, a);
    gt_strbuf_puts(d->out, " -> ");
    dump(d, b);
}

static void visit(jd *d, const jt_value *a, const jt_value *b);

/* The names of both objects (or a's only), merged in order. */
static void visit_object(jd *d, const jt_value *a, const jt_value *b)
{
    size_t i = 0, j = 0, total = 0;
    for (size_t x = 0, y = 0; x < a->n || (!d->ignore_added && y < b->n); ++total) {
        const jt_member *ma = x < a->n ? &a->members[x] : NULL;
        const jt_member *mb = !d->ignore_added && y < b->n ? &b->members[y] : NULL;
        int c = !ma ? 1 : !mb ? -1 : 0;
        if (ma && mb) {
            size_t n = ma->klen < mb->klen ? ma->klen : mb->klen;
            c = memcmp(ma->key, mb->key, n);
            c = c ? c : ma->klen < mb->klen ? -1 : ma->klen > mb->klen;
        }
        x += c <= 0;
        y += c >= 0;
    }
    enter_object(d);
    for (size_t k = 0; k < total; ++k) {
        const jt_member *ma = i < a->n ? &a->members[i] : NULL;
        const jt_member *mb = !d->ignore_added && j < b->n ? &b->members[j] : NULL;
        int c = !ma ? 1 : !mb ? -1 : 0;
        if (ma && mb) {
            size_t n = ma->klen < mb->klen ? ma->klen : mb->klen;
            c = memcmp(ma->key, mb->key, n);
            c = c ? c : ma->klen < mb->klen ? -1 : ma->klen > mb->klen;
        }
        const jt_member *name = c <= 0 ? ma : mb;
        const jt_value *ae = c <= 0 ? &ma->v : &null_value;
        const jt_value *be = c >= 0 ? &mb->v : member(b, name);
        if (!be)
            be = &null_value;
        i += c <= 0;
        j += c >= 0;
        if (!equal(d, ae, be)) {
            enter_member(d, name);
            visit(d, ae, be);
            leave_member(d, k + 1 == total);
        }
    }
    leave_object(d);
}

static void visit_array(jd *d, const jt_value *a, const jt_value *b)
{
    size_t n = a->n > b->n ? a->n : b->n;
    enter_array(d);
    for (size_t i = 0; i < n; ++i) {
        const jt_value *ae = i < a->n ? &a->items[i] : &null_value;
        const jt_value *be = i < b->n ? &b->items[i] : &null_value;
        indent(d);
        if (equal(d, ae, be))
            dump(d, ae);
        else
            visit(d, ae, be);
        gt_strbuf_puts(d->out, i + 1 == n ? "\n" : ",\n");
    }
    leave_array(d);
}

static void visit(jd *d, const jt_value *a, const jt_value *b)
{
    if (equal(d, a, b))
        return;
    if (a->type == JT_OBJECT && b->type == JT_OBJECT)
        visit_object(d, a, b);
    else if (a->type == JT_ARRAY && b->type == JT_ARRAY)
        visit_array(d, a, b);
    else
        replace(d, a, b);
}

int jd_diff(gt_strbuf *out, const jt_value *a, const jt_value *b, const jd_options *o, int *differ)
{
    jd d = {.out = out, .ignore_added = o->ignore_added};
    *differ = !equal(&d, a, b);
    visit(&d, a, b);
    return d.oom || out->oom ? -1 : 0;
}
