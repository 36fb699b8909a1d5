/* The program sections of the state dump: "shaders" (the source of each stage the
 * program was linked with), "uniforms" (each active uniform outside blocks, arrays element by element as
 * "name[i]", matrices as arrays of columns), "buffers" (desktop GL: "vertices", every
 * vertex the bound attribute buffers hold, by attribute name) and
 * "shaderstoragebufferblocks" (empty: not dumped yet). Built-in names (gl_*) are left
 * out, as apitrace leaves them out. */
#include <epoxy/gl.h>
#include <stdlib.h>
#include <string.h>

#include "gl/retrace_gl.h"
#include "state_dump.h"

/* How a GLSL type is read and laid out: element type, columns, rows. */
typedef struct glsl_shape {
    GLenum elem; /* GL_FLOAT, GL_DOUBLE, GL_INT, GL_UNSIGNED_INT, GL_BOOL; GL_NONE: unknown */
    int cols, rows;
} glsl_shape;

static glsl_shape vec(GLenum elem, int n) { return (glsl_shape){elem, 1, n}; }
static glsl_shape mat(GLenum elem, int c, int r) { return (glsl_shape){elem, c, r}; }

static glsl_shape shape_of(GLenum type)
{
    switch (type) {
    case GL_FLOAT: return vec(GL_FLOAT, 1);
    case GL_FLOAT_VEC2: return vec(GL_FLOAT, 2);
    case GL_FLOAT_VEC3: return vec(GL_FLOAT, 3);
    case GL_FLOAT_VEC4: return vec(GL_FLOAT, 4);
    case GL_DOUBLE: return vec(GL_DOUBLE, 1);
    case GL_DOUBLE_VEC2: return vec(GL_DOUBLE, 2);
    case GL_DOUBLE_VEC3: return vec(GL_DOUBLE, 3);
    case GL_DOUBLE_VEC4: return vec(GL_DOUBLE, 4);
    case GL_INT: return vec(GL_INT, 1);
    case GL_INT_VEC2: return vec(GL_INT, 2);
    case GL_INT_VEC3: return vec(GL_INT, 3);
    case GL_INT_VEC4: return vec(GL_INT, 4);
    case GL_UNSIGNED_INT: return vec(GL_UNSIGNED_INT, 1);
    case GL_UNSIGNED_INT_VEC2: return vec(GL_UNSIGNED_INT, 2);
    case GL_UNSIGNED_INT_VEC3: return vec(GL_UNSIGNED_INT, 3);
    case GL_UNSIGNED_INT_VEC4: return vec(GL_UNSIGNED_INT, 4);
    case GL_BOOL: return vec(GL_BOOL, 1);
    case GL_BOOL_VEC2: return vec(GL_BOOL, 2);
    case GL_BOOL_VEC3: return vec(GL_BOOL, 3);
    case GL_BOOL_VEC4: return vec(GL_BOOL, 4);
    case GL_FLOAT_MAT2: return mat(GL_FLOAT, 2, 2);
    case GL_FLOAT_MAT3: return mat(GL_FLOAT, 3, 3);
    case GL_FLOAT_MAT4: return mat(GL_FLOAT, 4, 4);
    case GL_FLOAT_MAT2x3: return mat(GL_FLOAT, 2, 3);
    case GL_FLOAT_MAT2x4: return mat(GL_FLOAT, 2, 4);
    case GL_FLOAT_MAT3x2: return mat(GL_FLOAT, 3, 2);
    case GL_FLOAT_MAT3x4: return mat(GL_FLOAT, 3, 4);
    case GL_FLOAT_MAT4x2: return mat(GL_FLOAT, 4, 2);
    case GL_FLOAT_MAT4x3: return mat(GL_FLOAT, 4, 3);
    case GL_DOUBLE_MAT2: return mat(GL_DOUBLE, 2, 2);
    case GL_DOUBLE_MAT3: return mat(GL_DOUBLE, 3, 3);
    case GL_DOUBLE_MAT4: return mat(GL_DOUBLE, 4, 4);
    default: /* samplers and images: their unit, an integer */
        return vec(GL_INT, 1);
    }
}

typedef union uniform_values {
    GLfloat f[16];
    GLdouble d[16];
    GLint i[16];
    GLuint u[16];
} uniform_values;

static void write_scalar(sj *w, GLenum elem, const uniform_values *v, int k)
{
    switch (elem) {
    case GL_FLOAT: sj_float(w, v->f[k]); break;
    case GL_DOUBLE: sj_double(w, v->d[k]); break;
    case GL_UNSIGNED_INT: sj_uint(w, v->u[k]); break;
    default: sj_int(w, v->i[k]); break;
    }
}

/* A value: a scalar, an array of rows, or an array of columns of rows. */
static void write_shaped(sj *w, glsl_shape s, const uniform_values *v)
{
    if (s.cols == 1 && s.rows == 1) {
        write_scalar(w, s.elem, v, 0);
        return;
    }
    if (s.cols > 1)
        sj_begin_array(w);
    for (int c = 0; c < s.cols; ++c) {
        sj_begin_array(w);
        for (int r = 0; r < s.rows; ++r)
            write_scalar(w, s.elem, v, c * s.rows + r);
        sj_end_array(w);
    }
    if (s.cols > 1)
        sj_end_array(w);
}

