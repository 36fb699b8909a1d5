/* retrace/profile/metrics_ext.c, metrics_amd.c, metrics_intel.c: the counter backends
 * driven by a fake driver (llvmpipe offers neither extension): names and ids, apitrace's
 * checks, the passes (AMD: greedy while a monitor begins; INTEL: one per query, frames'
 * first), values per event by their types, "-" for events dropped at a context switch,
 * --list-metrics' layout, and a selection naming several backends (metrics_select.c:
 * apitrace's order of backends, their passes in turn, the output's columns). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "metrics_ext.h"
#include "metrics_internal.h"

/* ---- the fake driver --------------------------------------------------------------- */

typedef struct fcounter {
    GLuint id;
    const char *name;
    GLenum type; /* AMD: GL_UNSIGNED_INT...; INTEL: the data type */
    GLuint offset;
} fcounter;

typedef struct fgroup {
    GLuint id;
    const char *name;
    int max_active; /* AMD: counters of the group a monitor may hold */
    GLuint data_size; /* INTEL */
    fcounter c[4];
    int n;
} fgroup;

static const fgroup amd_groups[] = {
    {1, "GRBM", 1, 0,
     {{1, "GPU busy", GL_UNSIGNED_INT, 0}, {2, "Shader busy", GL_PERCENTAGE_AMD, 0}}, 2},
    {5, "Memory", 2, 0, {{7, "Bytes", GL_UNSIGNED_INT64_AMD, 0}, {8, "Busy", GL_FLOAT, 0}}, 2},
};
static const fgroup intel_queries[] = {
    {1, "Render Basic", 0, 24,
     {{1, "Clocks", GL_PERFQUERY_COUNTER_DATA_UINT32_INTEL, 0},
      {2, "Bytes", GL_PERFQUERY_COUNTER_DATA_UINT64_INTEL, 8},
      {3, "Busy", GL_PERFQUERY_COUNTER_DATA_FLOAT_INTEL, 16}}, 3},
    {2, "Compute", 0, 12,
     {{1, "Ratio", GL_PERFQUERY_COUNTER_DATA_DOUBLE_INTEL, 0},
      {2, "Stalled", GL_PERFQUERY_COUNTER_DATA_BOOL32_INTEL, 8}}, 2},
};

#define MAX_SEL 16
static struct {
    GLenum error;
    GLuint sel_group[MAX_SEL], sel_id[MAX_SEL];
    int nsel;
    int begun;         /* monitors or queries begun: each result's values come from it */
    int live;          /* objects not deleted */
    bool no_intel;     /* the context lacks GL_INTEL_performance_query */
    GLuint query;      /* INTEL: the query of the handle */
} f;

static const fgroup *find_group(const fgroup *g, size_t n, GLuint id)
{
    for (size_t i = 0; i < n; ++i)
        if (g[i].id == id)
            return &g[i];
    return NULL;
}

static const fcounter *find_counter(const fgroup *g, GLuint id)
{
    for (int i = 0; g && i < g->n; ++i)
        if (g->c[i].id == id)
            return &g->c[i];
    return NULL;
}

#define NAMD (sizeof amd_groups / sizeof amd_groups[0])
#define NINTEL (sizeof intel_queries / sizeof intel_queries[0])

static bool f_has_extension(const char *name)
{
    return !f.no_intel || strcmp(name, "GL_INTEL_performance_query") != 0;
}
static GLenum f_GetError(void) { GLenum e = f.error; f.error = GL_NO_ERROR; return e; }
static void f_Flush(void) {}

static void copy_string(const char *s, GLsizei size, GLsizei *len, GLchar *out)
{
    if (size == 0) {
        if (len)
            *len = (GLsizei)strlen(s);
        return;
    }
    snprintf(out, (size_t)size, "%s", s);
}

