/* apitrace's metrics (metrics.h): the selection, read against the first context (the
 * backends, their metrics and passes, with apitrace's warnings), --list-metrics, and the
 * output's blocks. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "metrics_internal.h"

/* ---- selection ------------------------------------------------------------------- */

metrics *metrics_new(void)
{
    metrics *mx = calloc(1, sizeof *mx);
    if (!mx)
        return NULL;
    mx->passes = 1;
    mx->gl = mx_gl_real();
    return mx;
}

void metrics_free(metrics *mx)
{
    if (!mx)
        return;
    for (size_t i = 0; i < mx->nspecs; ++i)
        free(mx->specs[i].text);
    free(mx->specs);
    free(mx->frames.r);
    free(mx->calls.r);
    free(mx->pend);
    for (size_t i = 0; i < mx->nkinds; ++i)
        free(mx->names[i]);
    free(mx->kinds);
    free(mx->names);
    free(mx->ctxs);
    mx_ext_free(mx->ext[0]);
    mx_ext_free(mx->ext[1]);
    free(mx);
}

int metrics_add(metrics *mx, metrics_boundary b, const char *text, gt_error *err)
{
    if (GT_GROW(mx->specs, mx->capspecs, mx->nspecs + 1, 4) != 0) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    char *copy = strdup(text);
    if (!copy) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    mx->specs[mx->nspecs++] = (spec){b, copy};
    return 0;
}

void metrics_set_list(metrics *mx) { mx->list = true; }
void metrics_set_gen_passes(metrics *mx) { mx->gen_passes = true; }
unsigned metrics_passes(const metrics *mx) { return mx->passes; }
bool metrics_done(const metrics *mx) { return mx->done; }

static int metric_by_name(const char *name, size_t len)
{
    for (int m = 0; m < MO_COUNT; ++m)
        if (strlen(mo_metrics[m].name) == len && !memcmp(mo_metrics[m].name, name, len))
            return m;
    return -1;
}

static int metric_by_id(unsigned g, unsigned id)
{
    for (int m = 0; m < MO_COUNT; ++m)
        if (mo_metrics[m].group == g && mo_metrics[m].id == id)
            return m;
    return -1;
}

static void enable(metrics *mx, metrics_boundary b, int m, const char *shown, int shown_len)
{
    if (m < 0) {
        fprintf(stderr, "Warning: No metric \"%.*s\".\n", shown_len, shown);
        return;
    }
    if (!mx->caps.available[m]) {
        fprintf(stderr, "Warning: Metric %.*s not enabled (error 1).\n", shown_len, shown);
        return;
    }
    mx->enabled[m][b] = true;
    mx->on[b] = true;
}

/* One metric of backend `be` (MB_OPENGL or an ext index + 1), by name or [G, ID]. */
static void enable_one(metrics *mx, int be, metrics_boundary b, const char *name, size_t len,
                       bool by_id, unsigned g, unsigned id)
{
    if (be == MB_OPENGL) {
        enable(mx, b, by_id ? metric_by_id(g, id) : metric_by_name(name, len), name, (int)len);
        return;
    }
    mx_ext *e = mx->ext[be - 1];
    if (by_id ? mx_ext_enable_id(e, b, g, id, name) : mx_ext_enable_name(e, b, name, len))
        mx->on[b] = true;
}

/* The metrics of one backend block, `NAME,[G, ID],...` (apitrace's parseMetricsBlock). */
static void parse_metrics(metrics *mx, int be, metrics_boundary b, const char *s,
                          const char *end)
{
    while (s < end) {
        while (s < end && *s == ' ')
            ++s;
        const char *comma = memchr(s, ',', (size_t)(end - s));
        const char *e = comma ? comma : end;
        if (*s == '[' && s < e) {
            const char *close = memchr(s, ']', (size_t)(end - s));
            if (!close || !comma || comma > close) { /* "[G, ID]" needs its comma inside */
                fprintf(stderr, "Warning: No metric \"%.*s\".\n", (int)(e - s), s);
                s = comma ? comma + 1 : end;
                continue;
            }
            unsigned g = (unsigned)strtoul(s + 1, NULL, 10);
            unsigned id = (unsigned)strtoul(comma + 1, NULL, 10);
            char shown[128];
            int n = snprintf(shown, sizeof shown, "[%.*s, %.*s]", (int)(comma - s - 1), s + 1,
                             (int)(close - comma - 1), comma + 1);
            enable_one(mx, be, b, shown, n < 0 ? 0 : (size_t)n, true, g, id);
            const char *next = memchr(close, ',', (size_t)(end - close));
            s = next ? next + 1 : end;
            continue;
        }
        if (e > s)
            enable_one(mx, be, b, s, (size_t)(e - s), false, 0, 0);
        s = comma ? comma + 1 : end;
    }
}

