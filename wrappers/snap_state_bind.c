/* The state snapshot's bindings (snap_state_bind.h): read from the driver, written
 * after every other call of the snapshot, since the other parts bind what they
 * re-create in the replayed context. */
#include "snap_state_bind.h"

#include <stdlib.h>
#include <string.h>

#include "gl_enums.gen.h"
#include "gt_grow.h"
#include "protos.gen.h"

#define MAX_UNITS 256



/* Each texture unit's bindings, the program's active unit put back. */
static int collect_units(snap *s, snap_state_bind *b)
{
    b->active_texture = snap_geti(GL_ACTIVE_TEXTURE);
    GLint n = snap_geti(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS);
    b->nunits = n < 1 ? 1 : n > MAX_UNITS ? MAX_UNITS : (unsigned)n;
    b->samplers_ok = snap_has(s, 33, 30, "GL_ARB_sampler_objects");
    for (unsigned t = 0; t < snap_bind_texture_count && t < SNAP_BIND_TEXTURE_MAX; ++t)
        b->tex_ok[t] = snap_state_provided(s, snap_bind_texture[t].providers) &&
                       !((snap_bind_texture[t].flags & SNAP_IF_COMPAT) && b->core);
    b->tex = calloc(b->nunits, sizeof *b->tex);
    b->samplers = calloc(b->nunits, sizeof *b->samplers);
    if (!b->tex || !b->samplers)
        return -1;
    for (unsigned u = 0; u < b->nunits; ++u) {
        SNAP_REAL(glActiveTexture)(GL_TEXTURE0 + u);
        for (unsigned t = 0; t < snap_bind_texture_count && t < SNAP_BIND_TEXTURE_MAX; ++t)
            if (b->tex_ok[t] &&
                (b->tex[u][t] = snap_geti(snap_bind_texture[t].binding)) != 0)
                b->last_unit = u;
        if (b->samplers_ok && (b->samplers[u] = snap_geti(GL_SAMPLER_BINDING)) != 0)
            b->last_unit = u;
    }
    SNAP_REAL(glActiveTexture)((GLenum)b->active_texture);
    return 0;
}

static int collect_indexed(snap *s, snap_state_bind *b, const snap_binding *t)
{
    if (!t->max || !snap_has(s, 30, 30, NULL) ||
        (t->target == GL_TRANSFORM_FEEDBACK_BUFFER && b->xfb != 0))
        return 0; /* a bound transform feedback object's buffers are its own */
    GLint max = snap_geti(t->max);
    for (GLint i = 0; i < max && i < 1024; ++i) {
        GLint name = 0;
        GLint64 start = 0, size = 0;
        SNAP_REAL(glGetIntegeri_v)(t->i_binding, (GLuint)i, &name);
        if (!name)
            continue;
        SNAP_REAL(glGetInteger64i_v)(t->i_start, (GLuint)i, &start);
        SNAP_REAL(glGetInteger64i_v)(t->i_size, (GLuint)i, &size);
        if (GT_GROW(b->indexed, b->indexed_cap, b->nindexed + 1, 8) != 0)
            return -1;
        b->indexed[b->nindexed++] = (snap_indexed){t->target, (GLuint)i, (GLuint)name, start, size};
    }
    return 0;
}

/* The default framebuffer's draw and read buffers (desktop GL: GLES has GL_BACK). */
static void collect_default_buffers(snap *s, snap_state_bind *b)
{
    if (snap_api(s) != SNAP_API_GL)
        return;
    int fbo = snap_has(s, 30, 0, "GL_ARB_framebuffer_object");
    if (fbo && b->draw_fb)
        SNAP_REAL(glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, 0);
    if (fbo && b->read_fb)
        SNAP_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, 0);
    b->draw_buffer = snap_geti(GL_DRAW_BUFFER);
    b->read_buffer = snap_geti(GL_READ_BUFFER);
    if (fbo && b->draw_fb)
        SNAP_REAL(glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, (GLuint)b->draw_fb);
    if (fbo && b->read_fb)
        SNAP_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, (GLuint)b->read_fb);
    b->default_buffers = 1;
}

