/* Uniform values and block bindings of a linked program (snap_uniforms.h). A relink
 * sets every uniform to its initial value, so each active uniform outside a block (a
 * block's uniforms live in buffers) is read back element by element and written as one
 * glUniform*v call per uniform, after a glGetUniformLocation answering the location
 * the program's driver gave: both replayers map locations from those calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_enums.gen.h"
#include "protos.gen.h"
#include "snap_uniforms.h"

/* How a uniform type is read and written: kind 'f' float, 'i' int (bools, samplers,
 * images), 'u' unsigned, 'd' double; cols > 1 for matrices (rows each). */
typedef struct utype {
    unsigned type;
    char kind;
    unsigned char cols, rows;
} utype;

static const utype types[] = {
    {GL_FLOAT, 'f', 1, 1},        {GL_FLOAT_VEC2, 'f', 1, 2},   {GL_FLOAT_VEC3, 'f', 1, 3},
    {GL_FLOAT_VEC4, 'f', 1, 4},   {GL_INT, 'i', 1, 1},          {GL_INT_VEC2, 'i', 1, 2},
    {GL_INT_VEC3, 'i', 1, 3},     {GL_INT_VEC4, 'i', 1, 4},     {GL_BOOL, 'i', 1, 1},
    {GL_BOOL_VEC2, 'i', 1, 2},    {GL_BOOL_VEC3, 'i', 1, 3},    {GL_BOOL_VEC4, 'i', 1, 4},
    {GL_UNSIGNED_INT, 'u', 1, 1}, {GL_UNSIGNED_INT_VEC2, 'u', 1, 2},
    {GL_UNSIGNED_INT_VEC3, 'u', 1, 3}, {GL_UNSIGNED_INT_VEC4, 'u', 1, 4},
    {GL_DOUBLE, 'd', 1, 1},       {GL_DOUBLE_VEC2, 'd', 1, 2},  {GL_DOUBLE_VEC3, 'd', 1, 3},
    {GL_DOUBLE_VEC4, 'd', 1, 4},
    {GL_FLOAT_MAT2, 'f', 2, 2},   {GL_FLOAT_MAT2x3, 'f', 2, 3}, {GL_FLOAT_MAT2x4, 'f', 2, 4},
    {GL_FLOAT_MAT3x2, 'f', 3, 2}, {GL_FLOAT_MAT3, 'f', 3, 3},   {GL_FLOAT_MAT3x4, 'f', 3, 4},
    {GL_FLOAT_MAT4x2, 'f', 4, 2}, {GL_FLOAT_MAT4x3, 'f', 4, 3}, {GL_FLOAT_MAT4, 'f', 4, 4},
    {GL_DOUBLE_MAT2, 'd', 2, 2},  {GL_DOUBLE_MAT2x3, 'd', 2, 3}, {GL_DOUBLE_MAT2x4, 'd', 2, 4},
    {GL_DOUBLE_MAT3x2, 'd', 3, 2}, {GL_DOUBLE_MAT3, 'd', 3, 3}, {GL_DOUBLE_MAT3x4, 'd', 3, 4},
    {GL_DOUBLE_MAT4x2, 'd', 4, 2}, {GL_DOUBLE_MAT4x3, 'd', 4, 3}, {GL_DOUBLE_MAT4, 'd', 4, 4},
};

/* Any other type is opaque (sampler, image): its value is the unit, an int. */
static utype type_of(unsigned type)
{
    for (size_t i = 0; i < sizeof types / sizeof *types; ++i)
        if (types[i].type == type)
            return types[i];
    return (utype){type, 'i', 1, 1};
}

typedef void (*vec_f)(GLint, GLsizei, const GLfloat *);
typedef void (*vec_i)(GLint, GLsizei, const GLint *);
typedef void (*vec_u)(GLint, GLsizei, const GLuint *);
typedef void (*vec_d)(GLint, GLsizei, const GLdouble *);
typedef void (*mat_f)(GLint, GLsizei, GLboolean, const GLfloat *);
typedef void (*mat_d)(GLint, GLsizei, GLboolean, const GLdouble *);

static const vec_f vecs_f[4] = {glUniform1fv, glUniform2fv, glUniform3fv, glUniform4fv};
static const vec_i vecs_i[4] = {glUniform1iv, glUniform2iv, glUniform3iv, glUniform4iv};
static const vec_u vecs_u[4] = {glUniform1uiv, glUniform2uiv, glUniform3uiv, glUniform4uiv};
static const vec_d vecs_d[4] = {glUniform1dv, glUniform2dv, glUniform3dv, glUniform4dv};
/* [cols - 2][rows - 2]: glUniformMatrixCxR */
static const mat_f mats_f[3][3] = {
    {glUniformMatrix2fv, glUniformMatrix2x3fv, glUniformMatrix2x4fv},
    {glUniformMatrix3x2fv, glUniformMatrix3fv, glUniformMatrix3x4fv},
    {glUniformMatrix4x2fv, glUniformMatrix4x3fv, glUniformMatrix4fv}};
static const mat_d mats_d[3][3] = {
    {glUniformMatrix2dv, glUniformMatrix2x3dv, glUniformMatrix2x4dv},
    {glUniformMatrix3x2dv, glUniformMatrix3dv, glUniformMatrix3x4dv},
    {glUniformMatrix4x2dv, glUniformMatrix4x3dv, glUniformMatrix4dv}};

/* One element's value at location into out (8 bytes per component). */
static void read_value(unsigned program, int location, utype t, void *out)
{
    switch (t.kind) {
    case 'f': SNAP_REAL(glGetUniformfv)(program, location, out); break;
    case 'u': SNAP_REAL(glGetUniformuiv)(program, location, out); break;
    case 'd': SNAP_REAL(glGetUniformdv)(program, location, out); break;
    default: SNAP_REAL(glGetUniformiv)(program, location, out); break;
    }
}

