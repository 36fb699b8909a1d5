/* Snapshots as apitrace takes them: the current drawable read with glReadPixels
 * (GL_RGBA bytes, which every GL and GLES context can read), written as an RGB PNG
 * named PREFIX%010u.png after the call number. The replayed program's pixel-pack
 * state and read bindings are saved and restored around the read. */
#include <epoxy/gl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "glretrace.h"
#include "gt_png.h"

/* PREFIX ending in '/' names a folder: made when missing, as apitrace does. */
static void make_prefix_dir(const char *prefix)
{
    size_t n = strlen(prefix);
    if (!n || prefix[n - 1] != '/')
        return;
    char *p = strdup(prefix);
    if (!p)
        return;
    for (char *s = p + 1; *s; ++s)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0777);
            *s = '/';
        }
    free(p);
}

int snapshot_write(const char *prefix, uint32_t call_no, bool from_draw_fbo, gt_error *err)
{
    int w = 0, h = 0;
    ws_current_size(&w, &h);
    if (w <= 0 || h <= 0) {
        gt_error_set(err, "no current drawable to snapshot");
        return 0;
    }
    bool desktop = epoxy_is_desktop_gl();
    int ver = epoxy_gl_version();
    bool has_fbo = ver >= 30;
    bool has_pbo = desktop ? ver >= 21 : ver >= 30;

    GLint pack_align = 4, row_len = 0, skip_px = 0, skip_rows = 0, pbo = 0;
    GLint read_fbo = 0, draw_fbo = 0, read_buf = 0;
    glGetIntegerv(GL_PACK_ALIGNMENT, &pack_align);
    if (has_pbo) {
        glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pbo);
        glGetIntegerv(GL_PACK_ROW_LENGTH, &row_len);
        glGetIntegerv(GL_PACK_SKIP_PIXELS, &skip_px);
        glGetIntegerv(GL_PACK_SKIP_ROWS, &skip_rows);
    }
    if (has_fbo) {
        glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fbo);
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fbo);
        glGetIntegerv(GL_READ_BUFFER, &read_buf);
    }

    GLint target_fbo = from_draw_fbo ? draw_fbo : 0;
    if (target_fbo) { /* an FBO: read what the viewport covers */
        GLint vp[4] = {0, 0, 0, 0};
        glGetIntegerv(GL_VIEWPORT, vp);
        if (vp[2] > 0 && vp[3] > 0) {
            w = vp[0] + vp[2];
            h = vp[1] + vp[3];
        }
    }
    if (has_fbo) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)target_fbo);
        glReadBuffer(target_fbo ? GL_COLOR_ATTACHMENT0 : GL_BACK);
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    if (has_pbo) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        glPixelStorei(GL_PACK_ROW_LENGTH, 0);
        glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
        glPixelStorei(GL_PACK_SKIP_ROWS, 0);
    }
    while (glGetError() != GL_NO_ERROR) /* errors of the trace's calls were reported */
        ;

    int ok = 0;
    size_t stride = (size_t)w * 4;
    uint8_t *px = calloc((size_t)h, stride); /* what GL leaves unwritten reads as black */
    if (!px) {
        gt_error_set(err, "out of memory for a %dx%d snapshot", w, h);
    } else {
        glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
        GLenum e = glGetError();
        if (e != GL_NO_ERROR) {
            gt_error_set(err, "glReadPixels failed (0x%04x)", (unsigned)e);
        } else {
            /* RGBA -> RGB in place */
            for (size_t y = 0; y < (size_t)h; ++y) {
                uint8_t *row = px + y * stride;
                for (size_t x = 0; x < (size_t)w; ++x)
                    memmove(row + x * 3, row + x * 4, 3);
            }
            char *path = malloc(strlen(prefix) + 16);
            if (!path) {
                gt_error_set(err, "out of memory");
            } else {
                make_prefix_dir(prefix);
                sprintf(path, "%s%010u.png", prefix, call_no);
                ok = gt_png_write(path, px, (unsigned)w, (unsigned)h, 3, stride, true, err);
                free(path);
            }
        }
        free(px);
    }

    glPixelStorei(GL_PACK_ALIGNMENT, pack_align);
    if (has_pbo) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)pbo);
        glPixelStorei(GL_PACK_ROW_LENGTH, row_len);
        glPixelStorei(GL_PACK_SKIP_PIXELS, skip_px);
        glPixelStorei(GL_PACK_SKIP_ROWS, skip_rows);
    }
    if (has_fbo) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)read_fbo);
        glReadBuffer((GLenum)read_buf);
    }
    while (glGetError() != GL_NO_ERROR)
        ;
    return ok;
}
