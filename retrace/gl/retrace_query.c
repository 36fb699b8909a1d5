/* glGetQueryObject{iv,uiv,i64v,ui64v}{,ARB,EXT} replayed by hand (`retrace F override`
 * lines of specs/annotations.txt), as apitrace's glretrace: with a query buffer bound
 * the result is written into it (the traced offset), always; otherwise, as
 * --query-handling says, not at all (skip), or run: a GL_QUERY_RESULT_AVAILABLE the
 * trace found true is asked again until it is (ten seconds at most), so that the
 * program's waits are replayed; check also compares the result with the trace's and
 * warns, in apitrace's words, where they differ by more than the tolerance. */
#include <epoxy/gl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "retrace_gl.h"
#include "retrace_query.h"

static struct {
    bool run, check;
    uint64_t tolerance;
} q;

void retrace_query_set(bool run, bool check, uint64_t tolerance)
{
    q.run = run || check;
    q.check = check;
    q.tolerance = tolerance;
}

typedef int64_t (*query_fn)(GLuint id, GLenum pname, void *dest);

#define QUERY_FN(NAME, T)                                                                          \
    static int64_t q_##NAME(GLuint id, GLenum pname, void *dest)                                   \
    {                                                                                              \
        T v = 0;                                                                                   \
        NAME(id, pname, dest ? (T *)dest : &v);                                                    \
        return (int64_t)v;                                                                         \
    }
QUERY_FN(glGetQueryObjectiv, GLint)
QUERY_FN(glGetQueryObjectivARB, GLint)
QUERY_FN(glGetQueryObjectivEXT, GLint)
QUERY_FN(glGetQueryObjectuiv, GLuint)
QUERY_FN(glGetQueryObjectuivARB, GLuint)
QUERY_FN(glGetQueryObjectuivEXT, GLuint)
QUERY_FN(glGetQueryObjecti64v, GLint64)
QUERY_FN(glGetQueryObjecti64vEXT, GLint64)
QUERY_FN(glGetQueryObjectui64v, GLuint64)
QUERY_FN(glGetQueryObjectui64vEXT, GLuint64)

static bool query_buffer_bound(void)
{
    if (!epoxy_is_desktop_gl() ||
        (epoxy_gl_version() < 44 && !epoxy_has_gl_extension("GL_ARB_query_buffer_object")))
        return false;
    GLint b = 0;
    glGetIntegerv(GL_QUERY_BUFFER_BINDING, &b);
    return b != 0;
}

/* The result the trace holds: params' first value. */
static bool traced_result(const gt_value *v, int64_t *out)
{
    if (v->kind == GT_ARRAY && v->arr.n)
        v = &v->arr.items[0];
    if (v->kind != GT_UINT && v->kind != GT_SINT)
        return false;
    *out = retrace_sint(v);
    return true;
}

static double secs(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void replay_query(const gt_call *call, query_fn fn, bool is_unsigned)
{
    if (call->num_args < 3)
        return;
    GLuint id = (GLuint)retrace_map_get("query", retrace_uint(&call->args[0]));
    GLenum pname = (GLenum)retrace_uint(&call->args[1]);
    const gt_value *params = &call->args[2];
    if (query_buffer_bound()) {
        if (params->kind == GT_UINT || params->kind == GT_SINT || params->kind == GT_POINTER)
            fn(id, pname, (void *)(uintptr_t)retrace_uint(params));
        return;
    }
    if (!q.run) /* retrace_query_skips said so already */
        return;
    int64_t expect = 0;
    bool known = traced_result(params, &expect);
    int64_t got = fn(id, pname, NULL);
    if (pname == GL_QUERY_RESULT_AVAILABLE) {
        double t0 = secs();
        while (known && expect == 1 && got == 0 && secs() - t0 < 10.0)
            got = fn(id, pname, NULL);
        return;
    }
    if (!q.check || !known)
        return;
    /* apitrace: abs(int64_t(expect) - int64_t(result)) > tolerance */
    uint64_t diff =
        expect > got ? (uint64_t)expect - (uint64_t)got : (uint64_t)got - (uint64_t)expect;
    if (diff <= q.tolerance)
        return;
    if (is_unsigned)
        retrace_warning(call, "Warning: query returned %llu but trace contained %llu (tol = %llu)",
                        (unsigned long long)got, (unsigned long long)expect,
                        (unsigned long long)q.tolerance);
    else
        retrace_warning(call, "Warning: query returned %lld but trace contained %lld (tol = %llu)",
                        (long long)got, (long long)expect, (unsigned long long)q.tolerance);
}

bool retrace_query_function(const char *name)
{
    static const char *const names[] = {
        "glGetQueryObjectiv",   "glGetQueryObjectivARB",   "glGetQueryObjectivEXT",
        "glGetQueryObjectuiv",  "glGetQueryObjectuivARB",  "glGetQueryObjectuivEXT",
        "glGetQueryObjecti64v", "glGetQueryObjecti64vEXT", "glGetQueryObjectui64v",
        "glGetQueryObjectui64vEXT"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (!strcmp(name, names[i]))
            return true;
    return false;
}

bool retrace_query_skips(const gt_call *c)
{
    (void)c;
    return !q.run && !query_buffer_bound();
}

/* The replayers the annotations name: each function with its result's signedness. */
#define REPLAYER(NAME, UNSIGNED)                                                                   \
    void retrace_##NAME(const gt_call *call) { replay_query(call, q_##NAME, UNSIGNED); }
REPLAYER(glGetQueryObjectiv, false)
REPLAYER(glGetQueryObjectivARB, false)
REPLAYER(glGetQueryObjectivEXT, false)
REPLAYER(glGetQueryObjectuiv, true)
REPLAYER(glGetQueryObjectuivARB, true)
REPLAYER(glGetQueryObjectuivEXT, true)
REPLAYER(glGetQueryObjecti64v, false)
REPLAYER(glGetQueryObjecti64vEXT, false)
REPLAYER(glGetQueryObjectui64v, true)
REPLAYER(glGetQueryObjectui64vEXT, true)
