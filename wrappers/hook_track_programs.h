/* Shader sources and program link inputs followed before a frame range
 * (track_programs.c, `track` lines of specs/annotations.txt): programs usually delete
 * their shaders once linked, so the state snapshot cannot read the sources back.
 *
 * Plain C types only: the generated wrapper files include this header after their
 * own GL type preludes, and the arguments convert implicitly. */
#ifndef HOOK_TRACK_PROGRAMS_H
#define HOOK_TRACK_PROGRAMS_H

void gtt_create_shader(unsigned type, unsigned shader);
void gtt_shader_source(unsigned shader, int count, const char *const *strings,
                       const int *lengths);
void gtt_compile_shader(unsigned shader);
void gtt_delete_shader(unsigned shader);
void gtt_attach_shader(unsigned program, unsigned shader);
void gtt_detach_shader(unsigned program, unsigned shader);
void gtt_delete_program(unsigned program);
void gtt_program_parameteri(unsigned program, unsigned pname, int value);
void gtt_xfb_varyings(unsigned program, int count, const char *const *varyings,
                      unsigned mode);
void gtt_bind_attrib_location(unsigned program, unsigned index, const char *name);
void gtt_bind_frag_data_location(unsigned program, unsigned color, const char *name);
void gtt_bind_frag_data_location_indexed(unsigned program, unsigned color, unsigned index,
                                         const char *name);
void gtt_create_shader_programv(unsigned type, int count, const char *const *strings,
                                unsigned program);
void gtt_fence_sync(unsigned condition, unsigned flags, void *sync);
void gtt_delete_sync(void *sync);

/* Called by glLinkProgram's hand-written wrapper (hook_program.c) after the real link,
 * while gltrace_tracking: the program's link inputs are remembered. */
void gtt_link_program(unsigned program);

#endif
