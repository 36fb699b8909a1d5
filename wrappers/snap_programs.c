/* The state snapshot's shaders and programs (snapshot.h). The driver gives no shader
 * source back once a program deleted its shaders, so sources and link inputs come from
 * what track_programs.c followed; the driver says which objects live, what is attached
 * now and which link succeeded.
 *
 * Written per live shader: glCreateShader, glShaderSource and glCompileShader of the
 * source it compiled last (then its newer source, if any). Per program: glCreateProgram,
 * the bindings and varyings it linked with, the shaders attached at its last link (a
 * shader deleted or changed since is re-created for the link under a name nothing uses,
 * then detached and deleted, as the program did), glLinkProgram (its wrapper writes the
 * attribute locations the driver chose), the shaders attached now, then the uniform
 * values (snap_uniforms.c). Shaders the program deleted while attached are deleted
 * last. Programs made by glCreateShaderProgramv are made again that way. */
#include <stdlib.h>
#include <string.h>

#include "capture_track.h"
#include "gl_enums.gen.h"
#include "protos.gen.h"
#include "snap_pipelines.h"
#include "snap_uniforms.h"
#include "snapshot_parts.h"
#include "track_programs.h"

typedef struct shader {
    unsigned name, type;
    char *source, *compiled;
    int deleted; /* GL_DELETE_STATUS: deleted while attached */
} shader;

typedef struct program {
    gtt_program *t;
    unsigned *attached; /* now, from the driver */
    int nattached, link_ok;
} program;

typedef struct programs {
    shader *shaders;
    size_t nshaders;
    program *progs;
    size_t nprogs;
    unsigned next_free; /* above every live shader and program name */
    void *pipelines;    /* snap_pipelines.c */
} programs;

static int is_shader(unsigned name) { return SNAP_REAL(glIsShader)(name) != 0; }

static const shader *find_shader(const programs *d, unsigned name)
{
    for (size_t i = 0; i < d->nshaders; ++i)
        if (d->shaders[i].name == name)
            return &d->shaders[i];
    return NULL;
}

static void add_shader(snap *s, programs *d, unsigned name)
{
    if (find_shader(d, name))
        return;
    if (!is_shader(name)) {
        snap_unreadable(s, "shader %u: another share group's, not re-created", name);
        return;
    }
    shader sh = {name, 0, NULL, NULL, 0};
    if (!gtt_shader_copy(name, &sh.type, &sh.source, &sh.compiled)) {
        snap_unreadable(s, "shader %u: made before it could be followed, not re-created", name);
        return;
    }
    int deleted = 0;
    SNAP_REAL(glGetShaderiv)(name, GL_DELETE_STATUS, &deleted);
    sh.deleted = deleted;
    d->shaders[d->nshaders++] = sh;
    if (name >= d->next_free)
        d->next_free = name + 1;
}

/* The program's attached shaders now (driver) and its link status. */
static void read_program(snap *s, program *p)
{
    unsigned name = p->t->name;
    int n = 0, ok = 0;
    SNAP_REAL(glGetProgramiv)(name, GL_ATTACHED_SHADERS, &n);
    SNAP_REAL(glGetProgramiv)(name, GL_LINK_STATUS, &ok);
    p->link_ok = ok;
    p->attached = n > 0 ? calloc((size_t)n, sizeof *p->attached) : NULL;
    if (p->attached)
        SNAP_REAL(glGetAttachedShaders)(name, n, &p->nattached, p->attached);
    for (size_t i = 0; i < p->t->nshaders; ++i)
        if (!p->t->shaders[i].source)
            snap_unreadable(s, "program %u: shader %u linked without a source we saw", name,
                            p->t->shaders[i].name);
    unsigned stages[8];
    size_t nstages = 0;
    for (size_t i = 0; i < p->t->nshaders && nstages < 7; ++i) {
        size_t j = 0;
        while (j < nstages && stages[j] != p->t->shaders[i].type)
            ++j;
        if (j == nstages)
            stages[nstages++] = p->t->shaders[i].type;
    }
    if (p->t->sp_type)
        stages[nstages++] = p->t->sp_type;
    if (p->link_ok)
        snap_uniforms_check(s, name, stages, nstages);
}

