/* The GL_AMD_performance_monitor backend (metrics_ext.h), as apitrace's
 * MetricBackend_AMD_perfmon: groups and counters by the driver's ids and names, passes
 * made greedily in the selection's order (a counter joins the pass while a monitor of
 * the pass's counters still begins without GL_INVALID_OPERATION; frames' passes first),
 * one monitor per pass whose result is read when it is begun again (or at the pass's
 * end), as apitrace's single monitor. Differences: a counter that does not begin even
 * alone gets a pass of its own (apitrace loops forever there), and a result that never
 * becomes available is given up after ten seconds ("-"), where apitrace spins. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "metrics_ext.h"

static void clear_errors(const mx_gl *gl)
{
    for (int i = 0; i < 8 && gl->GetError() != GL_NO_ERROR; ++i)
        ;
}

static int amd_groups(mx_ext *e, unsigned **out, size_t *n)
{
    GLint num = 0;
    e->gl->GetPerfMonitorGroupsAMD(&num, 0, NULL);
    *n = 0;
    *out = NULL;
    if (num <= 0)
        return 0;
    GLuint *g = calloc((size_t)num, sizeof *g);
    if (!g)
        return -1;
    GLint got = num;
    e->gl->GetPerfMonitorGroupsAMD(&got, num, g);
    *out = g;
    *n = (size_t)(got > 0 && got < num ? got : num);
    return 0;
}

static int amd_counters(mx_ext *e, unsigned group, unsigned **out, size_t *n)
{
    GLint num = 0, max_active = 0;
    e->gl->GetPerfMonitorCountersAMD(group, &num, &max_active, 0, NULL);
    *n = 0;
    *out = NULL;
    if (num <= 0)
        return 0;
    GLuint *c = calloc((size_t)num, sizeof *c);
    if (!c)
        return -1;
    GLint got = num;
    e->gl->GetPerfMonitorCountersAMD(group, &got, &max_active, num, c);
    *out = c;
    *n = (size_t)num;
    return 0;
}

static char *amd_group_name(mx_ext *e, unsigned group)
{
    GLsizei len = 0;
    e->gl->GetPerfMonitorGroupStringAMD(group, 0, &len, NULL);
    char *s = calloc((size_t)(len > 0 ? len : 0) + 1, 1);
    if (s && len > 0)
        e->gl->GetPerfMonitorGroupStringAMD(group, len + 1, NULL, s);
    return s;
}

static GLenum counter_type(mx_ext *e, unsigned group, unsigned id)
{
    GLuint type = 0;
    e->gl->GetPerfMonitorCounterInfoAMD(group, id, GL_COUNTER_TYPE_AMD, &type);
    return type;
}

static int amd_describe(mx_ext *e, mx_counter *c)
{
    GLenum t = counter_type(e, c->group, c->id);
    c->num = t == GL_FLOAT || t == GL_PERCENTAGE_AMD ? MX_FLOAT
             : t == GL_UNSIGNED_INT64_AMD            ? MX_UINT64
                                                     : MX_UINT;
    c->type = t == GL_UNSIGNED_INT || t == GL_UNSIGNED_INT64_AMD || t == GL_FLOAT ? MX_GENERIC
              : t == GL_PERCENTAGE_AMD                                           ? MX_PERCENT
                                                                                 : MX_OTHER;
    GLsizei len = 0;
    e->gl->GetPerfMonitorCounterStringAMD(c->group, c->id, 0, &len, NULL);
    free(c->name);
    c->name = calloc((size_t)(len > 0 ? len : 0) + 1, 1);
    if (c->name && len > 0)
        e->gl->GetPerfMonitorCounterStringAMD(c->group, c->id, len + 1, NULL, c->name);
    return c->name ? 0 : -1;
}

static char *amd_description(mx_ext *e, const mx_counter *c)
{
    (void)e;
    (void)c;
    return strdup(""); /* the extension has none */
}

static int amd_check(mx_ext *e, metrics_boundary b, unsigned group, unsigned id)
{
    if (b == METRICS_CALL) /* apitrace measures draw calls and frames only */
        return 1;
    const mx_gl *gl = e->gl;
    GLuint monitor = 0;
    gl->GenPerfMonitorsAMD(1, &monitor);
    clear_errors(gl);
    gl->SelectPerfMonitorCountersAMD(monitor, GL_TRUE, group, 1, &id);
    GLenum err = gl->GetError();
    gl->DeletePerfMonitorsAMD(1, &monitor);
    return err == GL_INVALID_VALUE ? 1 : 0;
}

