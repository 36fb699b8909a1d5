/* The shader sources of each program, kept when it is linked: programs often detach and
 * delete their shaders once linked, and `glretrace -D` still shows what the program
 * runs (as apitrace's replay keeps them). The link hooks are named by `retrace ...
 * hook` lines in specs/annotations.txt; the state dump (state_program.c) asks
 * retrace_program_source. Programs are keyed by their replayed name (one namespace for
 * all contexts: a name reused by another share group replaces the sources). */
#include <stdlib.h>
#include <string.h>

#include <epoxy/gl.h>

#include "gt_grow.h"
#include "retrace_gl.h"

enum { MAX_STAGES = 8 };

typedef struct kept_program {
    unsigned program;
    unsigned n;
    unsigned type[MAX_STAGES];
    char *source[MAX_STAGES];
} kept_program;

static struct {
    kept_program *p;
    size_t n, cap;
} progs;

static kept_program *find(unsigned program)
{
    for (size_t i = 0; i < progs.n; ++i)
        if (progs.p[i].program == program)
            return &progs.p[i];
    return NULL;
}

static void clear(kept_program *k)
{
    for (unsigned i = 0; i < k->n; ++i)
        free(k->source[i]);
    k->n = 0;
}

static char *shader_source(GLuint shader)
{
    GLint len = 0;
    glGetShaderiv(shader, GL_SHADER_SOURCE_LENGTH, &len);
    char *src = len > 0 && len < (1 << 26) ? malloc((size_t)len + 1) : NULL;
    if (src) {
        GLsizei got = 0;
        glGetShaderSource(shader, len + 1, &got, src);
        src[got >= 0 && got <= len ? got : 0] = 0;
    }
    return src;
}

void retrace_program_keep(unsigned program)
{
    /* glGetAttachedShaders: GL 2.0, GLES 2.0; no query that could raise an error, which
     * would hide the traced call's own from the check after it */
    if (!program || epoxy_gl_version() < 20 || !glIsProgram(program))
        return;
    GLuint shaders[MAX_STAGES];
    GLsizei n = 0;
    glGetAttachedShaders(program, MAX_STAGES, &n, shaders);
    if (n <= 0)
        return;
    kept_program *k = find(program);
    if (!k) {
        if (GT_GROW(progs.p, progs.cap, progs.n + 1, 16) != 0)
            return;
        k = &progs.p[progs.n++];
        memset(k, 0, sizeof *k);
        k->program = program;
    }
    clear(k);
    for (GLsizei i = 0; i < n && i < MAX_STAGES; ++i) {
        GLint type = 0;
        glGetShaderiv(shaders[i], GL_SHADER_TYPE, &type);
        char *src = shader_source(shaders[i]);
        if (!src)
            continue;
        k->type[k->n] = (unsigned)type;
        k->source[k->n++] = src;
    }
}

void retrace_hook_link_program(const gt_call *call, void *ret)
{
    (void)ret;
    if (call->num_args >= 1)
        retrace_program_keep((unsigned)retrace_map_get("program", retrace_uint(&call->args[0])));
}

void retrace_hook_link_program_arb(const gt_call *call, void *ret)
{
    (void)ret;
    if (call->num_args >= 1)
        retrace_program_keep((unsigned)retrace_map_get("handleARB", retrace_uint(&call->args[0])));
}

size_t retrace_program_sources(unsigned program, const unsigned **types, char *const **sources)
{
    const kept_program *k = find(program);
    if (!k)
        return 0;
    *types = k->type;
    *sources = k->source;
    return k->n;
}

void retrace_programs_free(void)
{
    for (size_t i = 0; i < progs.n; ++i)
        clear(&progs.p[i]);
    free(progs.p);
    memset(&progs, 0, sizeof progs);
}
