/* The state snapshot's renderbuffers (snapshot.h): each live renderbuffer re-created
 * with glGenRenderbuffers, glBindRenderbuffer and glRenderbufferStorage[Multisample],
 * and its contents, which no call uploads directly: the snapshot reads them through a
 * temporary framebuffer (glReadPixels), and writes an upload into a temporary texture of
 * the same format, a blit from it into the renderbuffer through two temporary
 * framebuffers, and their deletion. The temporaries take names above every name the
 * program has made, so that they collide with none of the range's.
 *
 * GL reads every format snap_formats.c knows, colour, depth and stencil; GLES reads
 * only colour in fixed point, as RGBA bytes, and blits (GLES 3). Multisample
 * renderbuffers are read sample by sample through a temporary multisample texture, and
 * drawn into (snap_multisample.h). */
#include "snap_objects.h"

#include <stdio.h>
#include <stdlib.h>

#include "gl_enums.gen.h"
#include "protos.gen.h"
#include "snap_multisample.h"

struct renderbuffer {
    uint32_t name;
    int width, height, samples, read;
    unsigned internal;
    snap_ms *ms; /* a multisample one's samples */
};

struct renderbuffers {
    size_t n;
    struct renderbuffer *r;
};

/* What GLES reads: fixed-point colour, as RGBA bytes. */
static int es_readable(const snap_format *f)
{
    return f && f->mask == GL_COLOR_BUFFER_BIT &&
           (f->type == GL_UNSIGNED_BYTE || f->type == GL_UNSIGNED_SHORT_5_6_5 ||
            f->type == GL_UNSIGNED_SHORT_4_4_4_4 || f->type == GL_UNSIGNED_SHORT_5_5_5_1 ||
            f->type == GL_UNSIGNED_INT_2_10_10_10_REV) &&
           f->format != GL_RGBA_INTEGER;
}

/* How the snapshot reads and uploads r: the GL format entry, or RGBA8 bytes on GLES. */
static const snap_format *transfer_format(snap *s, const struct renderbuffer *r)
{
    static const snap_format es_rgba = {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4,
                                        GL_COLOR_BUFFER_BIT};
    const snap_format *f = snap_format_of(r->internal);
    if (snap_api(s) == SNAP_API_GLES)
        return es_readable(f) ? &es_rgba : NULL;
    return f;
}

