/* Shader sources, program link inputs and sync objects followed while frame ranges are
 * asked for (hook_track_programs.h): a program usually deletes its shaders once it
 * linked them, and the driver gives no source back from a program, so the state
 * snapshot (snap_programs.c) re-creates each program from what it linked here.
 *
 * The hooks run after the real call, recorded or not, on any thread: one lock. They
 * ignore the snapshot's own fake calls (those re-create what is followed already).
 * Tables are arrays searched linearly: programs make these calls a few hundred times,
 * not per frame. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gl_enums.gen.h"
#include "gltrace_runtime.h"
#include "gt_grow.h"
#include "hook_track_programs.h"
#include "track_programs.h"

typedef struct shader_rec {
    unsigned name, type;
    char *source, *compiled;
    int deleted; /* glDeleteShader while attached: kept for the links to come */
} shader_rec;

typedef struct prog_rec {
    gtt_program p;
    unsigned *attached;
    size_t nattached, cap;
} prog_rec;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static shader_rec *g_shaders;
static size_t g_nshaders, g_shcap;
static prog_rec *g_progs;
static size_t g_nprogs, g_pcap;
static void **g_syncs;
static size_t g_nsyncs, g_scap;

static char *dup_str(const char *s) { return s ? strdup(s) : NULL; }

/* ---- tables (called with g_lock held) ------------------------------------------------ */

static shader_rec *find_shader(unsigned name)
{
    for (size_t i = 0; i < g_nshaders; ++i)
        if (g_shaders[i].name == name)
            return &g_shaders[i];
    return NULL;
}

static prog_rec *find_prog(unsigned name)
{
    for (size_t i = 0; i < g_nprogs; ++i)
        if (g_progs[i].p.name == name)
            return &g_progs[i];
    return NULL;
}

static prog_rec *get_prog(unsigned name)
{
    prog_rec *r = find_prog(name);
    if (r || !name || GT_GROW(g_progs, g_pcap, g_nprogs + 1, 16))
        return r;
    r = &g_progs[g_nprogs++];
    memset(r, 0, sizeof *r);
    r->p.name = name;
    r->p.now.separable = r->p.at_link.separable = -1;
    return r;
}

static void drop_shader_at(size_t i)
{
    free(g_shaders[i].source);
    free(g_shaders[i].compiled);
    g_shaders[i] = g_shaders[--g_nshaders];
}

static int attached_anywhere(unsigned shader)
{
    for (size_t i = 0; i < g_nprogs; ++i)
        for (size_t j = 0; j < g_progs[i].nattached; ++j)
            if (g_progs[i].attached[j] == shader)
                return 1;
    return 0;
}

/* A deleted shader goes once no program holds it. */
static void maybe_drop_shader(unsigned name)
{
    shader_rec *s = find_shader(name);
    if (s && s->deleted && !attached_anywhere(name))
        drop_shader_at((size_t)(s - g_shaders));
}

static void free_inputs(gtt_link_inputs *in)
{
    for (size_t i = 0; i < in->nvaryings; ++i)
        free(in->varyings[i]);
    for (size_t i = 0; i < in->nattribs; ++i)
        free(in->attribs[i].name);
    for (size_t i = 0; i < in->nfrags; ++i)
        free(in->frags[i].name);
    free(in->varyings);
    free(in->attribs);
    free(in->frags);
    int separable = in->separable;
    memset(in, 0, sizeof *in);
    in->separable = separable;
}

static int copy_bindings(gtt_binding **out, const gtt_binding *in, size_t n)
{
    *out = n ? calloc(n, sizeof **out) : NULL;
    if (n && !*out)
        return -1;
    for (size_t i = 0; i < n; ++i) {
        (*out)[i] = in[i];
        (*out)[i].name = dup_str(in[i].name);
    }
    return 0;
}