static void f_GetPerfMonitorGroupsAMD(GLint *n, GLsizei size, GLuint *groups)
{
    if (n)
        *n = (GLint)NAMD;
    for (GLsizei i = 0; groups && i < size && i < (GLsizei)NAMD; ++i)
        groups[i] = amd_groups[i].id;
}

static void f_GetPerfMonitorCountersAMD(GLuint g, GLint *n, GLint *max, GLsizei size, GLuint *c)
{
    const fgroup *gr = find_group(amd_groups, NAMD, g);
    if (n)
        *n = gr ? gr->n : 0;
    if (max)
        *max = gr ? gr->max_active : 0;
    for (GLsizei i = 0; gr && c && i < size && i < gr->n; ++i)
        c[i] = gr->c[i].id;
}

static void f_GetPerfMonitorGroupStringAMD(GLuint g, GLsizei size, GLsizei *len, GLchar *s)
{
    copy_string(find_group(amd_groups, NAMD, g)->name, size, len, s);
}

static void f_GetPerfMonitorCounterStringAMD(GLuint g, GLuint c, GLsizei size, GLsizei *len,
                                             GLchar *s)
{
    copy_string(find_counter(find_group(amd_groups, NAMD, g), c)->name, size, len, s);
}

static void f_GetPerfMonitorCounterInfoAMD(GLuint g, GLuint c, GLenum pname, void *data)
{
    assert_int_equal(pname, GL_COUNTER_TYPE_AMD);
    *(GLuint *)data = find_counter(find_group(amd_groups, NAMD, g), c)->type;
}

static void f_GenPerfMonitorsAMD(GLsizei n, GLuint *m)
{
    for (GLsizei i = 0; i < n; ++i)
        m[i] = 100 + (GLuint)f.live++;
    f.nsel = 0;
}

static void f_DeletePerfMonitorsAMD(GLsizei n, GLuint *m)
{
    (void)m;
    f.live -= n;
}

static void f_SelectPerfMonitorCountersAMD(GLuint m, GLboolean on, GLuint g, GLint n, GLuint *list)
{
    (void)m;
    (void)on;
    for (GLint i = 0; i < n; ++i) {
        if (!find_counter(find_group(amd_groups, NAMD, g), list[i])) {
            f.error = GL_INVALID_VALUE;
            return;
        }
        f.sel_group[f.nsel] = g;
        f.sel_id[f.nsel++] = list[i];
    }
}

static void f_BeginPerfMonitorAMD(GLuint m)
{
    (void)m;
    for (size_t g = 0; g < NAMD; ++g) {
        int n = 0;
        for (int i = 0; i < f.nsel; ++i)
            n += f.sel_group[i] == amd_groups[g].id;
        if (n > amd_groups[g].max_active) {
            f.error = GL_INVALID_OPERATION;
            return;
        }
    }
    f.begun++;
}

static void f_EndPerfMonitorAMD(GLuint m) { (void)m; }

/* A result: [group, counter, value] per selected counter, the value begun * 100 + id
 * (a float: that over 4; a 64-bit one: that plus 2^40). */
static void f_GetPerfMonitorCounterDataAMD(GLuint m, GLenum pname, GLsizei size, GLuint *data,
                                           GLint *written)
{
    (void)m;
    GLuint words[64];
    GLsizei n = 0;
    for (int i = 0; i < f.nsel; ++i) {
        const fcounter *c = find_counter(find_group(amd_groups, NAMD, f.sel_group[i]), f.sel_id[i]);
        words[n++] = f.sel_group[i];
        words[n++] = f.sel_id[i];
        uint64_t v = (uint64_t)f.begun * 100 + c->id;
        if (c->type == GL_UNSIGNED_INT64_AMD) {
            v += UINT64_C(1) << 40;
            memcpy(&words[n], &v, 8);
            n += 2;
        } else if (c->type == GL_FLOAT || c->type == GL_PERCENTAGE_AMD) {
            float x = (float)v / 4;
            memcpy(&words[n++], &x, 4);
        } else {
            words[n++] = (GLuint)v;
        }
    }
    if (pname == GL_PERFMON_RESULT_AVAILABLE_AMD)
        data[0] = 1;
    else if (pname == GL_PERFMON_RESULT_SIZE_AMD)
        data[0] = (GLuint)n * 4;
    else {
        assert_true(size >= n * 4);
        memcpy(data, words, (size_t)n * 4);
        if (written)
            *written = n * 4;
    }
}

