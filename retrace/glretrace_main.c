/* glretrace: replays apitrace-format traces of OpenGL programs (GLX and EGL, desktop
 * GL and GLES) on SDL2 windows and contexts, with apitrace glretrace's options.
 *
 * Main loop: calls come from the reader in trace order; each is dispatched by name
 * (cached per function signature): the window system's table (ws_glx_egl.c) first,
 * then the generated GL replayers (retrace_gl_lookup). Functions without a replayer
 * are warned about once and skipped, unless they have no side effects (queries).
 * Traced threads replay serialised in call order, each with its own current context
 * (see ws_glx_egl.c). Outside benchmark mode glGetError is checked after every GL
 * call (not between glBegin and glEnd, where it is an error itself) and reported as
 * apitrace does. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <epoxy/gl.h>

#include "at_dump.h"
#include "at_reader.h"
#include "gl_avail.h"
#include "glretrace.h"
#include "gt_grow.h"
#include "gt_progress.h"
#include "gt_strbuf.h"
#include "timeline_replay.h"

glretrace_state g_retrace;

#ifdef GLRETRACE_HAVE_GL
#include "retrace_gen.h"
#else
/* Built without the generated GL replayers: every GL function is unknown. */
retrace_fn retrace_gl_lookup(const char *name)
{
    (void)name;
    return NULL;
}
typedef struct retrace_entry {
    const char *name;
    retrace_fn fn;
    const char *providers;
} retrace_entry;
static const retrace_entry *retrace_gl_entry(const char *name)
{
    (void)name;
    return NULL;
}
static const retrace_entry retrace_gl_table[1];
static const unsigned retrace_gl_count = 0;
static bool retrace_gl_offered(const char *name)
{
    (void)name;
    return false;
}
#endif

enum {
    K_UNRESOLVED = 0,
    K_NONE,    /* no replayer */
    K_WS,      /* window system */
    K_GL,
    K_BEGIN,
    K_END,
};

typedef struct dispatch {
    retrace_fn fn;
    const char *providers; /* generated GL replayers: what provides the function */
    unsigned gl_index;     /* ... and its index in their table */
    bool offered;          /* ... and whether recorders offer it anyway (quiet skip) */
    unsigned char kind;
    bool warned, warned_unprovided;
} dispatch;

static struct {
    dispatch *table; /* by signature id */
    size_t n;
    bool in_begin_end;
    bool warned_nocontext;
    uint64_t call_limit; /* UINT64_MAX: none */
    long loop;           /* 0: no loop; < 0: forever */
    gt_call **held, **prev;
    size_t nheld, capheld, nprev, capprev;
    at_reader *reader;
    gt_strbuf verbose_out;
    at_dump_options dump_opt;
    tlr_options prof;    /* --pcpu, --pgpu, --fxt, --chrome */
    bool profiling;
} m = {.call_limit = UINT64_MAX, .prof = {.min_cpu_ns = 1000}};

retrace_fn retrace_lookup(const char *name)
{
    retrace_fn fn = ws_lookup(name);
    return fn ? fn : retrace_gl_lookup(name);
}

void retrace_warning(const gt_call *call, const char *fmt, ...)
{
    if (g_retrace.benchmark)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%u: %s: warning: ", call->no, call->sig ? call->sig->name : "?");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static dispatch *resolve(const gt_call *c)
{
    uint32_t id = c->sig->id;
    if (id >= m.n) {
        size_t n = m.n;
        if (GT_GROW(m.table, n, (size_t)id + 1, 256) != 0)
            return NULL;
        memset(m.table + m.n, 0, (n - m.n) * sizeof *m.table);
        m.n = n;
    }
    dispatch *d = &m.table[id];
    if (d->kind != K_UNRESOLVED)
        return d;
    const retrace_entry *e;
    const char *name = c->sig->name;
    if ((d->fn = ws_lookup(name))) {
        bool gl = !strncmp(name, "gl", 2) && strncmp(name, "glX", 3);
        d->kind = gl ? K_GL : K_WS;
    } else if ((e = retrace_gl_entry(name))) {
        d->fn = e->fn;
        d->providers = e->providers;
        d->gl_index = (unsigned)(e - retrace_gl_table);
        d->offered = retrace_gl_offered(name);
        d->kind = !strcmp(name, "glBegin") ? K_BEGIN : !strcmp(name, "glEnd") ? K_END : K_GL;
    } else {
        d->kind = K_NONE;
    }
    return d;
}

static const char *gl_error_name(GLenum e)
{
    switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case 0x0507: return "GL_CONTEXT_LOST";
    default: return NULL;
    }
}