static unsigned attachment_of(unsigned mask)
{
    if (mask == (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
        return GL_DEPTH_STENCIL_ATTACHMENT;
    return mask == GL_DEPTH_BUFFER_BIT     ? GL_DEPTH_ATTACHMENT
           : mask == GL_STENCIL_BUFFER_BIT ? GL_STENCIL_ATTACHMENT
                                           : GL_COLOR_ATTACHMENT0;
}

static int param(unsigned pname)
{
    int v = 0;
    SNAP_REAL(glGetRenderbufferParameteriv)(GL_RENDERBUFFER, pname, &v);
    return v;
}

/* Why r's contents cannot be read and written back here, or NULL. */
static const char *unreadable(snap *s, const struct renderbuffer *r)
{
    int gles = snap_api(s) == SNAP_API_GLES;
    if ((gles && snap_version(s) < 30) || !snap_real_has("glBlitFramebuffer"))
        return "no glBlitFramebuffer to write it with";
    if (!transfer_format(s, r))
        return gles ? "GLES reads back only fixed-point colour"
                    : "internal format not known to the snapshot";
    return NULL;
}

static void collect_one(snap *s, struct renderbuffer *r)
{
    SNAP_REAL(glBindRenderbuffer)(GL_RENDERBUFFER, r->name);
    r->width = param(GL_RENDERBUFFER_WIDTH);
    r->height = param(GL_RENDERBUFFER_HEIGHT);
    r->internal = (unsigned)param(GL_RENDERBUFFER_INTERNAL_FORMAT);
    if (snap_version(s) >= 30)
        r->samples = param(GL_RENDERBUFFER_SAMPLES);
    if (r->width <= 0 || r->height <= 0)
        return;
    if (r->samples > 0) { /* says itself what it cannot read */
        r->ms = snap_ms_read_renderbuffer(s, r->name, r->internal, r->width, r->height,
                                          r->samples);
        return;
    }
    const char *why = unreadable(s, r);
    if (why)
        snap_unreadable(s, "renderbuffer %u: %s, contents not read", r->name, why);
    r->read = !why;
}

static void *collect(snap *s)
{
    if (!snap_real_has("glIsRenderbuffer"))
        return NULL;
    uint32_t *names;
    size_t n = snap_live_names("renderbuffer", SNAP_REAL(glIsRenderbuffer), &names);
    if (!n)
        return NULL;
    struct renderbuffers *all = calloc(1, sizeof *all);
    struct renderbuffer *r = calloc(n, sizeof *r);
    if (!all || !r) {
        snap_unreadable(s, "out of memory: %zu renderbuffers not written", n);
        free(all), free(r), free(names);
        return NULL;
    }
    all->n = n;
    all->r = r;
    int saved = 0;
    SNAP_REAL(glGetIntegerv)(GL_RENDERBUFFER_BINDING, &saved);
    for (size_t i = 0; i < n; ++i) {
        r[i].name = names[i];
        collect_one(s, &r[i]);
    }
    SNAP_REAL(glBindRenderbuffer)(GL_RENDERBUFFER, (unsigned)saved);
    free(names);
    return all;
}

/* r's pixels through a temporary read framebuffer in the driver; 0 when incomplete. */
static int read_pixels(snap *s, const struct renderbuffer *r, const snap_format *f,
                       unsigned mask, void *out)
{
    int robust = snap_version(s) >= (snap_api(s) == SNAP_API_GLES ? 32 : 45) &&
                 snap_real_has("glReadnPixels");
    int saved = 0, ok;
    unsigned fb = 0;
    SNAP_REAL(glGetIntegerv)(GL_READ_FRAMEBUFFER_BINDING, &saved);
    SNAP_REAL(glGenFramebuffers)(1, &fb);
    SNAP_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, fb);
    SNAP_REAL(glFramebufferRenderbuffer)(GL_READ_FRAMEBUFFER, attachment_of(mask),
                                         GL_RENDERBUFFER, r->name);
    ok = SNAP_REAL(glCheckFramebufferStatus)(GL_READ_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    if (ok && robust) /* refuses rather than write past out if a size is wrong */
        SNAP_REAL(glReadnPixels)(0, 0, r->width, r->height, f->format, f->type,
                                 (GLsizei)((size_t)r->width * (size_t)r->height * f->bytes), out);
    else if (ok)
        SNAP_REAL(glReadPixels)(0, 0, r->width, r->height, f->format, f->type, out);
    SNAP_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, (unsigned)saved);
    SNAP_REAL(glDeleteFramebuffers)(1, &fb);
    return ok;
}

/* The upload into a temporary texture and the blit into r. */
static void write_contents(snap *s, const struct renderbuffer *r, GLuint texture, GLuint fb0)
{
    const snap_format *f = transfer_format(s, r);
    unsigned mask = snap_format_of(r->internal)->mask;
    size_t size = (size_t)r->width * (size_t)r->height * f->bytes;
    void *data = malloc(size);
    if (!data || !read_pixels(s, r, f, mask, data)) {
        fprintf(stderr, "gltrace: state snapshot: renderbuffer %u: contents not read\n",
                r->name);
        free(data);
        return;
    }
    unsigned attachment = attachment_of(mask);
    GLuint fbs[2] = {fb0, fb0 + 1};
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    GLint internal = snap_api(s) == SNAP_API_GLES ? (GLint)f->internal : (GLint)r->internal;
    glTexImage2D(GL_TEXTURE_2D, 0, internal, r->width, r->height, 0, f->format, f->type, data);
    free(data);
    glGenFramebuffers(2, fbs);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbs[0]);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, attachment, GL_TEXTURE_2D, texture, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbs[1]);
    glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, attachment, GL_RENDERBUFFER, r->name);
    glBlitFramebuffer(0, 0, r->width, r->height, 0, 0, r->width, r->height, mask, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glDeleteFramebuffers(2, fbs);
    glBindTexture(GL_TEXTURE_2D, 0);
    glDeleteTextures(1, &texture);
}

static void write_part(snap *s, void *data)
{
    struct renderbuffers *all = data;
    GLuint texture = snap_free_name("texture"), fb0 = snap_free_name("framebuffer");
    snap_store unpack, pack;
    snap_store_begin(s, &unpack, 0);
    snap_store_begin(s, &pack, 1);
    int unpack_written = 0;
    for (size_t i = 0; i < all->n; ++i) {
        const struct renderbuffer *r = &all->r[i];
        GLuint name = r->name;
        glGenRenderbuffers(1, &name);
        glBindRenderbuffer(GL_RENDERBUFFER, r->name);
        if (r->width <= 0 || r->height <= 0)
            continue;
        if (r->samples > 0)
            glRenderbufferStorageMultisample(GL_RENDERBUFFER, r->samples, r->internal,
                                             r->width, r->height);
        else
            glRenderbufferStorage(GL_RENDERBUFFER, r->internal, r->width, r->height);
        if (!r->read && !r->ms)
            continue;
        if (!unpack_written++)
            snap_store_write_unpack(&unpack);
        if (r->ms)
            snap_ms_write(s, GL_RENDERBUFFER, r->name, r->ms);
        else
            write_contents(s, r, texture, fb0);
    }
    snap_store_end(&pack);
    snap_store_end(&unpack);
}

static void free_part(void *data)
{
    struct renderbuffers *all = data;
    for (size_t i = 0; i < all->n; ++i)
        snap_ms_free(all->r[i].ms);
    free(all->r);
    free(all);
}

const snap_part snap_part_renderbuffers = {"renderbuffers", collect, write_part, free_part};
