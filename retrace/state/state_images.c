/* The image sections of the state dump, each image an object as apitrace writes it
 * ("__class__": "image", "__width__", "__height__", "__depth__", "__format__": the
 * internal format's name, "__data__": base64), in apitrace 11's formats: normalized
 * colour as PNG, RGB or RGBA as the format has alpha (apitrace's read-back choice);
 * floating-point colour as its float maps ("PF" RGB, "PX" RGBA); depth as the float
 * map "Pf"; stencil as a grey PNG. Float maps are "Pf"/"PF"/"PX", "width height",
 * "1", then rows of 32-bit floats, the top row first.
 *   "textures": every level of each texture bound in a unit (1D, 2D, rectangle, each
 *   face of a cube map, 3D and array textures as one image of their slices stacked,
 *   "__depth__" the slices), "GL_TEXTUREu, TARGET, level = L" (no level for
 *   rectangles), levels from 0 until one does not exist, as apitrace; on GLES, which
 *   has no glGetTexImage, as apitrace reads them: 2D textures and cube maps, levels
 *   found by probing, read through a framebuffer object, "__format__" GL_RGBA.
 *   "framebuffer": the window's colour (named by its draw buffer, GL_BACK; "GL_RGB" on
 *   GLES too, where it is read as RGBA), depth ("GL_DEPTH_COMPONENT") and stencil
 *   ("GL_STENCIL_INDEX"); or a bound framebuffer object's attachments, as apitrace
 *   reads them: each draw buffer's colour attachment, then (desktop GL) the depth and
 *   stencil attachments ("GL_DEPTH_ATTACHMENT", "GL_STENCIL_ATTACHMENT"; a
 *   depth-stencil one under both), each its own size and internal format, a
 *   multisampled one resolved first; nothing for an incomplete framebuffer. */
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_png.h"
#include "state_dump.h"
#include "ws/ws.h"

/* How an image is read back and written: apitrace's choice for its internal format. */
typedef struct readback {
    GLenum format, type; /* glReadPixels / glGetTexImage */
    unsigned channels;   /* 1 (depth, stencil), 3 or 4 */
    bool floats;         /* a float map, else a PNG */
} readback;

static const readback RB_RGB = {GL_RGB, GL_UNSIGNED_BYTE, 3, false};
static const readback RB_RGBA = {GL_RGBA, GL_UNSIGNED_BYTE, 4, false};
static const readback RB_DEPTH = {GL_DEPTH_COMPONENT, GL_FLOAT, 1, true};
static const readback RB_STENCIL = {GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, 1, false};

/* The colour read-back of a format with ALPHA bits and components of TYPE
 * (GL_FLOAT, GL_UNSIGNED_NORMALIZED, GL_INT, ...): false for integer formats, which
 * apitrace's formats do not cover. */
static bool color_readback(GLint alpha, GLint type, readback *rb)
{
    if (type == GL_INT || type == GL_UNSIGNED_INT)
        return false;
    *rb = alpha > 0 ? RB_RGBA : RB_RGB;
    if (type == GL_FLOAT) {
        rb->type = GL_FLOAT;
        rb->floats = true;
    }
    return true;
}

/* The name apitrace gives internal format F (1 to 4: GL 1.0's component counts). */
static void format_name(GLint f, char *buf, size_t n)
{
    static const char *const counts[] = {"GL_LUMINANCE", "GL_LUMINANCE_ALPHA", "GL_RGB", "GL_RGBA"};
    const char *name = f >= 1 && f <= 4 ? counts[f - 1] : state_enum_name((unsigned)f);
    if (name)
        snprintf(buf, n, "%s", name);
    else
        snprintf(buf, n, "%d", f);
}