static void check_gl_error(const gt_call *c)
{
    for (int i = 0; i < 8; ++i) { /* a lost context may report errors forever */
        GLenum e = glGetError();
        if (e == GL_NO_ERROR)
            return;
        const char *n = gl_error_name(e);
        if (n)
            retrace_warning(c, "glGetError(%s) = %s", c->sig->name, n);
        else
            retrace_warning(c, "glGetError(%s) = 0x%04x", c->sig->name, (unsigned)e);
    }
}

static void take_snapshot(const gt_call *c, bool from_draw_fbo)
{
    gt_error err;
    gt_error_clear(&err);
    if (!ws_has_current())
        return;
    if (!snapshot_write(g_retrace.snapshot_prefix, c->no, from_draw_fbo, &err))
        retrace_warning(c, "snapshot failed: %s", err.msg);
}

static bool wants_snapshot(const gt_call *c)
{
    return g_retrace.snapshot_prefix && gt_callset_contains(&g_retrace.snapshot_calls, c->no, c->flags);
}

/* The window system's hooks (ws_hooks, glretrace.h). */
static void before_swap(const gt_call *call)
{
    if (wants_snapshot(call))
        take_snapshot(call, false);
}

static void after_swap(const gt_call *call)
{
    (void)call;
    ++g_retrace.frames;
}

static const ws_hooks hooks = {before_swap, after_swap, tlr_context_destroyed};

/* A call not replayed still gets its timeline event. */
static void skip_call(const gt_call *c)
{
    if (m.profiling) {
        tlr_before(c, false);
        tlr_after(c);
    }
}

static void replay_call(gt_call *c)
{
    if (!c->sig)
        return;
    if (m.profiling)
        tlr_switch_thread(c->thread);
    ws_switch_thread(c->thread);
    dispatch *d = resolve(c);
    if (!d)
        return;
    if (g_retrace.verbose) {
        at_dump_call(&m.verbose_out, c, &m.dump_opt);
        gt_strbuf_flush(&m.verbose_out, stdout);
        fflush(stdout);
    }
    if (d->kind == K_NONE) {
        if (!d->warned && !(c->flags & GT_CALL_FLAG_NO_SIDE_EFFECTS))
            retrace_warning(c, "unsupported call, skipped (warned once)");
        d->warned = true;
        skip_call(c);
        return;
    }
    bool gl = d->kind == K_GL || d->kind == K_BEGIN || d->kind == K_END;
    if (gl && !ws_has_current()) {
        /* a trace cut by trim, or one whose context creation was lost: GL without a
         * context would crash the driver; apitrace skips such calls too */
        if (!m.warned_nocontext)
            retrace_warning(c, "no current context: skipped, as every GL call without one "
                               "(warned once)");
        m.warned_nocontext = true;
        skip_call(c);
        return;
    }
    if (d->providers && !gl_avail_has(ws_current_avail(retrace_gl_count), d->gl_index, d->providers)) {
        /* libepoxy would abort; apitrace calls the driver's no-op stub */
        if (!d->warned_unprovided && !d->offered) /* markers: as apitrace, silently */
            retrace_warning(c, "not provided by this context (needs one of: %s): skipped "
                               "(warned once)", *d->providers ? d->providers : "nothing known");
        d->warned_unprovided = true;
        skip_call(c);
        return;
    }
    if (m.profiling) {
        tlr_before(c, true);
        d->fn(c);
        tlr_after(c);
    } else {
        d->fn(c);
    }
    if (d->kind == K_BEGIN)
        m.in_begin_end = true;
    else if (d->kind == K_END)
        m.in_begin_end = false;
    if (gl && !g_retrace.benchmark && !m.in_begin_end && ws_has_current())
        check_gl_error(c);
    if (!(c->flags & GT_CALL_FLAG_END_FRAME) && wants_snapshot(c))
        take_snapshot(c, true);
}

