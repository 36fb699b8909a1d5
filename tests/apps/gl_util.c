/* See gl_util.h. */
#include "gl_util.h"
#include "app_common.h"

#include <stddef.h>
#include <stdio.h>

GLuint app_compile_shader(const char *tag, GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = GL_FALSE;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        fprintf(stderr, "%s: shader compile failed: %s\n", tag, log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

GLuint app_build_program(const char *tag, const char *vs_src, const char *fs_src,
                         const char *const *attribs)
{
    GLuint vs = app_compile_shader(tag, GL_VERTEX_SHADER, vs_src);
    GLuint fs = app_compile_shader(tag, GL_FRAGMENT_SHADER, fs_src);
    if (!vs || !fs)
        return 0;
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    for (GLuint i = 0; attribs && attribs[i]; i++)
        glBindAttribLocation(prog, i, attribs[i]);
    glLinkProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        fprintf(stderr, "%s: program link failed: %s\n", tag, log);
        glDeleteProgram(prog);
        return 0;
    }
    return prog;
}

GLuint app_repeat_texture(GLint internal_format, GLsizei size, const void *pixels)
{
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, internal_format, size, size, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 pixels);
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    return tex;
}

void app_warmup_clear(GLbitfield mask)
{
    glViewport(0, 0, APP_WIDTH, APP_HEIGHT);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(mask);
}

int app_check_gl_error(const char *tag, const char *after, unsigned frame)
{
    GLenum err = glGetError();
    if (err == GL_NO_ERROR)
        return 0;
    if (after)
        fprintf(stderr, "%s: GL error 0x%04x after %s in frame %u\n", tag, err, after, frame);
    else
        fprintf(stderr, "%s: GL error 0x%04x in frame %u\n", tag, err, frame);
    return 1;
}

int app_read_frame(const char *prefix, unsigned frame, uint8_t *pixels)
{
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, APP_WIDTH, APP_HEIGHT, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    return app_save_frame(prefix, frame, pixels);
}
