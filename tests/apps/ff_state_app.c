/* ff_state_app: a deterministic compatibility-profile program (Xlib + GLX) that draws in
 * immediate mode with no GL object at all, through context state set before its frames:
 * blending, depth, stencil, scissor, culling, polygon offset, alpha test, line width,
 * point size, shade model, fog, two lights and materials, the current normal, the
 * projection matrix, a modelview matrix each frame rotates further, and texture unit
 * 1's environment, coordinates and matrix (unit 1 left active). Frame 2 changes
 * some of that state. A range of frames after 2 replays to the same pixels only if the
 * state snapshot writes all of it back (snapshot_state.sh).
 *
 *   usage: ff_state_app [--frames N] (default APP_DEFAULT_FRAMES) */
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_common.h"
#include "gl_util.h"
#include "glx_util.h"

#define TAG "ff_state_app"

static const int fb_attribs[] = {
    GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT,
    GLX_X_VISUAL_TYPE, GLX_TRUE_COLOR, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8,
    GLX_ALPHA_SIZE, 8, GLX_DEPTH_SIZE, 24, GLX_STENCIL_SIZE, 8, GLX_DOUBLEBUFFER, True, None,
};

static void set_state(void)
{
    static const GLfloat light1[4] = {0.9f, 0.4f, 0.2f, 1.0f};
    static const GLfloat light1_pos[4] = {-1.0f, 1.0f, 1.0f, 0.0f};
    static const GLfloat specular[4] = {0.6f, 0.6f, 0.6f, 1.0f};
    static const GLfloat ambient[4] = {0.3f, 0.25f, 0.2f, 1.0f};
    static const GLfloat fog[4] = {0.3f, 0.35f, 0.5f, 1.0f};
    glClearColor(0.15f, 0.1f, 0.2f, 1.0f);
    glClearDepth(0.95);
    glClearStencil(3);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ZERO);
    glEnable(GL_SCISSOR_TEST);
    glScissor(12, 8, 290, 220);
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_NOTEQUAL, 1, 0xff);
    glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 2.0f);
    glEnable(GL_ALPHA_TEST);
    glAlphaFunc(GL_GREATER, 0.2f);
    glLineWidth(3.0f);
    glPointSize(6.0f);
    glShadeModel(GL_FLAT);
    glHint(GL_FOG_HINT, GL_NICEST);
    glEnable(GL_FOG);
    glFogi(GL_FOG_MODE, GL_LINEAR);
    glFogf(GL_FOG_START, 2.0f);
    glFogf(GL_FOG_END, 5.0f);
    glFogfv(GL_FOG_COLOR, fog);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glFrustum(-1.0, 1.0, -0.75, 0.75, 1.0, 10.0);
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    glTranslatef(0.0f, 0.0f, -3.0f);
    glEnable(GL_LIGHTING);
    glEnable(GL_LIGHT0);
    glEnable(GL_LIGHT1);
    glLightfv(GL_LIGHT1, GL_DIFFUSE, light1);
    glLightfv(GL_LIGHT1, GL_POSITION, light1_pos); /* through the modelview matrix */
    glLightModelfv(GL_LIGHT_MODEL_AMBIENT, ambient);
    glEnable(GL_COLOR_MATERIAL);
    glColorMaterial(GL_FRONT_AND_BACK, GL_DIFFUSE);
    glMaterialfv(GL_FRONT, GL_SPECULAR, specular);
    glMaterialf(GL_FRONT, GL_SHININESS, 24.0f);
    glNormal3f(0.0f, 0.6f, 0.8f);
    /* unit 1, left active: its environment, coordinates and texture matrix */
    glActiveTexture(GL_TEXTURE1);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    glMultiTexCoord4f(GL_TEXTURE1, 0.1f, 0.2f, 0.3f, 1.0f);
    glMatrixMode(GL_TEXTURE);
    glTranslatef(0.5f, 0.25f, 0.0f);
    glMatrixMode(GL_MODELVIEW);
}

/* Frame 2 changes some of it. */
static void change_state(void)
{
    glDisable(GL_LIGHT0);
    glDepthFunc(GL_LESS);
    glShadeModel(GL_SMOOTH);
    glBlendColor(0.2f, 0.4f, 0.6f, 0.5f);
    glBlendFunc(GL_CONSTANT_COLOR, GL_ONE_MINUS_SRC_ALPHA);
    glEnable(GL_CULL_FACE);
    glFrontFace(GL_CW);
    glCullFace(GL_FRONT);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_FALSE); /* RGB: each frame clears all it shows */
    glNormal3f(0.3f, 0.3f, 0.9f);
}

static void draw(unsigned frame)
{
    glRotatef(9.0f, 0.2f, 1.0f, 0.3f); /* accumulates: the matrix carries every frame */
    glBegin(GL_TRIANGLES);
    for (int k = 0; k < 6; ++k) {
        float x = -1.2f + 0.45f * (float)k, z = 0.3f * (float)(k % 3) - 0.3f;
        glColor4f(0.2f + 0.13f * (float)k, 0.8f - 0.1f * (float)k, 0.5f, 0.4f + 0.1f * (float)k);
        glVertex3f(x, -0.6f, z);
        glVertex3f(x + 0.7f, -0.5f, z + 0.2f);
        glVertex3f(x + 0.3f, 0.7f + 0.05f * (float)(frame % 3), z);
    }
    glEnd();
    glBegin(GL_LINES);
    glColor4f(1.0f, 1.0f, 0.3f, 1.0f);
    glVertex3f(-1.5f, 0.9f, 0.0f);
    glVertex3f(1.5f, -0.9f, 0.5f);
    glEnd();
    glBegin(GL_POINTS);
    for (int k = 0; k < 8; ++k) {
        glColor4f(0.3f, 1.0f, 0.9f, 1.0f);
        glVertex3f(-1.4f + 0.4f * (float)k, 0.8f, 0.2f);
    }
    glEnd();
}

int main(int argc, char **argv)
{
    struct app_options opt;
    app_parse_options(argc, argv, &opt);
    Display *dpy;
    GLXFBConfig config;
    Window win = app_glx_open(TAG, fb_attribs, &dpy, &config);
    if (!win)
        return 1;
    GLXContext ctx = glXCreateNewContext(dpy, config, GLX_RGBA_TYPE, NULL, True);
    if (!ctx || !glXMakeCurrent(dpy, win, ctx)) {
        fprintf(stderr, TAG ": no compatibility context\n");
        return 1;
    }
    glViewport(0, 0, APP_WIDTH, APP_HEIGHT);
    set_state();
    int status = 0;
    for (unsigned frame = 0; frame < opt.frames && !status; ++frame) {
        if (frame == 2)
            change_state();
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
        draw(frame);
        status = app_check_gl_error(TAG, NULL, frame);
        glXSwapBuffers(dpy, win);
    }
    app_glx_close(dpy, win, ctx);
    return status;
}