/* --loop: the calls of the last complete frame are kept (not released) */
static void hold(gt_call *c)
{
    if (GT_GROW(m.held, m.capheld, m.nheld + 1, 1024) != 0) {
        at_reader_release(m.reader, c);
        return;
    }
    m.held[m.nheld++] = c;
    if (c->flags & GT_CALL_FLAG_END_FRAME) { /* this frame becomes the one to loop */
        for (size_t i = 0; i < m.nprev; ++i)
            at_reader_release(m.reader, m.prev[i]);
        gt_call **t = m.prev;
        size_t tcap = m.capprev;
        m.prev = m.held;
        m.nprev = m.nheld;
        m.capprev = m.capheld;
        m.held = t;
        m.capheld = tcap;
        m.nheld = 0;
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --pcpu/--pgpu/--fxt/--chrome: the process is named by the trace's process.name, or
 * after the trace file. */
static int start_profiling(const at_reader *r, const char *path)
{
    tlr_options *o = &m.prof;
    bool timeline = o->fxt_path || o->chrome_path;
    if (timeline)
        o->pcpu = true;
    else if (o->pcpu || o->pgpu)
        o->text = true;
    if (!o->pcpu && !o->pgpu && !o->text)
        return 1;
    const char *base = strrchr(path, '/');
    o->process_name = base ? base + 1 : path;
    o->input_path = path;
    for (unsigned i = 0; i < at_reader_num_properties(r); ++i) {
        const at_property *p = at_reader_property(r, i);
        if (p && p->name && p->value && !strcmp(p->name, "process.name") && *p->value)
            o->process_name = p->value;
    }
    gt_error err;
    gt_error_clear(&err);
    if (!tlr_start(o, &err)) {
        fprintf(stderr, "glretrace: error: %s\n", err.msg);
        return 0;
    }
    m.profiling = true;
    return 1;
}

static void usage(FILE *f)
{
    fputs("usage: glretrace [OPTIONS] TRACE\n"
          "Replay an apitrace-format trace of an OpenGL program.\n"
          "\n"
          "  -h, --help                show this help and exit\n"
          "  -b, --benchmark           benchmark mode (no error checking or warning messages)\n"
          "  -s, --snapshot-prefix=PREFIX  take snapshots, written as PREFIX%010u.png\n"
          "                            (the call number; a swap is snapshot before it swaps)\n"
          "  -S, --snapshot=CALLSET    calls to snapshot (default is every frame)\n"
          "      --headless            replay without an X server (SDL's offscreen driver)\n"
          "      --loop[=N]            replay the final frame N more times (N<0: forever)\n"
          "      --call-limit=N        replay no call numbered above N\n"
          "  -v, --verbose             print each call as it is replayed\n"
          "      --pcpu                CPU time of each call (monotonic clock)\n"
          "      --pgpu                GPU time of each call doing GPU work (timer queries)\n"
          "      --fxt=FILE            write the calls' timeline as Fuchsia trace format (FXT)\n"
          "      --chrome=FILE         write the calls' timeline as Chrome trace JSON\n"
          "                            (--fxt and --chrome imply --pcpu)\n"
          "      --min-cpu-time=NS     text profile: leave out calls faster than NS (default 1000)\n"
          "      --text-profile        print apitrace's text profile even with --fxt/--chrome\n"
          "                            (without them --pcpu/--pgpu print it)\n",
          f);
}

enum {
    OPT_HEADLESS = 256,
    OPT_LOOP,
    OPT_CALL_LIMIT,
    OPT_PCPU,
    OPT_PGPU,
    OPT_FXT,
    OPT_CHROME,
    OPT_MIN_CPU_TIME,
    OPT_TEXT_PROFILE,
};

static const struct option long_options[] = {
    {"help", no_argument, 0, 'h'},
    {"benchmark", no_argument, 0, 'b'},
    {"snapshot-prefix", required_argument, 0, 's'},
    {"snapshot", required_argument, 0, 'S'},
    {"headless", no_argument, 0, OPT_HEADLESS},
    {"loop", optional_argument, 0, OPT_LOOP},
    {"call-limit", required_argument, 0, OPT_CALL_LIMIT},
    {"verbose", no_argument, 0, 'v'},
    {"pcpu", no_argument, 0, OPT_PCPU},
    {"pgpu", no_argument, 0, OPT_PGPU},
    {"fxt", required_argument, 0, OPT_FXT},
    {"chrome", required_argument, 0, OPT_CHROME},
    {"min-cpu-time", required_argument, 0, OPT_MIN_CPU_TIME},
    {"text-profile", no_argument, 0, OPT_TEXT_PROFILE},
    {0, 0, 0, 0},
};

static int parse_number(const char *opt, const char *s, long long *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end) {
        fprintf(stderr, "glretrace: %s: expected a number, got \"%s\"\n", opt, s);
        return 0;
    }
    *out = v;
    return 1;
}

/* Reads the options into g_retrace and m; returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv)
{
    int c;
    bool have_S = false;
    gt_error err;
    gt_error_clear(&err);
    while ((c = getopt_long(argc, argv, "hbs:S:v", long_options, NULL)) != -1) {
        long long n;
        switch (c) {
        case 'h': usage(stdout); return 0;
        case 'b': g_retrace.benchmark = true; break;
        case 's': g_retrace.snapshot_prefix = optarg; break;
        case 'S':
            if (gt_callset_merge(&g_retrace.snapshot_calls, optarg, &err) < 0) {
                fprintf(stderr, "glretrace: -S: %s\n", err.msg);
                return 2;
            }
            have_S = true;
            break;
        case 'v': g_retrace.verbose++; break;
        case OPT_HEADLESS: g_retrace.headless = true; break;
        case OPT_LOOP:
            if (!optarg)
                m.loop = 1;
            else if (!parse_number("--loop", optarg, &n))
                return 2;
            else
                m.loop = (long)n;
            break;
        case OPT_CALL_LIMIT:
            if (!parse_number("--call-limit", optarg, &n) || n < 0) {
                if (n < 0)
                    fprintf(stderr, "glretrace: --call-limit: expected N >= 0\n");
                return 2;
            }
            m.call_limit = (uint64_t)n;
            break;
        case OPT_PCPU: m.prof.pcpu = true; break;
        case OPT_PGPU: m.prof.pgpu = true; break;
        case OPT_FXT: m.prof.fxt_path = optarg; break;
        case OPT_CHROME: m.prof.chrome_path = optarg; break;
        case OPT_TEXT_PROFILE: m.prof.text = true; break;
        case OPT_MIN_CPU_TIME:
            if (!parse_number("--min-cpu-time", optarg, &n))
                return 2;
            m.prof.min_cpu_ns = n;
            break;
        default: usage(stderr); return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "glretrace: no trace file given\n");
        usage(stderr);
        return 2;
    }
    if (optind + 1 < argc)
        fprintf(stderr, "glretrace: warning: replaying only the first trace, %s\n", argv[optind]);
    if (g_retrace.snapshot_prefix && !strcmp(g_retrace.snapshot_prefix, "-")) {
        fprintf(stderr, "glretrace: -s -: PNM output to stdout is not supported\n");
        return 2;
    }
    if (have_S && !g_retrace.snapshot_prefix)
        g_retrace.snapshot_prefix = "";
    if (!have_S && gt_callset_merge(&g_retrace.snapshot_calls, "frame", &err) < 0) {
        fprintf(stderr, "glretrace: %s\n", err.msg);
        return 1;
    }
    if (g_retrace.benchmark && g_retrace.snapshot_prefix) /* as apitrace: -b takes none */
        g_retrace.snapshot_prefix = NULL;
    return -1;
}

