/* The state snapshot's indexed state (snap_state_indexed.h): blending and colour masks
 * per draw buffer, viewports, scissors and depth ranges per viewport, generic vertex
 * attributes' current values, the sample mask. The context's
 * setters (glBlendFuncSeparate, glViewport, ...) set every index alike; an index that
 * differs from the first is written after them. */
#include "snap_state_indexed.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gl_enums.gen.h"
#include "gt_grow.h"


static void read_blend(GLuint i, snap_blend *b)
{
    static const GLenum pnames[6] = {GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB, GL_BLEND_SRC_ALPHA,
                                     GL_BLEND_DST_ALPHA, GL_BLEND_EQUATION_RGB,
                                     GL_BLEND_EQUATION_ALPHA};
    memset(b, 0, sizeof *b);
    b->index = i;
    b->enabled = SNAP_REAL(glIsEnabledi)(GL_BLEND, i);
    for (int k = 0; k < 6; ++k)
        SNAP_REAL(glGetIntegeri_v)(pnames[k], i, &b->v[k]);
    SNAP_REAL(glGetBooleani_v)(GL_COLOR_WRITEMASK, i, b->mask);
}

static void read_viewport(GLuint i, snap_viewport *v)
{
    memset(v, 0, sizeof *v);
    v->index = i;
    SNAP_REAL(glGetFloati_v)(GL_VIEWPORT, i, v->viewport);
    SNAP_REAL(glGetIntegeri_v)(GL_SCISSOR_BOX, i, v->scissor);
    SNAP_REAL(glGetDoublei_v)(GL_DEPTH_RANGE, i, v->depth);
    v->scissor_test = SNAP_REAL(glIsEnabledi)(GL_SCISSOR_TEST, i);
}


/* Generic attributes' current values; a compatibility context's attribute 0 is the
 * vertex position, which has none (querying it is an error there). */
static int collect_attribs(snap *s, snap_state_indexed *x, int core)
{
    static const GLfloat unset[4] = {0, 0, 0, 1};
    if (!snap_has(s, 20, 20, NULL))
        return 0;
    GLint n = snap_geti(GL_MAX_VERTEX_ATTRIBS);
    GLuint first = snap_api(s) == SNAP_API_GL && !core ? 1 : 0;
    for (GLuint i = first; (GLint)i < n && i < 64; ++i) {
        snap_attrib a = {i, {0, 0, 0, 0}};
        SNAP_REAL(glGetVertexAttribfv)(i, GL_CURRENT_VERTEX_ATTRIB, a.v);
        if (!memcmp(a.v, unset, sizeof unset))
            continue;
        if (GT_GROW(x->attribs, x->attrib_cap, x->nattribs + 1, 4) != 0)
            return -1;
        x->attribs[x->nattribs++] = a;
    }
    return 0;
}

/* The sample mask's words (GL 3.2, ES 3.1): all ones at first. */
static void collect_sample_mask(snap *s, snap_state_indexed *x)
{
    if (!snap_has(s, 32, 31, "GL_ARB_texture_multisample"))
        return;
    GLint n = snap_geti(GL_MAX_SAMPLE_MASK_WORDS);
    x->nsample_mask = n < 0 ? 0 : n > 4 ? 4 : (unsigned)n;
    int all_ones = 1;
    for (unsigned i = 0; i < x->nsample_mask; ++i) {
        SNAP_REAL(glGetIntegeri_v)(GL_SAMPLE_MASK_VALUE, i, &x->sample_mask[i]);
        all_ones &= x->sample_mask[i] == -1;
    }
    if (all_ones)
        x->nsample_mask = 0;
}

int snap_state_indexed_collect(snap *s, snap_state_indexed *x, int core)
{
    memset(x, 0, sizeof *x);
    collect_sample_mask(s, x);
    if (collect_attribs(s, x, core) != 0)
        return -1;
    if (snap_has(s, 40, 32, NULL)) {
        GLint n = snap_geti(GL_MAX_DRAW_BUFFERS);
        snap_blend first, b;
        read_blend(0, &first);
        for (GLint i = 1; i < n && i < 64; ++i) {
            read_blend((GLuint)i, &b);
            if (memcmp(&b.enabled, &first.enabled, sizeof b - offsetof(snap_blend, enabled))) {
                if (GT_GROW(x->blend, x->blend_cap, x->nblend + 1, 4) != 0)
                    return -1;
                x->blend[x->nblend++] = b;
            }
        }
    }
    if (snap_api(s) == SNAP_API_GL && snap_has(s, 41, 0, "GL_ARB_viewport_array")) {
        GLint n = snap_geti(GL_MAX_VIEWPORTS);
        snap_viewport first, v;
        read_viewport(0, &first);
        for (GLint i = 1; i < n && i < 64; ++i) {
            read_viewport((GLuint)i, &v);
            if (memcmp(v.viewport, first.viewport, sizeof v - offsetof(snap_viewport, viewport))) {
                if (GT_GROW(x->viewports, x->viewport_cap, x->nviewports + 1, 4) != 0)
                    return -1;
                x->viewports[x->nviewports++] = v;
            }
        }
    }
    return 0;
}

void snap_state_indexed_write(const snap_state_indexed *x)
{
    for (size_t k = 0; k < x->nattribs; ++k)
        glVertexAttrib4fv(x->attribs[k].index, x->attribs[k].v);
    for (unsigned i = 0; i < x->nsample_mask; ++i)
        glSampleMaski(i, (GLbitfield)x->sample_mask[i]);
    for (size_t k = 0; k < x->nblend; ++k) {
        const snap_blend *b = &x->blend[k];
        if (b->enabled)
            glEnablei(GL_BLEND, b->index);
        else
            glDisablei(GL_BLEND, b->index);
        glBlendFuncSeparatei(b->index, (GLenum)b->v[0], (GLenum)b->v[1], (GLenum)b->v[2],
                             (GLenum)b->v[3]);
        glBlendEquationSeparatei(b->index, (GLenum)b->v[4], (GLenum)b->v[5]);
        glColorMaski(b->index, b->mask[0], b->mask[1], b->mask[2], b->mask[3]);
    }
    for (size_t k = 0; k < x->nviewports; ++k) {
        const snap_viewport *v = &x->viewports[k];
        glViewportIndexedfv(v->index, v->viewport);
        glScissorIndexedv(v->index, v->scissor);
        glDepthRangeIndexed(v->index, v->depth[0], v->depth[1]);
        if (v->scissor_test)
            glEnablei(GL_SCISSOR_TEST, v->index);
        else
            glDisablei(GL_SCISSOR_TEST, v->index);
    }
}

void snap_state_indexed_free(snap_state_indexed *x)
{
    free(x->blend);
    free(x->viewports);
    free(x->attribs);
    memset(x, 0, sizeof *x);
}
