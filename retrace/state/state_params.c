/* The "parameters" object of the state dump: the values specs/state.txt lists, read
 * per section as its header says (state_params.h), each left out when its query raises
 * a GL error, as apitrace leaves it out. */
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state_dump.h"
#include "state_params.h"

enum { MAX_VALUES = 4096 }; /* the longest counted list read (compressed formats) */

/* How a section's values are read: which glGet* and its leading arguments. */
typedef enum { Q_GET, Q_BUFFER, Q_MATERIAL, Q_LIGHT, Q_ATTRIB, Q_ENV, Q_TEX, Q_LEVEL, Q_FBATT, Q_SAMPLER } qkind;

typedef struct query {
    qkind kind;
    GLenum target; /* buffer or texture target, face, light, env target, framebuffer */
    GLenum arg;    /* the attachment (Q_FBATT) */
    GLuint index;  /* the attribute (Q_ATTRIB), the sampler (Q_SAMPLER) */
} query;

typedef union values {
    GLint i[MAX_VALUES];
    GLint64 l[MAX_VALUES];
    GLfloat f[MAX_VALUES];
    GLboolean b[MAX_VALUES];
    void *p[MAX_VALUES];
} values;

/* Integers of Q's kind (enums, booleans and integers outside Q_GET); false when the
 * context lacks the function. */
static bool read_ints(const query *q, GLenum pname, GLint *v)
{
    switch (q->kind) {
    case Q_GET: return state_has("glGetIntegerv") && (glGetIntegerv(pname, v), true);
    case Q_BUFFER: return state_has("glGetBufferParameteriv") && (glGetBufferParameteriv(q->target, pname, v), true);
    case Q_ATTRIB: return state_has("glGetVertexAttribiv") && (glGetVertexAttribiv(q->index, pname, v), true);
    case Q_ENV: return state_has("glGetTexEnviv") && (glGetTexEnviv(q->target, pname, v), true);
    case Q_TEX: return state_has("glGetTexParameteriv") && (glGetTexParameteriv(q->target, pname, v), true);
    case Q_LEVEL: return state_has("glGetTexLevelParameteriv") && (glGetTexLevelParameteriv(q->target, 0, pname, v), true);
    case Q_FBATT:
        return state_has("glGetFramebufferAttachmentParameteriv") &&
               (glGetFramebufferAttachmentParameteriv(q->target, q->arg, pname, v), true);
    case Q_SAMPLER:
        return state_has("glGetSamplerParameteriv") && (glGetSamplerParameteriv(q->index, pname, v), true);
    default: return false;
    }
}

static bool read_floats(const query *q, GLenum pname, GLfloat *v)
{
    switch (q->kind) {
    case Q_GET: return state_has("glGetFloatv") && (glGetFloatv(pname, v), true);
    case Q_MATERIAL: return state_has("glGetMaterialfv") && (glGetMaterialfv(q->target, pname, v), true);
    case Q_LIGHT: return state_has("glGetLightfv") && (glGetLightfv(q->target, pname, v), true);
    case Q_ATTRIB: return state_has("glGetVertexAttribfv") && (glGetVertexAttribfv(q->index, pname, v), true);
    case Q_ENV: return state_has("glGetTexEnvfv") && (glGetTexEnvfv(q->target, pname, v), true);
    case Q_TEX: return state_has("glGetTexParameterfv") && (glGetTexParameterfv(q->target, pname, v), true);
    case Q_LEVEL: return state_has("glGetTexLevelParameterfv") && (glGetTexLevelParameterfv(q->target, 0, pname, v), true);
    case Q_SAMPLER:
        return state_has("glGetSamplerParameterfv") && (glGetSamplerParameterfv(q->index, pname, v), true);
    default: return false;
    }
}

static bool read_pointer(const query *q, GLenum pname, void **v)
{
    switch (q->kind) {
    case Q_GET: return state_has("glGetPointerv") && (glGetPointerv(pname, v), true);
    case Q_BUFFER: return state_has("glGetBufferPointerv") && (glGetBufferPointerv(q->target, pname, v), true);
    case Q_ATTRIB:
        return state_has("glGetVertexAttribPointerv") && (glGetVertexAttribPointerv(q->index, pname, v), true);
    default: return false;
    }
}