static void f_GetFirstPerfQueryIdINTEL(GLuint *id) { *id = intel_queries[0].id; }

static void f_GetNextPerfQueryIdINTEL(GLuint id, GLuint *next)
{
    *next = 0;
    for (size_t i = 0; i + 1 < NINTEL; ++i)
        if (intel_queries[i].id == id)
            *next = intel_queries[i + 1].id;
}

static void f_GetPerfQueryInfoINTEL(GLuint q, GLuint len, GLchar *name, GLuint *size, GLuint *n,
                                    GLuint *inst, GLuint *caps)
{
    const fgroup *g = find_group(intel_queries, NINTEL, q);
    if (!g) {
        f.error = GL_INVALID_VALUE;
        return;
    }
    if (name && len)
        snprintf(name, len, "%s", g->name);
    *size = g->data_size;
    *n = (GLuint)g->n;
    *inst = 1;
    *caps = 0;
}

static void f_GetPerfCounterInfoINTEL(GLuint q, GLuint c, GLuint nlen, GLchar *name, GLuint dlen,
                                      GLchar *desc, GLuint *offset, GLuint *size, GLuint *type,
                                      GLuint *dtype, GLuint64 *max)
{
    const fcounter *k = find_counter(find_group(intel_queries, NINTEL, q), c);
    if (name && nlen)
        snprintf(name, nlen, "%s", k->name);
    if (desc && dlen)
        snprintf(desc, dlen, "the %s", k->name);
    *offset = k->offset;
    *size = 4;
    *type = GL_PERFQUERY_COUNTER_RAW_INTEL;
    *dtype = k->type;
    *max = 0;
}

static void f_CreatePerfQueryINTEL(GLuint q, GLuint *h)
{
    f.query = q;
    *h = 200 + (GLuint)f.live++;
}

static void f_DeletePerfQueryINTEL(GLuint h) { (void)h; f.live--; }
static void f_BeginPerfQueryINTEL(GLuint h) { (void)h; f.begun++; }
static void f_EndPerfQueryINTEL(GLuint h) { (void)h; }

static void f_GetPerfQueryDataINTEL(GLuint h, GLuint flags, GLsizei size, void *data,
                                    GLuint *written)
{
    (void)h;
    assert_int_equal(flags, GL_PERFQUERY_WAIT_INTEL);
    unsigned char *d = data;
    const fgroup *g = find_group(intel_queries, NINTEL, f.query);
    memset(d, 0, (size_t)size);
    for (int i = 0; i < g->n; ++i) {
        const fcounter *c = &g->c[i];
        uint32_t u = (uint32_t)f.begun * 100 + c->id;
        uint64_t u64 = u + (UINT64_C(1) << 40);
        float x = (float)u / 4;
        double y = (double)u / 8;
        uint32_t b = f.begun & 1;
        switch (c->type) {
        case GL_PERFQUERY_COUNTER_DATA_UINT64_INTEL: memcpy(d + c->offset, &u64, 8); break;
        case GL_PERFQUERY_COUNTER_DATA_FLOAT_INTEL: memcpy(d + c->offset, &x, 4); break;
        case GL_PERFQUERY_COUNTER_DATA_DOUBLE_INTEL: memcpy(d + c->offset, &y, 8); break;
        case GL_PERFQUERY_COUNTER_DATA_BOOL32_INTEL: memcpy(d + c->offset, &b, 4); break;
        default: memcpy(d + c->offset, &u, 4); break;
        }
    }
    *written = g->data_size;
}

