/* The state snapshot's framebuffers (snapshot.h): each framebuffer object of the
 * snapshot's context (they are not shared: one another context made, track_containers.c,
 * is said unreadable; one generated here but never bound is generated again), bound in
 * the driver to read its attachments, draw and read buffers and
 * default parameters (the bindings put back). Written as glGenFramebuffers,
 * glBindFramebuffer, glFramebufferRenderbuffer / glFramebufferTexture[1D|2D|Layer] as
 * the texture's target and the attachment's layer and face say, glDrawBuffers,
 * glReadBuffer. The textures and renderbuffers exist by then (earlier parts). */
#include <stdlib.h>
#include <string.h>

#include "capture_track.h"
#include "gl_enums.gen.h"
#include "protos.gen.h"
#include "snap_texture.h"
#include "snapshot_parts.h"
#include "track_containers.h"

enum { MAX_COLORS = 16, NPOINTS = MAX_COLORS + 2 };

typedef struct attachment {
    unsigned point;
    int type, name, level, face, layer, layered;
    int target; /* the texture's, 0: unknown */
} attachment;

typedef struct fbo {
    unsigned name;
    attachment at[NPOINTS];
    int nat, ndraw, read_buffer;
    int draw[MAX_COLORS];
    int defaults[5]; /* width, height, layers, samples, fixed locations (GL 4.3) */
} fbo;

typedef struct fbos {
    fbo *f;
    size_t n;
    uint32_t *gen_only; /* generated here, never bound: glGenFramebuffers alone */
    size_t ngen_only;
    int es2;
} fbos;



static int attachment_iv(unsigned point, unsigned pname)
{
    int v = 0;
    SNAP_REAL(glGetFramebufferAttachmentParameteriv)(GL_FRAMEBUFFER, point, pname, &v);
    return v;
}

static void read_attachment(snap *s, attachment *a)
{
    a->type = attachment_iv(a->point, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE);
    if (a->type != GL_TEXTURE && a->type != GL_RENDERBUFFER)
        return;
    a->name = attachment_iv(a->point, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME);
    if (a->type != GL_TEXTURE)
        return;
    a->level = attachment_iv(a->point, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL);
    a->face = attachment_iv(a->point, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE);
    if (snap_has(s, 30, 30, NULL))
        a->layer = attachment_iv(a->point, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER);
    if (snap_has(s, 32, 32, NULL))
        a->layered = attachment_iv(a->point, GL_FRAMEBUFFER_ATTACHMENT_LAYERED);
    a->target = (int)snap_tex_target(s, (unsigned)a->name);
}

/* The bound framebuffer's state into f. */
static void read_fbo(snap *s, fbo *f)
{
    int ncolors = snap_has(s, 30, 30, NULL) ? snap_geti(GL_MAX_COLOR_ATTACHMENTS) : 1;
    if (ncolors > MAX_COLORS)
        ncolors = MAX_COLORS;
    for (int i = 0; i < ncolors; ++i)
        f->at[f->nat++].point = GL_COLOR_ATTACHMENT0 + (unsigned)i;
    f->at[f->nat++].point = GL_DEPTH_ATTACHMENT;
    f->at[f->nat++].point = GL_STENCIL_ATTACHMENT;
    for (int i = 0; i < f->nat; ++i)
        read_attachment(s, &f->at[i]);
    if (snap_has(s, 30, 30, NULL)) {
        int n = snap_geti(GL_MAX_DRAW_BUFFERS);
        for (int i = 0; i < n && i < MAX_COLORS; ++i) {
            f->draw[i] = snap_geti(GL_DRAW_BUFFER0 + (unsigned)i);
            if (f->draw[i] != GL_NONE)
                f->ndraw = i + 1;
        }
        f->read_buffer = snap_geti(GL_READ_BUFFER);
    }
    if (snap_has(s, 43, 31, NULL)) {
        static const unsigned pnames[5] = {
            GL_FRAMEBUFFER_DEFAULT_WIDTH, GL_FRAMEBUFFER_DEFAULT_HEIGHT,
            GL_FRAMEBUFFER_DEFAULT_LAYERS, GL_FRAMEBUFFER_DEFAULT_SAMPLES,
            GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS};
        for (int i = 0; i < 5; ++i)
            SNAP_REAL(glGetFramebufferParameteriv)(GL_FRAMEBUFFER, pnames[i], &f->defaults[i]);
    }
}

