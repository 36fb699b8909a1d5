/* The image sections of the state dump, each image an object as apitrace writes it
 * ("__class__": "image", "__width__", "__height__", "__depth__", "__format__",
 * "__data__": base64): colour and stencil as PNG (RGB; RGBA on GLES, which reads only
 * RGBA), depth as apitrace's float map ("Pf", width height, "1", rows of 32-bit floats,
 * the top row first).
 *   "textures": every level of each 1D, 2D and rectangle texture bound in a unit,
 *   "GL_TEXTUREu, TARGET, level = L" (desktop GL: GLES has no glGetTexImage).
 *   "framebuffer": the window's colour (named by its draw buffer, GL_BACK), depth
 *   ("GL_DEPTH_COMPONENT") and stencil ("GL_STENCIL_INDEX"), or a bound framebuffer
 *   object's colour attachments (named GL_COLOR_ATTACHMENTi), depth and stencil. */
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glretrace.h"
#include "gt_png.h"
#include "state_dump.h"

typedef enum { IMG_COLOR, IMG_DEPTH, IMG_STENCIL } img_kind;

/* Encodes W x H pixels read bottom first (RGBA bytes, floats or bytes by KIND). */
static int encode(gt_strbuf *out, img_kind kind, const uint8_t *px, int w, int h, bool alpha)
{
    gt_error err;
    gt_error_clear(&err);
    if (kind == IMG_DEPTH) { /* the top row first, as apitrace writes its float maps */
        gt_strbuf_printf(out, "Pf\n%d %d\n1\n", w, h);
        for (int y = h - 1; y >= 0; --y)
            gt_strbuf_put(out, (const char *)px + (size_t)y * (size_t)w * 4, (size_t)w * 4);
        return out->oom ? -1 : 0;
    }
    if (kind == IMG_STENCIL)
        return gt_png_encode(out, px, (unsigned)w, (unsigned)h, 1, (size_t)w, true, &err);
    if (!alpha)
        gt_png_rgba_to_rgb((uint8_t *)px, (size_t)w * (size_t)h);
    unsigned channels = alpha ? 4 : 3;
    return gt_png_encode(out, px, (unsigned)w, (unsigned)h, channels, (size_t)w * channels, true,
                         &err);
}

static void write_image(sj *w, const char *key, const char *format, int width, int height,
                        img_kind kind, const uint8_t *px, bool alpha)
{
    gt_strbuf data;
    gt_strbuf_init(&data);
    if (encode(&data, kind, px, width, height, alpha) == 0) {
        sj_member(w, key);
        sj_begin_object(w);
        sj_member(w, "__class__");
        sj_cstring(w, "image");
        sj_member(w, "__width__");
        sj_int(w, width);
        sj_member(w, "__height__");
        sj_int(w, height);
        sj_member(w, "__depth__");
        sj_int(w, 1);
        sj_member(w, "__format__");
        sj_cstring(w, format);
        sj_member(w, "__data__");
        sj_base64(w, (const uint8_t *)data.data, data.len);
        sj_end_object(w);
    }
    gt_strbuf_free(&data);
}

static uint8_t *pixels(int w, int h)
{
    if (w <= 0 || h <= 0 || w > 32768 || h > 32768)
        return NULL;
    return calloc((size_t)w * (size_t)h, 4);
}

/* Reads the read framebuffer's KIND as KEY. */
static void read_buffer(sj *w, const char *key, img_kind kind, int width, int height)
{
    uint8_t *px = pixels(width, height);
    if (!px)
        return;
    bool es = !epoxy_is_desktop_gl();
    state_clear_errors();
    if (kind == IMG_DEPTH)
        glReadPixels(0, 0, width, height, GL_DEPTH_COMPONENT, GL_FLOAT, px);
    else if (kind == IMG_STENCIL)
        glReadPixels(0, 0, width, height, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, px);
    else
        glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (!state_failed()) {
        const char *format = kind == IMG_DEPTH ? "GL_DEPTH_COMPONENT"
                             : kind == IMG_STENCIL ? "GL_STENCIL_INDEX"
                             : es ? "GL_RGBA" : "GL_RGB";
        write_image(w, key, format, width, height, kind, px, es);
    }
    free(px);
}

/* The kind of object attached at ATT of the read framebuffer; GL_NONE when none. */
static GLint attachment_type(GLenum att)
{
    GLint type = GL_NONE;
    if (!state_has("glGetFramebufferAttachmentParameteriv"))
        return GL_NONE;
    state_clear_errors();
    glGetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, att,
                                          GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    return state_failed() ? GL_NONE : type;
}

/* A framebuffer object bound for drawing: its colour attachments, depth, stencil. */
static void write_fbo(sj *w, int width, int height)
{
    GLint colors = state_get_int(GL_MAX_COLOR_ATTACHMENTS, 0);
    for (GLint i = 0; i < colors && i < 64; ++i) {
        GLenum att = GL_COLOR_ATTACHMENT0 + (GLenum)i;
        if (attachment_type(att) == GL_NONE)
            continue;
        char key[40];
        snprintf(key, sizeof key, "GL_COLOR_ATTACHMENT%d", i);
        glReadBuffer(att);
        read_buffer(w, key, IMG_COLOR, width, height);
    }
    if (attachment_type(GL_DEPTH_ATTACHMENT) != GL_NONE)
        read_buffer(w, "GL_DEPTH_COMPONENT", IMG_DEPTH, width, height);
    if (attachment_type(GL_STENCIL_ATTACHMENT) != GL_NONE)
        read_buffer(w, "GL_STENCIL_INDEX", IMG_STENCIL, width, height);
}