static const mx_gl fake = {
    f_has_extension, f_GetError, f_Flush,
    f_GetPerfMonitorGroupsAMD, f_GetPerfMonitorCountersAMD, f_GetPerfMonitorGroupStringAMD,
    f_GetPerfMonitorCounterStringAMD, f_GetPerfMonitorCounterInfoAMD, f_GenPerfMonitorsAMD,
    f_DeletePerfMonitorsAMD, f_SelectPerfMonitorCountersAMD, f_BeginPerfMonitorAMD,
    f_EndPerfMonitorAMD, f_GetPerfMonitorCounterDataAMD,
    f_GetFirstPerfQueryIdINTEL, f_GetNextPerfQueryIdINTEL, f_GetPerfQueryInfoINTEL,
    f_GetPerfCounterInfoINTEL, f_CreatePerfQueryINTEL, f_DeletePerfQueryINTEL,
    f_BeginPerfQueryINTEL, f_EndPerfQueryINTEL, f_GetPerfQueryDataINTEL,
};

/* ---- helpers ----------------------------------------------------------------------- */

static char *buf;
static size_t len;

static FILE *open_out(void)
{
    free(buf);
    buf = NULL;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    return out;
}

static int setup(void **state)
{
    (void)state;
    memset(&f, 0, sizeof f);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(buf);
    buf = NULL;
    return 0;
}

static const char *header(const mx_ext *e, metrics_boundary b)
{
    FILE *out = open_out();
    mx_ext_write_header(e, b, out);
    fclose(out);
    return buf;
}

static const char *values(const mx_ext *e, metrics_boundary b, size_t event)
{
    FILE *out = open_out();
    mx_ext_write_values(e, b, event, out);
    fclose(out);
    return buf;
}

/* One pass's events: frames 0..n-1, the one numbered `dropped` cut by a context switch. */
static void run_frames(mx_ext *e, unsigned pass, size_t n, size_t dropped)
{
    mx_ext_begin_pass(e, pass);
    for (size_t ev = 0; ev < n; ++ev) {
        mx_ext_begin_query(e, METRICS_FRAME, ev);
        mx_ext_begin_query(e, METRICS_DRAWCALL, ev); /* not this pass's boundary: nothing */
        if (ev == dropped) {
            mx_ext_pause(e);
            mx_ext_resume(e);
        }
        mx_ext_end_query(e, METRICS_FRAME);
    }
    mx_ext_end_pass(e);
}

/* ---- AMD ----------------------------------------------------------------------------- */