/* Encodes W x H pixels read bottom first as RB says. */
static int encode(gt_strbuf *out, const readback *rb, const uint8_t *px, int w, int h)
{
    gt_error err;
    gt_error_clear(&err);
    if (rb->floats) { /* the top row first, as apitrace writes its float maps */
        const char *magic = rb->channels == 1 ? "Pf" : rb->channels == 3 ? "PF" : "PX";
        size_t row = (size_t)w * 4 * rb->channels;
        gt_strbuf_printf(out, "%s\n%d %d\n1\n", magic, w, h);
        for (int y = h - 1; y >= 0; --y)
            gt_strbuf_put(out, (const char *)px + (size_t)y * row, row);
        return out->oom ? -1 : 0;
    }
    return gt_png_encode(out, px, (unsigned)w, (unsigned)h, rb->channels,
                         (size_t)w * rb->channels, true, &err);
}

/* An image of DEPTH slices of HEIGHT rows each, stacked (3D and array textures): one
 * picture of HEIGHT x DEPTH rows, "__height__" a slice's, as apitrace writes them. */
static void write_image_slices(sj *w, const char *key, const char *format, int width, int height,
                               int depth, const readback *rb, const uint8_t *px)
{
    gt_strbuf data;
    gt_strbuf_init(&data);
    if (encode(&data, rb, px, width, height * depth) == 0) {
        sj_member(w, key);
        sj_begin_object(w);
        sj_member(w, "__class__");
        sj_cstring(w, "image");
        sj_member(w, "__width__");
        sj_int(w, width);
        sj_member(w, "__height__");
        sj_int(w, height);
        sj_member(w, "__depth__");
        sj_int(w, depth);
        sj_member(w, "__format__");
        sj_cstring(w, format);
        sj_member(w, "__data__");
        sj_base64(w, (const uint8_t *)data.data, data.len);
        sj_end_object(w);
    }
    gt_strbuf_free(&data);
}

static void write_image(sj *w, const char *key, const char *format, int width, int height,
                        const readback *rb, const uint8_t *px)
{
    write_image_slices(w, key, format, width, height, 1, rb, px);
}

/* Room for W x H pixels of 4 floats (the largest read-back). */
static uint8_t *pixels(int w, int h)
{
    if (w <= 0 || h <= 0 || w > 32768 || h > 32768)
        return NULL;
    return calloc((size_t)w * (size_t)h, 16);
}

/* Reads W x H of the read framebuffer's read buffer (or depth, stencil) as RB says and
 * writes it as KEY with FORMAT. On GLES, which reads only RGBA bytes, colour is read so
 * (apitrace does the same, keeping the format's name). */
static void read_buffer(sj *w, const char *key, const char *format, int width, int height,
                        readback rb)
{
    if (!epoxy_is_desktop_gl() && rb.format != GL_DEPTH_COMPONENT && rb.format != GL_STENCIL_INDEX)
        rb = RB_RGBA;
    uint8_t *px = pixels(width, height);
    if (!px)
        return;
    state_clear_errors();
    glReadPixels(0, 0, width, height, rb.format, rb.type, px);
    if (!state_failed())
        write_image(w, key, format, width, height, &rb, px);
    free(px);
}

/* ---- framebuffer objects ---------------------------------------------------------- */

/* The target a framebuffer is read through: GLES 2 has only GL_FRAMEBUFFER. */
static GLenum read_target(void)
{
    return epoxy_is_desktop_gl() || epoxy_gl_version() >= 30 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
}

/* What is attached at ATT of the framebuffer bound to TARGET: its size, samples and
 * internal format (apitrace's getFramebufferAttachmentDesc). */
typedef struct attachment {
    GLint type, name, width, height, samples, internal;
} attachment;

static GLint fb_param(GLenum target, GLenum att, GLenum pname)
{
    GLint v = 0;
    state_clear_errors();
    glGetFramebufferAttachmentParameteriv(target, att, pname, &v);
    return state_failed() ? 0 : v;
}

/* The level's size and format of texture NAME, found by binding it to each target in
 * turn (apitrace's getTextureTarget), the binding put back. */
