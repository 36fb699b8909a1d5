/* The state snapshot's fixed-function state (snap_state_ff.h): lights and materials,
 * each texture unit's setters, environment and matrix, the modelview and projection
 * matrices and the matrix mode. Compatibility profiles only. */
#include "snap_state_ff.h"

#include <string.h>

#include "gl_enums.gen.h"
#include "protos.gen.h"

static const GLfloat identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

static int is_identity(const GLfloat *m) { return !memcmp(m, identity, sizeof identity); }


static int collect_lights(snap *s, snap_state_ff *f, snap_set_list *set)
{
    GLint n = snap_geti(GL_MAX_LIGHTS);
    f->nlights = n < 0 ? 0 : n > 32 ? 32 : n;
    size_t before = set->n;
    for (int i = 0; i < f->nlights; ++i) {
        if (SNAP_REAL(glIsEnabled)(GL_LIGHT0 + (GLenum)i))
            f->lights_on |= 1u << i;
        if (snap_state_set_collect(s, set, SNAP_SEC_LIGHT, GL_LIGHT0 + (unsigned)i, -1, 0) != 0)
            return -1;
    }
    if (snap_state_set_collect(s, set, SNAP_SEC_MATERIAL, GL_FRONT, -1, 0) != 0 ||
        snap_state_set_collect(s, set, SNAP_SEC_MATERIAL, GL_BACK, -1, 0) != 0)
        return -1;
    f->lights_written = set->n != before;
    return 0;
}

static int collect_units(snap *s, snap_state_ff *f, snap_set_list *set)
{
    GLint units = snap_geti(GL_MAX_TEXTURE_UNITS);
    GLint coords = snap_geti(GL_MAX_TEXTURE_COORDS);
    GLint n = coords > 0 && coords < units ? coords : units;
    f->nunits = n < 0 ? 0 : n > SNAP_FF_UNITS ? SNAP_FF_UNITS : n;
    GLint active = snap_geti(GL_ACTIVE_TEXTURE);
    for (int u = 0; u < f->nunits; ++u) {
        SNAP_REAL(glActiveTexture)(GL_TEXTURE0 + (GLenum)u);
        unsigned unit = GL_TEXTURE0 + (unsigned)u;
        if (snap_state_set_collect(s, set, SNAP_SEC_UNIT, unit, u, 0) != 0 ||
            snap_state_set_collect(s, set, SNAP_SEC_TEXENV, unit, u, 0) != 0)
            return -1;
        SNAP_REAL(glGetFloatv)(GL_TEXTURE_MATRIX, f->texture[u]);
    }
    SNAP_REAL(glActiveTexture)((GLenum)active);
    return 0;
}

int snap_state_ff_collect(snap *s, snap_state_ff *f, snap_set_list *set, int core)
{
    memset(f, 0, sizeof *f);
    if (snap_api(s) != SNAP_API_GL || core)
        return 0;
    f->on = 1;
    f->matrix_mode = snap_geti(GL_MATRIX_MODE);
    SNAP_REAL(glGetFloatv)(GL_MODELVIEW_MATRIX, f->modelview);
    SNAP_REAL(glGetFloatv)(GL_PROJECTION_MATRIX, f->projection);
    if (collect_lights(s, f, set) != 0)
        return -1;
    return snap_version(s) >= 13 ? collect_units(s, f, set) : 0;
}

static int unit_has_calls(const snap_set_list *set, int unit)
{
    for (size_t i = 0; i < set->n; ++i)
        if (set->calls[i].unit == unit)
            return 1;
    return 0;
}

/* Lights take positions and directions through the modelview matrix: they are set
 * with the identity, as the eye coordinates glGetLightfv answers. */
static void write_lights(const snap_state_ff *f, const snap_set_list *set)
{
    for (int i = 0; i < f->nlights; ++i)
        if (f->lights_on & (1u << i))
            glEnable(GL_LIGHT0 + (GLenum)i);
    if (!f->lights_written)
        return;
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    snap_state_set_write(set, SNAP_SEC_LIGHT, -1);
    snap_state_set_write(set, SNAP_SEC_MATERIAL, -1);
}

void snap_state_ff_write(const snap_state_ff *f, const snap_set_list *set)
{
    if (!f->on)
        return;
    write_lights(f, set);
    int mode_changed = f->lights_written;
    for (int u = 0; u < f->nunits; ++u) {
        int matrix = !is_identity(f->texture[u]);
        if (!matrix && !unit_has_calls(set, u))
            continue;
        glActiveTexture(GL_TEXTURE0 + (GLenum)u);
        snap_state_set_write(set, SNAP_SEC_UNIT, u);
        snap_state_set_write(set, SNAP_SEC_TEXENV, u);
        if (matrix) {
            glMatrixMode(GL_TEXTURE);
            glLoadMatrixf(f->texture[u]);
            mode_changed = 1;
        }
    }
    if (!is_identity(f->modelview) || f->lights_written) {
        glMatrixMode(GL_MODELVIEW);
        glLoadMatrixf(f->modelview);
        mode_changed = 1;
    }
    if (!is_identity(f->projection)) {
        glMatrixMode(GL_PROJECTION);
        glLoadMatrixf(f->projection);
        mode_changed = 1;
    }
    if (mode_changed || f->matrix_mode != GL_MODELVIEW)
        glMatrixMode((GLenum)f->matrix_mode);
}