static void test_amd_passes(void **state)
{
    (void)state;
    mx_ext *e = mx_ext_new(MX_AMD, &fake);
    assert_non_null(e);
    /* GRBM holds one active counter: its two need two passes; Memory's two fit beside */
    assert_true(mx_ext_enable_name(e, METRICS_FRAME, "GPU busy", 8));
    assert_true(mx_ext_enable_name(e, METRICS_FRAME, "Shader busy", 11));
    assert_true(mx_ext_enable_id(e, METRICS_FRAME, 5, 7, "[5, 7]"));
    assert_true(mx_ext_enable_name(e, METRICS_FRAME, "Busy", 4));
    assert_true(mx_ext_enable_name(e, METRICS_DRAWCALL, "Bytes", 5));
    /* apitrace's refusals: calls, an unknown name, a counter the group lacks */
    assert_false(mx_ext_enable_name(e, METRICS_CALL, "Bytes", 5));
    assert_false(mx_ext_enable_name(e, METRICS_FRAME, "Nope", 4));
    assert_false(mx_ext_enable_id(e, METRICS_FRAME, 1, 9, "[1, 9]"));
    assert_int_equal(mx_ext_gen_passes(e), 3);
    assert_int_equal(e->passes[0].n, 1);
    assert_int_equal(e->passes[1].n, 3);
    assert_int_equal(e->passes[2].b, METRICS_DRAWCALL);
    assert_string_equal(header(e, METRICS_FRAME), "\tGPU busy\tShader busy\tBytes\tBusy");
    assert_string_equal(header(e, METRICS_DRAWCALL), "\tBytes");
    assert_string_equal(header(e, METRICS_CALL), "");

    f.begun = 0;
    run_frames(e, 0, 3, 1); /* begun: 1, 2 (dropped), 3 */
    run_frames(e, 1, 3, 99); /* 4, 5, 6 */
    assert_string_equal(values(e, METRICS_FRAME, 0), "\t101\t100.5\t1099511628183\t102");
    assert_string_equal(values(e, METRICS_FRAME, 1), "\t-\t125.5\t1099511628283\t127");
    assert_string_equal(values(e, METRICS_FRAME, 2), "\t301\t150.5\t1099511628383\t152");
    assert_string_equal(values(e, METRICS_FRAME, 3), "\t-\t-\t-\t-");
    assert_int_equal(f.live, 0); /* every monitor deleted */

    /* the draw-call pass: frame queries are not its boundary */
    mx_ext_begin_pass(e, 2);
    mx_ext_begin_query(e, METRICS_FRAME, 0);
    for (size_t d = 0; d < 2; ++d) {
        mx_ext_begin_query(e, METRICS_DRAWCALL, d);
        mx_ext_end_query(e, METRICS_DRAWCALL);
    }
    mx_ext_end_query(e, METRICS_FRAME);
    mx_ext_end_pass(e);
    assert_string_equal(values(e, METRICS_DRAWCALL, 1), "\t1099511628583");
    assert_int_equal(f.live, 0);
    mx_ext_free(e);
}

static void test_amd_list(void **state)
{
    (void)state;
    mx_ext *e = mx_ext_new(MX_AMD, &fake);
    FILE *out = open_out();
    mx_ext_list(e, out);
    fclose(out);
    assert_string_equal(buf,
        "\nBackend GL_AMD_performance_monitor:\n"
        "\n  Group #1: GRBM.\n"
        "    Metric #1: GPU busy (type: CNT_TYPE_GENERIC, num. type: CNT_NUM_UINT).\n"
        "           Description: \n"
        "    Metric #2: Shader busy (type: CNT_TYPE_PERCENT, num. type: CNT_NUM_FLOAT).\n"
        "           Description: \n"
        "\n  Group #5: Memory.\n"
        "    Metric #7: Bytes (type: CNT_TYPE_GENERIC, num. type: CNT_NUM_UINT64).\n"
        "           Description: \n"
        "    Metric #8: Busy (type: CNT_TYPE_GENERIC, num. type: CNT_NUM_FLOAT).\n"
        "           Description: \n"
        "\n");
    mx_ext_free(e);
}

/* ---- INTEL --------------------------------------------------------------------------- */

static void test_intel_passes(void **state)
{
    (void)state;
    mx_ext *e = mx_ext_new(MX_INTEL, &fake);
    /* [2, 1]: apitrace refuses it (query id 2 >= its 2 counters); a valid counter */
    assert_true(mx_ext_enable_id(e, METRICS_FRAME, 2, 1, "[2, 1]"));
    assert_true(mx_ext_enable_name(e, METRICS_FRAME, "Busy", 4));
    assert_true(mx_ext_enable_id(e, METRICS_FRAME, 1, 2, "[1, 2]"));
    assert_true(mx_ext_enable_name(e, METRICS_FRAME, "Stalled", 7));
    assert_true(mx_ext_enable_name(e, METRICS_DRAWCALL, "Clocks", 6));
    assert_false(mx_ext_enable_id(e, METRICS_FRAME, 1, 4, "[1, 4]"));
    assert_false(mx_ext_enable_id(e, METRICS_FRAME, 3, 1, "[3, 1]"));
    assert_false(mx_ext_enable_name(e, METRICS_CALL, "Clocks", 6));
    /* a pass per query, ascending, frames' first; counters in the selection's order */
    assert_int_equal(mx_ext_gen_passes(e), 3);
    assert_string_equal(header(e, METRICS_FRAME), "\tBusy\tBytes\tRatio\tStalled");
    assert_int_equal(e->passes[0].query, 1);
    assert_int_equal(e->passes[1].query, 2);

    f.begun = 0;
    run_frames(e, 0, 2, 99); /* begun 1, 2 */
    run_frames(e, 1, 2, 0);  /* 3 (dropped), 4 */
    assert_string_equal(values(e, METRICS_FRAME, 0), "\t25.75\t1099511627878\t-\t-");
    assert_string_equal(values(e, METRICS_FRAME, 1), "\t50.75\t1099511627978\t50.125\t0");
    assert_int_equal(f.live, 0);
    mx_ext_free(e);
}