static void *collect(snap *s)
{
    uint32_t *names = NULL;
    size_t n = gltrace_tracked_names(gltrace_track_class("framebuffer"), &names);
    fbos *d = n ? calloc(1, sizeof *d) : NULL;
    if (d)
        d->f = calloc(n, sizeof *d->f);
    if (!d || !d->f) {
        free(d);
        free(names);
        return NULL;
    }
    d->es2 = !snap_has(s, 30, 30, NULL);
    int split = !d->es2; /* separate draw and read bindings */
    int draw = snap_geti(split ? GL_DRAW_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING);
    int read = split ? snap_geti(GL_READ_FRAMEBUFFER_BINDING) : draw;
    d->gen_only = calloc(n, sizeof *d->gen_only);
    for (size_t i = 0; i < n; ++i) {
        int here = 0, elsewhere = 0;
        gtt_ctr_where(GTT_CTR_FRAMEBUFFER, names[i], &here, &elsewhere);
        /* another context's are written with that context (snapshot_contexts.h) */
        if (!SNAP_REAL(glIsFramebuffer)(names[i])) {
            if (here && d->gen_only)
                d->gen_only[d->ngen_only++] = names[i];
            else if (!elsewhere)
                snap_unreadable(s, "framebuffer %u: another context's (or never bound): not "
                                "re-created", names[i]);
            continue;
        }
        SNAP_REAL(glBindFramebuffer)(GL_FRAMEBUFFER, names[i]);
        fbo *f = &d->f[d->n++];
        f->name = names[i];
        read_fbo(s, f);
        for (int j = 0; j < f->nat; ++j)
            if (f->at[j].type == GL_TEXTURE && !f->at[j].target && !f->at[j].face &&
                !f->at[j].layered && f->at[j].layer == 0 && snap_api(s) == SNAP_API_GL)
                snap_unreadable(s, "framebuffer %u: texture %d's target unknown, attached "
                                "as GL_TEXTURE_2D", names[i], f->at[j].name);
    }
    if (split) {
        SNAP_REAL(glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, (unsigned)draw);
        SNAP_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, (unsigned)read);
    } else {
        SNAP_REAL(glBindFramebuffer)(GL_FRAMEBUFFER, (unsigned)draw);
    }
    free(names);
    return d;
}

static int is_layered_target(int target)
{
    return target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY ||
           target == GL_TEXTURE_1D_ARRAY || target == GL_TEXTURE_CUBE_MAP_ARRAY ||
           target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
}

static void write_attachment(unsigned point, const attachment *a)
{
    unsigned name = (unsigned)a->name;
    if (a->type == GL_RENDERBUFFER)
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, point, GL_RENDERBUFFER, name);
    else if (a->layered)
        glFramebufferTexture(GL_FRAMEBUFFER, point, name, a->level);
    else if (a->face)
        glFramebufferTexture2D(GL_FRAMEBUFFER, point, (unsigned)a->face, name, a->level);
    else if (is_layered_target(a->target) || (!a->target && a->layer))
        glFramebufferTextureLayer(GL_FRAMEBUFFER, point, name, a->level, a->layer);
    else if (a->target == GL_TEXTURE_1D)
        glFramebufferTexture1D(GL_FRAMEBUFFER, point, GL_TEXTURE_1D, name, a->level);
    else
        glFramebufferTexture2D(GL_FRAMEBUFFER, point,
                               a->target ? (unsigned)a->target : GL_TEXTURE_2D, name, a->level);
}

static void write_fbo(const fbos *d, const fbo *f)
{
    GLuint name = f->name;
    glGenFramebuffers(1, &name);
    glBindFramebuffer(GL_FRAMEBUFFER, f->name);
    const attachment *depth = &f->at[f->nat - 2], *stencil = &f->at[f->nat - 1];
    int both = !d->es2 && depth->type != GL_NONE && depth->type == stencil->type &&
               depth->name == stencil->name;
    for (int i = 0; i < f->nat; ++i) {
        const attachment *a = &f->at[i];
        if (a->type != GL_TEXTURE && a->type != GL_RENDERBUFFER)
            continue;
        if (both && a == stencil)
            continue;
        write_attachment(both && a == depth ? GL_DEPTH_STENCIL_ATTACHMENT : a->point, a);
    }
    if (!d->es2) {
        GLenum bufs[MAX_COLORS];
        int n = f->ndraw ? f->ndraw : 1;
        for (int i = 0; i < n; ++i)
            bufs[i] = (GLenum)f->draw[i];
        glDrawBuffers(n, bufs);
        glReadBuffer((unsigned)f->read_buffer);
    }
    static const unsigned pnames[5] = {
        GL_FRAMEBUFFER_DEFAULT_WIDTH, GL_FRAMEBUFFER_DEFAULT_HEIGHT,
        GL_FRAMEBUFFER_DEFAULT_LAYERS, GL_FRAMEBUFFER_DEFAULT_SAMPLES,
        GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS};
    for (int i = 0; i < 5; ++i)
        if (f->defaults[i])
            glFramebufferParameteri(GL_FRAMEBUFFER, pnames[i], f->defaults[i]);
}

static void write_part(snap *s, void *data)
{
    (void)s;
    const fbos *d = data;
    for (size_t i = 0; i < d->ngen_only; ++i) {
        GLuint name = d->gen_only[i];
        glGenFramebuffers(1, &name);
    }
    for (size_t i = 0; i < d->n; ++i)
        write_fbo(d, &d->f[i]);
    if (d->n) /* the state part binds the program's */
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

static void free_part(void *data)
{
    fbos *d = data;
    free(d->f);
    free(d->gen_only);
    free(d);
}

const snap_part snap_part_framebuffers = {"framebuffers", collect, write_part, free_part};
