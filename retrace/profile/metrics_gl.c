/* The counter backends' GL (metrics_ext.h): libepoxy's functions in the current
 * context. Wrappers, not libepoxy's pointers: those are rewritten at their first call. */
#include <SDL.h>

#include "metrics_ext.h"

static bool has_extension(const char *name)
{
    return SDL_GL_GetCurrentContext() && epoxy_has_gl_extension(name);
}

static GLenum w_GetError(void) { return glGetError(); }
static void w_Flush(void) { glFlush(); }

static void w_GetPerfMonitorGroupsAMD(GLint *a, GLsizei b, GLuint *c)
{
    glGetPerfMonitorGroupsAMD(a, b, c);
}

static void w_GetPerfMonitorCountersAMD(GLuint a, GLint *b, GLint *c, GLsizei d, GLuint *e)
{
    glGetPerfMonitorCountersAMD(a, b, c, d, e);
}

static void w_GetPerfMonitorGroupStringAMD(GLuint a, GLsizei b, GLsizei *c, GLchar *d)
{
    glGetPerfMonitorGroupStringAMD(a, b, c, d);
}

static void w_GetPerfMonitorCounterStringAMD(GLuint a, GLuint b, GLsizei c, GLsizei *d, GLchar *e)
{
    glGetPerfMonitorCounterStringAMD(a, b, c, d, e);
}

static void w_GetPerfMonitorCounterInfoAMD(GLuint a, GLuint b, GLenum c, void *d)
{
    glGetPerfMonitorCounterInfoAMD(a, b, c, d);
}

static void w_GenPerfMonitorsAMD(GLsizei a, GLuint *b)
{
    glGenPerfMonitorsAMD(a, b);
}

static void w_DeletePerfMonitorsAMD(GLsizei a, GLuint *b)
{
    glDeletePerfMonitorsAMD(a, b);
}

static void w_SelectPerfMonitorCountersAMD(GLuint a, GLboolean b, GLuint c, GLint d, GLuint *e)
{
    glSelectPerfMonitorCountersAMD(a, b, c, d, e);
}

static void w_BeginPerfMonitorAMD(GLuint a)
{
    glBeginPerfMonitorAMD(a);
}

static void w_EndPerfMonitorAMD(GLuint a)
{
    glEndPerfMonitorAMD(a);
}

static void w_GetPerfMonitorCounterDataAMD(GLuint a, GLenum b, GLsizei c, GLuint *d, GLint *e)
{
    glGetPerfMonitorCounterDataAMD(a, b, c, d, e);
}

static void w_GetFirstPerfQueryIdINTEL(GLuint *a)
{
    glGetFirstPerfQueryIdINTEL(a);
}

static void w_GetNextPerfQueryIdINTEL(GLuint a, GLuint *b)
{
    glGetNextPerfQueryIdINTEL(a, b);
}

static void w_GetPerfQueryInfoINTEL(GLuint a, GLuint b, GLchar *c, GLuint *d, GLuint *e, GLuint *f,
                                    GLuint *g)
{
    glGetPerfQueryInfoINTEL(a, b, c, d, e, f, g);
}

static void w_GetPerfCounterInfoINTEL(GLuint a, GLuint b, GLuint c, GLchar *d, GLuint e, GLchar *f,
                                      GLuint *g, GLuint *h, GLuint *i, GLuint *j, GLuint64 *k)
{
    glGetPerfCounterInfoINTEL(a, b, c, d, e, f, g, h, i, j, k);
}

static void w_CreatePerfQueryINTEL(GLuint a, GLuint *b)
{
    glCreatePerfQueryINTEL(a, b);
}

static void w_DeletePerfQueryINTEL(GLuint a)
{
    glDeletePerfQueryINTEL(a);
}

static void w_BeginPerfQueryINTEL(GLuint a)
{
    glBeginPerfQueryINTEL(a);
}

static void w_EndPerfQueryINTEL(GLuint a)
{
    glEndPerfQueryINTEL(a);
}

static void w_GetPerfQueryDataINTEL(GLuint a, GLuint b, GLsizei c, void *d, GLuint *e)
{
    glGetPerfQueryDataINTEL(a, b, c, d, e);
}

static const mx_gl real = {
    has_extension,
    w_GetError,
    w_Flush,
    w_GetPerfMonitorGroupsAMD,
    w_GetPerfMonitorCountersAMD,
    w_GetPerfMonitorGroupStringAMD,
    w_GetPerfMonitorCounterStringAMD,
    w_GetPerfMonitorCounterInfoAMD,
    w_GenPerfMonitorsAMD,
    w_DeletePerfMonitorsAMD,
    w_SelectPerfMonitorCountersAMD,
    w_BeginPerfMonitorAMD,
    w_EndPerfMonitorAMD,
    w_GetPerfMonitorCounterDataAMD,
    w_GetFirstPerfQueryIdINTEL,
    w_GetNextPerfQueryIdINTEL,
    w_GetPerfQueryInfoINTEL,
    w_GetPerfCounterInfoINTEL,
    w_CreatePerfQueryINTEL,
    w_DeletePerfQueryINTEL,
    w_BeginPerfQueryINTEL,
    w_EndPerfQueryINTEL,
    w_GetPerfQueryDataINTEL,
};

const mx_gl *mx_gl_real(void) { return &real; }