static bool texture_level_desc(GLint name, GLint level, GLint face, attachment *a)
{
    static const struct { GLenum target, binding; } targets[] = {
        {GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D},
        {GL_TEXTURE_1D, GL_TEXTURE_BINDING_1D},
        {GL_TEXTURE_RECTANGLE, GL_TEXTURE_BINDING_RECTANGLE},
        {GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP},
        {GL_TEXTURE_3D, GL_TEXTURE_BINDING_3D},
        {GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_BINDING_2D_MULTISAMPLE},
        {GL_TEXTURE_2D_ARRAY, GL_TEXTURE_BINDING_2D_ARRAY},
        {GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY},
        {GL_TEXTURE_1D_ARRAY, GL_TEXTURE_BINDING_1D_ARRAY},
        {GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_BINDING_CUBE_MAP_ARRAY},
    };
    if (!state_has("glBindTexture") || !state_has("glGetTexLevelParameteriv"))
        return false;
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; ++i) {
        GLint bound = state_get_int(targets[i].binding, -1);
        if (bound < 0)
            continue; /* the context lacks the target */
        state_clear_errors();
        glBindTexture(targets[i].target, (GLuint)name);
        if (state_failed())
            continue; /* a texture of another target */
        GLenum level_target = face ? (GLenum)face : targets[i].target;
        glGetTexLevelParameteriv(level_target, level, GL_TEXTURE_WIDTH, &a->width);
        glGetTexLevelParameteriv(level_target, level, GL_TEXTURE_HEIGHT, &a->height);
        glGetTexLevelParameteriv(level_target, level, GL_TEXTURE_INTERNAL_FORMAT, &a->internal);
        glGetTexLevelParameteriv(level_target, level, GL_TEXTURE_SAMPLES, &a->samples);
        state_clear_errors();
        glBindTexture(targets[i].target, (GLuint)bound);
        return true;
    }
    return false;
}

static bool attachment_desc(GLenum target, GLenum att, attachment *a)
{
    *a = (attachment){0};
    a->type = fb_param(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE);
    a->name = fb_param(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME);
    if (a->type == GL_NONE || a->name == 0)
        return false;
    if (a->type == GL_RENDERBUFFER) {
        if (!state_has("glBindRenderbuffer") || !state_has("glGetRenderbufferParameteriv"))
            return false;
        GLint bound = state_get_int(GL_RENDERBUFFER_BINDING, 0);
        glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)a->name);
        glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &a->width);
        glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, &a->height);
        glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &a->samples);
        glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, &a->internal);
        glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)bound);
    } else if (a->type == GL_TEXTURE) {
        if (!epoxy_is_desktop_gl() && epoxy_gl_version() < 31) {
            /* GLES before 3.1 cannot ask a level's size: the viewport's, and
             * apitrace's guess of the format */
            GLint vp[4] = {0, 0, 0, 0};
            glGetIntegerv(GL_VIEWPORT, vp);
            a->width = vp[0] + vp[2];
            a->height = vp[1] + vp[3];
            a->internal = GL_RGBA;
        } else if (!texture_level_desc(a->name,
                                       fb_param(target, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL),
                                       fb_param(target, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE),
                                       a)) {
            return false;
        }
    } else {
        return false;
    }
    state_clear_errors();
    return a->width > 0 && a->height > 0;
}

/* One attachment of the framebuffer bound for reading (a colour one already chosen
 * with glReadBuffer), as "ATTACHMENT". */
static void write_attachment(sj *w, GLenum att)
{
    attachment a;
    GLenum target = read_target();
    if (!attachment_desc(target, att, &a))
        return;
    readback rb;
    if (att == GL_DEPTH_ATTACHMENT) {
        rb = RB_DEPTH;
    } else if (att == GL_STENCIL_ATTACHMENT) {
        rb = RB_STENCIL;
    } else if (!color_readback(fb_param(target, att, GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE),
                               fb_param(target, att, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE),
                               &rb)) {
        return;
    }
    if (!epoxy_is_desktop_gl() && a.type == GL_TEXTURE && epoxy_gl_version() < 31)
        rb = RB_RGBA; /* apitrace's guess, GL_RGBA */
    char key[48], format[48];
    const char *att_name = state_enum_name(att);
    snprintf(key, sizeof key, "%s", att_name ? att_name : "GL_COLOR_ATTACHMENT0");
    format_name(a.internal, format, sizeof format);
    read_buffer(w, key, format, a.width, a.height, rb);
}

