#include "gt_frameranges.h"

#include <string.h>

static int bad(gt_error *err, const char *text, const char *at, const char *what)
{
    gt_error_set(err, "frame ranges \"%s\": offset %zu: %s", text, (size_t)(at - text), what);
    return -1;
}

/* A decimal number at *p (advanced past it): 0, or -1 when there is none or it is
 * too large. */
static int number(const char **p, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return -1;
    for (; *s >= '0' && *s <= '9'; ++s) {
        if (v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    *p = s;
    *out = v;
    return 0;
}

static int trigger_count(const char *text, gt_frameranges *out, gt_error *err)
{
    const char *p = text + 1;
    if (number(&p, &out->per_trigger) != 0 || out->per_trigger == 0)
        return bad(err, text, p, "expected a number of frames above 0 after '+'");
    if (*p)
        return bad(err, text, p, "\"+N\" stands alone");
    return 0;
}

int gt_frameranges_parse(const char *text, gt_frameranges *out, gt_error *err)
{
    memset(out, 0, sizeof *out);
    if (*text == '+')
        return trigger_count(text, out, err);
    const char *p = text;
    for (;;) {
        gt_framerange r;
        const char *at = p;
        if (number(&p, &r.first) != 0)
            return bad(err, text, p, "expected a frame number");
        r.last = r.first;
        if (*p == '-') {
            ++p;
            if (number(&p, &r.last) != 0)
                return bad(err, text, p, "expected the range's last frame after '-'");
            if (r.last < r.first)
                return bad(err, text, at, "the range ends before it starts");
        }
        if (out->n && r.first <= out->r[out->n - 1].last)
            return bad(err, text, at, "ranges must ascend without overlapping");
        if (out->n == GT_FRAMERANGES_MAX)
            return bad(err, text, at, "more than 64 ranges");
        out->r[out->n++] = r;
        if (*p == '\0')
            return 0;
        if (*p != ',')
            return bad(err, text, p, "expected ',' or the end");
        ++p;
    }
}
