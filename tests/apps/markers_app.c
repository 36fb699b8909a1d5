/* markers_app: a deterministic OpenGL program (Xlib + GLX) that marks up its frames with
 * the annotation extensions a recorder may offer (apitrace's, and gltrace's: the
 * GREMEDY string marker and frame terminator, EXT_debug_marker, EXT_debug_label,
 * KHR_debug, ARB/AMD debug output), for tests/integration/markers.sh.
 *
 * It looks for them exactly as a real program does: on the default 3.3 core profile
 * context through glGetIntegerv(GL_NUM_EXTENSIONS) and glGetStringi; with --compat on a
 * legacy (compatibility) context through glGetString(GL_EXTENSIONS). Functions are
 * fetched with glXGetProcAddress, and only those of the extensions found are called.
 * Prints one "GL_xxx: found" / "GL_xxx: not found" line per extension, then "markers:
 * LIST" (the kinds of call it makes), and at the end "frames: N".
 *
 * Each frame (the picture depends on the frame index only; scissored clears, no shaders):
 *   PushGroupMarkerEXT "frame N"
 *     PushGroupMarkerEXT "background" (length 0: NUL-terminated)  clear  PopGroupMarkerEXT
 *     InsertEventMarkerEXT "rectangles follow" (length 10: "rectangles")
 *     PushDebugGroup "rectangles"  4 scissored clears  DebugMessageInsert  PopDebugGroup
 *     StringMarkerGREMEDY "frame N done"
 *   PopGroupMarkerEXT
 *   (--save: glReadPixels)  FrameTerminatorGREMEDY  glXSwapBuffers
 * and once, before the frames: ObjectLabel(GL_BUFFER) (KHR_debug) and LabelObjectEXT
 * (EXT_debug_label) on a buffer. A GL error after any frame fails the program (exit 1):
 * a recorder that offers an extension must not make its calls raise errors.
 * Options as the other demo apps (app_common.h), plus --compat. */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_common.h"
#include "gl_util.h"
#include "glx_util.h"

#define TAG "markers_app"

#ifndef GL_BUFFER_OBJECT_EXT
#define GL_BUFFER_OBJECT_EXT 0x9151
#endif

typedef void (*string_marker_fn)(GLsizei, const void *);
typedef void (*frame_terminator_fn)(void);
typedef void (*insert_event_marker_fn)(GLsizei, const GLchar *);
typedef void (*push_group_marker_fn)(GLsizei, const GLchar *);
typedef void (*pop_group_marker_fn)(void);
typedef void (*label_object_ext_fn)(GLenum, GLuint, GLsizei, const GLchar *);
typedef void (*push_debug_group_fn)(GLenum, GLuint, GLsizei, const GLchar *);
typedef void (*pop_debug_group_fn)(void);
typedef void (*object_label_fn)(GLenum, GLuint, GLsizei, const GLchar *);
typedef void (*debug_message_insert_fn)(GLenum, GLenum, GLuint, GLenum, GLsizei, const GLchar *);

enum { GREMEDY_STRING, GREMEDY_FRAME, EXT_MARKER, EXT_LABEL, KHR_DEBUG, ARB_DEBUG, AMD_DEBUG, N_EXT };
static const char *const ext_names[N_EXT] = {
    "GL_GREMEDY_string_marker", "GL_GREMEDY_frame_terminator", "GL_EXT_debug_marker",
    "GL_EXT_debug_label",       "GL_KHR_debug",                "GL_ARB_debug_output",
    "GL_AMD_debug_output"};

static void *proc(const char *name)
{
    void *p = (void *)glXGetProcAddress((const GLubyte *)name);
    if (!p)
        fprintf(stderr, TAG ": glXGetProcAddress(%s) is NULL\n", name);
    return p;
}

/* Which of ext_names the context offers, the way a program finds out. */
static void find_extensions(int compat, int found[N_EXT])
{
    memset(found, 0, N_EXT * sizeof *found);
    if (compat) {
        const char *all = (const char *)glGetString(GL_EXTENSIONS);
        for (int i = 0; i < N_EXT; i++)
            found[i] = app_has_extension(all, ext_names[i]);
        return;
    }
    GLint num = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &num);
    for (GLint k = 0; k < num; k++) {
        const char *e = (const char *)glGetStringi(GL_EXTENSIONS, (GLuint)k);
        for (int i = 0; e && i < N_EXT; i++)
            if (!strcmp(e, ext_names[i]))
                found[i] = 1;
    }
}

/* A legacy context (glXCreateNewContext: the compatibility profile) made current. */
static GLXContext compat_context(Display *dpy, Window win, GLXFBConfig config)
{
    GLXContext ctx = glXCreateNewContext(dpy, config, GLX_RGBA_TYPE, NULL, True);
    if (!ctx || !glXMakeCurrent(dpy, win, ctx)) {
        fprintf(stderr, TAG ": cannot create a compatibility context\n");
        return NULL;
    }
    return ctx;
}

