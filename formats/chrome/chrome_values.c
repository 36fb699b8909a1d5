/* Numbers and ids of the Chrome reader: exact decimal microseconds to
 * nanoseconds, ids, pids and tids (chrome_reader.h). */
#include <stdio.h>
#include <string.h>

#include "chrome_reader_internal.h"

gt_tl_str cr_intern(cr_state *r, const gt_tl_bytes *s, size_t off)
{
    gt_tl_str id = gt_tl_intern(r->tl, s->p, s->len);
    if (id == (gt_tl_str)-1)
        cj_fail(&r->lx, off, "out of memory interning a string");
    return id;
}

int cr_integer(const gt_tl_bytes *text, uint64_t *mag, bool *neg)
{
    size_t i = 0;
    *neg = text->len > 0 && text->p[0] == '-';
    i = *neg;
    if (i >= text->len)
        return 0;
    uint64_t v = 0;
    for (; i < text->len; i++) {
        char c = text->p[i];
        if (c < '0' || c > '9')
            return 0;
        if (v > (UINT64_MAX - (uint64_t)(c - '0')) / 10)
            return 0;
        v = v * 10 + (uint64_t)(c - '0');
    }
    *mag = v;
    return 1;
}

/* Decimal text (JSON number grammar, already checked) times 1000, rounded
 * half away from zero to an integer: exact, no double in between. */
static int decimal_ns(const gt_tl_bytes *t, int64_t *out, bool *sub_ns)
{
    const char *p = t->p, *end = t->p + t->len;
    bool neg = p < end && *p == '-';
    p += neg;
    const char *digits = p;
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    const char *int_end = p, *frac_end = p;
    if (p < end && *p == '.') {
        ++p;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
        frac_end = p;
    }
    long exp = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        bool eneg = p < end && *p == '-';
        if (p < end && (*p == '-' || *p == '+'))
            p++;
        for (; p < end && *p >= '0' && *p <= '9'; p++)
            if (exp < 100000)
                exp = exp * 10 + (*p - '0');
        exp = eneg ? -exp : exp;
    }
    if (p != end || int_end == digits)
        return -1;
    /* power of ten of the first digit, in ns */
    long power = (long)(int_end - digits) - 1 + exp + 3;
    uint64_t acc = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    bool round = false;
    *sub_ns = false;
    for (const char *d = digits; d < frac_end; d++) {
        if (d == int_end)
            continue; /* the '.' */
        unsigned v = (unsigned)(*d - '0');
        if (power >= 0) {
            if (acc > (limit - v) / 10)
                return -1;
            acc = acc * 10 + v;
        } else {
            if (power == -1)
                round = v >= 5;
            if (v)
                *sub_ns = true;
        }
        power--;
    }
    for (; power >= 0 && acc; power--) /* trailing powers after the last digit */
        if (acc > limit / 10)
            return -1;
        else
            acc *= 10;
    if (round && acc++ == limit)
        return -1;
    *out = neg ? (int64_t)(0 - acc) : (int64_t)acc;
    return 0;
}

