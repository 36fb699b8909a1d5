/* The GL_INTEL_performance_query backend (metrics_ext.h), as apitrace's
 * MetricBackend_INTEL_perfquery: a group is a query (ids from glGetFirstPerfQueryIdINTEL),
 * its counters are numbered from 1; one pass per query whose counters are selected
 * (frames' queries first, each boundary's in ascending query id), its counters in the
 * selection's order; each event's data read as it ends (GL_PERFQUERY_WAIT_INTEL).
 * Difference: a counter is checked against its query's counter count (apitrace compares
 * the query id with it, refusing valid counters of queries numbered past their count). */
#include <stdlib.h>
#include <string.h>

#include "metrics_ext.h"

#define NAME_LEN 256  /* apitrace's INTEL_NAME_LENGTH */
#define DESC_LEN 1024 /* INTEL_DESC_LENGTH */
#define MAX_QUERIES 4096

static int intel_groups(mx_ext *e, unsigned **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    GLuint id = 0;
    e->gl->GetFirstPerfQueryIdINTEL(&id);
    size_t cap = 0;
    while (id && *n < MAX_QUERIES) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            unsigned *a = realloc(*out, cap * sizeof *a);
            if (!a)
                return -1;
            *out = a;
        }
        (*out)[(*n)++] = id;
        GLuint next = 0;
        e->gl->GetNextPerfQueryIdINTEL(id, &next);
        if (next == id)
            break;
        id = next;
    }
    return 0;
}

static GLuint counter_count(mx_ext *e, unsigned query, GLuint *data_size)
{
    GLuint size = 0, n = 0, instances = 0, caps = 0;
    e->gl->GetPerfQueryInfoINTEL(query, 0, NULL, &size, &n, &instances, &caps);
    if (data_size)
        *data_size = size;
    return n;
}

static int intel_counters(mx_ext *e, unsigned group, unsigned **out, size_t *n)
{
    GLuint num = counter_count(e, group, NULL);
    *out = NULL;
    *n = 0;
    if (!num)
        return 0;
    if (num > 65536)
        num = 65536;
    unsigned *c = calloc(num, sizeof *c);
    if (!c)
        return -1;
    for (GLuint i = 0; i < num; ++i)
        c[i] = i + 1;
    *out = c;
    *n = num;
    return 0;
}

static char *intel_group_name(mx_ext *e, unsigned group)
{
    char name[NAME_LEN] = "";
    GLuint size = 0, n = 0, instances = 0, caps = 0;
    e->gl->GetPerfQueryInfoINTEL(group, NAME_LEN, name, &size, &n, &instances, &caps);
    name[NAME_LEN - 1] = 0;
    return strdup(name);
}

static mx_num num_of(GLuint t)
{
    switch (t) {
    case GL_PERFQUERY_COUNTER_DATA_FLOAT_INTEL: return MX_FLOAT;
    case GL_PERFQUERY_COUNTER_DATA_DOUBLE_INTEL: return MX_DOUBLE;
    case GL_PERFQUERY_COUNTER_DATA_BOOL32_INTEL: return MX_BOOL;
    case GL_PERFQUERY_COUNTER_DATA_UINT64_INTEL: return MX_UINT64;
    default: return MX_UINT;
    }
}

static mx_type type_of(GLuint t)
{
    switch (t) {
    case GL_PERFQUERY_COUNTER_TIMESTAMP_INTEL: return MX_TIMESTAMP;
    case GL_PERFQUERY_COUNTER_EVENT_INTEL: return MX_NUM;
    case GL_PERFQUERY_COUNTER_DURATION_NORM_INTEL:
    case GL_PERFQUERY_COUNTER_DURATION_RAW_INTEL: return MX_DURATION;
    case GL_PERFQUERY_COUNTER_RAW_INTEL:
    case GL_PERFQUERY_COUNTER_THROUGHPUT_INTEL: return MX_GENERIC;
    default: return MX_OTHER;
    }
}