static bool read_int64(const query *q, GLenum pname, GLint64 *v)
{
    switch (q->kind) {
    case Q_GET: return state_has("glGetInteger64v") && (glGetInteger64v(pname, v), true);
    case Q_BUFFER:
        return state_has("glGetBufferParameteri64v") && (glGetBufferParameteri64v(q->target, pname, v), true);
    default: { /* the int query of other kinds */
        GLint i[4] = {0};
        if (!read_ints(q, pname, i))
            return false;
        *v = i[0];
        return true;
    }
    }
}

/* How many values V has: its count, or the value of its count pname. */
static int value_count(const struct state_value *v)
{
    if (v->count)
        return v->count;
    int n = state_get_int(v->count_pname, -1);
    return n > MAX_VALUES ? MAX_VALUES : n; /* -1: the context lacks the count */
}

/* Reads V into OUT: false when the context lacks the query or it raised an error. */
static bool read_value(const query *q, const struct state_value *v, values *out, int n)
{
    memset(out, 0, sizeof(out->l[0]) * (size_t)(n ? n : 1));
    state_clear_errors();
    bool ok;
    switch (v->type) {
    case ST_BOOL:
        if (q->kind == Q_GET)
            ok = state_has("glGetBooleanv") && (glGetBooleanv(v->pname, out->b), true);
        else
            ok = read_ints(q, v->pname, out->i);
        break;
    case ST_ENUM: case ST_INT: ok = read_ints(q, v->pname, out->i); break;
    case ST_INT64: ok = read_int64(q, v->pname, out->l); break;
    case ST_FLOAT: ok = read_floats(q, v->pname, out->f); break;
    case ST_POINTER: ok = read_pointer(q, v->pname, out->p); break;
    case ST_ENABLED: out->b[0] = glIsEnabled(v->pname); ok = true; break;
    case ST_STRING: {
        const GLubyte *s = glGetString(v->pname);
        out->p[0] = (void *)s;
        ok = s != NULL;
        break;
    }
    default: ok = false;
    }
    bool failed = state_failed();
    return ok && (v->type == ST_ENABLED || !failed);
}

static void write_one(sj *w, const struct state_value *v, const query *q, const values *x, int i)
{
    switch (v->type) {
    case ST_BOOL:
        sj_bool(w, q->kind == Q_GET ? x->b[i] != 0 : x->i[i] != 0);
        break;
    case ST_ENABLED: sj_bool(w, x->b[i] != 0); break;
    case ST_ENUM: state_write_enum(w, (unsigned)x->i[i]); break;
    case ST_INT: sj_int(w, x->i[i]); break;
    case ST_INT64: sj_int(w, x->l[i]); break;
    case ST_FLOAT: sj_float(w, x->f[i]); break;
    case ST_POINTER: sj_uint(w, (uintptr_t)x->p[i]); break;
    case ST_STRING: sj_cstring(w, x->p[i] ? (const char *)x->p[i] : ""); break;
    default: break;
    }
}

/* Writes the values of L that Q reads as members of W's current object (but for the
 * glIsEnabled ones unless ENABLES); how many. */
static int write_list_of(sj *w, const struct state_list *l, const query *q, bool enables)
{
    static values x; /* large: not on the stack */
    int written = 0;
    for (unsigned k = 0; k < l->n; ++k) {
        const struct state_value *v = &l->v[k];
        if ((v->type == ST_ENABLED && !enables) || (v->desktop && !epoxy_is_desktop_gl()))
            continue;
        int n = value_count(v);
        if (n < 0 || !read_value(q, v, &x, n))
            continue;
        sj_member(w, v->name);
        if (v->count == 1) {
            write_one(w, v, q, &x, 0);
        } else {
            sj_begin_array(w);
            for (int i = 0; i < n; ++i)
                write_one(w, v, q, &x, i);
            sj_end_array(w);
        }
        written++;
    }
    return written;
}

static int write_list(sj *w, const struct state_list *l, const query *q)
{
    return write_list_of(w, l, q, true);
}

/* The values of L as the object member NAME, left out when none could be read. */
static void list_object(sj *w, const char *name, const struct state_list *l, const query *q,
                        bool keep_empty)
{
    sj c;
    gt_strbuf b;
    sj_child(w, &c, &b);
    write_list(&c, l, q);
    sj_splice(w, name, &c, keep_empty);
}

