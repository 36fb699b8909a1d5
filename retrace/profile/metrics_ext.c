/* The counter backends' common part (metrics_ext.h): the selection, the passes' values
 * and apitrace's listing and output; what differs is in metrics_amd.c and
 * metrics_intel.c. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "metrics_ext.h"

static const char *const type_names[] = {"CNT_TYPE_GENERIC", "CNT_TYPE_NUM",
                                         "CNT_TYPE_DURATION", "CNT_TYPE_PERCENT",
                                         "CNT_TYPE_TIMESTAMP", "CNT_TYPE_OTHER"};
static const char *const num_names[] = {"CNT_NUM_UINT",   "CNT_NUM_FLOAT", "CNT_NUM_UINT64",
                                        "CNT_NUM_DOUBLE", "CNT_NUM_BOOL",  "CNT_NUM_INT64"};

mx_ext *mx_ext_new(int which, const mx_gl *gl)
{
    mx_ext *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->ops = which == MX_AMD ? &mx_amd_ops : &mx_intel_ops;
    e->gl = gl;
    return e;
}

static void free_counters(mx_counter *c, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        free(c[i].name);
    free(c);
}

void mx_ext_free(mx_ext *e)
{
    if (!e)
        return;
    for (int b = 0; b < METRICS_BOUNDARIES; ++b)
        free_counters(e->on[b], e->non[b]);
    for (size_t i = 0; i < e->npasses; ++i) {
        free_counters(e->passes[i].c, e->passes[i].n);
        free(e->passes[i].v);
        free(e->passes[i].have);
    }
    free(e->passes);
    free_counters(e->lookup, e->nlookup);
    free(e);
}

const char *mx_ext_name(const mx_ext *e) { return e->ops->name; }

bool mx_ext_supported(const mx_ext *e) { return e->gl->has_extension(e->ops->name); }

/* ---- listing and names ----------------------------------------------------------- */

static void list_group(mx_ext *e, unsigned g, FILE *out)
{
    char *gname = e->ops->group_name(e, g);
    fprintf(out, "\n  Group #%u: %s.\n", g, gname ? gname : "");
    free(gname);
    unsigned *ids = NULL;
    size_t n = 0;
    if (e->ops->counters(e, g, &ids, &n) != 0)
        return;
    for (size_t i = 0; i < n; ++i) {
        mx_counter c = {.group = g, .id = ids[i]};
        e->ops->describe(e, &c);
        char *desc = e->ops->description(e, &c);
        fprintf(out, "    Metric #%u: %s (type: %s, num. type: %s).\n"
                     "           Description: %s\n",
                c.id, c.name ? c.name : "", type_names[c.type], num_names[c.num],
                desc ? desc : "");
        free(desc);
        free(c.name);
    }
    free(ids);
}

void mx_ext_list(mx_ext *e, FILE *out)
{
    fprintf(out, "\nBackend %s:\n", e->ops->name);
    unsigned *groups = NULL;
    size_t n = 0;
    if (e->ops->groups(e, &groups, &n) == 0)
        for (size_t i = 0; i < n; ++i)
            list_group(e, groups[i], out);
    free(groups);
    fputc('\n', out);
}

/* Every counter, in the driver's order (apitrace's nameLookup: a later one of the same
 * name wins). */
static void build_lookup(mx_ext *e)
{
    e->looked_up = true;
    unsigned *groups = NULL;
    size_t ng = 0, cap = 0;
    if (e->ops->groups(e, &groups, &ng) != 0)
        return;
    for (size_t g = 0; g < ng; ++g) {
        unsigned *ids = NULL;
        size_t n = 0;
        if (e->ops->counters(e, groups[g], &ids, &n) != 0)
            continue;
        for (size_t i = 0; i < n; ++i) {
            if (GT_GROW(e->lookup, cap, e->nlookup + 1, 64) != 0)
                break;
            mx_counter *c = &e->lookup[e->nlookup];
            memset(c, 0, sizeof *c);
            c->group = groups[g];
            c->id = ids[i];
            e->ops->describe(e, c);
            e->nlookup++;
        }
        free(ids);
    }
    free(groups);
}

static bool enable(mx_ext *e, metrics_boundary b, unsigned g, unsigned id, const char *shown,
                   int shown_len)
{
    int error = e->ops->check(e, b, g, id);
    if (error == 0 && GT_GROW(e->on[b], e->capon[b], e->non[b] + 1, 8) != 0)
        error = 1;
    if (error) {
        fprintf(stderr, "Warning: Metric %.*s not enabled (error %d).\n", shown_len, shown,
                error);
        return false;
    }
    mx_counter *c = &e->on[b][e->non[b]++];
    memset(c, 0, sizeof *c);
    c->group = g;
    c->id = id;
    e->ops->describe(e, c); /* now: the context may change before the output */
    return true;
}

bool mx_ext_enable_name(mx_ext *e, metrics_boundary b, const char *name, size_t len)
{
    if (!e->looked_up)
        build_lookup(e);
    const mx_counter *found = NULL;
    for (size_t i = 0; i < e->nlookup; ++i)
        if (e->lookup[i].name && strlen(e->lookup[i].name) == len &&
            !memcmp(e->lookup[i].name, name, len))
            found = &e->lookup[i];
    if (!found) {
        fprintf(stderr, "Warning: No metric \"%.*s\".\n", (int)len, name);
        return false;
    }
    return enable(e, b, found->group, found->id, name, (int)len);
}