static bool read_uniform(GLuint program, GLint loc, GLenum elem, uniform_values *v)
{
    memset(v, 0, sizeof *v);
    state_clear_errors();
    switch (elem) {
    case GL_FLOAT: glGetUniformfv(program, loc, v->f); break;
    case GL_DOUBLE:
        if (!state_has("glGetUniformdv"))
            return false;
        glGetUniformdv(program, loc, v->d);
        break;
    case GL_UNSIGNED_INT:
        if (!state_has("glGetUniformuiv"))
            return false;
        glGetUniformuiv(program, loc, v->u);
        break;
    default: glGetUniformiv(program, loc, v->i); break;
    }
    return !state_failed();
}

static void write_uniform(sj *w, GLuint program, const char *name, GLint size, GLenum type)
{
    glsl_shape s = shape_of(type);
    size_t len = strlen(name);
    if (len > 3 && !strcmp(name + len - 3, "[0]"))
        len -= 3; /* an array's elements are written one by one */
    char elem_name[512];
    for (GLint i = 0; i < size && i < 4096; ++i) {
        if (size > 1)
            snprintf(elem_name, sizeof elem_name, "%.*s[%d]", (int)len, name, i);
        else
            snprintf(elem_name, sizeof elem_name, "%.*s", (int)len, name);
        GLint loc = glGetUniformLocation(program, elem_name);
        uniform_values v;
        if (loc < 0 || !read_uniform(program, loc, s.elem, &v))
            continue;
        sj_member(w, elem_name);
        write_shaped(w, s, &v);
    }
}

static void write_uniforms(sj *w, GLuint program)
{
    sj_member(w, "uniforms");
    sj_begin_object(w);
    GLint n = 0, maxlen = 0;
    if (program) {
        glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &n);
        glGetProgramiv(program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &maxlen);
    }
    char *name = n > 0 && maxlen > 0 ? malloc((size_t)maxlen + 1) : NULL;
    for (GLint i = 0; name && i < n; ++i) {
        GLint size = 0;
        GLenum type = GL_NONE;
        glGetActiveUniform(program, (GLuint)i, maxlen, NULL, &size, &type, name);
        if (!strncmp(name, "gl_", 3))
            continue;
        if (glGetUniformLocation(program, name) >= 0) /* -1: in a uniform block */
            write_uniform(w, program, name, size, type);
    }
    free(name);
    sj_end_object(w);
    state_clear_errors();
}

/* The sources the program was linked with (kept at its link: retrace_programs.c), or
 * where the replay did not link it, those of its attached shaders. */
static void write_shaders(sj *w, GLuint program)
{
    sj_member(w, "shaders");
    sj_begin_object(w);
    const unsigned *types;
    char *const *sources;
    size_t n = 0;
    if (program && !(n = retrace_program_sources(program, &types, &sources))) {
        retrace_program_keep(program);
        n = retrace_program_sources(program, &types, &sources);
    }
    for (size_t i = 0; i < n; ++i) {
        const char *stage = state_enum_name(types[i]);
        if (stage) {
            sj_member(w, stage);
            sj_cstring(w, sources[i]);
        }
    }
    sj_end_object(w);
    state_clear_errors();
}

/* One attribute of the vertices dump. */
typedef struct attrib {
    char name[256];
    GLint size, stride, offset;
    GLenum type;
    const uint8_t *data; /* the buffer's contents (a copy) */
    GLint64 data_size;
} attrib;

static int type_bytes(GLenum type)
{
    switch (type) {
    case GL_BYTE: case GL_UNSIGNED_BYTE: return 1;
    case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: return 2;
    case GL_INT: case GL_UNSIGNED_INT: case GL_FLOAT: case GL_FIXED: return 4;
    case GL_DOUBLE: return 8;
    default: return 0; /* packed types: not dumped */
    }
}

static void write_component(sj *w, GLenum type, const uint8_t *p)
{
    union { int8_t b; uint8_t ub; int16_t s; uint16_t us; int32_t i; uint32_t u; float f; double d; } v;
    memcpy(&v, p, (size_t)type_bytes(type));
    switch (type) {
    case GL_BYTE: sj_int(w, v.b); break;
    case GL_UNSIGNED_BYTE: sj_uint(w, v.ub); break;
    case GL_SHORT: sj_int(w, v.s); break;
    case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: sj_uint(w, v.us); break;
    case GL_INT: case GL_FIXED: sj_int(w, v.i); break;
    case GL_UNSIGNED_INT: sj_uint(w, v.u); break;
    case GL_FLOAT: sj_float(w, v.f); break;
    default: sj_double(w, v.d); break;
    }
}

