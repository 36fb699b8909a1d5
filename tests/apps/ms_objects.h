/* snapshot_textures_app --multisample (ms_objects.c): multisample objects made and
 * painted once before frame 0, every sample its own value, and read back sample by
 * sample into the window in every frame, so that a frame range's trace replays only if
 * its state snapshot writes their samples exactly. GL 4.5 core, its prototypes. */
#ifndef GLTRACE_APPS_MS_OBJECTS_H
#define GLTRACE_APPS_MS_OBJECTS_H

#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>

/* The objects: 2D multisample SRGB8_ALPHA8 (immutable), 2D multisample array RGBA8 of 2
 * layers, 2D multisample DEPTH_COMPONENT24, 2D multisample RGBA16I, a multisample RGBA8
 * renderbuffer; 4 samples each. */
enum { MS_2D, MS_ARRAY, MS_DEPTH, MS_INT, MS_RB, MS_N };

/* Makes and paints them (a per-sample shaded draw each); 0, or -1 when a shader fails. */
int ms_make(const char *tag, GLuint ms[MS_N]);

/* Draws, into the window's cells at y 128-176 and x 128-320, one sample of each texel of
 * each texture (the sample and array layer chosen by the frame), and blits the
 * renderbuffer, resolved, to x 8-48, y 196-228. The frame's vertex array (a quad of
 * `pos` at location 0 over 0..1) is bound; what this binds it puts back to 0, the
 * program too; the active unit is left GL_TEXTURE0. 0, or -1 when a shader fails. */
int ms_draw(const char *tag, unsigned frame, const GLuint ms[MS_N], const char *vs_src);

void ms_delete(GLuint ms[MS_N]);

#endif
