/* The tables of GL state glretrace -D dumps, generated from specs/state.txt by
 * specs/gen_state.py (state_params.gen.c); see state.txt for what each one holds. */
#ifndef RETRACE_STATE_PARAMS_H
#define RETRACE_STATE_PARAMS_H

enum state_type {
    ST_BOOL,    /* glGetBooleanv: "GL_TRUE" / "GL_FALSE" */
    ST_ENABLED, /* glIsEnabled, written even when the query fails */
    ST_ENUM,    /* glGetIntegerv, written as the value's name */
    ST_INT,     /* glGetIntegerv */
    ST_INT64,   /* glGetInteger64v */
    ST_FLOAT,   /* glGetFloatv */
    ST_POINTER, /* glGetPointerv, written as an integer */
    ST_STRING,  /* glGetString */
};

struct state_value {
    unsigned pname;
    const char *name;
    unsigned char type;   /* enum state_type */
    unsigned short count; /* values; 0: count_pname's value says how many */
    unsigned count_pname;
    unsigned char desktop; /* left out on GLES, as apitrace leaves it out */
};

struct state_list {
    const struct state_value *v;
    unsigned n;
};

/* [buffer_target]: a target, the pname of its binding, and where it has indexed
 * bindings, how many (max) and the pnames of each one's buffer, start and size */
struct state_buffer_target {
    const char *name;
    unsigned target, binding, max, i_binding, i_start, i_size;
};

/* [texture_target] */
struct state_texture_target {
    const char *name;
    unsigned target, binding;
};

/* [texture_env TARGET] */
struct state_env {
    unsigned target;
    const char *name;
    const struct state_list *values;
};

struct state_enum_name {
    unsigned value;
    const char *name;
};

/* [functions]: a GL function and its providers (as gl_avail_check reads them) */
struct state_fn {
    const char *name, *providers;
};

extern const struct state_list state_get, state_buffer, state_material, state_light,
    state_vertex_attrib, state_texture_unit, state_texture, state_texture_level,
    state_framebuffer_attachment, state_sampler;
extern const struct state_buffer_target state_buffer_targets[];
extern const unsigned state_buffer_target_count;
extern const struct state_texture_target state_texture_targets[];
extern const unsigned state_texture_target_count;
extern const struct state_env state_texture_envs[];
extern const unsigned state_texture_env_count;
extern const struct state_fn state_fns[]; /* sorted by name */
extern const unsigned state_fn_count;
/* The GLenum names of values, sorted by value (the names the recorder writes). */
extern const struct state_enum_name state_enum_names[];
extern const unsigned state_enum_name_count;

#endif
