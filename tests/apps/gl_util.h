/* GL helpers shared by the demo apps: shader and program building, the --warmup clear, the
 * per-frame GL error check and the read-back of a frame for --save. They use only entry
 * points whose prototypes are the same in desktop GL and OpenGL ES 2, so gl_util.c is
 * compiled into each app against that app's headers: desktop GL by default, GLES2/gl2.h when
 * APP_GLES2 is defined (es2_demo). Each helper makes exactly the GL calls, in the same order,
 * that the apps made with their own copies (the integration tests compare call sequences). */
#ifndef GLTRACE_APPS_GL_UTIL_H
#define GLTRACE_APPS_GL_UTIL_H

#ifdef APP_GLES2
#include <GLES2/gl2.h>
#else
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>
#endif

#include <stdint.h>

/* glCreateShader, glShaderSource, glCompileShader, glGetShaderiv(GL_COMPILE_STATUS). On
 * failure prints "TAG: shader compile failed: LOG" on stderr, deletes the shader and
 * returns 0. */
GLuint app_compile_shader(const char *tag, GLenum type, const char *src);

/* Compiles vs_src and fs_src (app_compile_shader), then glCreateProgram, glAttachShader of
 * both, glBindAttribLocation(prog, i, attribs[i]) for each name of the NULL-terminated list
 * `attribs` (NULL for none), glLinkProgram, glDeleteShader of both and
 * glGetProgramiv(GL_LINK_STATUS). On failure prints "TAG: program link failed: LOG", deletes
 * the program and returns 0. */
GLuint app_build_program(const char *tag, const char *vs_src, const char *fs_src,
                         const char *const *attribs);

/* A size x size RGBA texture with mipmaps that repeats: glGenTextures, glBindTexture,
 * glTexImage2D(level 0, internal_format, GL_RGBA, GL_UNSIGNED_BYTE, pixels),
 * glGenerateMipmap, then MIN_FILTER LINEAR_MIPMAP_LINEAR, MAG_FILTER LINEAR, WRAP_S/T
 * REPEAT. Left bound to GL_TEXTURE_2D. */
GLuint app_repeat_texture(GLint internal_format, GLsizei size, const void *pixels);

/* --warmup's clear before its swap: glViewport to the window, glClearColor black,
 * glClear(mask). The app swaps. */
void app_warmup_clear(GLbitfield mask);

/* glGetError; if it reports an error, prints "TAG: GL error 0xNNNN in frame N" (or
 * "... after WHAT in frame N" when `after` is not NULL) and returns 1, else 0. */
int app_check_gl_error(const char *tag, const char *after, unsigned frame);

/* --save: glPixelStorei(GL_PACK_ALIGNMENT, 1), glReadPixels of the whole window into
 * `pixels` (APP_WIDTH x APP_HEIGHT x 4 bytes), then app_save_frame. Returns 0 or -1. */
int app_read_frame(const char *prefix, unsigned frame, uint8_t *pixels);

#endif