static void copy_inputs(gtt_link_inputs *out, const gtt_link_inputs *in)
{
    *out = *in;
    out->varyings = in->nvaryings ? calloc(in->nvaryings, sizeof *out->varyings) : NULL;
    if (!out->varyings)
        out->nvaryings = 0;
    for (size_t i = 0; i < out->nvaryings; ++i)
        out->varyings[i] = dup_str(in->varyings[i]);
    if (copy_bindings(&out->attribs, in->attribs, in->nattribs))
        out->nattribs = 0;
    if (copy_bindings(&out->frags, in->frags, in->nfrags))
        out->nfrags = 0;
}

static void free_link_shaders(gtt_program *p)
{
    for (size_t i = 0; i < p->nshaders; ++i)
        free(p->shaders[i].source);
    free(p->shaders);
    p->shaders = NULL;
    p->nshaders = 0;
}

static void free_program_fields(gtt_program *p)
{
    free_inputs(&p->now);
    free_inputs(&p->at_link);
    free_link_shaders(p);
    free(p->sp_source);
}

/* count strings (lengths NULL, or negative: NUL-terminated) joined into one. */
static char *join(int count, const char *const *strings, const int *lengths)
{
    size_t total = 1;
    for (int i = 0; i < count; ++i)
        if (strings[i])
            total += lengths && lengths[i] >= 0 ? (size_t)lengths[i] : strlen(strings[i]);
    char *out = malloc(total), *p = out;
    if (!out)
        return NULL;
    for (int i = 0; i < count; ++i) {
        if (!strings[i])
            continue;
        size_t n = lengths && lengths[i] >= 0 ? (size_t)lengths[i] : strlen(strings[i]);
        memcpy(p, strings[i], n);
        p += n;
    }
    *p = '\0';
    return out;
}

static int skip(void) { return gltrace_faking(); }

/* ---- hooks ----------------------------------------------------------------------------- */

void gtt_create_shader(unsigned type, unsigned shader)
{
    if (skip() || !shader)
        return;
    pthread_mutex_lock(&g_lock);
    shader_rec *s = find_shader(shader); /* a name given again: the old one is gone */
    if (s)
        drop_shader_at((size_t)(s - g_shaders));
    if (!GT_GROW(g_shaders, g_shcap, g_nshaders + 1, 16)) {
        s = &g_shaders[g_nshaders++];
        memset(s, 0, sizeof *s);
        s->name = shader;
        s->type = type;
    }
    pthread_mutex_unlock(&g_lock);
}

void gtt_shader_source(unsigned shader, int count, const char *const *strings,
                       const int *lengths)
{
    if (skip() || !strings || count < 0)
        return;
    char *text = join(count, strings, lengths);
    pthread_mutex_lock(&g_lock);
    shader_rec *s = find_shader(shader);
    if (s) {
        free(s->source);
        s->source = text;
        text = NULL;
    }
    pthread_mutex_unlock(&g_lock);
    free(text);
}

void gtt_compile_shader(unsigned shader)
{
    if (skip())
        return;
    pthread_mutex_lock(&g_lock);
    shader_rec *s = find_shader(shader);
    if (s) {
        free(s->compiled);
        s->compiled = dup_str(s->source);
    }
    pthread_mutex_unlock(&g_lock);
}

void gtt_delete_shader(unsigned shader)
{
    if (skip())
        return;
    pthread_mutex_lock(&g_lock);
    shader_rec *s = find_shader(shader);
    if (s) {
        s->deleted = 1;
        maybe_drop_shader(shader);
    }
    pthread_mutex_unlock(&g_lock);
}

void gtt_attach_shader(unsigned program, unsigned shader)
{
    if (skip())
        return;
    pthread_mutex_lock(&g_lock);
    prog_rec *r = get_prog(program);
    if (r && find_shader(shader) && !GT_GROW(r->attached, r->cap, r->nattached + 1, 4))
        r->attached[r->nattached++] = shader;
    pthread_mutex_unlock(&g_lock);
}

