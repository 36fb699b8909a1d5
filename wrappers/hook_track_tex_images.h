/* Each texture image's specification, followed before a frame range on GLES contexts
 * (track_tex_images.c) for the snapshot's textures where the driver cannot say
 * (glGetTexLevelParameteriv is GLES 3.1's) or cannot give the contents back
 * (glGetCompressedTexImage is GL's only). Referenced from specs/annotations.txt
 * (`track`): the hooks run after the real call, recorded or not, while frame ranges are
 * asked for.
 *
 * Plain C types only: the generated wrapper files include this header after their own
 * GL type preludes. */
#ifndef HOOK_TRACK_TEX_IMAGES_H
#define HOOK_TRACK_TEX_IMAGES_H

void gtt_tex_image_2d(unsigned target, int level, int internal, int width, int height,
                      int border, unsigned format, unsigned type, const void *pixels);
void gtt_tex_image_3d(unsigned target, int level, int internal, int width, int height,
                      int depth, int border, unsigned format, unsigned type,
                      const void *pixels);
void gtt_copy_tex_image_2d(unsigned target, int level, unsigned internal, int x, int y,
                           int width, int height, int border);
void gtt_compressed_tex_image_2d(unsigned target, int level, unsigned internal, int width,
                                 int height, int border, int size, const void *data);
void gtt_compressed_tex_image_3d(unsigned target, int level, unsigned internal, int width,
                                 int height, int depth, int border, int size,
                                 const void *data);
void gtt_compressed_tex_sub_image_2d(unsigned target, int level, int x, int y, int width,
                                     int height, unsigned format, int size, const void *data);
void gtt_compressed_tex_sub_image_3d(unsigned target, int level, int x, int y, int z,
                                     int width, int height, int depth, unsigned format,
                                     int size, const void *data);
void gtt_tex_storage_2d(unsigned target, int levels, unsigned internal, int width,
                        int height);
void gtt_tex_storage_3d(unsigned target, int levels, unsigned internal, int width,
                        int height, int depth);
void gtt_generate_mipmap(unsigned target);
void gtt_egl_image_target_texture(unsigned target, void *image);
void gtt_egl_image_target_tex_storage(unsigned target, void *image, const int *attribs);
void gtt_tex_images_delete(int n, const unsigned *textures);

#endif