bool mx_ext_enable_id(mx_ext *e, metrics_boundary b, unsigned group, unsigned id,
                      const char *shown)
{
    return enable(e, b, group, id, shown, (int)strlen(shown));
}

/* ---- passes ---------------------------------------------------------------------- */

mx_pass *mx_ext_new_pass(mx_ext *e, metrics_boundary b)
{
    if (GT_GROW(e->passes, e->cappasses, e->npasses + 1, 4) != 0)
        return NULL;
    mx_pass *p = &e->passes[e->npasses++];
    memset(p, 0, sizeof *p);
    p->b = b;
    return p;
}

int mx_pass_add(mx_pass *p, const mx_counter *c)
{
    if (GT_GROW(p->c, p->cap, p->n + 1, 8) != 0)
        return -1;
    mx_counter *d = &p->c[p->n];
    *d = *c;
    d->name = c->name ? strdup(c->name) : NULL;
    p->n++;
    return 0;
}

unsigned mx_ext_gen_passes(mx_ext *e)
{
    e->ops->plan(e, METRICS_FRAME, e->on[METRICS_FRAME], e->non[METRICS_FRAME]);
    e->ops->plan(e, METRICS_DRAWCALL, e->on[METRICS_DRAWCALL], e->non[METRICS_DRAWCALL]);
    free_counters(e->lookup, e->nlookup); /* apitrace's nameLookup.clear() */
    e->lookup = NULL;
    e->nlookup = 0;
    return (unsigned)e->npasses;
}

void mx_ext_begin_pass(mx_ext *e, unsigned local)
{
    e->cur = local;
    e->querying = e->unread = e->started = false;
    if (local < e->npasses && mx_ext_supported(e)) {
        e->ops->start(e);
        e->started = true;
    }
}

void mx_ext_end_pass(mx_ext *e)
{
    if (e->started) {
        if (e->querying)
            e->ops->end(e, false);
        e->ops->stop(e);
    }
    e->started = e->querying = false;
}

void mx_ext_pause(mx_ext *e)
{
    if (!e->started)
        return;
    if (e->querying) /* apitrace ignores the data of the query in progress */
        e->ops->end(e, false);
    e->querying = false;
    e->ops->stop(e);
    e->started = false;
}

void mx_ext_resume(mx_ext *e)
{
    if (e->started || e->cur >= e->npasses || !mx_ext_supported(e))
        return;
    e->ops->start(e);
    e->started = true;
}

void mx_ext_begin_query(mx_ext *e, metrics_boundary b, size_t event)
{
    if (!e->started || e->querying || e->passes[e->cur].b != b)
        return;
    e->event = event;
    e->ops->begin(e);
    e->querying = true;
}

void mx_ext_end_query(mx_ext *e, metrics_boundary b)
{
    if (!e->started || !e->querying || e->passes[e->cur].b != b)
        return;
    e->querying = false;
    e->ops->end(e, true);
}

uint64_t *mx_ext_values(mx_ext *e, size_t event)
{
    mx_pass *p = &e->passes[e->cur];
    if (event >= p->nev) {
        size_t n = p->n ? p->n : 1;
        if (GT_GROW(p->have, p->capev, event + 1, 256) != 0 ||
            GT_GROW(p->v, p->capv, (event + 1) * n, 256) != 0)
            return NULL;
        memset(p->have + p->nev, 0, event + 1 - p->nev);
        p->nev = event + 1;
    }
    p->have[event] = 1;
    return p->v + event * p->n;
}

/* ---- output ---------------------------------------------------------------------- */

void mx_ext_write_header(const mx_ext *e, metrics_boundary b, FILE *out)
{
    for (size_t j = 0; j < e->npasses; ++j)
        if (e->passes[j].b == b)
            for (size_t i = 0; i < e->passes[j].n; ++i)
                fprintf(out, "\t%s", e->passes[j].c[i].name ? e->passes[j].c[i].name : "");
}

/* As apitrace's writer prints a value through the pointer of its num type. */
static void write_value(mx_num num, uint64_t bits, FILE *out)
{
    float f;
    double d;
    uint32_t u = (uint32_t)bits;
    switch (num) {
    case MX_FLOAT:
        memcpy(&f, &u, sizeof f);
        fprintf(out, "\t%g", (double)f);
        break;
    case MX_DOUBLE:
        memcpy(&d, &bits, sizeof d);
        fprintf(out, "\t%g", d);
        break;
    case MX_BOOL: fprintf(out, "\t%d", (bits & 0xff) != 0); break;
    case MX_UINT64: fprintf(out, "\t%" PRIu64, bits); break;
    case MX_INT64: fprintf(out, "\t%" PRId64, (int64_t)bits); break;
    default: fprintf(out, "\t%" PRIu32, u); break;
    }
}

void mx_ext_write_values(const mx_ext *e, metrics_boundary b, size_t event, FILE *out)
{
    for (size_t j = 0; j < e->npasses; ++j) {
        const mx_pass *p = &e->passes[j];
        if (p->b != b)
            continue;
        bool have = event < p->nev && p->have[event];
        for (size_t i = 0; i < p->n; ++i)
            if (have)
                write_value(p->c[i].num, p->v[event * p->n + i], out);
            else
                fputs("\t-", out);
    }
}