/* Whether a monitor of these counters begins (apitrace's testMetrics). */
static bool fits(mx_ext *e, const mx_pass *p)
{
    const mx_gl *gl = e->gl;
    GLuint monitor = 0;
    gl->GenPerfMonitorsAMD(1, &monitor);
    for (size_t i = 0; i < p->n; ++i) {
        GLuint id = p->c[i].id;
        gl->SelectPerfMonitorCountersAMD(monitor, GL_TRUE, p->c[i].group, 1, &id);
    }
    clear_errors(gl);
    gl->BeginPerfMonitorAMD(monitor);
    GLenum err = gl->GetError();
    gl->EndPerfMonitorAMD(monitor);
    gl->DeletePerfMonitorsAMD(1, &monitor);
    clear_errors(gl);
    return err != GL_INVALID_OPERATION;
}

static int amd_plan(mx_ext *e, metrics_boundary b, mx_counter *c, size_t n)
{
    size_t i = 0;
    while (i < n) {
        mx_pass *p = mx_ext_new_pass(e, b);
        if (!p || mx_pass_add(p, &c[i++]) != 0)
            return -1;
        while (i < n) {
            if (mx_pass_add(p, &c[i]) != 0)
                return -1;
            if (!fits(e, p)) {
                free(p->c[--p->n].name);
                break;
            }
            ++i;
        }
    }
    return 0;
}

static void amd_start(mx_ext *e)
{
    const mx_gl *gl = e->gl;
    mx_pass *p = &e->passes[e->cur];
    gl->GenPerfMonitorsAMD(1, &e->object);
    for (size_t i = 0; i < p->n; ++i) {
        GLuint id = p->c[i].id;
        gl->SelectPerfMonitorCountersAMD(e->object, GL_TRUE, p->c[i].group, 1, &id);
    }
    e->unread = false;
}

static double secs(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reads the result [group, counter, value]... into its counters' values. */
static void store(mx_ext *e, const GLuint *buf, size_t words, uint64_t *v)
{
    mx_pass *p = &e->passes[e->cur];
    size_t o = 0;
    while (o + 2 < words) {
        GLuint g = buf[o], id = buf[o + 1];
        o += 2;
        size_t i = 0;
        while (i < p->n && (p->c[i].group != g || p->c[i].id != id))
            ++i;
        if (i == p->n)
            return; /* a counter not selected: its size is unknown */
        size_t w = p->c[i].num == MX_UINT64 ? 2 : 1;
        if (o + w > words)
            return;
        uint64_t bits = 0;
        memcpy(&bits, buf + o, w * sizeof *buf);
        v[i] = bits;
        o += w;
    }
}

/* The monitor's last result, into its event's values (apitrace's freeMonitor). */
static void collect(mx_ext *e)
{
    const mx_gl *gl = e->gl;
    e->unread = false;
    gl->Flush();
    GLuint avail = 0;
    double t0 = secs();
    do {
        gl->GetPerfMonitorCounterDataAMD(e->object, GL_PERFMON_RESULT_AVAILABLE_AMD,
                                         sizeof avail, &avail, NULL);
    } while (!avail && secs() - t0 < 10.0);
    GLuint size = 0;
    if (avail)
        gl->GetPerfMonitorCounterDataAMD(e->object, GL_PERFMON_RESULT_SIZE_AMD, sizeof size,
                                         &size, NULL);
    if (!avail || size < sizeof(GLuint) || size > (1u << 24))
        return;
    GLuint *buf = calloc(size / sizeof *buf, sizeof *buf);
    GLint written = 0;
    if (buf)
        gl->GetPerfMonitorCounterDataAMD(e->object, GL_PERFMON_RESULT_AMD, (GLsizei)size, buf,
                                         &written);
    uint64_t *v = buf && written > 0 ? mx_ext_values(e, e->unread_event) : NULL;
    if (v)
        store(e, buf, (size_t)written / sizeof *buf, v);
    free(buf);
}

static void amd_stop(mx_ext *e)
{
    if (e->unread)
        collect(e);
    e->gl->DeletePerfMonitorsAMD(1, &e->object);
}

static void amd_begin(mx_ext *e)
{
    if (e->unread)
        collect(e);
    e->gl->BeginPerfMonitorAMD(e->object);
}

static void amd_end(mx_ext *e, bool keep)
{
    e->gl->EndPerfMonitorAMD(e->object);
    if (keep) {
        e->unread = true;
        e->unread_event = e->event;
    }
}

const mx_ext_ops mx_amd_ops = {
    "GL_AMD_performance_monitor",
    amd_groups,
    amd_counters,
    amd_group_name,
    amd_describe,
    amd_description,
    amd_check,
    amd_plan,
    amd_start,
    amd_stop,
    amd_begin,
    amd_end,
};