int cr_time_ns(cr_state *r, const cj_value *v, const char *what, int64_t *ns)
{
    char msg[80];
    gt_tl_bytes text = v->s;
    if (v->type == CJ_STRING) {
        snprintf(msg, sizeof msg, "%s is a string", what);
        if (cr_deviation(r, CRW_STRING_TS, v->off, msg) != 0)
            return -1;
        /* the text must be a JSON number itself */
        cj_lex sub = r->lx;
        sub.p = text.p;
        sub.pos = 0;
        sub.end = text.len;
        sub.err = NULL;
        cj_value num;
        if (text.len == 0 || cj_value_read(&sub, &num) != 0 || num.type != CJ_NUMBER ||
            sub.pos != text.len) {
            snprintf(msg, sizeof msg, "%s is not a number", what);
            return cj_fail(&r->lx, v->off, msg);
        }
    } else if (v->type != CJ_NUMBER) {
        snprintf(msg, sizeof msg, "%s is not a number", what);
        return cj_fail(&r->lx, v->off, msg);
    }
    bool sub_ns;
    if (decimal_ns(&text, ns, &sub_ns) != 0) {
        snprintf(msg, sizeof msg, "%s out of range", what);
        return cj_fail(&r->lx, v->off, msg);
    }
    if (sub_ns && r->strict) {
        snprintf(msg, sizeof msg, "%s has digits below a nanosecond", what);
        return cj_fail(&r->lx, v->off, msg);
    }
    return 0;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Hex text, with or without 0x: 1 if it is one of at most 16 digits. */
static int parse_hex(const gt_tl_bytes *s, uint64_t *out)
{
    size_t i = s->len > 2 && s->p[0] == '0' && (s->p[1] == 'x' || s->p[1] == 'X') ? 2 : 0;
    if (i == s->len || s->len - i > 16)
        return 0;
    uint64_t v = 0;
    for (; i < s->len; i++) {
        int d = hex_digit(s->p[i]);
        if (d < 0)
            return 0;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return 1;
}

static uint64_t fnv64(const gt_tl_bytes *s)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < s->len; i++)
        h = (h ^ (uint8_t)s->p[i]) * 1099511628211ull;
    return h;
}

int cr_id(cr_state *r, const cj_value *v, uint64_t *id)
{
    uint64_t mag;
    bool neg;
    if (v->type == CJ_NUMBER) {
        if (!cr_integer(&v->s, &mag, &neg) || (r->strict))
            return cj_fail(&r->lx, v->off, r->strict ? "id is not a \"0x...\" string" : "id is not an integer");
        *id = neg ? 0 - mag : mag;
        return 0;
    }
    if (v->type != CJ_STRING)
        return cj_fail(&r->lx, v->off, "id is not a string or a number");
    if (parse_hex(&v->s, id))
        return 0;
    if (cr_deviation(r, CRW_HASHED_ID, v->off, "id that is no hex number: hashed") != 0)
        return -1;
    *id = fnv64(&v->s);
    return 0;
}

int cr_all_digits(const gt_tl_bytes *s)
{
    for (uint32_t i = 0; i < s->len; i++)
        if (s->p[i] < '0' || s->p[i] > '9')
            return 0;
    return s->len > 0 && (s->len == 1 || s->p[0] != '0');
}

int cr_koid(cr_state *r, const cj_value *v, const char *what, uint64_t *koid, bool *synthetic)
{
    uint64_t mag;
    bool neg;
    char msg[64];
    *synthetic = false;
    if (v->type == CJ_NUMBER) {
        if (!cr_integer(&v->s, &mag, &neg) || (neg && r->strict)) {
            snprintf(msg, sizeof msg, "%s is not a whole number", what);
            return cj_fail(&r->lx, v->off, msg);
        }
        *koid = neg ? 0 - mag : mag;
        return 0;
    }
    if (v->type != CJ_STRING) {
        snprintf(msg, sizeof msg, "%s is not a number or a string", what);
        return cj_fail(&r->lx, v->off, msg);
    }
    if (cr_all_digits(&v->s) && cr_integer(&v->s, &mag, &neg)) {
        *koid = mag; /* our writer's form for koids beyond 2^32 */
        return 0;
    }
    if (r->strict) {
        snprintf(msg, sizeof msg, "%s is a string that is no number", what);
        return cj_fail(&r->lx, v->off, msg);
    }
    int added;
    cm_slot *s = chrome_map_get(&r->koids, v->s.p, v->s.len, &added);
    if (!s)
        return cj_fail(&r->lx, v->off, "out of memory");
    if (added) {
        s->value = CR_STR_KOID | ++r->next_koid;
        r->st.synthetic_ids++;
    }
    *koid = s->value;
    *synthetic = true;
    return 0;
}
