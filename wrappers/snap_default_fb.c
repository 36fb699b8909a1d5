/* The state snapshot's window contents (snapshot.h): the colour of the frame thread's
 * default framebuffer, read back and written as an upload into a temporary texture
 * blitted into it (the temporaries deleted). A range that starts after a frame
 * terminator rather than a swap (glFrameTerminatorGREMEDY, then the swap of what was
 * drawn before it), or a program that draws over its last frame without clearing,
 * needs it; after a swap it holds what the driver keeps there (llvmpipe: the frame
 * before). Written just before the context state, which binds what the program had.
 * Depth and stencil of the window are not read (programs clear them each frame). */
#include <stdio.h>
#include <stdlib.h>

#include "gl_enums.gen.h"
#include "protos.gen.h"
#include "snap_objects.h"
#include "snapshot_contexts.h"
#include "snapshot_parts.h"

typedef struct window_fb {
    int width, height;
    unsigned buffer; /* GL_BACK or GL_FRONT */
} window_fb;

static void *collect(snap *s)
{
    int size[2];
    snap_frame_drawable_size(size);
    if (size[0] <= 0 || size[1] <= 0)
        return NULL; /* surfaceless, or a pbuffer whose size is not known */
    if (!snap_has(s, 30, 30, "GL_ARB_framebuffer_object") ||
        !snap_real_has("glBlitFramebuffer")) {
        snap_unreadable(s, "the window's contents: no glBlitFramebuffer to write them with");
        return NULL;
    }
    int draw = snap_geti(GL_DRAW_FRAMEBUFFER_BINDING), samples = 0;
    if (draw == 0)
        samples = snap_geti(GL_SAMPLE_BUFFERS);
    if (samples) {
        snap_unreadable(s, "the window's contents: multisample, not written");
        return NULL;
    }
    window_fb *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->width = size[0];
    w->height = size[1];
    unsigned char db = 1; /* GLES window surfaces are back-buffered: no GL_DOUBLEBUFFER */
    if (snap_api(s) == SNAP_API_GL)
        SNAP_REAL(glGetBooleanv)(GL_DOUBLEBUFFER, &db);
    w->buffer = db ? GL_BACK : GL_FRONT;
    return w;
}

/* The window's pixels as RGBA bytes (the driver's read state put back); NULL when out
 * of memory. */
static unsigned char *read_window(snap *s, const window_fb *w)
{
    size_t size = (size_t)w->width * (size_t)w->height * 4;
    unsigned char *px = malloc(size);
    if (!px)
        return NULL;
    snap_store pack;
    snap_store_begin(s, &pack, 1);
    int fb = snap_geti(GL_READ_FRAMEBUFFER_BINDING), buffer = 0;
    SNAP_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, 0);
    buffer = snap_geti(GL_READ_BUFFER);
    SNAP_REAL(glReadBuffer)(w->buffer);
    SNAP_REAL(glReadPixels)(0, 0, w->width, w->height, GL_RGBA, GL_UNSIGNED_BYTE, px);
    SNAP_REAL(glReadBuffer)((unsigned)buffer);
    SNAP_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, (unsigned)fb);
    snap_store_end(&pack);
    return px;
}

static void write_part(snap *s, void *data)
{
    const window_fb *w = data;
    unsigned char *px = read_window(s, w);
    if (!px) {
        fprintf(stderr, "gltrace: state snapshot: the window's contents: out of memory\n");
        return;
    }
    snap_store unpack;
    snap_store_begin(s, &unpack, 0);
    snap_store_write_unpack(&unpack);
    GLuint texture = snap_free_name("texture"), fb = snap_free_name("framebuffer");
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w->width, w->height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 px);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, w->width, w->height, 0, 0, w->width, w->height,
                      GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fb);
    glBindTexture(GL_TEXTURE_2D, 0);
    glDeleteTextures(1, &texture);
    snap_store_end(&unpack);
    free(px);
}

static void free_part(void *data) { free(data); }

const snap_part snap_part_default_fb = {"window contents", collect, write_part, free_part};
