/* The counter backends besides `opengl` (metrics.h): GL_AMD_performance_monitor
 * (metrics_amd.c) and GL_INTEL_performance_query (metrics_intel.c), as apitrace's
 * MetricBackend_AMD_perfmon and MetricBackend_INTEL_perfquery: their groups and counters
 * by the driver's names and ids, the passes their counters need, a value per frame or
 * draw call (never per call: apitrace's "not enabled (error 1)"), printed as apitrace's
 * writer prints them ("-" where a frame or draw has none). Internal to metrics.c.
 *
 * The GL goes through a table (mx_gl) so that tests/unit/test_metrics_ext.c drives them
 * with a fake driver; metrics_gl.c fills the real one from libepoxy. */
#ifndef RETRACE_METRICS_EXT_H
#define RETRACE_METRICS_EXT_H

#include <epoxy/gl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "replay.h"

typedef struct mx_gl {
    bool (*has_extension)(const char *name); /* of the current context, if any */
    GLenum (*GetError)(void);
    void (*Flush)(void);
    PFNGLGETPERFMONITORGROUPSAMDPROC GetPerfMonitorGroupsAMD;
    PFNGLGETPERFMONITORCOUNTERSAMDPROC GetPerfMonitorCountersAMD;
    PFNGLGETPERFMONITORGROUPSTRINGAMDPROC GetPerfMonitorGroupStringAMD;
    PFNGLGETPERFMONITORCOUNTERSTRINGAMDPROC GetPerfMonitorCounterStringAMD;
    PFNGLGETPERFMONITORCOUNTERINFOAMDPROC GetPerfMonitorCounterInfoAMD;
    PFNGLGENPERFMONITORSAMDPROC GenPerfMonitorsAMD;
    PFNGLDELETEPERFMONITORSAMDPROC DeletePerfMonitorsAMD;
    PFNGLSELECTPERFMONITORCOUNTERSAMDPROC SelectPerfMonitorCountersAMD;
    PFNGLBEGINPERFMONITORAMDPROC BeginPerfMonitorAMD;
    PFNGLENDPERFMONITORAMDPROC EndPerfMonitorAMD;
    PFNGLGETPERFMONITORCOUNTERDATAAMDPROC GetPerfMonitorCounterDataAMD;
    PFNGLGETFIRSTPERFQUERYIDINTELPROC GetFirstPerfQueryIdINTEL;
    PFNGLGETNEXTPERFQUERYIDINTELPROC GetNextPerfQueryIdINTEL;
    PFNGLGETPERFQUERYINFOINTELPROC GetPerfQueryInfoINTEL;
    PFNGLGETPERFCOUNTERINFOINTELPROC GetPerfCounterInfoINTEL;
    PFNGLCREATEPERFQUERYINTELPROC CreatePerfQueryINTEL;
    PFNGLDELETEPERFQUERYINTELPROC DeletePerfQueryINTEL;
    PFNGLBEGINPERFQUERYINTELPROC BeginPerfQueryINTEL;
    PFNGLENDPERFQUERYINTELPROC EndPerfQueryINTEL;
    PFNGLGETPERFQUERYDATAINTELPROC GetPerfQueryDataINTEL;
} mx_gl;

/* libepoxy's functions (metrics_gl.c). */
const mx_gl *mx_gl_real(void);

/* apitrace's MetricType and MetricNumType, in its order (their names are printed). */
typedef enum { MX_GENERIC, MX_NUM, MX_DURATION, MX_PERCENT, MX_TIMESTAMP, MX_OTHER } mx_type;
typedef enum { MX_UINT, MX_FLOAT, MX_UINT64, MX_DOUBLE, MX_BOOL, MX_INT64 } mx_num;

typedef struct mx_counter {
    unsigned group, id;
    char *name;
    mx_type type;
    mx_num num;
    unsigned offset; /* its value in a result: INTEL's counter offset; AMD's found there */
    bool located;    /* AMD: offset was found in a result */
} mx_counter;

/* The counters measured together in one pass, and their values per event (frame or
 * draw call, numbered from 0 in the pass). */
typedef struct mx_pass {
    metrics_boundary b;
    unsigned query; /* INTEL: the query (group) of its counters */
    mx_counter *c;
    size_t n, cap;
    uint64_t *v; /* v[event * n + i]: the value's bytes, by c[i].num */
    unsigned char *have;
    size_t nev, capev, capv;
} mx_pass;