static void write_materials_and_lights(sj *w)
{
    static const GLenum faces[] = {GL_FRONT, GL_BACK};
    for (int i = 0; i < 2; ++i) {
        query q = {.kind = Q_MATERIAL, .target = faces[i]};
        /* apitrace writes both faces on desktop GL, empty in a core context */
        list_object(w, state_enum_name(faces[i]), &state_material, &q, epoxy_is_desktop_gl());
    }
    GLint lights = state_get_int(GL_MAX_LIGHTS, 0);
    for (GLint i = 0; i < lights && i < 64; ++i) {
        state_clear_errors();
        if (!glIsEnabled(GL_LIGHT0 + (GLenum)i) || state_failed())
            continue;
        char name[32];
        snprintf(name, sizeof name, "GL_LIGHT%d", i);
        query q = {.kind = Q_LIGHT, .target = GL_LIGHT0 + (GLenum)i};
        list_object(w, name, &state_light, &q, false);
    }
}

static void write_vertex_attribs(sj *w)
{
    GLint n = state_get_int(GL_MAX_VERTEX_ATTRIBS, 0);
    for (GLint i = 0; i < n && i < 256; ++i) {
        char name[48];
        snprintf(name, sizeof name, "GL_VERTEX_ATTRIB_ARRAY%d", i);
        query q = {.kind = Q_ATTRIB, .index = (GLuint)i};
        sj c;
        gt_strbuf b;
        sj_child(w, &c, &b);
        write_list(&c, &state_vertex_attrib, &q);
        GLint buffer = 0;
        if (state_has("glGetVertexAttribiv")) {
            state_clear_errors();
            glGetVertexAttribiv((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buffer);
            if (state_failed())
                buffer = 0;
        }
        state_write_label(&c, GL_BUFFER, (GLuint)buffer, "GL_VERTEX_ATTRIB_ARRAY_BUFFER_LABEL");
        sj_splice(w, name, &c, false);
    }
}

/* The "i" array of a target's indexed bindings. */
static void write_indexed(sj *w, const struct state_buffer_target *t)
{
    GLint n = state_get_int(t->max, 0);
    if (n <= 0 || !state_has("glGetIntegeri_v") || !state_has("glGetInteger64i_v"))
        return;
    sj_member(w, "i");
    sj_begin_array(w);
    for (GLint i = 0; i < n && i < 1024; ++i) {
        GLint buf = 0;
        GLint64 start = 0, size = 0;
        glGetIntegeri_v(t->i_binding, (GLuint)i, &buf);
        glGetInteger64i_v(t->i_start, (GLuint)i, &start);
        glGetInteger64i_v(t->i_size, (GLuint)i, &size);
        sj_begin_object(w);
        sj_member(w, state_enum_name(t->i_binding));
        sj_int(w, buf);
        sj_member(w, state_enum_name(t->i_start));
        sj_int(w, start);
        sj_member(w, state_enum_name(t->i_size));
        sj_int(w, size);
        sj_end_object(w);
    }
    sj_end_array(w);
    state_clear_errors();
}

static void write_buffer_targets(sj *w)
{
    for (unsigned k = 0; k < state_buffer_target_count; ++k) {
        const struct state_buffer_target *t = &state_buffer_targets[k];
        GLint bound = state_get_int(t->binding, 0); /* every target is written, as apitrace */
        sj c;
        gt_strbuf b;
        sj_child(w, &c, &b);
        if (bound) {
            query q = {.kind = Q_BUFFER, .target = t->target};
            write_list(&c, &state_buffer, &q);
        }
        if (t->max)
            write_indexed(&c, t);
        sj_splice(w, t->name, &c, true);
    }
}

/* A texture bound in the active unit: its parameters and its level 0's. */
static void write_bound_texture(sj *w, const struct state_texture_target *t)
{
    sj c;
    gt_strbuf b;
    sj_child(w, &c, &b);
    state_write_label(&c, GL_TEXTURE, (GLuint)state_get_int(t->binding, 0), "GL_TEXTURE_LABEL");
    query q = {.kind = Q_TEX, .target = t->target};
    write_list(&c, &state_texture, &q);
    q.kind = Q_LEVEL;
    if (t->target == GL_TEXTURE_CUBE_MAP)
        q.target = GL_TEXTURE_CUBE_MAP_POSITIVE_X;
    if (epoxy_is_desktop_gl()) /* apitrace asks GLES none (before 3.1 it has no query) */
        write_list(&c, &state_texture_level, &q);
    sj_splice(w, t->name, &c, true);
}

/* The sampler bound to the active unit: "GL_SAMPLER", its label and parameters. */
static void write_sampler(sj *w)
{
    GLint sampler = state_get_int(GL_SAMPLER_BINDING, 0);
    if (sampler <= 0 || !state_has("glGetSamplerParameteriv"))
        return;
    sj c;
    gt_strbuf b;
    sj_child(w, &c, &b);
    state_write_label(&c, GL_SAMPLER, (GLuint)sampler, "GL_SAMPLER_LABEL");
    query q = {.kind = Q_SAMPLER, .index = (GLuint)sampler};
    write_list(&c, &state_sampler, &q);
    sj_splice(w, "GL_SAMPLER", &c, true);
}

/* A unit's state; its fixed-function state (texture enables, environment) only when
 * FIXED, as apitrace writes them. */
static void write_texture_unit(sj *w, GLint unit, bool fixed)
{
    char name[32];
    snprintf(name, sizeof name, "GL_TEXTURE%d", unit);
    sj c;
    gt_strbuf b;
    sj_child(w, &c, &b);
    query get = {.kind = Q_GET};
    write_list_of(&c, &state_texture_unit, &get, fixed);
    for (unsigned k = 0; fixed && k < state_texture_env_count; ++k) {
        query q = {.kind = Q_ENV, .target = state_texture_envs[k].target};
        list_object(&c, state_texture_envs[k].name, state_texture_envs[k].values, &q, false);
    }
    for (unsigned k = 0; k < state_texture_target_count; ++k)
        if (state_get_int(state_texture_targets[k].binding, 0) > 0)
            write_bound_texture(&c, &state_texture_targets[k]);
    write_sampler(&c);
    sj_splice(w, name, &c, true);
}

static void write_texture_units(sj *w)
{
    if (!state_has("glActiveTexture"))
        return;
    GLint active = state_get_int(GL_ACTIVE_TEXTURE, GL_TEXTURE0);
    GLint n = state_get_int(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, 0);
    if (n <= 0)
        n = state_get_int(GL_MAX_TEXTURE_UNITS, 1);
    /* the units with fixed-function state: texture coordinate sets, else units, else
     * (GLES 2 and later, which have neither) 8, as apitrace counts them */
    GLint fixed = state_get_int(GL_MAX_TEXTURE_COORDS, -1);
    if (epoxy_is_desktop_gl() && (state_get_int(GL_CONTEXT_PROFILE_MASK, 0) & GL_CONTEXT_CORE_PROFILE_BIT))
        fixed = 0; /* a core context: apitrace does not ask (Mesa would answer) */
    else if (fixed < 0)
        fixed = state_get_int(GL_MAX_TEXTURE_UNITS, 8);
    for (GLint u = 0; u < n && u < 1024; ++u) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)u);
        write_texture_unit(w, u, u < fixed);
    }
    glActiveTexture((GLenum)active);
    state_clear_errors();
}