/* Replays every call of R (up to --call-limit, then --loop's repeats of the last
 * frame); returns 0, or 1 when the trace could not be read to its end. */
static int replay_trace(at_reader *r)
{
    gt_progress prog; /* on a terminal only: frames, calls/s */
    gt_progress_start(&prog, "glretrace", at_input_file_size(at_reader_input(r)), false);
    uint64_t ncalls = 0;
    gt_call *call;
    while ((call = at_reader_next(r))) {
        if (call->no > m.call_limit) {
            at_reader_release(r, call);
            break;
        }
        replay_call(call);
        prog.frames = g_retrace.frames;
        gt_progress_update(&prog, at_input_file_pos(at_reader_input(r)), ++ncalls);
        if (m.loop)
            hold(call);
        else
            at_reader_release(r, call);
    }
    gt_progress_end(&prog);
    if (at_reader_error(r)) {
        fprintf(stderr, "error: %s\n", at_reader_error(r));
        return 1;
    }
    if (at_reader_warning(r) && (g_retrace.verbose || strstr(at_reader_warning(r), "truncated")))
        /* a cut file is worth a word; calls merely left open by a killed program
         * replay silently, as in apitrace */
        fprintf(stderr, "warning: %s\n", at_reader_warning(r));
    if (m.loop && m.nprev) {
        for (long i = 0; m.loop < 0 || i < m.loop; ++i)
            for (size_t k = 0; k < m.nprev; ++k)
                replay_call(m.prev[k]);
    }
    return 0;
}