static void write_framebuffer(sj *w, bool single_buffer)
{
    sj_member(w, "framebuffer");
    sj_begin_object(w);
    int width = 0, height = 0;
    ws_current_size(&width, &height);
    read_state saved;
    read_state_save(&saved);
    if (saved.draw_fbo) { /* an FBO: what the viewport covers, as snapshots read it */
        GLint vp[4] = {0, 0, 0, 0};
        glGetIntegerv(GL_VIEWPORT, vp);
        if (vp[2] > 0 && vp[3] > 0) {
            width = vp[0] + vp[2];
            height = vp[1] + vp[3];
        }
    }
    read_state_set(&saved, saved.draw_fbo, single_buffer);
    if (saved.draw_fbo) {
        write_fbo(w, width, height);
    } else if (width > 0 && height > 0) {
        GLint draw = state_get_int(GL_DRAW_BUFFER, 0);
        const char *name = state_enum_name((unsigned)(draw ? draw : GL_BACK));
        read_buffer(w, name ? name : "GL_BACK", IMG_COLOR, width, height);
        if (state_get_int(GL_DEPTH_BITS, 0) > 0)
            read_buffer(w, "GL_DEPTH_COMPONENT", IMG_DEPTH, width, height);
        if (state_get_int(GL_STENCIL_BITS, 0) > 0)
            read_buffer(w, "GL_STENCIL_INDEX", IMG_STENCIL, width, height);
    }
    read_state_restore(&saved);
    state_clear_errors();
    sj_end_object(w);
}

/* Every level of the texture bound to TARGET in the active unit. */
static void write_texture_levels(sj *w, GLint unit, GLenum target, const char *target_name)
{
    GLint base = 0, max = 1000;
    glGetTexParameteriv(target, GL_TEXTURE_BASE_LEVEL, &base);
    glGetTexParameteriv(target, GL_TEXTURE_MAX_LEVEL, &max);
    for (GLint level = base < 0 ? 0 : base; level <= max && level < 32; ++level) {
        GLint width = 0, height = 0, format = 0, alpha = 0, depth = 0;
        glGetTexLevelParameteriv(target, level, GL_TEXTURE_WIDTH, &width);
        glGetTexLevelParameteriv(target, level, GL_TEXTURE_HEIGHT, &height);
        glGetTexLevelParameteriv(target, level, GL_TEXTURE_INTERNAL_FORMAT, &format);
        glGetTexLevelParameteriv(target, level, GL_TEXTURE_ALPHA_SIZE, &alpha);
        glGetTexLevelParameteriv(target, level, GL_TEXTURE_DEPTH_SIZE, &depth);
        if (state_failed() || width <= 0 || height <= 0)
            break;
        uint8_t *px = pixels(width, height);
        if (!px)
            break;
        img_kind kind = depth > 0 ? IMG_DEPTH : IMG_COLOR;
        glGetTexImage(target, level, depth > 0 ? GL_DEPTH_COMPONENT : GL_RGBA,
                      depth > 0 ? GL_FLOAT : GL_UNSIGNED_BYTE, px);
        if (!state_failed()) {
            char key[128];
            snprintf(key, sizeof key, "GL_TEXTURE%d, %s, level = %d", unit, target_name, level);
            const char *fname = state_enum_name((unsigned)format);
            char num[16];
            snprintf(num, sizeof num, "%d", format);
            write_image(w, key, fname ? fname : num, width, height, kind, px, alpha > 0);
        }
        free(px);
    }
}

static void write_textures(sj *w)
{
    static const struct { GLenum target, binding; const char *name; } targets[] = {
        {GL_TEXTURE_1D, GL_TEXTURE_BINDING_1D, "GL_TEXTURE_1D"},
        {GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D, "GL_TEXTURE_2D"},
        {GL_TEXTURE_RECTANGLE, GL_TEXTURE_BINDING_RECTANGLE, "GL_TEXTURE_RECTANGLE"},
    };
    sj_member(w, "textures");
    sj_begin_object(w);
    if (epoxy_is_desktop_gl() && state_has("glGetTexImage") && state_has("glActiveTexture")) {
        read_state saved;
        read_state_save(&saved);
        read_state_set(&saved, saved.read_fbo, false);
        GLint active = state_get_int(GL_ACTIVE_TEXTURE, 0);
        GLint units = state_get_int(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, 0);
        for (GLint u = 0; u < units && u < 1024; ++u) {
            glActiveTexture(GL_TEXTURE0 + (GLenum)u);
            for (size_t k = 0; k < sizeof targets / sizeof *targets; ++k)
                if (state_get_int(targets[k].binding, 0) > 0)
                    write_texture_levels(w, u, targets[k].target, targets[k].name);
        }
        glActiveTexture(active ? (GLenum)active : GL_TEXTURE0);
        read_state_restore(&saved);
        state_clear_errors();
    }
    sj_end_object(w);
}

void state_write_images(sj *w, bool single_buffer)
{
    write_textures(w);
    write_framebuffer(w, single_buffer);
}