/* A program nothing was attached to nor linked: no hook saw it, nothing to follow. */
static int untouched(unsigned program)
{
    int attached = 0, linked = 0;
    SNAP_REAL(glGetProgramiv)(program, GL_ATTACHED_SHADERS, &attached);
    SNAP_REAL(glGetProgramiv)(program, GL_LINK_STATUS, &linked);
    return !attached && !linked;
}

static void *collect(snap *s)
{
    programs *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    uint32_t *pnames = NULL, *snames = NULL;
    size_t np = gltrace_tracked_names(gltrace_track_class("program"), &pnames);
    size_t ns = gltrace_tracked_names(gltrace_track_class("shader"), &snames);
    d->progs = np ? calloc(np, sizeof *d->progs) : NULL;
    for (size_t i = 0; i < np && d->progs; ++i) {
        if (!SNAP_REAL(glIsProgram)(pnames[i])) {
            snap_unreadable(s, "program %u: another share group's, not re-created", pnames[i]);
            continue;
        }
        gtt_program *t = gtt_program_copy(pnames[i]);
        if (pnames[i] >= d->next_free)
            d->next_free = pnames[i] + 1;
        if (!t && !untouched(pnames[i])) {
            snap_unreadable(s, "program %u: made before it could be followed", pnames[i]);
            continue;
        }
        if (!t && !(t = calloc(1, sizeof *t)))
            continue;
        t->name = pnames[i];
        d->progs[d->nprogs].t = t;
        read_program(s, &d->progs[d->nprogs++]);
    }
    size_t cap = ns;
    for (size_t i = 0; i < d->nprogs; ++i)
        cap += (size_t)d->progs[i].nattached;
    d->shaders = cap ? calloc(cap, sizeof *d->shaders) : NULL;
    for (size_t i = 0; i < ns && d->shaders; ++i)
        add_shader(s, d, snames[i]);
    for (size_t i = 0; i < d->nprogs && d->shaders; ++i) /* deleted, still attached */
        for (int j = 0; j < d->progs[i].nattached; ++j)
            add_shader(s, d, d->progs[i].attached[j]);
    free(pnames);
    free(snames);
    d->pipelines = snap_pipelines_collect(s);
    if (!d->nprogs && !d->nshaders && !d->pipelines) {
        free(d->progs);
        free(d->shaders);
        free(d);
        return NULL;
    }
    return d;
}

/* glCreateShader + source + compile of a shader under name. */
static void write_shader(unsigned name, unsigned type, const char *source)
{
    snap_ret(name);
    glCreateShader(type);
    if (source) {
        glShaderSource(name, 1, &source, NULL);
        glCompileShader(name);
    }
}

static void write_live_shader(const shader *sh)
{
    write_shader(sh->name, sh->type, sh->compiled);
    if (sh->source && (!sh->compiled || strcmp(sh->source, sh->compiled)))
        glShaderSource(sh->name, 1, (const char *const *)&sh->source, NULL);
}

static void write_inputs(unsigned p, const gtt_link_inputs *in)
{
    if (in->separable > 0)
        glProgramParameteri(p, GL_PROGRAM_SEPARABLE, GL_TRUE);
    for (size_t i = 0; i < in->nattribs; ++i)
        glBindAttribLocation(p, in->attribs[i].index, in->attribs[i].name);
    for (size_t i = 0; i < in->nfrags; ++i) {
        const gtt_binding *b = &in->frags[i];
        if (b->second >= 0)
            glBindFragDataLocationIndexed(p, b->index, (unsigned)b->second, b->name);
        else
            glBindFragDataLocation(p, b->index, b->name);
    }
    if (in->has_varyings)
        glTransformFeedbackVaryings(p, (int)in->nvaryings, (const char *const *)in->varyings,
                                    in->varying_mode);
}

static int attached_now(const program *p, unsigned shader)
{
    for (int i = 0; i < p->nattached; ++i)
        if (p->attached[i] == shader)
            return 1;
    return 0;
}