static void test_intel_list(void **state)
{
    (void)state;
    mx_ext *e = mx_ext_new(MX_INTEL, &fake);
    FILE *out = open_out();
    mx_ext_list(e, out);
    fclose(out);
    assert_non_null(strstr(buf, "\nBackend GL_INTEL_performance_query:\n\n"
                                "  Group #1: Render Basic.\n"
                                "    Metric #1: Clocks (type: CNT_TYPE_GENERIC, num. type: "
                                "CNT_NUM_UINT).\n           Description: the Clocks\n"));
    assert_non_null(strstr(buf, "    Metric #2: Stalled (type: CNT_TYPE_GENERIC, num. type: "
                                "CNT_NUM_BOOL).\n"));
    mx_ext_free(e);
}

/* ---- a selection of several backends ------------------------------------------------ */

static metrics *select_fake(void)
{
    metrics *mx = metrics_new();
    assert_non_null(mx);
    mx->gl = &fake;
    mx->caps.available[MO_CPU_DURATION] = true; /* no context: what opengl offers, by hand */
    gt_error err;
    gt_error_clear(&err);
    /* apitrace reads --pcalls, then --pframes, then --pdrawcalls: AMD is named first
     * (its call metric refused), opengl next, INTEL last */
    assert_int_equal(
        metrics_add(mx, METRICS_DRAWCALL, "GL_INTEL_performance_query:Clocks", &err), 0);
    assert_int_equal(metrics_add(mx, METRICS_FRAME,
                                 "opengl:CPU Duration;GL_AMD_performance_monitor:GPU busy, "
                                 "Shader busy;bogus:x", &err), 0);
    assert_int_equal(metrics_add(mx, METRICS_CALL, "GL_AMD_performance_monitor:Bytes", &err), 0);
    metrics_select(mx);
    mx->setup = true;
    return mx;
}

static void test_selection(void **state)
{
    (void)state;
    metrics *mx = select_fake();
    /* AMD: GPU busy and Shader busy share a group of one counter: 2; opengl 1; INTEL 1 */
    assert_int_equal(metrics_passes(mx), 4);
    assert_int_equal(mx->norder, 3);
    assert_int_equal(mx->order[0], 1);
    assert_int_equal(mx->order[1], MB_OPENGL);
    assert_int_equal(mx->order[2], 2);
    FILE *out = open_out();
    assert_int_equal(metrics_write(mx, out), 0);
    fclose(out);
    assert_string_equal(buf, "#\tGPU busy\tShader busy\tCPU Duration\n\n"
                             "#\tcall no\tprogram\tname\tClocks\n\n");
    metrics_free(mx);

    f.no_intel = true; /* "not supported": left out of the order and the passes */
    mx = select_fake();
    assert_int_equal(metrics_passes(mx), 3);
    assert_int_equal(mx->norder, 2);
    assert_false(mx->on[METRICS_DRAWCALL]);
    metrics_free(mx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_amd_passes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_amd_list, setup, teardown),
        cmocka_unit_test_setup_teardown(test_intel_passes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_intel_list, setup, teardown),
        cmocka_unit_test_setup_teardown(test_selection, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