/* A multisampled framebuffer's draw buffer 0, depth and stencil resolved into a new
 * framebuffer of renderbuffers of the same formats (glReadPixels cannot read samples),
 * as apitrace does; 0 when nothing is multisampled. */
typedef struct resolved {
    GLuint fbo, rbs[3];
    int n;
} resolved;

static void resolve_one(resolved *r, GLint src, GLenum att, const attachment *a, GLbitfield mask)
{
    glGenRenderbuffers(1, &r->rbs[r->n]);
    glBindRenderbuffer(GL_RENDERBUFFER, r->rbs[r->n]);
    glRenderbufferStorage(GL_RENDERBUFFER, (GLenum)a->internal, a->width, a->height);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo);
    glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, att, GL_RENDERBUFFER, r->rbs[r->n]);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)src);
    glBlitFramebuffer(0, 0, a->width, a->height, 0, 0, a->width, a->height, mask, GL_NEAREST);
    r->n++;
}

static bool resolve(GLint fbo, GLenum draw0, resolved *r)
{
    attachment c = {0}, d = {0}, s = {0};
    bool has_c = draw0 != GL_NONE && attachment_desc(GL_DRAW_FRAMEBUFFER, draw0, &c);
    bool has_d = attachment_desc(GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, &d);
    bool has_s = attachment_desc(GL_DRAW_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, &s);
    if (!(has_c && c.samples) && !(has_d && d.samples) && !(has_s && s.samples))
        return false;
    if (!state_has("glGenFramebuffers") || !state_has("glBlitFramebuffer") ||
        !state_has("glRenderbufferStorage") || !state_has("glDrawBuffer"))
        return false;
    GLint rb = state_get_int(GL_RENDERBUFFER_BINDING, 0);
    *r = (resolved){0};
    glGenFramebuffers(1, &r->fbo);
    if (has_c) {
        resolve_one(r, fbo, draw0, &c, GL_COLOR_BUFFER_BIT);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo);
        glDrawBuffer(draw0);
    }
    if (has_d && has_s && d.name == s.name) {
        resolve_one(r, fbo, GL_DEPTH_STENCIL_ATTACHMENT, &d, GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    } else {
        if (has_d)
            resolve_one(r, fbo, GL_DEPTH_ATTACHMENT, &d, GL_DEPTH_BUFFER_BIT);
        if (has_s)
            resolve_one(r, fbo, GL_STENCIL_ATTACHMENT, &s, GL_STENCIL_BUFFER_BIT);
    }
    glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)rb);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo);
    state_clear_errors();
    return true;
}

/* The framebuffer object bound for drawing, read through GL_READ_FRAMEBUFFER. */
static void write_fbo(sj *w, GLint fbo)
{
    bool desktop = epoxy_is_desktop_gl();
    GLint draw_fbo = fbo;
    resolved r = {0};
    bool resolved_fbo = desktop && resolve(fbo, (GLenum)state_get_int(GL_DRAW_BUFFER0, GL_NONE), &r);
    if (resolved_fbo)
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r.fbo); /* its draw buffers say what to read */
    state_clear_errors();
    if (state_has("glCheckFramebufferStatus") &&
        glCheckFramebufferStatus(read_target()) == GL_FRAMEBUFFER_COMPLETE) {
        GLint max_draw = state_get_int(GL_MAX_DRAW_BUFFERS, 1);
        GLint max_color = state_get_int(GL_MAX_COLOR_ATTACHMENTS, 0);
        for (GLint i = 0; i < max_draw && i < 64; ++i) {
            GLint buf = state_get_int(GL_DRAW_BUFFER0 + (GLenum)i, GL_NONE);
            if (buf == GL_NONE)
                continue;
            GLenum att = buf >= GL_COLOR_ATTACHMENT0 && buf < GL_COLOR_ATTACHMENT0 + max_color
                             ? (GLenum)buf
                             : GL_COLOR_ATTACHMENT0;
            if (state_has("glReadBuffer"))
                glReadBuffer(att);
            write_attachment(w, att);
        }
        if (desktop) {
            write_attachment(w, GL_DEPTH_ATTACHMENT);
            write_attachment(w, GL_STENCIL_ATTACHMENT);
        }
    }
    state_clear_errors();
    if (resolved_fbo) {
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)draw_fbo);
        glDeleteRenderbuffers(r.n, r.rbs);
        glDeleteFramebuffers(1, &r.fbo);
    }
}