typedef struct mx_ext mx_ext;

/* What differs between AMD and INTEL. */
typedef struct mx_ext_ops {
    const char *name;
    /* the groups (AMD) or queries (INTEL), then one's counter ids; malloc'd lists */
    int (*groups)(mx_ext *e, unsigned **out, size_t *n);
    int (*counters)(mx_ext *e, unsigned group, unsigned **out, size_t *n);
    char *(*group_name)(mx_ext *e, unsigned group);
    /* c->group and c->id set: its name, types and offset; its description (malloc'd) */
    int (*describe)(mx_ext *e, mx_counter *c);
    char *(*description)(mx_ext *e, const mx_counter *c);
    /* apitrace's enableMetric checks: 0, or its error number */
    int (*check)(mx_ext *e, metrics_boundary b, unsigned group, unsigned id);
    /* the enabled counters of boundary b (frames, then draw calls) into passes */
    int (*plan)(mx_ext *e, metrics_boundary b, mx_counter *c, size_t n);
    /* GL objects of pass e->cur in the current context; their end (results read) */
    void (*start)(mx_ext *e);
    void (*stop)(mx_ext *e);
    /* measure e->event; end it, its values into the pass when keep */
    void (*begin)(mx_ext *e);
    void (*end)(mx_ext *e, bool keep);
} mx_ext_ops;

struct mx_ext {
    const mx_ext_ops *ops;
    const mx_gl *gl;
    mx_counter *on[METRICS_BOUNDARIES];
    size_t non[METRICS_BOUNDARIES], capon[METRICS_BOUNDARIES];
    mx_pass *passes;
    size_t npasses, cappasses;
    mx_counter *lookup; /* every counter, for names (built at the first name) */
    size_t nlookup;
    bool looked_up;
    size_t cur;      /* the pass in progress */
    bool started;    /* its GL objects exist in the current context */
    bool querying;   /* an event is measured */
    size_t event;    /* the event measured */
    /* the backend's GL objects */
    GLuint object;
    bool unread;        /* AMD: the monitor's last event is not read yet */
    size_t unread_event;
};

enum { MX_AMD, MX_INTEL };

mx_ext *mx_ext_new(int which, const mx_gl *gl);
void mx_ext_free(mx_ext *e);
const char *mx_ext_name(const mx_ext *e);
/* The current context offers the backend's extension. */
bool mx_ext_supported(const mx_ext *e);
/* --list-metrics' block of this backend. */
void mx_ext_list(mx_ext *e, FILE *out);
/* A metric of a selection, by name or by [group, id]; warns as apitrace does when it
 * cannot be enabled. Returns whether it was. */
bool mx_ext_enable_name(mx_ext *e, metrics_boundary b, const char *name, size_t len);
bool mx_ext_enable_id(mx_ext *e, metrics_boundary b, unsigned group, unsigned id,
                      const char *shown);
/* The passes (frames' first): their number. */
unsigned mx_ext_gen_passes(mx_ext *e);
/* Pass `local` of this backend begins (a context is current), ends (results read). */
void mx_ext_begin_pass(mx_ext *e, unsigned local);
void mx_ext_end_pass(mx_ext *e);
/* A context switch: the event measured is dropped, the GL objects deleted; then made
 * again in the new context when it offers the extension (apitrace's pausePass and
 * continuePass). */
void mx_ext_pause(mx_ext *e);
void mx_ext_resume(mx_ext *e);
/* A frame or draw call (event: its number) in this pass's boundary is measured. */
void mx_ext_begin_query(mx_ext *e, metrics_boundary b, size_t event);
void mx_ext_end_query(mx_ext *e, metrics_boundary b);
/* Output: the columns of boundary b (each pass's counters), and one event's values. */
void mx_ext_write_header(const mx_ext *e, metrics_boundary b, FILE *out);
void mx_ext_write_values(const mx_ext *e, metrics_boundary b, size_t event, FILE *out);

/* For the backends: a new pass of boundary b (NULL: out of memory); a counter into it;
 * the values of the event measured (NULL: out of memory). */
mx_pass *mx_ext_new_pass(mx_ext *e, metrics_boundary b);
int mx_pass_add(mx_pass *p, const mx_counter *c);
uint64_t *mx_ext_values(mx_ext *e, size_t event);

extern const mx_ext_ops mx_amd_ops, mx_intel_ops;

#endif
