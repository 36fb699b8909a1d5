/* snapshot_textures_app --multisample: multisample objects (ms_objects.h). Painted by a
 * fragment shader that reads gl_SampleID, so each sample differs from its neighbours;
 * read back in the frames with texelFetch of one sample per texel (textures) and a
 * resolving blit (renderbuffer): a snapshot that wrote one value per texel, or none,
 * shows in the frames. */
#include "ms_objects.h"

#include <stddef.h>

#include "gl_util.h"

static const char *const paint_vs =
    "#version 400 core\n"
    "void main() { int v = gl_VertexID;\n"
    "  gl_Position = vec4(v == 1 ? 3.0 : -1.0, v == 2 ? 3.0 : -1.0, 0.0, 1.0); }\n";

static const char *const paint_fs =
    "#version 400 core\n"
    "uniform int layer;\n"
    "out vec4 color;\n"
    "void main() {\n"
    "  vec2 p = floor(gl_FragCoord.xy); float s = float(gl_SampleID);\n"
    "  color = vec4(fract(p.x * 0.13 + s * 0.25), fract(p.y * 0.07 + float(layer) * 0.5),\n"
    "               fract((p.x + p.y) * 0.05 + s * 0.37), 1.0 - s * 0.2);\n"
    "  gl_FragDepth = fract(p.x * 0.031 + p.y * 0.017 + s * 0.23);\n"
    "}\n";

static const char *const paint_int_fs =
    "#version 400 core\n"
    "out ivec4 color;\n"
    "void main() {\n"
    "  ivec2 p = ivec2(gl_FragCoord.xy);\n"
    "  color = ivec4(p.x - 7 * gl_SampleID, p.y * 3 + gl_SampleID, -100 * gl_SampleID, 42);\n"
    "}\n";

static const char *const sample_fs =
    "#version 400 core\n"
    "in vec2 uv;\n"
    "out vec4 color;\n"
    "uniform sampler2DMS ms2d; uniform sampler2DMSArray msarr; uniform sampler2DMS msdepth;\n"
    "uniform isampler2DMS msint;\n"
    "uniform int which; uniform int frame;\n"
    "void main() {\n"
    "  int s = (frame + which) % 4;\n"
    "  if (which == 0) color = texelFetch(ms2d, ivec2(uv * 31.9), s);\n"
    "  else if (which == 1) color = texelFetch(msarr, ivec3(ivec2(uv * 15.9), frame % 2), s);\n"
    "  else if (which == 2) color = vec4(texelFetch(msdepth, ivec2(uv * 31.9), s).r, 0.5, 0.0, 1.0);\n"
    "  else color = vec4(texelFetch(msint, ivec2(uv * 15.9), s)) / vec4(64.0, 128.0, 800.0, 84.0) + 0.5;\n"
    "}\n";

static const GLenum ms_targets[MS_RB] = {GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_2D_MULTISAMPLE_ARRAY,
                                         GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_2D_MULTISAMPLE};
static const char *const ms_names[MS_RB] = {"ms2d", "msarr", "msdepth", "msint"};

static void storage(GLuint ms[MS_N])
{
    glGenTextures(MS_RB, ms);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ms[MS_2D]);
    glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_SRGB8_ALPHA8, 32, 32, GL_TRUE);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, ms[MS_ARRAY]);
    glTexImage3DMultisample(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 4, GL_RGBA8, 16, 16, 2, GL_FALSE);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ms[MS_DEPTH]);
    glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_DEPTH_COMPONENT24, 32, 32, GL_TRUE);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ms[MS_INT]);
    glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA16I, 16, 16, GL_TRUE);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, 0);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 0);
    glGenRenderbuffers(1, &ms[MS_RB]);
    glBindRenderbuffer(GL_RENDERBUFFER, ms[MS_RB]);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, 32, 32);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
}

/* One paint: attachment of the framebuffer bound, a triangle over it. */
static void paint(GLenum attachment, GLuint texture, GLint layer, int size)
{
    if (layer >= 0)
        glFramebufferTextureLayer(GL_FRAMEBUFFER, attachment, texture, 0, layer);
    else
        glFramebufferTexture(GL_FRAMEBUFFER, attachment, texture, 0);
    glViewport(0, 0, size, size);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glFramebufferTexture(GL_FRAMEBUFFER, attachment, 0, 0);
}

int ms_make(const char *tag, GLuint ms[MS_N])
{
    storage(ms);
    GLuint prog = app_build_program(tag, paint_vs, paint_fs, NULL);
    GLuint iprog = app_build_program(tag, paint_vs, paint_int_fs, NULL);
    if (!prog || !iprog)
        return -1;
    GLuint vao, fb;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glUseProgram(prog);
    GLint layer = glGetUniformLocation(prog, "layer");
    paint(GL_COLOR_ATTACHMENT0, ms[MS_2D], -1, 32);
    for (GLint l = 0; l < 2; l++) {
        glUniform1i(layer, l);
        paint(GL_COLOR_ATTACHMENT0, ms[MS_ARRAY], l, 16);
    }
    glUniform1i(layer, 1);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, ms[MS_RB]);
    glViewport(0, 0, 32, 32);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, 0);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_ALWAYS);
    paint(GL_DEPTH_ATTACHMENT, ms[MS_DEPTH], -1, 32);
    glDepthFunc(GL_LESS);
    glDisable(GL_DEPTH_TEST);
    glUseProgram(iprog);
    paint(GL_COLOR_ATTACHMENT0, ms[MS_INT], -1, 16);
    glUseProgram(0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fb);
    glBindVertexArray(0);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(prog);
    glDeleteProgram(iprog);
    return 0;
}

int ms_draw(const char *tag, unsigned frame, const GLuint ms[MS_N], const char *vs_src)
{
    GLuint prog = app_build_program(tag, vs_src, sample_fs, NULL);
    if (!prog)
        return -1;
    glUseProgram(prog);
    for (int i = 0; i < MS_RB; i++) {
        glActiveTexture(GL_TEXTURE12 + (GLenum)i);
        glBindTexture(ms_targets[i], ms[i]);
        glUniform1i(glGetUniformLocation(prog, ms_names[i]), 12 + i);
    }
    glUniform1i(glGetUniformLocation(prog, "frame"), (GLint)frame);
    for (int i = 0; i < MS_RB; i++) {
        glViewport(128 + i * 48, 128, 48, 48);
        glUniform1i(glGetUniformLocation(prog, "which"), i);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    for (int i = 0; i < MS_RB; i++) {
        glActiveTexture(GL_TEXTURE12 + (GLenum)i);
        glBindTexture(ms_targets[i], 0);
    }
    glActiveTexture(GL_TEXTURE0);
    glUseProgram(0);
    glDeleteProgram(prog);
    GLuint fb;
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
    glFramebufferRenderbuffer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, ms[MS_RB]);
    int x = 8 + (int)(frame % 3) * 4;
    glBlitFramebuffer(0, 0, 32, 32, x, 196, x + 32, 228, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fb);
    return 0;
}

void ms_delete(GLuint ms[MS_N])
{
    glDeleteTextures(MS_RB, ms);
    glDeleteRenderbuffers(1, &ms[MS_RB]);
}