void gtt_detach_shader(unsigned program, unsigned shader)
{
    if (skip())
        return;
    pthread_mutex_lock(&g_lock);
    prog_rec *r = find_prog(program);
    for (size_t i = 0; r && i < r->nattached; ++i)
        if (r->attached[i] == shader) {
            r->attached[i] = r->attached[--r->nattached];
            break;
        }
    maybe_drop_shader(shader);
    pthread_mutex_unlock(&g_lock);
}

void gtt_delete_program(unsigned program)
{
    if (skip())
        return;
    pthread_mutex_lock(&g_lock);
    prog_rec *r = find_prog(program);
    if (r) {
        unsigned *attached = r->attached;
        size_t n = r->nattached;
        free_program_fields(&r->p);
        *r = g_progs[--g_nprogs];
        for (size_t i = 0; i < n; ++i)
            maybe_drop_shader(attached[i]);
        free(attached);
    }
    pthread_mutex_unlock(&g_lock);
}

void gtt_program_parameteri(unsigned program, unsigned pname, int value)
{
    if (skip() || pname != GL_PROGRAM_SEPARABLE)
        return;
    pthread_mutex_lock(&g_lock);
    prog_rec *r = get_prog(program);
    if (r)
        r->p.now.separable = value != 0;
    pthread_mutex_unlock(&g_lock);
}

void gtt_xfb_varyings(unsigned program, int count, const char *const *varyings, unsigned mode)
{
    if (skip() || count < 0 || (count && !varyings))
        return;
    pthread_mutex_lock(&g_lock);
    prog_rec *r = get_prog(program);
    if (r) {
        gtt_link_inputs *in = &r->p.now;
        for (size_t i = 0; i < in->nvaryings; ++i)
            free(in->varyings[i]);
        free(in->varyings);
        in->varyings = count ? calloc((size_t)count, sizeof *in->varyings) : NULL;
        in->nvaryings = in->varyings ? (size_t)count : 0;
        for (size_t i = 0; i < in->nvaryings; ++i)
            in->varyings[i] = dup_str(varyings[i]);
        in->varying_mode = mode;
        in->has_varyings = 1;
    }
    pthread_mutex_unlock(&g_lock);
}

/* Adds or replaces the binding of name in *list. */
static void put_binding(gtt_binding **list, size_t *n, unsigned index, int second,
                        const char *name)
{
    for (size_t i = 0; i < *n; ++i)
        if (!strcmp((*list)[i].name, name)) {
            (*list)[i].index = index;
            (*list)[i].second = second;
            return;
        }
    size_t cap = *n; /* grown one at a time: a program binds a handful */
    char *copy = strdup(name);
    if (!copy || GT_GROW(*list, cap, *n + 1, 1)) {
        free(copy);
        return;
    }
    (*list)[(*n)++] = (gtt_binding){index, second, copy};
}

void gtt_bind_attrib_location(unsigned program, unsigned index, const char *name)
{
    if (skip() || !name)
        return;
    pthread_mutex_lock(&g_lock);
    prog_rec *r = get_prog(program);
    if (r)
        put_binding(&r->p.now.attribs, &r->p.now.nattribs, index, -1, name);
    pthread_mutex_unlock(&g_lock);
}

void gtt_bind_frag_data_location_indexed(unsigned program, unsigned color, unsigned index,
                                         const char *name)
{
    if (skip() || !name)
        return;
    pthread_mutex_lock(&g_lock);
    prog_rec *r = get_prog(program);
    if (r)
        put_binding(&r->p.now.frags, &r->p.now.nfrags, color, (int)index, name);
    pthread_mutex_unlock(&g_lock);
}

void gtt_bind_frag_data_location(unsigned program, unsigned color, const char *name)
{
    if (skip() || !name)
        return;
    pthread_mutex_lock(&g_lock);
    prog_rec *r = get_prog(program);
    if (r)
        put_binding(&r->p.now.frags, &r->p.now.nfrags, color, -1, name);
    pthread_mutex_unlock(&g_lock);
}

