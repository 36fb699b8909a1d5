/* The state dump's entry and the helpers its sections share; see state_dump.h. */
#include <epoxy/gl.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gl/retrace_gl.h"
#include "state_dump.h"
#include "state_params.h"
#include "ws/ws.h"

/* Answers of state_has for the context the dump reads (one dump per replay):
 * 0 not asked, 1 provided, 2 not. */
static unsigned char provided[256];

bool state_has(const char *name)
{
    unsigned lo = 0, hi = state_fn_count;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        int c = strcmp(state_fns[mid].name, name);
        if (c == 0) {
            if (mid < sizeof provided && !provided[mid]) {
                gl_avail *a = ws_current_avail(retrace_gl_count);
                provided[mid] = !a || gl_avail_check(a, state_fns[mid].providers) ? 1 : 2;
            }
            return mid >= sizeof provided || provided[mid] == 1;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false; /* not in [functions]: a mistake caught by the tests, never a crash */
}

const char *state_enum_name(unsigned v)
{
    unsigned lo = 0, hi = state_enum_name_count;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (state_enum_names[mid].value < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < state_enum_name_count && state_enum_names[lo].value == v ? state_enum_names[lo].name
                                                                        : NULL;
}

void state_write_enum(sj *w, unsigned v)
{
    const char *name = state_enum_name(v);
    if (name)
        sj_cstring(w, name);
    else
        sj_uint(w, v);
}

void state_clear_errors(void)
{
    for (int i = 0; i < 64 && glGetError() != GL_NO_ERROR; ++i)
        ;
}

bool state_failed(void)
{
    bool failed = glGetError() != GL_NO_ERROR;
    if (failed)
        state_clear_errors();
    return failed;
}

int state_get_int(unsigned pname, int dflt)
{
    GLint v = dflt;
    state_clear_errors();
    if (state_has("glGetIntegerv"))
        glGetIntegerv(pname, &v);
    return state_failed() ? dflt : v;
}

void state_write_label(sj *w, unsigned identifier, unsigned name, const char *member)
{
    if (!name || !state_has("glGetObjectLabel"))
        return;
    GLint max = state_get_int(GL_MAX_LABEL_LENGTH, 0);
    if (max <= 0 || max > (1 << 20))
        return;
    char *label = calloc((size_t)max + 1, 1);
    if (!label)
        return; /* the dump goes on without it: a label is not worth failing for */
    GLsizei len = 0;
    state_clear_errors();
    glGetObjectLabel(identifier, name, max + 1, &len, label);
    if (!state_failed() && len > 0 && label[0]) {
        sj_member(w, member);
        sj_cstring(w, label);
    }
    free(label);
}

int state_dump(FILE *out, const gt_call *call, bool single_buffer, gt_error *err)
{
    memset(provided, 0, sizeof provided);
    gt_strbuf b;
    gt_strbuf_init(&b);
    sj w;
    sj_init(&w, &b);
    state_clear_errors(); /* the trace's own errors were reported after its calls */
    /* every command done first: llvmpipe under SDL's offscreen driver (EGL pbuffers)
     * was seen to give glGetTexImage of a texture just rendered to through an FBO an
     * earlier frame's texels, one run in two */
    glFinish();
    sj_begin_object(&w);
    state_write_parameters(&w);
    state_write_program(&w);
    state_write_images(&w, single_buffer);
    sj_end_object(&w);
    state_clear_errors();
    int rc = 0;
    if (b.oom) {
        gt_error_set(err, "out of memory writing the state of call %u", call->no);
        rc = -1;
    } else if (gt_strbuf_flush(&b, out) != 0 || fflush(out) != 0) {
        gt_error_set(err, "writing the state of call %u failed: %s", call->no, strerror(errno));
        rc = -1;
    }
    gt_strbuf_free(&b);
    return rc;
}
