/* Program pipelines in the state snapshot (snap_pipelines.h): every name generated in
 * this context (pipelines are not shared: another's is said unreadable) is generated
 * again; one the driver knows (glIsProgramPipeline: bound once) gets its stages'
 * programs (glUseProgramStages) and its active program (glActiveShaderProgram). */
#include <stdlib.h>

#include "capture_track.h"
#include "gl_enums.gen.h"
#include "protos.gen.h"
#include "snap_pipelines.h"
#include "track_containers.h"

enum { NSTAGES = 6 };

/* gl, es: the versions where the stage exists (asking of another is an error) */
static const struct {
    unsigned stage, bit;
    int gl, es;
} stages[NSTAGES] = {
    {GL_VERTEX_SHADER, GL_VERTEX_SHADER_BIT, 41, 31},
    {GL_TESS_CONTROL_SHADER, GL_TESS_CONTROL_SHADER_BIT, 41, 32},
    {GL_TESS_EVALUATION_SHADER, GL_TESS_EVALUATION_SHADER_BIT, 41, 32},
    {GL_GEOMETRY_SHADER, GL_GEOMETRY_SHADER_BIT, 41, 32},
    {GL_FRAGMENT_SHADER, GL_FRAGMENT_SHADER_BIT, 41, 31},
    {GL_COMPUTE_SHADER, GL_COMPUTE_SHADER_BIT, 43, 31},
};

typedef struct pipeline {
    unsigned name;
    int known, active, program[NSTAGES];
} pipeline;

typedef struct pipelines {
    size_t n;
    pipeline p[];
} pipelines;

void *snap_pipelines_collect(snap *s)
{
    if (snap_version(s) < (snap_api(s) == SNAP_API_GL ? 41 : 31))
        return NULL;
    uint32_t *names = NULL;
    size_t n = gltrace_tracked_names(gltrace_track_class("program pipeline"), &names);
    pipelines *d = n ? calloc(1, sizeof *d + n * sizeof *d->p) : NULL;
    for (size_t i = 0; i < n && d; ++i) {
        int here = 0, elsewhere = 0;
        gtt_ctr_where(GTT_CTR_PIPELINE, names[i], &here, &elsewhere);
        if (elsewhere)
            snap_unreadable(s, "program pipeline %u of another context: not re-created",
                            names[i]);
        if (elsewhere && !here)
            continue;
        pipeline *p = &d->p[d->n++];
        p->name = names[i];
        p->known = SNAP_REAL(glIsProgramPipeline)(names[i]) != 0;
        if (!p->known)
            continue;
        for (int j = 0; j < NSTAGES; ++j)
            if (snap_version(s) >= (snap_api(s) == SNAP_API_GL ? stages[j].gl : stages[j].es))
                SNAP_REAL(glGetProgramPipelineiv)(names[i], stages[j].stage, &p->program[j]);
        SNAP_REAL(glGetProgramPipelineiv)(names[i], GL_ACTIVE_PROGRAM, &p->active);
    }
    free(names);
    return d;
}

void snap_pipelines_write(const void *data)
{
    const pipelines *d = data;
    for (size_t i = 0; i < d->n; ++i) {
        const pipeline *p = &d->p[i];
        GLuint name = p->name;
        glGenProgramPipelines(1, &name);
        if (!p->known)
            continue;
        glBindProgramPipeline(p->name); /* makes the object, as the program's bind did */
        for (int j = 0; j < NSTAGES; ++j)
            if (p->program[j])
                glUseProgramStages(p->name, stages[j].bit, (unsigned)p->program[j]);
        if (p->active)
            glActiveShaderProgram(p->name, (unsigned)p->active);
    }
    if (d->n)
        glBindProgramPipeline(0); /* the state part binds the program's */
}