/* The shader of the link as it is live now (same name, type and compiled source), or
 * NULL: it is re-created for the link. */
static const shader *live_as_linked(const programs *d, const gtt_shader *ls)
{
    const shader *sh = find_shader(d, ls->name);
    if (sh && sh->type == ls->type && sh->compiled && ls->source &&
        !strcmp(sh->compiled, ls->source))
        return sh;
    return NULL;
}

/* A name for a shader re-created only for a link: its own when nothing lives under it. */
static unsigned temp_name(programs *d, unsigned wanted)
{
    if (wanted && !find_shader(d, wanted) && !SNAP_REAL(glIsProgram)(wanted) &&
        !is_shader(wanted))
        return wanted;
    return d->next_free++;
}

/* The shaders of the last link attached, linked, and the re-created ones dropped. */
static void write_link(programs *d, const program *p)
{
    unsigned name = p->t->name;
    size_t n = p->t->nshaders;
    unsigned *temp = n ? calloc(n, sizeof *temp) : NULL;
    for (size_t i = 0; i < n && temp; ++i) {
        const gtt_shader *ls = &p->t->shaders[i];
        const shader *live = live_as_linked(d, ls);
        unsigned sh = live ? live->name : temp_name(d, ls->name);
        if (!live) {
            write_shader(sh, ls->type, ls->source);
            temp[i] = sh;
        }
        glAttachShader(name, sh);
    }
    glLinkProgram(name);
    for (size_t i = 0; i < n && temp; ++i) {
        unsigned sh = temp[i] ? temp[i] : p->t->shaders[i].name;
        if (temp[i] || !attached_now(p, sh))
            glDetachShader(name, sh);
        if (temp[i])
            glDeleteShader(sh);
    }
    free(temp);
}

/* shader was attached at the last link as it lives now (write_link attached it). */
static int linked_live(const programs *d, const program *p, unsigned shader)
{
    for (size_t i = 0; p->t->linked && i < p->t->nshaders; ++i)
        if (p->t->shaders[i].name == shader && live_as_linked(d, &p->t->shaders[i]))
            return 1;
    return 0;
}

static void write_program(snap *s, programs *d, const program *p)
{
    unsigned name = p->t->name;
    snap_ret(name);
    if (p->t->sp_type) {
        const char *src = p->t->sp_source;
        glCreateShaderProgramv(p->t->sp_type, 1, &src);
    } else {
        glCreateProgram();
        write_inputs(name, p->t->linked ? &p->t->at_link : &p->t->now);
        if (p->t->linked)
            write_link(d, p);
        for (int i = 0; i < p->nattached; ++i) /* attached since the link */
            if (find_shader(d, p->attached[i]) && !linked_live(d, p, p->attached[i]))
                glAttachShader(name, p->attached[i]);
    }
    if (p->link_ok)
        snap_uniforms_write(s, name);
}

static void write_part(snap *s, void *data)
{
    programs *d = data;
    for (size_t i = 0; i < d->nshaders; ++i)
        write_live_shader(&d->shaders[i]);
    for (size_t i = 0; i < d->nprogs; ++i)
        write_program(s, d, &d->progs[i]);
    if (d->nprogs)
        glUseProgram(0); /* the uniforms' glUseProgram: the state part binds the program's */
    for (size_t i = 0; i < d->nshaders; ++i)
        if (d->shaders[i].deleted)
            glDeleteShader(d->shaders[i].name);
    if (d->pipelines)
        snap_pipelines_write(d->pipelines);
}

static void free_part(void *data)
{
    programs *d = data;
    for (size_t i = 0; i < d->nshaders; ++i) {
        free(d->shaders[i].source);
        free(d->shaders[i].compiled);
    }
    for (size_t i = 0; i < d->nprogs; ++i) {
        gtt_program_free(d->progs[i].t);
        free(d->progs[i].attached);
    }
    free(d->shaders);
    free(d->progs);
    free(d->pipelines);
    free(d);
}

const snap_part snap_part_programs = {"programs", collect, write_part, free_part};
