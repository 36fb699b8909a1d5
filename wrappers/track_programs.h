/* What track_programs.c followed, as the state snapshot reads it (snap_programs.c):
 * copies taken under the tracker's lock, freed by the caller. */
#ifndef TRACK_PROGRAMS_H
#define TRACK_PROGRAMS_H

#include <stddef.h>

/* A binding made before a link: glBindAttribLocation (index), glBindFragDataLocation
 * (index = colour, second = -1) or ...Indexed (second = its index). */
typedef struct gtt_binding {
    unsigned index;
    int second;
    char *name;
} gtt_binding;

/* A shader as one program linked it. */
typedef struct gtt_shader {
    unsigned name, type;
    char *source; /* NULL: never given a source the tracker saw */
} gtt_shader;

/* What a link used besides its shaders. */
typedef struct gtt_link_inputs {
    int separable; /* -1: never set */
    int has_varyings;
    unsigned varying_mode;
    size_t nvaryings, nattribs, nfrags;
    char **varyings;
    gtt_binding *attribs, *frags;
} gtt_link_inputs;

typedef struct gtt_program {
    unsigned name;
    gtt_link_inputs now;    /* set since, for the next link */
    int linked;             /* glLinkProgram was called */
    gtt_link_inputs at_link; /* as at the last link */
    gtt_shader *shaders;    /* attached at the last link */
    size_t nshaders;
    unsigned sp_type; /* glCreateShaderProgramv's type, 0: not made that way */
    char *sp_source;
} gtt_program;

/* The program followed under name (a copy), or NULL when the tracker never saw it. */
gtt_program *gtt_program_copy(unsigned name);
void gtt_program_free(gtt_program *p);

/* A live shader's type and sources (malloc'd copies, NULL when never given): the
 * source it has now and the one it last compiled. 0 when the tracker never saw it. */
int gtt_shader_copy(unsigned name, unsigned *type, char **source, char **compiled);

/* The live sync objects (glFenceSync results), malloc'd; their number. */
size_t gtt_syncs(void ***out);

#endif
