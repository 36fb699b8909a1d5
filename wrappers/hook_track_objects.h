/* The target of each texture name, followed before a frame range (track_objects.c) for
 * the snapshot's textures where the driver cannot say (glGetTextureParameteriv's
 * GL_TEXTURE_TARGET is GL 4.5's). Referenced from specs/annotations.txt (`track`): the
 * hooks run after the real call, recorded or not, while frame ranges are asked for.
 *
 * Plain C types only: the generated wrapper files include this header after their own
 * GL type preludes. */
#ifndef HOOK_TRACK_OBJECTS_H
#define HOOK_TRACK_OBJECTS_H

#include <stdint.h>

void gth_track_bind_texture(unsigned target, unsigned texture);
void gth_track_bind_multi_texture(unsigned unit, unsigned target, unsigned texture);
void gth_track_create_textures(unsigned target, int n, const unsigned *textures);
void gth_track_texture_view(unsigned texture, unsigned target, unsigned orig, unsigned format,
                            unsigned min_level, unsigned levels, unsigned min_layer,
                            unsigned layers);
void gth_track_delete_textures(int n, const unsigned *textures);

/* The target name was first bound to (or created with), 0 when not known. One table
 * for the process: a name of two share groups gets the first one's. */
unsigned gth_texture_target(uint32_t name);

#endif