int main(int argc, char **argv)
{
    struct app_options opt;
    app_extra_usage = "  --compat        a compatibility context, glGetString(GL_EXTENSIONS)\n";
    int compat = app_take_flag(&argc, argv, "--compat") > 0;
    app_parse_options(argc, argv, &opt);

    Display *dpy;
    GLXFBConfig config;
    Window win = app_glx_open(TAG, NULL, &dpy, &config);
    if (!win)
        return 1;
    GLXContext ctx;
    if (compat) {
        ctx = compat_context(dpy, win, config);
    } else {
        PFNGLXCREATECONTEXTATTRIBSARBPROC create_context;
        ctx = app_glx_core33_context(dpy, win, config, TAG, &create_context);
    }
    if (!ctx)
        return 1;
    if (opt.warmup) {
        app_warmup_clear(GL_COLOR_BUFFER_BIT);
        glXSwapBuffers(dpy, win);
    }

    int found[N_EXT];
    find_extensions(compat, found);
    for (int i = 0; i < N_EXT; i++)
        printf("%s: %s\n", ext_names[i], found[i] ? "found" : "not found");

    string_marker_fn string_marker = NULL;
    frame_terminator_fn frame_terminator = NULL;
    insert_event_marker_fn insert_event_marker = NULL;
    push_group_marker_fn push_group_marker = NULL;
    pop_group_marker_fn pop_group_marker = NULL;
    label_object_ext_fn label_object_ext = NULL;
    push_debug_group_fn push_debug_group = NULL;
    pop_debug_group_fn pop_debug_group = NULL;
    object_label_fn object_label = NULL;
    debug_message_insert_fn debug_message_insert = NULL;
    if (found[GREMEDY_STRING])
        string_marker = (string_marker_fn)proc("glStringMarkerGREMEDY");
    if (found[GREMEDY_FRAME])
        frame_terminator = (frame_terminator_fn)proc("glFrameTerminatorGREMEDY");
    if (found[EXT_MARKER]) {
        insert_event_marker = (insert_event_marker_fn)proc("glInsertEventMarkerEXT");
        push_group_marker = (push_group_marker_fn)proc("glPushGroupMarkerEXT");
        pop_group_marker = (pop_group_marker_fn)proc("glPopGroupMarkerEXT");
        if (!push_group_marker || !pop_group_marker)
            push_group_marker = NULL, pop_group_marker = NULL;
    }
    if (found[EXT_LABEL])
        label_object_ext = (label_object_ext_fn)proc("glLabelObjectEXT");
    if (found[KHR_DEBUG]) {
        push_debug_group = (push_debug_group_fn)proc("glPushDebugGroup");
        pop_debug_group = (pop_debug_group_fn)proc("glPopDebugGroup");
        object_label = (object_label_fn)proc("glObjectLabel");
        debug_message_insert = (debug_message_insert_fn)proc("glDebugMessageInsert");
        if (!push_debug_group || !pop_debug_group)
            push_debug_group = NULL, pop_debug_group = NULL;
    }
    printf("markers:%s%s%s%s%s%s%s%s%s\n", push_group_marker ? " group" : "",
           insert_event_marker ? " event" : "", string_marker ? " string" : "",
           frame_terminator ? " terminator" : "", push_debug_group ? " debug-group" : "",
           debug_message_insert ? " debug-message" : "", object_label ? " object-label" : "",
           label_object_ext ? " label-object" : "",
           !push_group_marker && !insert_event_marker && !string_marker && !frame_terminator &&
                   !push_debug_group && !debug_message_insert && !object_label && !label_object_ext
               ? " none"
               : "");

    GLuint buf;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    glBufferData(GL_ARRAY_BUFFER, 64, NULL, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (object_label)
        object_label(GL_BUFFER, buf, -1, "vertex buffer");
    if (label_object_ext)
        label_object_ext(GL_BUFFER_OBJECT_EXT, buf, 0, "vertex buffer (EXT)");
    if (app_check_gl_error(TAG, "the labels", 0))
        return 1;

    uint8_t *pixels;
    if (app_frame_buffer(TAG, &opt, &pixels) != 0)
        return 1;
    glViewport(0, 0, APP_WIDTH, APP_HEIGHT);
    int status = 0;
    unsigned frame;
    for (frame = 0; frame < opt.frames && !status; frame++) {
        char name[64];
        snprintf(name, sizeof name, "frame %u", frame);
        if (push_group_marker) {
            push_group_marker((GLsizei)strlen(name), name);
            push_group_marker(0, "background");
        }
        glDisable(GL_SCISSOR_TEST);
        glClearColor(0.1f, 0.1f + 0.1f * (float)(frame % 5), 0.3f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        if (pop_group_marker)
            pop_group_marker();
        if (insert_event_marker)
            insert_event_marker(10, "rectangles follow"); /* "rectangles" */
        if (push_debug_group)
            push_debug_group(GL_DEBUG_SOURCE_APPLICATION, 1, -1, "rectangles");
        glEnable(GL_SCISSOR_TEST);
        for (unsigned k = 0; k < 4; k++) {
            int x = 20 + (int)k * 70 + (int)(frame * 7 % 30), y = 40 + (int)(k * 30);
            glScissor(x, y, 50, 60 + (int)(frame * 11 % 50));
            glClearColor(0.25f * (float)k, 1.0f - 0.2f * (float)k, 0.15f * (float)(frame % 4), 1.0f);
            glClear(GL_COLOR_BUFFER_BIT);
        }
        glDisable(GL_SCISSOR_TEST);
        if (debug_message_insert)
            debug_message_insert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 2,
                                 GL_DEBUG_SEVERITY_NOTIFICATION, -1, "drew the rectangles");
        if (pop_debug_group)
            pop_debug_group();
        if (string_marker) {
            char done[64];
            int n = snprintf(done, sizeof done, "frame %u done", frame);
            string_marker((GLsizei)n, done);
        }
        if (pop_group_marker)
            pop_group_marker();
        if (app_check_gl_error(TAG, NULL, frame) ||
            (pixels && app_read_frame(opt.save_prefix, frame, pixels) != 0)) {
            status = 1;
            break;
        }
        if (frame_terminator)
            frame_terminator();
        glXSwapBuffers(dpy, win);
    }
    printf("frames: %u\n", frame);
    free(pixels);
    glDeleteBuffers(1, &buf);
    app_glx_close(dpy, win, ctx);
    return status;
}