/* The contents of buffer BUF (a copy), bound to GL_ARRAY_BUFFER for the read. */
static uint8_t *buffer_contents(GLuint buf, GLint64 *size)
{
    GLint prev = 0;
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &prev);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    GLint64 n = 0;
    glGetBufferParameteri64v(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &n);
    uint8_t *copy = n > 0 && n < ((GLint64)1 << 31) ? malloc((size_t)n) : NULL;
    if (copy) {
        glGetBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)n, copy);
        if (state_failed()) { /* mapped by the program: not readable now */
            free(copy);
            copy = NULL;
        }
    }
    glBindBuffer(GL_ARRAY_BUFFER, (GLuint)prev);
    *size = n;
    return copy;
}

/* Fills A from the attribute at LOC: false when it has no buffer or is not dumpable. */
static bool attrib_from(attrib *a, GLint loc)
{
    GLint buf = 0, divisor = 0, type = 0;
    void *ptr = NULL;
    glGetVertexAttribiv((GLuint)loc, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buf);
    glGetVertexAttribiv((GLuint)loc, GL_VERTEX_ATTRIB_ARRAY_SIZE, &a->size);
    glGetVertexAttribiv((GLuint)loc, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
    glGetVertexAttribiv((GLuint)loc, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &a->stride);
    glGetVertexAttribiv((GLuint)loc, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &divisor);
    glGetVertexAttribPointerv((GLuint)loc, GL_VERTEX_ATTRIB_ARRAY_POINTER, &ptr);
    a->type = (GLenum)type;
    if (a->size == GL_BGRA)
        a->size = 4;
    if (!buf || divisor || !type_bytes(a->type) || a->size < 1 || a->size > 4)
        return false;
    a->offset = (GLint)(intptr_t)ptr;
    if (!a->stride)
        a->stride = a->size * type_bytes(a->type);
    a->data = buffer_contents((GLuint)buf, &a->data_size);
    return a->data != NULL;
}

/* How many whole vertices every attribute's buffer holds. */
static GLint64 vertex_count(const attrib *a, int n)
{
    GLint64 count = -1;
    for (int i = 0; i < n; ++i) {
        GLint64 bytes = (GLint64)a[i].size * type_bytes(a[i].type);
        GLint64 c = a[i].data_size < a[i].offset + bytes ? 0
                    : (a[i].data_size - a[i].offset - bytes) / a[i].stride + 1;
        if (count < 0 || c < count)
            count = c;
    }
    return count < 0 ? 0 : count;
}

static void write_vertices(sj *w, GLuint program)
{
    enum { MAX_ATTRIBS = 32, MAX_VERTICES = 4096 }; /* apitrace's bound on the dump */
    attrib a[MAX_ATTRIBS];
    int n = 0;
    GLint active = 0;
    glGetProgramiv(program, GL_ACTIVE_ATTRIBUTES, &active);
    for (GLint i = 0; i < active && n < MAX_ATTRIBS; ++i) {
        GLint size = 0;
        GLenum type = 0;
        glGetActiveAttrib(program, (GLuint)i, sizeof a[n].name, NULL, &size, &type, a[n].name);
        GLint loc = strncmp(a[n].name, "gl_", 3) ? glGetAttribLocation(program, a[n].name) : -1;
        if (loc >= 0 && attrib_from(&a[n], loc))
            n++;
    }
    GLint64 count = vertex_count(a, n);
    if (count > MAX_VERTICES)
        count = MAX_VERTICES;
    if (n && count > 0) {
        sj_member(w, "vertices");
        sj_begin_array(w);
        for (GLint64 v = 0; v < count; ++v) {
            sj_begin_object(w);
            for (int i = 0; i < n; ++i) {
                const uint8_t *p = a[i].data + a[i].offset + v * a[i].stride;
                int bytes = type_bytes(a[i].type);
                sj_member(w, a[i].name);
                if (a[i].size > 1)
                    sj_begin_array(w);
                for (int k = 0; k < a[i].size; ++k)
                    write_component(w, a[i].type, p + k * bytes);
                if (a[i].size > 1)
                    sj_end_array(w);
            }
            sj_end_object(w);
        }
        sj_end_array(w);
    }
    for (int i = 0; i < n; ++i)
        free((void *)a[i].data);
}

void state_write_program(sj *w)
{
    GLint program = 0;
    bool glsl = state_has("glGetProgramiv") && state_has("glGetActiveUniform");
    if (glsl) {
        state_clear_errors();
        glGetIntegerv(GL_CURRENT_PROGRAM, &program);
        if (state_failed())
            program = 0;
        /* a program of ARB_shader_objects (glUseProgramObjectARB): Mesa's handles are
         * program names */
        if (!program && epoxy_is_desktop_gl() && state_has("glGetHandleARB")) {
            program = (GLint)glGetHandleARB(GL_PROGRAM_OBJECT_ARB);
            if (state_failed())
                program = 0;
        }
    }
    write_shaders(w, (GLuint)program);
    write_uniforms(w, (GLuint)program);
    sj_member(w, "buffers");
    sj_begin_object(w);
    if (program && epoxy_is_desktop_gl() && state_has("glGetBufferSubData") &&
        state_has("glGetBufferParameteri64v") && state_has("glGetVertexAttribPointerv"))
        write_vertices(w, (GLuint)program);
    sj_end_object(w);
    state_clear_errors();
    sj_member(w, "shaderstoragebufferblocks");
    sj_begin_object(w);
    sj_end_object(w);
}