static void write_value(int location, int count, utype t, const void *v)
{
    if (t.cols > 1 && t.cols <= 4 && t.rows >= 2 && t.rows <= 4) {
        if (t.kind == 'd')
            mats_d[t.cols - 2][t.rows - 2](location, count, GL_FALSE, v);
        else
            mats_f[t.cols - 2][t.rows - 2](location, count, GL_FALSE, v);
        return;
    }
    unsigned n = t.rows >= 1 && t.rows <= 4 ? t.rows - 1u : 0u;
    switch (t.kind) {
    case 'f': vecs_f[n](location, count, v); break;
    case 'u': vecs_u[n](location, count, v); break;
    case 'd': vecs_d[n](location, count, v); break;
    default: vecs_i[n](location, count, v); break;
    }
}

/* One active uniform: its elements read at their own locations, written at the
 * first's. name has room for "[N]" after its base. */
static void write_uniform(unsigned program, char *name, int size, unsigned type)
{
    int loc0 = SNAP_REAL(glGetUniformLocation)(program, name);
    if (loc0 < 0) /* in a block, or a built-in */
        return;
    utype t = type_of(type);
    size_t comps = (size_t)t.cols * t.rows, elem = comps * sizeof(double);
    unsigned char *vals = calloc(size > 0 ? (size_t)size : 1, elem);
    if (!vals)
        return;
    char *bracket = size > 1 ? strrchr(name, '[') : NULL;
    for (int j = 0; j < size; ++j) {
        int loc = loc0;
        if (j && bracket) {
            sprintf(bracket, "[%d]", j);
            loc = SNAP_REAL(glGetUniformLocation)(program, name);
        }
        if (loc >= 0) /* packed to the component size the call takes */
            read_value(program, loc, t, vals + (size_t)j * comps * (t.kind == 'd' ? 8 : 4));
    }
    if (bracket)
        strcpy(bracket, "[0]");
    snap_ret((uint64_t)(uint32_t)loc0);
    glGetUniformLocation(program, name);
    write_value(loc0, size > 0 ? size : 1, t, vals);
    free(vals);
}

static void write_block_bindings(snap *s, unsigned program)
{
    int nblocks = 0, maxlen = 0;
    if (snap_api(s) == SNAP_API_GL ? snap_version(s) < 31 : snap_version(s) < 30)
        return;
    SNAP_REAL(glGetProgramiv)(program, GL_ACTIVE_UNIFORM_BLOCKS, &nblocks);
    SNAP_REAL(glGetProgramiv)(program, GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH, &maxlen);
    char *name = malloc((size_t)(maxlen > 0 ? maxlen : 1) + 1);
    for (int i = 0; i < nblocks && name; ++i) {
        int binding = 0, len = 0;
        name[0] = '\0';
        SNAP_REAL(glGetActiveUniformBlockiv)(program, (unsigned)i, GL_UNIFORM_BLOCK_BINDING,
                                              &binding);
        SNAP_REAL(glGetActiveUniformBlockName)(program, (unsigned)i, maxlen + 1, &len, name);
        snap_ret((unsigned)i);
        glGetUniformBlockIndex(program, name);
        glUniformBlockBinding(program, (unsigned)i, (unsigned)binding);
    }
    free(name);
    if (snap_api(s) != SNAP_API_GL || snap_version(s) < 43)
        return; /* GLES: storage blocks bind as their layout says */
    int nstorage = 0;
    SNAP_REAL(glGetProgramInterfaceiv)(program, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES,
                                       &nstorage);
    for (int i = 0; i < nstorage; ++i) {
        const GLenum prop = GL_BUFFER_BINDING;
        int binding = 0;
        SNAP_REAL(glGetProgramResourceiv)(program, GL_SHADER_STORAGE_BLOCK, (unsigned)i, 1,
                                          &prop, 1, NULL, &binding);
        glShaderStorageBlockBinding(program, (unsigned)i, (unsigned)binding);
    }
}

void snap_uniforms_write(snap *s, unsigned program)
{
    int n = 0, maxlen = 0;
    glUseProgram(program);
    SNAP_REAL(glGetProgramiv)(program, GL_ACTIVE_UNIFORMS, &n);
    SNAP_REAL(glGetProgramiv)(program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &maxlen);
    size_t cap = (size_t)(maxlen > 0 ? maxlen : 1) + 16; /* room for "[N]" */
    char *name = malloc(cap);
    for (int i = 0; i < n && name; ++i) {
        int len = 0, size = 0;
        unsigned type = 0;
        name[0] = '\0';
        SNAP_REAL(glGetActiveUniform)(program, (unsigned)i, maxlen + 1, &len, &size, &type,
                                      name);
        if (name[0] && strncmp(name, "gl_", 3))
            write_uniform(program, name, size, type);
    }
    free(name);
    write_block_bindings(s, program);
}

void snap_uniforms_check(snap *s, unsigned program, const unsigned *stages, size_t nstages)
{
    if (snap_api(s) != SNAP_API_GL || snap_version(s) < 40)
        return;
    for (size_t i = 0; i < nstages; ++i) { /* a stage the program lacks is an error */
        int n = 0;
        if (stages[i] == GL_COMPUTE_SHADER && snap_version(s) < 43)
            continue;
        SNAP_REAL(glGetProgramStageiv)(program, stages[i], GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS,
                                       &n);
        if (n > 0)
            snap_unreadable(s, "program %u: subroutine uniforms not written", program);
    }
}