static const char *const ext_names[2] = {"GL_AMD_performance_monitor",
                                         "GL_INTEL_performance_query"};

/* The backend named NAME (LEN bytes): MB_OPENGL, an ext index + 1, or MB_NONE after
 * apitrace's warning; it joins the order at its first block. */
static int backend(metrics *mx, const char *name, int len)
{
    int be = MB_NONE;
    if (len == 6 && !memcmp(name, "opengl", 6))
        be = MB_OPENGL;
    for (int i = 0; i < 2; ++i)
        if ((size_t)len == strlen(ext_names[i]) && !memcmp(name, ext_names[i], (size_t)len)) {
            if (!mx->ext[i])
                mx->ext[i] = mx_ext_new(i == 0 ? MX_AMD : MX_INTEL, mx->gl);
            if (!mx->ext[i] || !mx_ext_supported(mx->ext[i])) {
                fprintf(stderr, "Warning: Backend \"%.*s\" is not supported.\n", len, name);
                return MB_NONE;
            }
            be = i + 1;
        }
    if (be == MB_NONE) {
        fprintf(stderr, "Warning: No backend \"%.*s\".\n", len, name);
        return MB_NONE;
    }
    for (size_t i = 0; i < mx->norder; ++i)
        if (mx->order[i] == be)
            return be;
    mx->order[mx->norder++] = be;
    return be;
}

/* `BACKEND:METRICS` blocks separated by `;` (apitrace's parseBackendBlock). */
static void parse_spec(metrics *mx, const spec *sp)
{
    const char *s = sp->text;
    while (*s) {
        const char *semi = strchr(s, ';');
        const char *end = semi ? semi : s + strlen(s);
        const char *colon = memchr(s, ':', (size_t)(end - s));
        if (colon) {
            const char *name = s + strspn(s, " ");
            int be = backend(mx, name, (int)(colon - name));
            if (be != MB_NONE)
                parse_metrics(mx, be, sp->b, colon + 1, end);
        }
        if (!semi)
            break;
        s = semi + 1;
    }
}

/* apitrace's generatePasses */
static void gen_passes(metrics *mx)
{
    for (int m = 0; m < MO_COUNT; ++m)
        if (mx->enabled[m][METRICS_CALL])
            mx->enabled[m][METRICS_DRAWCALL] = false;
    for (int b = 0; b < METRICS_BOUNDARIES; ++b)
        if (mx->enabled[MO_GPU_DISJOINT][b] && !mx->enabled[MO_GPU_DURATION][b]) {
            fprintf(stderr, "Warning: Disjoint won't be queried for boundary %d as GPU duration "
                            "is not profiled.\n", b);
            mx->enabled[MO_GPU_DISJOINT][b] = false;
        }
    for (int b = 0; b < METRICS_BOUNDARIES; ++b) {
        if (mx->enabled[MO_GPU_START][b] || mx->enabled[MO_GPU_DURATION][b] ||
            mx->enabled[MO_GPU_PIXELS][b])
            mx->queries_needed = true;
        if (mx->enabled[MO_GPU_START][b] || mx->enabled[MO_GPU_DURATION][b])
            mx->sync = true;
    }
    bool (*e)[METRICS_BOUNDARIES] = mx->enabled;
    if (!mx->caps.timestamp && e[MO_GPU_DURATION][METRICS_FRAME] &&
        (e[MO_GPU_DURATION][METRICS_CALL] || e[MO_GPU_DURATION][METRICS_DRAWCALL]))
        mx->two_passes = true;
    if (e[MO_GPU_PIXELS][METRICS_FRAME] &&
        (e[MO_GPU_PIXELS][METRICS_CALL] || e[MO_GPU_PIXELS][METRICS_DRAWCALL]))
        mx->two_passes = true;
    mx->gl_passes = mx->two_passes ? 2 : 1;
}

/* The selection, against the first context: apitrace's order of blocks, then each
 * backend's passes in the order the backends were first named. */
