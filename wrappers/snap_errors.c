/* The program's GL errors across the state snapshot (snap_errors.h). */
#include "snap_errors.h"

#include <limits.h>
#include <stdio.h>

#include "gl_enums.gen.h"
#include "protos.gen.h"

static const char *error_name(unsigned e)
{
    switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    default: return "an unknown GL error";
    }
}

/* Each flag set is returned once; bounded, for a driver that would answer forever. */
static int drain(unsigned *out, int max)
{
    int n = 0;
    for (int i = 0; i < 2 * SNAP_MAX_ERRORS; ++i) {
        unsigned e = SNAP_REAL(glGetError)();
        if (e == GL_NO_ERROR)
            break;
        if (n < max)
            out[n++] = e;
    }
    return n;
}

void snap_errors_hold(snap_errors *e)
{
    e->n = snap_real_has("glGetError") ? drain(e->pending, SNAP_MAX_ERRORS) : 0;
}

/* Raises e again, changing no state: an unknown enum, a negative line width, a uniform
 * location no program has (not -1, which is ignored). */
static int raise_again(unsigned e)
{
    switch (e) {
    case GL_INVALID_ENUM: {
        int unused = 0;
        SNAP_REAL(glGetIntegerv)(0, &unused);
        return 1;
    }
    case GL_INVALID_VALUE: SNAP_REAL(glLineWidth)(-1.0f); return 1;
    case GL_INVALID_OPERATION: SNAP_REAL(glUniform1i)(INT_MAX, 0); return 1;
    default: return 0;
    }
}

void snap_errors_said(snap *s, const char *part)
{
    unsigned ours[SNAP_MAX_ERRORS];
    int n = snap_real_has("glGetError") ? drain(ours, SNAP_MAX_ERRORS) : 0;
    for (int i = 0; i < n; ++i)
        snap_unreadable(s, "the driver answered %s to the snapshot's reads of %s (a gltrace "
                        "bug): what it wrote may be incomplete", error_name(ours[i]), part);
}

void snap_errors_give_back(const snap_errors *e)
{
    for (int i = 0; i < e->n; ++i)
        if (!raise_again(e->pending[i]))
            fprintf(stderr, "gltrace: state snapshot: the program's pending %s was taken "
                            "by the snapshot's reads and cannot be raised again\n",
                    error_name(e->pending[i]));
}