static int intel_describe(mx_ext *e, mx_counter *c)
{
    char name[NAME_LEN] = "";
    GLuint offset = 0, size = 0, type = 0, data_type = 0;
    GLuint64 max = 0;
    e->gl->GetPerfCounterInfoINTEL(c->group, c->id, NAME_LEN, name, 0, NULL, &offset, &size,
                                   &type, &data_type, &max);
    name[NAME_LEN - 1] = 0;
    c->offset = offset;
    c->located = true;
    c->num = num_of(data_type);
    c->type = type_of(type);
    free(c->name);
    c->name = strdup(name);
    return c->name ? 0 : -1;
}

static char *intel_description(mx_ext *e, const mx_counter *c)
{
    char desc[DESC_LEN] = "";
    GLuint offset = 0, size = 0, type = 0, data_type = 0;
    GLuint64 max = 0;
    e->gl->GetPerfCounterInfoINTEL(c->group, c->id, 0, NULL, DESC_LEN, desc, &offset, &size,
                                   &type, &data_type, &max);
    desc[DESC_LEN - 1] = 0;
    return strdup(desc);
}

static int intel_check(mx_ext *e, metrics_boundary b, unsigned group, unsigned id)
{
    if (b == METRICS_CALL) /* apitrace measures draw calls and frames only */
        return 1;
    for (int i = 0; i < 8 && e->gl->GetError() != GL_NO_ERROR; ++i)
        ;
    GLuint n = counter_count(e, group, NULL);
    GLenum err = e->gl->GetError();
    return err == GL_INVALID_VALUE || id < 1 || id > n ? 1 : 0;
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

static int intel_plan(mx_ext *e, metrics_boundary b, mx_counter *c, size_t n)
{
    if (!n)
        return 0;
    unsigned *q = malloc(n * sizeof *q);
    if (!q)
        return -1;
    for (size_t i = 0; i < n; ++i)
        q[i] = c[i].group;
    qsort(q, n, sizeof *q, cmp_unsigned);
    for (size_t k = 0; k < n; ++k) {
        if (k && q[k] == q[k - 1])
            continue;
        mx_pass *p = mx_ext_new_pass(e, b);
        if (!p)
            break;
        p->query = q[k];
        for (size_t i = 0; i < n; ++i)
            if (c[i].group == q[k])
                mx_pass_add(p, &c[i]);
    }
    free(q);
    return 0;
}

static void intel_start(mx_ext *e)
{
    e->object = 0;
    e->gl->CreatePerfQueryINTEL(e->passes[e->cur].query, &e->object);
}

static void intel_stop(mx_ext *e)
{
    e->gl->DeletePerfQueryINTEL(e->object);
}

static void intel_begin(mx_ext *e)
{
    e->gl->BeginPerfQueryINTEL(e->object);
}

/* One counter's value at its offset in the query's data. */
static uint64_t read_value(const mx_counter *c, const unsigned char *data, GLuint written)
{
    size_t w = c->num == MX_UINT64 || c->num == MX_DOUBLE ? 8 : 4;
    uint64_t bits = 0;
    if ((size_t)c->offset + w <= written)
        memcpy(&bits, data + c->offset, w);
    return bits;
}

static void intel_end(mx_ext *e, bool keep)
{
    const mx_gl *gl = e->gl;
    gl->EndPerfQueryINTEL(e->object);
    if (!keep)
        return;
    mx_pass *p = &e->passes[e->cur];
    GLuint size = 0;
    counter_count(e, p->query, &size);
    if (!size || size > (1u << 24))
        return;
    unsigned char *data = calloc(size, 1);
    if (!data)
        return;
    GLuint written = 0;
    gl->Flush();
    gl->GetPerfQueryDataINTEL(e->object, GL_PERFQUERY_WAIT_INTEL, (GLsizei)size, data,
                              &written);
    uint64_t *v = written ? mx_ext_values(e, e->event) : NULL;
    for (size_t i = 0; v && i < p->n; ++i)
        v[i] = read_value(&p->c[i], data, written > size ? size : written);
    free(data);
}

const mx_ext_ops mx_intel_ops = {
    "GL_INTEL_performance_query",
    intel_groups,
    intel_counters,
    intel_group_name,
    intel_describe,
    intel_description,
    intel_check,
    intel_plan,
    intel_start,
    intel_stop,
    intel_begin,
    intel_end,
};
