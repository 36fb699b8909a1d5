/* JSON writer of the state dump; see state_json.h. */
#include "state_json.h"

#include <math.h>
#include <stdio.h>

#include "gt_json.h"

void sj_init(sj *w, gt_strbuf *b)
{
    w->b = b;
    w->depth = 0;
    w->first[0] = true;
    w->array[0] = false;
}

static void indent(sj *w)
{
    gt_strbuf_put(w->b, "\n", 1);
    for (int i = 0; i < w->depth; ++i)
        gt_strbuf_put(w->b, "  ", 2);
}

/* Before a value: the separator an array element needs (members had theirs). */
static void value_start(sj *w)
{
    if (w->depth > 0 && w->array[w->depth]) {
        if (!w->first[w->depth])
            gt_strbuf_put(w->b, ", ", 2);
        w->first[w->depth] = false;
    }
}

static void sj_open(sj *w, bool array)
{
    value_start(w);
    gt_strbuf_put(w->b, array ? "[" : "{", 1);
    if (w->depth + 1 < SJ_MAX_DEPTH)
        w->depth++;
    w->first[w->depth] = true;
    w->array[w->depth] = array;
}

static void sj_close(sj *w, bool array)
{
    bool empty = w->first[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (!array && !empty)
        indent(w);
    gt_strbuf_put(w->b, array ? "]" : "}", 1);
    if (w->depth == 0)
        gt_strbuf_put(w->b, "\n", 1);
}

void sj_begin_object(sj *w) { sj_open(w, false); }
void sj_end_object(sj *w) { sj_close(w, false); }
void sj_begin_array(sj *w) { sj_open(w, true); }
void sj_end_array(sj *w) { sj_close(w, true); }

void sj_member(sj *w, const char *name)
{
    if (!w->first[w->depth])
        gt_strbuf_put(w->b, ",", 1);
    w->first[w->depth] = false;
    indent(w);
    gt_json_string(w->b, name, strlen(name));
    gt_strbuf_put(w->b, ": ", 2);
}

void sj_int(sj *w, int64_t v)
{
    value_start(w);
    gt_strbuf_i64(w->b, v);
}

void sj_uint(sj *w, uint64_t v)
{
    value_start(w);
    gt_strbuf_u64(w->b, v);
}

static void number(sj *w, double v, int digits)
{
    value_start(w);
    if (isnan(v))
        gt_strbuf_puts(w->b, "NaN");
    else if (isinf(v))
        gt_strbuf_puts(w->b, v < 0 ? "-Infinity" : "Infinity");
    else
        gt_strbuf_printf(w->b, "%.*g", digits, v);
}

void sj_float(sj *w, double v) { number(w, v, 7); }
void sj_double(sj *w, double v) { number(w, v, 16); }

void sj_string(sj *w, const char *s, size_t n)
{
    value_start(w);
    gt_json_string(w->b, s, n);
}

void sj_cstring(sj *w, const char *s) { sj_string(w, s, strlen(s)); }

void sj_bool(sj *w, bool v) { sj_cstring(w, v ? "GL_TRUE" : "GL_FALSE"); }

void sj_base64(sj *w, const uint8_t *d, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    value_start(w);
    if (gt_strbuf_reserve(w->b, (n + 2) / 3 * 4 + 2) != 0)
        return;
    char *o = w->b->data + w->b->len;
    *o++ = '"';
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (uint32_t)d[i + 1] << 8 | d[i + 2];
        *o++ = tab[v >> 18];
        *o++ = tab[(v >> 12) & 63];
        *o++ = tab[(v >> 6) & 63];
        *o++ = tab[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0);
        *o++ = tab[v >> 18];
        *o++ = tab[(v >> 12) & 63];
        *o++ = i + 1 < n ? tab[(v >> 6) & 63] : '=';
        *o++ = '=';
    }
    *o++ = '"';
    w->b->len = (size_t)(o - w->b->data);
}

void sj_child(const sj *w, sj *child, gt_strbuf *b)
{
    gt_strbuf_init(b);
    child->b = b;
    child->depth = w->depth + 1 < SJ_MAX_DEPTH ? w->depth + 1 : w->depth;
    child->first[child->depth] = true;
    child->array[child->depth] = false;
}

bool sj_splice(sj *w, const char *name, sj *child, bool keep_empty)
{
    bool empty = child->first[child->depth];
    if (!empty || keep_empty) {
        sj_member(w, name);
        sj_begin_object(w);
        gt_strbuf_put(w->b, child->b->data, child->b->len);
        w->first[w->depth] = empty;
        sj_end_object(w);
    }
    gt_strbuf_free(child->b);
    return !empty;
}