int snap_state_bind_collect(snap *s, snap_state_bind *b, int core)
{
    memset(b, 0, sizeof *b);
    b->core = core;
    int gles = snap_api(s) == SNAP_API_GLES;
    b->fbo = snap_has(s, 30, 20, "GL_ARB_framebuffer_object");
    b->split_fbo = snap_has(s, 30, 30, "GL_ARB_framebuffer_object");
    if (b->fbo) {
        b->draw_fb = snap_geti(GL_DRAW_FRAMEBUFFER_BINDING);
        b->read_fb = b->split_fbo ? snap_geti(GL_READ_FRAMEBUFFER_BINDING) : b->draw_fb;
        b->renderbuffer = snap_geti(GL_RENDERBUFFER_BINDING);
    }
    collect_default_buffers(s, b);
    b->xfb_ok = snap_has(s, 40, 30, "GL_ARB_transform_feedback2");
    if (b->xfb_ok)
        b->xfb = snap_geti(GL_TRANSFORM_FEEDBACK_BINDING);
    for (unsigned t = 0; t < snap_bind_buffer_count && t < SNAP_BIND_BUFFER_MAX; ++t) {
        const snap_binding *bt = &snap_bind_buffer[t];
        b->buf_ok[t] = snap_state_provided(s, bt->providers);
        if (!b->buf_ok[t])
            continue;
        b->buffers[t] = snap_geti(bt->binding);
        if (collect_indexed(s, b, bt) != 0)
            return -1;
    }
    b->vao_ok = snap_has(s, 30, 30, "GL_ARB_vertex_array_object");
    if (b->vao_ok)
        b->vao = snap_geti(GL_VERTEX_ARRAY_BINDING);
    /* the default vertex array's element buffer: core profiles have none */
    b->element_ok = !core && b->vao == 0 && (gles || snap_version(s) >= 15);
    if (b->element_ok)
        b->element = snap_geti(GL_ELEMENT_ARRAY_BUFFER_BINDING);
    b->program_ok = snap_has(s, 20, 20, NULL);
    if (b->program_ok)
        b->program = snap_geti(GL_CURRENT_PROGRAM);
    b->pipeline_ok = snap_has(s, 41, 31, "GL_ARB_separate_shader_objects");
    if (b->pipeline_ok)
        b->pipeline = snap_geti(GL_PROGRAM_PIPELINE_BINDING);
    return collect_units(s, b);
}

static void write_units(const snap_state_bind *b)
{
    for (unsigned u = 0; u <= b->last_unit && u < b->nunits; ++u) {
        glActiveTexture(GL_TEXTURE0 + u);
        for (unsigned t = 0; t < snap_bind_texture_count && t < SNAP_BIND_TEXTURE_MAX; ++t)
            if (b->tex_ok[t])
                glBindTexture(snap_bind_texture[t].target, (GLuint)b->tex[u][t]);
        if (b->samplers_ok && b->samplers[u])
            glBindSampler(u, (GLuint)b->samplers[u]);
    }
}

static void write_buffers(const snap_state_bind *b)
{
    if (b->xfb_ok)
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, (GLuint)b->xfb);
    for (size_t i = 0; i < b->nindexed; ++i) {
        const snap_indexed *x = &b->indexed[i];
        if (x->start == 0 && x->size == 0)
            glBindBufferBase(x->target, x->index, x->name);
        else
            glBindBufferRange(x->target, x->index, x->name, (GLintptr)x->start,
                              (GLsizeiptr)x->size);
    }
    /* after the indexed ones, which set the generic binding too */
    for (unsigned t = 0; t < snap_bind_buffer_count && t < SNAP_BIND_BUFFER_MAX; ++t)
        if (b->buf_ok[t])
            glBindBuffer(snap_bind_buffer[t].target, (GLuint)b->buffers[t]);
}

static void write_framebuffers(const snap_state_bind *b)
{
    if (b->default_buffers) {
        if (b->fbo)
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glDrawBuffer((GLenum)b->draw_buffer);
        glReadBuffer((GLenum)b->read_buffer);
    }
    if (b->split_fbo) {
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)b->draw_fb);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)b->read_fb);
    } else if (b->fbo) {
        glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)b->draw_fb);
    }
    if (b->fbo)
        glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)b->renderbuffer);
}

void snap_state_bind_write(const snap_state_bind *b)
{
    write_buffers(b);
    write_framebuffers(b);
    if (b->pipeline_ok)
        glBindProgramPipeline((GLuint)b->pipeline);
    if (b->program_ok)
        glUseProgram((GLuint)b->program);
    write_units(b);
    /* the vertex array last but one: it holds its element buffer, which the calls
     * before may have changed in the replayed context's */
    if (b->vao_ok)
        glBindVertexArray((GLuint)b->vao);
    if (b->element_ok)
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, (GLuint)b->element);
    glActiveTexture((GLenum)b->active_texture);
}

void snap_state_bind_free(snap_state_bind *b)
{
    free(b->tex);
    free(b->samplers);
    free(b->indexed);
    memset(b, 0, sizeof *b);
}