void metrics_select(metrics *mx)
{
    static const metrics_boundary order[] = {METRICS_CALL, METRICS_FRAME, METRICS_DRAWCALL};
    for (size_t k = 0; k < 3; ++k)
        for (size_t i = 0; i < mx->nspecs; ++i)
            if (mx->specs[i].b == order[k])
                parse_spec(mx, &mx->specs[i]);
    gen_passes(mx);
    unsigned n = 0;
    for (size_t i = 0; i < mx->norder; ++i)
        n += mx->order[i] == MB_OPENGL ? mx->gl_passes
                                       : mx_ext_gen_passes(mx->ext[mx->order[i] - 1]);
    mx->passes = n ? n : 1;
}

/* --list-metrics, as apitrace's listMetricsCLI prints it: the ext backends the context
 * offers, then opengl. */
void metrics_list(metrics *mx)
{
    printf("Available metrics: \n");
    for (int i = 0; i < 2; ++i) {
        mx_ext *e = mx_ext_new(i == 0 ? MX_AMD : MX_INTEL, mx->gl);
        if (e && mx_ext_supported(e))
            mx_ext_list(e, stdout);
        mx_ext_free(e);
    }
    printf("\nBackend opengl:\n");
    for (unsigned g = 0; g < 2; ++g) {
        printf("\n  Group #%u: %s.\n", g, mo_group_names[g]);
        for (int m = 0; m < MO_COUNT; ++m)
            if (mo_metrics[m].group == g && mx->caps.available[m])
                printf("    Metric #%u: %s (type: %s, num. type: %s).\n"
                       "           Description: \n",
                       mo_metrics[m].id, mo_metrics[m].name, mo_metrics[m].type,
                       mo_metrics[m].num_type);
    }
    printf("\n");
    fflush(stdout);
}

/* ---- output ---------------------------------------------------------------------- */

/* A row's values: each backend's in the backends' order; event: the frame's or draw
 * call's number (the ext backends' key). */
static void write_values(const metrics *mx, metrics_boundary b, const int64_t *v, size_t event,
                         FILE *out)
{
    for (size_t i = 0; i < mx->norder; ++i) {
        if (mx->order[i] != MB_OPENGL) {
            mx_ext_write_values(mx->ext[mx->order[i] - 1], b, event, out);
            continue;
        }
        for (int m = 0; m < MO_COUNT; ++m)
            if (mx->enabled[m][b])
                fprintf(out, "\t%" PRId64, v[m]);
    }
    fputc('\n', out);
}

static void write_header(const metrics *mx, metrics_boundary b, FILE *out)
{
    fputs(b == METRICS_FRAME ? "#" : "#\tcall no\tprogram\tname", out);
    for (size_t i = 0; i < mx->norder; ++i) {
        if (mx->order[i] != MB_OPENGL) {
            mx_ext_write_header(mx->ext[mx->order[i] - 1], b, out);
            continue;
        }
        for (int m = 0; m < MO_COUNT; ++m)
            if (mx->enabled[m][b])
                fprintf(out, "\t%s", mo_metrics[m].name);
    }
    fputc('\n', out);
}

static void write_calls(const metrics *mx, metrics_boundary b, FILE *out)
{
    write_header(mx, b, out);
    size_t draws = 0;
    for (size_t i = 0; i < mx->calls.n; ++i) {
        const mrec *r = &mx->calls.r[i];
        if (!r->name) {
            fputs("frame_end\n", out);
            continue;
        }
        if (b == METRICS_DRAWCALL && !r->draw)
            continue;
        fprintf(out, "call\t%" PRIu32 "\t%" PRIu32 "\t%s", r->no, r->program, r->name);
        write_values(mx, b, r->v, r->draw ? draws++ : 0, out);
    }
    fputc('\n', out);
}

int metrics_write(metrics *mx, FILE *out)
{
    if (mx->done || !mx->setup)
        return 0;
    if (mx->on[METRICS_FRAME]) {
        write_header(mx, METRICS_FRAME, out);
        for (size_t i = 0; i < mx->frames.n; ++i)
            if (mx->frames.r[i].committed) {
                fputs("frame", out);
                write_values(mx, METRICS_FRAME, mx->frames.r[i].v, i, out);
            }
        fputc('\n', out);
    }
    if (mx->on[METRICS_CALL])
        write_calls(mx, METRICS_CALL, out);
    if (mx->on[METRICS_DRAWCALL])
        write_calls(mx, METRICS_DRAWCALL, out);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