/* A bound framebuffer object's attachments. */
static void write_framebuffer(sj *w, GLenum target, GLenum binding)
{
    if (state_get_int(binding, 0) <= 0 || !state_has("glGetFramebufferAttachmentParameteriv"))
        return;
    sj c;
    gt_strbuf b;
    sj_child(w, &c, &b);
    state_write_label(&c, GL_FRAMEBUFFER, (GLuint)state_get_int(binding, 0), "GL_FRAMEBUFFER_LABEL");
    GLint colors = state_get_int(GL_MAX_COLOR_ATTACHMENTS, 1);
    for (GLint i = -2; i < colors && i < 64; ++i) {
        GLenum att = i == -2 ? GL_DEPTH_ATTACHMENT : i == -1 ? GL_STENCIL_ATTACHMENT
                                                             : GL_COLOR_ATTACHMENT0 + (GLenum)i;
        GLint type = GL_NONE;
        state_clear_errors();
        glGetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
        if (state_failed() || type == GL_NONE)
            continue;
        char name[40];
        if (i >= 0)
            snprintf(name, sizeof name, "GL_COLOR_ATTACHMENT%d", i);
        else
            snprintf(name, sizeof name, "%s", state_enum_name(att));
        query q = {.kind = Q_FBATT, .target = target, .arg = att};
        sj a;
        gt_strbuf ab;
        sj_child(&c, &a, &ab);
        write_list(&a, &state_framebuffer_attachment, &q);
        GLint object = 0;
        state_clear_errors();
        glGetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &object);
        if (state_failed())
            object = 0;
        state_write_label(&a, (GLenum)type, (GLuint)object, "GL_FRAMEBUFFER_ATTACHMENT_OBJECT_LABEL");
        sj_splice(&c, name, &a, true);
    }
    sj_splice(w, state_enum_name(target), &c, true);
}