/* Frees what the replay kept and closes the window system and the trace. */
static void shut_down(at_reader *r)
{
    for (size_t i = 0; i < m.nheld; ++i)
        at_reader_release(r, m.held[i]);
    for (size_t i = 0; i < m.nprev; ++i)
        at_reader_release(r, m.prev[i]);
    free(m.held);
    free(m.prev);
    free(m.table);
    gt_strbuf_free(&m.verbose_out);
    ws_shutdown();
    at_reader_close(r);
    gt_callset_free(&g_retrace.snapshot_calls);
}

int main(int argc, char **argv)
{
    if (gt_callset_init_all(&g_retrace.snapshot_calls) < 0) {
        fprintf(stderr, "glretrace: out of memory\n");
        return 1;
    }
    int early = parse_args(argc, argv);
    if (early >= 0) {
        gt_callset_free(&g_retrace.snapshot_calls);
        return early;
    }
    gt_error err;
    gt_error_clear(&err);
    const char *path = argv[optind];
    at_reader_options ropt = {.skip_blob_data = false};
    at_reader *r = at_reader_open(path, &ropt, &err);
    if (!r) {
        fprintf(stderr, "error: %s\n", err.msg);
        return 1;
    }
    m.reader = r;
    if (!ws_init(g_retrace.headless, &hooks, &err)) {
        fprintf(stderr, "glretrace: error: %s\n", err.msg);
        at_reader_close(r);
        return 1;
    }
    gt_strbuf_init(&m.verbose_out);
    at_dump_default_options(&m.dump_opt);
    m.dump_opt.color = false;
    if (!start_profiling(r, path)) {
        ws_shutdown();
        at_reader_close(r);
        return 1;
    }

    double start = now();
    int status = replay_trace(r);
    double secs = now() - start;
    if (m.profiling && !tlr_finish(&err)) {
        fprintf(stderr, "glretrace: error: %s\n", err.msg);
        status = 1;
    }
    if (status == 0) {
        double fps = secs > 0 ? (double)g_retrace.frames / secs : 0.0;
        printf("Rendered %llu frames in %g secs, average of %g fps\n",
               (unsigned long long)g_retrace.frames, secs, fps);
    }
    /* the text profile and the summary: a full disk or closed pipe is a failure */
    if ((fflush(stdout) != 0 || ferror(stdout)) && status == 0) {
        fprintf(stderr, "glretrace: error: writing to stdout failed: %s\n", strerror(errno));
        status = 1;
    }
    shut_down(r);
    return status;
}
