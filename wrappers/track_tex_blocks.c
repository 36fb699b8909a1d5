/* The blocks of the compressed formats GLES programs upload (track_tex_images.h): a
 * partial glCompressedTexSubImage* update is patched into the kept upload block row by
 * block row, which needs the block's texels and bytes. */
#include "track_tex_images.h"

#include "gl_enums.gen.h"

/* ASTC's block sizes, in the order of its enums (RGBA 0x93b0.., sRGB 0x93d0..). */
static const unsigned char astc[14][2] = {{4, 4},  {5, 4},  {5, 5},  {6, 5},   {6, 6},
                                          {8, 5},  {8, 6},  {8, 8},  {10, 5},  {10, 6},
                                          {10, 8}, {10, 10}, {12, 10}, {12, 12}};

static int block_bytes_4x4(unsigned internal)
{
    switch (internal) {
    case GL_ETC1_RGB8_OES:
    case GL_COMPRESSED_R11_EAC: case GL_COMPRESSED_SIGNED_R11_EAC:
    case GL_COMPRESSED_RGB8_ETC2: case GL_COMPRESSED_SRGB8_ETC2:
    case GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2:
    case GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2:
    case GL_COMPRESSED_RGB_S3TC_DXT1_EXT: case GL_COMPRESSED_RGBA_S3TC_DXT1_EXT:
    case GL_COMPRESSED_SRGB_S3TC_DXT1_EXT: case GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT:
    case GL_COMPRESSED_RED_RGTC1: case GL_COMPRESSED_SIGNED_RED_RGTC1:
        return 8;
    case GL_COMPRESSED_RG11_EAC: case GL_COMPRESSED_SIGNED_RG11_EAC:
    case GL_COMPRESSED_RGBA8_ETC2_EAC: case GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC:
    case GL_COMPRESSED_RGBA_S3TC_DXT3_EXT: case GL_COMPRESSED_RGBA_S3TC_DXT5_EXT:
    case GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT: case GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT:
    case GL_COMPRESSED_RG_RGTC2: case GL_COMPRESSED_SIGNED_RG_RGTC2:
    case GL_COMPRESSED_RGBA_BPTC_UNORM: case GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM:
    case GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT: case GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT:
        return 16;
    default:
        return 0;
    }
}

int gtt_tex_block(unsigned internal, int *width, int *height, int *bytes)
{
    unsigned i = internal - GL_COMPRESSED_RGBA_ASTC_4x4_KHR;
    if (i >= 14)
        i = internal - GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR;
    if (i < 14) {
        *width = astc[i][0];
        *height = astc[i][1];
        *bytes = 16;
        return 1;
    }
    *width = *height = 4;
    *bytes = block_bytes_4x4(internal);
    return *bytes != 0;
}