/* ---- the window and the sections --------------------------------------------------- */

static void write_window(sj *w)
{
    int width = 0, height = 0;
    ws_current_size(&width, &height);
    if (width <= 0 || height <= 0)
        return;
    /* the colour buffer's format: apitrace reads RGB (GLES: RGBA, named GL_RGB) */
    if (epoxy_is_desktop_gl()) {
        GLint draw = state_get_int(GL_DRAW_BUFFER, GL_BACK);
        if (draw != GL_NONE) {
            const char *name = state_enum_name((unsigned)draw);
            if (state_has("glReadBuffer"))
                glReadBuffer((GLenum)draw);
            read_buffer(w, name ? name : "GL_BACK", "GL_RGB", width, height, RB_RGB);
        }
    } else {
        read_buffer(w, "GL_BACK", "GL_RGB", width, height, RB_RGB);
    }
    if (state_get_int(GL_DEPTH_BITS, 0) > 0)
        read_buffer(w, "GL_DEPTH_COMPONENT", "GL_DEPTH_COMPONENT", width, height, RB_DEPTH);
    if (state_get_int(GL_STENCIL_BITS, 0) > 0)
        read_buffer(w, "GL_STENCIL_INDEX", "GL_STENCIL_INDEX", width, height, RB_STENCIL);
}

static void write_framebuffer(sj *w, bool single_buffer)
{
    sj_member(w, "framebuffer");
    sj_begin_object(w);
    ws_read_state saved;
    ws_read_state_save(&saved);
    ws_read_state_set(&saved, saved.draw_fbo, single_buffer);
    if (saved.draw_fbo)
        write_fbo(w, saved.draw_fbo);
    else
        write_window(w);
    ws_read_state_restore(&saved);
    state_clear_errors();
    sj_end_object(w);
}

/* A texture target as apitrace dumps it: its binding, and whether its images have a
 * height (1D: none), layers or slices (stacked under each other: height x depth), faces
 * (a cube map: its six, each its own image) and levels (rectangles: none). */
typedef struct tex_target {
    GLenum target, binding;
    bool height, depth, faces, levels;
} tex_target;

/* apitrace's order (glstate_images.cpp's textureTargets, without multisample and
 * buffer textures, which glGetTexImage cannot read) */
static const tex_target tex_targets[] = {
    {GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D, true, false, false, true},
    {GL_TEXTURE_1D, GL_TEXTURE_BINDING_1D, false, false, false, true},
    {GL_TEXTURE_RECTANGLE, GL_TEXTURE_BINDING_RECTANGLE, true, false, false, false},
    {GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP, true, false, true, true},
    {GL_TEXTURE_3D, GL_TEXTURE_BINDING_3D, true, true, false, true},
    {GL_TEXTURE_2D_ARRAY, GL_TEXTURE_BINDING_2D_ARRAY, true, true, false, true},
    {GL_TEXTURE_1D_ARRAY, GL_TEXTURE_BINDING_1D_ARRAY, true, false, false, true},
    {GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_BINDING_CUBE_MAP_ARRAY, true, true, false, true},
};

/* One image (LEVEL of SUBTARGET, a face or the target) as KEY; false when the level
 * does not exist, which ends the texture's levels as it ends apitrace's. */