void gtt_link_program(unsigned program)
{
    if (skip())
        return;
    pthread_mutex_lock(&g_lock);
    prog_rec *r = get_prog(program);
    if (r) {
        free_link_shaders(&r->p);
        free_inputs(&r->p.at_link);
        copy_inputs(&r->p.at_link, &r->p.now);
        r->p.linked = 1;
        r->p.shaders = r->nattached ? calloc(r->nattached, sizeof *r->p.shaders) : NULL;
        for (size_t i = 0; r->p.shaders && i < r->nattached; ++i) {
            const shader_rec *s = find_shader(r->attached[i]);
            r->p.shaders[r->p.nshaders++] = (gtt_shader){
                r->attached[i], s ? s->type : 0, s ? dup_str(s->compiled) : NULL};
        }
    }
    pthread_mutex_unlock(&g_lock);
}

void gtt_create_shader_programv(unsigned type, int count, const char *const *strings,
                                unsigned program)
{
    if (skip() || !program || count < 0 || !strings)
        return;
    char *text = join(count, strings, NULL);
    pthread_mutex_lock(&g_lock);
    prog_rec *r = get_prog(program);
    if (r) {
        free(r->p.sp_source);
        r->p.sp_source = text;
        r->p.sp_type = type;
        text = NULL;
    }
    pthread_mutex_unlock(&g_lock);
    free(text);
}

void gtt_fence_sync(unsigned condition, unsigned flags, void *sync)
{
    (void)condition;
    (void)flags;
    if (skip() || !sync)
        return;
    pthread_mutex_lock(&g_lock);
    if (!GT_GROW(g_syncs, g_scap, g_nsyncs + 1, 16))
        g_syncs[g_nsyncs++] = sync;
    pthread_mutex_unlock(&g_lock);
}

void gtt_delete_sync(void *sync)
{
    if (skip() || !sync)
        return;
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < g_nsyncs; ++i)
        if (g_syncs[i] == sync) {
            g_syncs[i] = g_syncs[--g_nsyncs];
            break;
        }
    pthread_mutex_unlock(&g_lock);
}

/* ---- the snapshot's side ------------------------------------------------------------- */

gtt_program *gtt_program_copy(unsigned name)
{
    gtt_program *out = calloc(1, sizeof *out);
    if (!out)
        return NULL;
    pthread_mutex_lock(&g_lock);
    const prog_rec *r = find_prog(name);
    if (r) {
        out->name = name;
        copy_inputs(&out->now, &r->p.now);
        copy_inputs(&out->at_link, &r->p.at_link);
        out->linked = r->p.linked;
        out->sp_type = r->p.sp_type;
        out->sp_source = dup_str(r->p.sp_source);
        out->shaders = r->p.nshaders ? calloc(r->p.nshaders, sizeof *out->shaders) : NULL;
        for (size_t i = 0; out->shaders && i < r->p.nshaders; ++i) {
            out->shaders[i] = r->p.shaders[i];
            out->shaders[i].source = dup_str(r->p.shaders[i].source);
            out->nshaders++;
        }
    }
    pthread_mutex_unlock(&g_lock);
    if (!r) {
        free(out);
        return NULL;
    }
    return out;
}

void gtt_program_free(gtt_program *p)
{
    if (!p)
        return;
    free_program_fields(p);
    free(p);
}

int gtt_shader_copy(unsigned name, unsigned *type, char **source, char **compiled)
{
    pthread_mutex_lock(&g_lock);
    const shader_rec *s = find_shader(name);
    if (s) {
        *type = s->type;
        *source = dup_str(s->source);
        *compiled = dup_str(s->compiled);
    }
    pthread_mutex_unlock(&g_lock);
    return s != NULL;
}

size_t gtt_syncs(void ***out)
{
    pthread_mutex_lock(&g_lock);
    size_t n = g_nsyncs;
    *out = n ? malloc(n * sizeof **out) : NULL;
    if (*out)
        memcpy(*out, g_syncs, n * sizeof **out);
    else
        n = 0;
    pthread_mutex_unlock(&g_lock);
    return n;
}
