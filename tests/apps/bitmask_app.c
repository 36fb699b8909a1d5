/* bitmask_app: GLbitfield arguments whose value is a mask of several bits with a name of
 * its own (GL_ALL_ATTRIB_BITS, GL_CLIENT_ALL_ATTRIB_BITS, GL_ALL_BARRIER_BITS,
 * GL_ALL_SHADER_BITS), next to masks of single bits, for record_diff.sh: both recorders
 * must give the same bitmask text (apitrace names the "all" masks).
 *
 * A compatibility context (glXCreateNewContext); glPushAttrib and glPushClientAttrib with
 * the "all" masks and with two single bits, glMemoryBarrier and glUseProgramStages where
 * the context has them (GL 4.2 / 4.1: the recordings of one driver agree either way). No
 * drawing; one swap. Exits 0 when no GL error was raised. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>

#include <stdio.h>

#include "app_common.h"
#include "gl_util.h"
#include "glx_util.h"

#define TAG "bitmask_app"

typedef void (*memory_barrier_fn)(GLbitfield);
typedef void (*gen_pipelines_fn)(GLsizei, GLuint *);
typedef void (*use_program_stages_fn)(GLuint, GLbitfield, GLuint);

static const char *vertex_src = "#version 130\n"
                                "void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n";
static const char *fragment_src = "#version 130\n"
                                  "void main() { gl_FragColor = vec4(1.0); }\n";

static int gl_at_least(int major, int minor)
{
    GLint ma = 0, mi = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &ma);
    glGetIntegerv(GL_MINOR_VERSION, &mi);
    return ma > major || (ma == major && mi >= minor);
}

int main(int argc, char **argv)
{
    struct app_options opt;
    app_parse_options(argc, argv, &opt);
    static const int fb_attribs[] = {
        GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT,
        GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, GLX_DOUBLEBUFFER, True, None,
    };
    Display *dpy;
    GLXFBConfig config;
    Window win = app_glx_open(TAG, fb_attribs, &dpy, &config);
    if (!win)
        return 1;
    GLXContext ctx = glXCreateNewContext(dpy, config, GLX_RGBA_TYPE, NULL, True);
    if (!ctx || !glXMakeCurrent(dpy, win, ctx)) {
        fprintf(stderr, TAG ": no compatibility context\n");
        return 1;
    }

    glPushAttrib(GL_ALL_ATTRIB_BITS);
    glPopAttrib();
    glPushAttrib(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glPopAttrib();
    glPushClientAttrib(GL_CLIENT_ALL_ATTRIB_BITS);
    glPopClientAttrib();
    glPushClientAttrib(GL_CLIENT_PIXEL_STORE_BIT);
    glPopClientAttrib();

    if (gl_at_least(4, 2)) {
        memory_barrier_fn barrier =
            (memory_barrier_fn)glXGetProcAddressARB((const GLubyte *)"glMemoryBarrier");
        if (barrier) {
            barrier(GL_ALL_BARRIER_BITS);
            barrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_UNIFORM_BARRIER_BIT);
        }
    }
    if (gl_at_least(4, 1)) {
        gen_pipelines_fn gen =
            (gen_pipelines_fn)glXGetProcAddressARB((const GLubyte *)"glGenProgramPipelines");
        use_program_stages_fn stages = (use_program_stages_fn)glXGetProcAddressARB(
            (const GLubyte *)"glUseProgramStages");
        GLuint prog = app_build_program(TAG, vertex_src, fragment_src, NULL);
        if (gen && stages && prog) {
            GLuint pipeline;
            gen(1, &pipeline);
            /* a program that is not separable: GL_INVALID_OPERATION, read back below */
            stages(pipeline, GL_ALL_SHADER_BITS, prog);
            glGetError();
            stages(pipeline, GL_VERTEX_SHADER_BIT | GL_FRAGMENT_SHADER_BIT, 0);
        }
    }
    glXSwapBuffers(dpy, win);
    int failed = app_check_gl_error(TAG, NULL, 0);
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx);
    app_destroy_window(dpy, win);
    XCloseDisplay(dpy);
    return failed;
}