static bool write_texture_image(sj *w, const tex_target *t, GLenum subtarget, GLint level,
                                const char *key)
{
    GLint width = 0, height = 1, depth = 1, format = 0, alpha = 0, depth_bits = 0;
    GLint red_type = GL_NONE;
    state_clear_errors();
    glGetTexLevelParameteriv(subtarget, level, GL_TEXTURE_WIDTH, &width);
    if (t->height)
        glGetTexLevelParameteriv(subtarget, level, GL_TEXTURE_HEIGHT, &height);
    if (t->depth)
        glGetTexLevelParameteriv(subtarget, level, GL_TEXTURE_DEPTH, &depth);
    glGetTexLevelParameteriv(subtarget, level, GL_TEXTURE_INTERNAL_FORMAT, &format);
    glGetTexLevelParameteriv(subtarget, level, GL_TEXTURE_ALPHA_SIZE, &alpha);
    glGetTexLevelParameteriv(subtarget, level, GL_TEXTURE_DEPTH_SIZE, &depth_bits);
    if (state_failed() || width <= 0 || height <= 0 || depth <= 0 || height > 32768 / depth)
        return false;
    glGetTexLevelParameteriv(subtarget, level, GL_TEXTURE_RED_TYPE, &red_type);
    if (state_failed()) /* before GL 3.0: normalized */
        red_type = GL_UNSIGNED_NORMALIZED;
    readback rb = RB_DEPTH;
    if (depth_bits <= 0 && !color_readback(alpha, red_type, &rb))
        return true; /* integer texels: not apitrace's formats, the next level may be */
    uint8_t *px = pixels(width, height * depth);
    if (!px)
        return false;
    glGetTexImage(subtarget, level, rb.format, rb.type, px);
    if (!state_failed()) {
        char fname[48];
        format_name(format, fname, sizeof fname);
        /* slices one after the other, as glGetTexImage returns them and apitrace
         * writes them: one image of height x depth rows, __depth__ the slices */
        write_image_slices(w, key, fname, width, height, depth, &rb, px);
    }
    free(px);
    return true;
}

/* Every level of the texture bound to T in the active unit (UNIT), each face of a cube
 * map, as "GL_TEXTUREu, SUBTARGET[, level = L]" until a level does not exist. */
static void write_texture_levels(sj *w, GLint unit, const tex_target *t)
{
    for (GLint level = 0; level < 32; ++level) {
        int faces = t->faces ? 6 : 1;
        for (int f = 0; f < faces; ++f) {
            GLenum sub = t->faces ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f : t->target;
            const char *name = state_enum_name(sub);
            char key[160];
            if (t->levels)
                snprintf(key, sizeof key, "GL_TEXTURE%d, %s, level = %d", unit, name ? name : "?",
                         level);
            else
                snprintf(key, sizeof key, "GL_TEXTURE%d, %s", unit, name ? name : "?");
            if (!write_texture_image(w, t, sub, level, key))
                return;
        }
        if (!t->levels)
            return;
    }
}

/* GLES: whether LEVEL of TARGET holds a texel at (x, y): a glTexSubImage2D of no texels
 * there is an error past the level's size (apitrace's probe: GLES 2 cannot ask sizes). */
static bool es_probe(GLenum target, GLint level, GLint x, GLint y)
{
    GLint dummy = 0;
    state_clear_errors();
    glTexSubImage2D(target, level, x, y, 0, 0, GL_RGBA, GL_UNSIGNED_BYTE, &dummy);
    return !state_failed();
}

/* The largest offset along X (or Y) the probe accepts: the level's width (height). */
static GLint es_bisect(GLenum target, GLint level, bool y, GLint max)
{
    GLint lo = 0;
    for (;;) {
        GLint mid = (lo + max) / 2;
        if (mid == lo)
            return lo;
        if (es_probe(target, level, y ? 0 : mid, y ? mid : 0))
            lo = mid;
        else
            max = mid;
    }
}

/* GLES's textures as apitrace reads them: the 2D texture and cube map bound in the
 * active unit, each level found by probing, read as RGBA through a framebuffer object
 * the level is attached to as a 2D texture (a cube map's faces cannot be: apitrace
 * writes them grey, 0x80, and so does this), "__format__" GL_RGBA (apitrace's guess). */