/* The labels of the objects bound at apitrace's list of bindings, each "*_LABEL" as
 * apitrace names it (the binding's name with BINDING made LABEL, or _LABEL added). */
static void write_binding_labels(sj *w)
{
    static const struct { GLenum kind, binding; const char *name; } bound[] = {
        {GL_BUFFER, GL_ARRAY_BUFFER_BINDING, "GL_ARRAY_BUFFER_LABEL"},
        {GL_BUFFER, GL_COLOR_ARRAY_BUFFER_BINDING, "GL_COLOR_ARRAY_BUFFER_LABEL"},
        {GL_BUFFER, GL_EDGE_FLAG_ARRAY_BUFFER_BINDING, "GL_EDGE_FLAG_ARRAY_BUFFER_LABEL"},
        {GL_BUFFER, GL_ELEMENT_ARRAY_BUFFER_BINDING, "GL_ELEMENT_ARRAY_BUFFER_LABEL"},
        {GL_BUFFER, GL_FOG_COORD_ARRAY_BUFFER_BINDING, "GL_FOG_COORDINATE_ARRAY_BUFFER_LABEL"},
        {GL_BUFFER, GL_INDEX_ARRAY_BUFFER_BINDING, "GL_INDEX_ARRAY_BUFFER_LABEL"},
        {GL_BUFFER, GL_NORMAL_ARRAY_BUFFER_BINDING, "GL_NORMAL_ARRAY_BUFFER_LABEL"},
        {GL_BUFFER, GL_SECONDARY_COLOR_ARRAY_BUFFER_BINDING, "GL_SECONDARY_COLOR_ARRAY_BUFFER_LABEL"},
        {GL_BUFFER, GL_TEXTURE_BUFFER, "GL_TEXTURE_BUFFER_LABEL"},
        {GL_BUFFER, GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING, "GL_TEXTURE_COORD_ARRAY_BUFFER_LABEL"},
        {GL_BUFFER, GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, "GL_TRANSFORM_FEEDBACK_BUFFER_LABEL"},
        {GL_BUFFER, GL_VERTEX_ARRAY_BUFFER_BINDING, "GL_VERTEX_ARRAY_BUFFER_LABEL"},
        {GL_BUFFER, GL_WEIGHT_ARRAY_BUFFER_BINDING_ARB, "GL_WEIGHT_ARRAY_BUFFER_LABEL"},
        {GL_FRAMEBUFFER, GL_DRAW_FRAMEBUFFER_BINDING, "GL_DRAW_FRAMEBUFFER_LABEL"},
        {GL_FRAMEBUFFER, GL_READ_FRAMEBUFFER_BINDING, "GL_READ_FRAMEBUFFER_LABEL"},
        {GL_PROGRAM, GL_CURRENT_PROGRAM, "GL_CURRENT_PROGRAM_LABEL"},
        {GL_PROGRAM_PIPELINE, GL_PROGRAM_PIPELINE_BINDING, "GL_PROGRAM_PIPELINE_LABEL"},
        {GL_RENDERBUFFER, GL_RENDERBUFFER_BINDING, "GL_RENDERBUFFER_LABEL"},
        {GL_TRANSFORM_FEEDBACK, GL_TRANSFORM_FEEDBACK_BINDING, "GL_TRANSFORM_FEEDBACK_LABEL"},
        {GL_VERTEX_ARRAY, GL_VERTEX_ARRAY_BINDING, "GL_VERTEX_ARRAY_LABEL"},
    };
    for (size_t i = 0; i < sizeof bound / sizeof bound[0]; ++i)
        state_write_label(w, bound[i].kind, (GLuint)state_get_int(bound[i].binding, 0),
                          bound[i].name);
}

void state_write_parameters(sj *w)
{
    sj_member(w, "parameters");
    sj_begin_object(w);
    query get = {.kind = Q_GET};
    write_list(w, &state_get, &get);
    write_materials_and_lights(w);
    write_vertex_attribs(w);
    write_buffer_targets(w);
    write_texture_units(w);
    write_framebuffer(w, GL_DRAW_FRAMEBUFFER, GL_DRAW_FRAMEBUFFER_BINDING);
    write_framebuffer(w, GL_READ_FRAMEBUFFER, GL_READ_FRAMEBUFFER_BINDING);
    write_binding_labels(w);
    sj_end_object(w);
    state_clear_errors();
}
