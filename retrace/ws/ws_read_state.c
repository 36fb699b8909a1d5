/* The state pixel reads need, which snapshots and state dumps change and put back
 * (ws.h): glReadPixels into client memory, tightly packed, from a chosen framebuffer
 * and buffer. */
#include <epoxy/gl.h>

#include "ws.h"

void ws_read_state_save(ws_read_state *s)
{
    bool desktop = epoxy_is_desktop_gl();
    int ver = epoxy_gl_version();
    *s = (ws_read_state){.has_fbo = ver >= 30, .has_pbo = desktop ? ver >= 21 : ver >= 30,
                      .pack_align = 4};
    glGetIntegerv(GL_PACK_ALIGNMENT, &s->pack_align);
    if (s->has_pbo) {
        glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &s->pbo);
        glGetIntegerv(GL_PACK_ROW_LENGTH, &s->row_len);
        glGetIntegerv(GL_PACK_SKIP_PIXELS, &s->skip_px);
        glGetIntegerv(GL_PACK_SKIP_ROWS, &s->skip_rows);
    }
    if (s->has_fbo) {
        glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &s->read_fbo);
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &s->draw_fbo);
        glGetIntegerv(GL_READ_BUFFER, &s->read_buf);
    }
}

/* Tightly packed reads into client memory from FBO (0: the window's back buffer, or
 * its front buffer when FRONT: single-buffered visuals). */
void ws_read_state_set(const ws_read_state *s, int fbo, bool front)
{
    if (s->has_fbo) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)fbo);
        glReadBuffer(fbo ? GL_COLOR_ATTACHMENT0 : front ? GL_FRONT : GL_BACK);
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    if (s->has_pbo) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        glPixelStorei(GL_PACK_ROW_LENGTH, 0);
        glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
        glPixelStorei(GL_PACK_SKIP_ROWS, 0);
    }
}

void ws_read_state_restore(const ws_read_state *s)
{
    glPixelStorei(GL_PACK_ALIGNMENT, s->pack_align);
    if (s->has_pbo) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)s->pbo);
        glPixelStorei(GL_PACK_ROW_LENGTH, s->row_len);
        glPixelStorei(GL_PACK_SKIP_PIXELS, s->skip_px);
        glPixelStorei(GL_PACK_SKIP_ROWS, s->skip_rows);
    }
    if (s->has_fbo) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)s->read_fbo);
        glReadBuffer((GLenum)s->read_buf);
    }
}