static void write_es_textures_of_unit(sj *w, GLint unit)
{
    static const struct { GLenum target, binding; } targets[] = {
        {GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D},
        {GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP},
    };
    for (size_t k = 0; k < 2; ++k) {
        GLint texture = state_get_int(targets[k].binding, 0);
        if (texture <= 0)
            continue;
        bool cube = targets[k].target == GL_TEXTURE_CUBE_MAP;
        GLint max = state_get_int(cube ? GL_MAX_CUBE_MAP_TEXTURE_SIZE : GL_MAX_TEXTURE_SIZE, 0);
        for (GLint level = 0; level < 32; ++level) {
            for (int f = 0; f < (cube ? 6 : 1); ++f) {
                GLenum sub = cube ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f : GL_TEXTURE_2D;
                if (!es_probe(sub, level, 1, 1))
                    goto next_target;
                GLint width = es_bisect(sub, level, false, max);
                GLint height = cube ? width : es_bisect(sub, level, true, max);
                uint8_t *px = pixels(width, height);
                if (!px)
                    goto next_target;
                memset(px, 0x80, (size_t)width * (size_t)height * 4);
                GLint prev = state_get_int(GL_FRAMEBUFFER_BINDING, 0);
                GLuint fbo = 0;
                glGenFramebuffers(1, &fbo);
                glBindFramebuffer(GL_FRAMEBUFFER, fbo);
                glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                                       (GLuint)texture, level);
                if (glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE)
                    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, px);
                glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)prev);
                glDeleteFramebuffers(1, &fbo);
                state_clear_errors();
                const char *name = state_enum_name(sub);
                char key[160];
                snprintf(key, sizeof key, "GL_TEXTURE%d, %s, level = %d", unit, name ? name : "?", level);
                write_image(w, key, "GL_RGBA", width, height, &RB_RGBA, px);
                free(px);
            }
        }
    next_target:;
    }
}

static void write_textures(sj *w)
{
    sj_member(w, "textures");
    sj_begin_object(w);
    if (epoxy_is_desktop_gl() && state_has("glGetTexImage") && state_has("glActiveTexture")) {
        ws_read_state saved;
        ws_read_state_save(&saved);
        ws_read_state_set(&saved, saved.read_fbo, false);
        GLint active = state_get_int(GL_ACTIVE_TEXTURE, 0);
        GLint units = state_get_int(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, 0);
        for (GLint u = 0; u < units && u < 1024; ++u) {
            glActiveTexture(GL_TEXTURE0 + (GLenum)u);
            for (size_t k = 0; k < sizeof tex_targets / sizeof *tex_targets; ++k)
                if (state_get_int(tex_targets[k].binding, 0) > 0)
                    write_texture_levels(w, u, &tex_targets[k]);
        }
        glActiveTexture(active ? (GLenum)active : GL_TEXTURE0);
        ws_read_state_restore(&saved);
        state_clear_errors();
    } else if (!epoxy_is_desktop_gl() && state_has("glActiveTexture") &&
               state_has("glGenFramebuffers") && state_has("glCheckFramebufferStatus")) {
        GLint pack = state_get_int(GL_PACK_ALIGNMENT, 4);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        GLint active = state_get_int(GL_ACTIVE_TEXTURE, 0);
        GLint units = state_get_int(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, 2);
        for (GLint u = 0; u < (units > 2 ? units : 2) && u < 1024; ++u) {
            glActiveTexture(GL_TEXTURE0 + (GLenum)u);
            write_es_textures_of_unit(w, u);
        }
        glActiveTexture(active ? (GLenum)active : GL_TEXTURE0);
        glPixelStorei(GL_PACK_ALIGNMENT, pack);
        state_clear_errors();
    }
    sj_end_object(w);
}

void state_write_images(sj *w, bool single_buffer)
{
    write_textures(w);
    write_framebuffer(w, single_buffer);
}
