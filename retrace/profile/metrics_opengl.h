/* The `opengl` metrics backend (metrics.h): its metrics, what the current context
 * offers, and measuring one span (a frame or a call) with the CPU clock, /proc and GL
 * queries. Internal to metrics.c. */
#ifndef RETRACE_METRICS_OPENGL_H
#define RETRACE_METRICS_OPENGL_H

#include <stdbool.h>
#include <stdint.h>

/* apitrace 11.1's metrics in its column order; GPU Disjoint (apitrace after 11.1,
 * only where EXT_disjoint_timer_query is) last, so 11.1's ids and columns stay. */
enum {
    MO_CPU_START,
    MO_CPU_DURATION,
    MO_GPU_START,
    MO_GPU_DURATION,
    MO_GPU_PIXELS,
    MO_VSIZE_START,
    MO_VSIZE_DURATION,
    MO_RSS_START,
    MO_RSS_DURATION,
    MO_GPU_DISJOINT,
    MO_COUNT,
};

typedef struct mo_metric {
    unsigned group, id;
    const char *name;
    const char *type, *num_type; /* apitrace's CNT_TYPE_*, CNT_NUM_* names */
} mo_metric;

extern const mo_metric mo_metrics[MO_COUNT];
extern const char *const mo_group_names[2];

/* What the current context offers (apitrace's supports* flags). */
typedef struct mo_caps {
    bool desktop, timestamp, elapsed, disjoint, occlusion;
    int timestamp_bits;
    bool available[MO_COUNT];
} mo_caps;

void mo_caps_read(mo_caps *caps);

/* Measuring: `sync` (a GPU time asked for, with timestamps) puts the CPU times on GL's
 * clock, as apitrace does. Times in ns. */
int64_t mo_now(const mo_caps *caps, bool sync);

enum { MO_Q_START, MO_Q_END, MO_Q_PIXELS, MO_Q_COUNT };

/* One span in progress: `mask` is the metrics measured (1u << MO_*). */
typedef struct mo_span {
    unsigned mask;
    void *ctx; /* the SDL context its queries belong to */
    unsigned queries[MO_Q_COUNT];
    bool has_queries;
    int64_t cpu0, vsize0, rss0;
    int disjoint0;
} mo_span;

/* Starts span S (its GPU queries in the current context). */
void mo_span_begin(mo_span *s, unsigned mask, const mo_caps *caps, bool sync, int64_t base);
/* Ends it: CPU, VSIZE and RSS values into v (indexed by MO_*); GPU ones later. */
void mo_span_end(mo_span *s, const mo_caps *caps, bool sync, int64_t v[MO_COUNT]);
/* Reads its GPU queries (waiting) into v, and frees them; the context must be current.
 * base: the pass's start on GL's clock. */
void mo_span_read(mo_span *s, const mo_caps *caps, int64_t base, int64_t v[MO_COUNT]);
/* The GPU queries are lost (their context was destroyed): zeros. */
void mo_span_lose(mo_span *s, int64_t v[MO_COUNT]);

/* glFinish in the current context, if any. */
void mo_finish(void);

/* The context offers GL_AMD_performance_monitor / GL_INTEL_performance_query. */
bool mo_has_extension(const char *name);

#endif
