/* The state snapshot's context state: the setters of specs/state_setters.txt
 * (snap_state.h, snap_state_set.h). Each setter the context provides is read with the
 * real glGet*; where its values are the GL's defaults nothing is written. */
#include "snap_state_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_enums.gen.h"
#include "gt_grow.h"
#include "protos.gen.h"

/* a version token of the providers: GL3.2 or ES3.0 */
static int version_provided(const snap *s, const char *tok, size_t n)
{
    int major = 0, minor = 0;
    char buf[16];
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, tok, n);
    buf[n] = '\0';
    if (sscanf(buf + 2, "%d.%d", &major, &minor) != 2)
        return 0;
    int want = major * 10 + minor;
    if (!strncmp(buf, "GL", 2))
        return snap_api(s) == SNAP_API_GL && snap_version(s) >= want;
    if (major == 1) /* ES 1.x features are not in ES 2 and later */
        return snap_api(s) == SNAP_API_GLES && snap_version(s) < 20;
    return snap_api(s) == SNAP_API_GLES && snap_version(s) >= want;
}

static int token_provided(const snap *s, const char *tok, size_t n)
{
    if (n > 2 && (!strncmp(tok, "GL", 2) || !strncmp(tok, "ES", 2)) && tok[2] >= '0' &&
        tok[2] <= '9')
        return version_provided(s, tok, n);
    char name[128];
    if (n >= sizeof name)
        return 0;
    memcpy(name, tok, n);
    name[n] = '\0';
    return snap_has_extension(s, name);
}

int snap_state_provided(const snap *s, const char *providers)
{
    const char *p = providers;
    while (*p) {
        const char *end = strchr(p, ';');
        if (!end)
            end = p + strlen(p);
        int any = 0;
        for (const char *t = p; t < end && !any;) {
            size_t n = strcspn(t, " ;");
            any = n && token_provided(s, t, n);
            t += n;
            while (*t == ' ')
                ++t;
        }
        if (!any)
            return 0;
        p = *end ? end + 1 : end;
    }
    return 1;
}


int snap_state_core(const snap *s)
{
    if (snap_api(s) != SNAP_API_GL || snap_version(s) < 31)
        return 0;
    if (snap_version(s) == 31)
        return !snap_has_extension(s, "GL_ARB_compatibility");
    GLint mask = 0;
    SNAP_REAL(glGetIntegerv)(GL_CONTEXT_PROFILE_MASK, &mask);
    return (mask & GL_CONTEXT_CORE_PROFILE_BIT) != 0;
}

int snap_state_applies(const snap *s, int core, const snap_setter *t)
{
    int gl = snap_api(s) == SNAP_API_GL;
    if ((t->flags & SNAP_IF_COMPAT) && gl && core)
        return 0;
    if ((t->flags & SNAP_IF_CORE) && !(gl && core))
        return 0;
    if (((t->flags & SNAP_IF_GL) && !gl) || ((t->flags & SNAP_IF_ES) && gl))
        return 0;
    return snap_state_provided(s, t->providers);
}

/* Reads one value of section sec (obj: its light, face) into out[0..count). */
static void read_one(unsigned sec, unsigned obj, const snap_read *r, snap_value *out)
{
    GLint iv[16] = {0};
    GLfloat fv[16] = {0};
    GLboolean bv[16] = {0};
    GLint64 lv[16] = {0};
    int floats = r->type == SNAP_FLOAT;
    if (sec == SNAP_SEC_LIGHT) {
        SNAP_REAL(glGetLightfv)(obj, r->pname, fv);
        floats = 1;
    } else if (sec == SNAP_SEC_MATERIAL) {
        SNAP_REAL(glGetMaterialfv)(obj, r->pname, fv);
        floats = 1;
    } else if (sec == SNAP_SEC_TEXENV) {
        if (floats)
            SNAP_REAL(glGetTexEnvfv)(GL_TEXTURE_ENV, r->pname, fv);
        else
            SNAP_REAL(glGetTexEnviv)(GL_TEXTURE_ENV, r->pname, iv);
    } else if (r->type == SNAP_BOOL) {
        SNAP_REAL(glGetBooleanv)(r->pname, bv);
        for (int k = 0; k < 16; ++k)
            iv[k] = bv[k];
    } else if (r->type == SNAP_ENABLED) {
        iv[0] = SNAP_REAL(glIsEnabled)(r->pname);
    } else if (r->type == SNAP_INT64) {
        SNAP_REAL(glGetInteger64v)(r->pname, lv);
    } else if (floats) {
        SNAP_REAL(glGetFloatv)(r->pname, fv);
    } else {
        SNAP_REAL(glGetIntegerv)(r->pname, iv);
    }
    unsigned first = r->element >= 0 ? (unsigned)r->element : 0;
    unsigned n = r->element >= 0 ? 1 : r->count;
    for (unsigned k = 0; k < n && first + k < 16; ++k) {
        unsigned j = first + k;
        out[k].d = floats ? fv[j] : (double)(r->type == SNAP_INT64 ? lv[j] : iv[j]);
        out[k].i = floats ? (long long)fv[j] : r->type == SNAP_INT64 ? (long long)lv[j] : iv[j];
    }
}

/* A default of -1 is a mask of all ones, which drivers answer cut to the buffer's bits
 * (255 for an 8-bit stencil buffer). */
static int all_ones(double def, long long v)
{
    return def == -1 && v > 0 && (v & (v + 1)) == 0;
}

static int is_default(const snap_setter *t, const snap_value *v)
{
    if (!t->defaults)
        return 0;
    unsigned k = 0;
    for (unsigned r = 0; r < t->nreads; ++r) {
        unsigned n = t->reads[r].element >= 0 ? 1 : t->reads[r].count;
        int floats = t->reads[r].type == SNAP_FLOAT || t->section == SNAP_SEC_LIGHT ||
                     t->section == SNAP_SEC_MATERIAL;
        for (unsigned j = 0; j < n; ++j, ++k)
            if (floats ? (float)v[k].d != (float)t->defaults[k]
                       : v[k].i != (long long)t->defaults[k] && !all_ones(t->defaults[k], v[k].i))
                return 0;
    }
    return 1;
}

static void say_unwritten(snap *s, const snap_setter *t, const snap_value *v, int unit)
{
    char where[32] = "";
    if (unit >= 0)
        snprintf(where, sizeof where, " of texture unit %d", unit);
    snap_unreadable(s, "%s%s is %g, not the default %g: what it needs is not written back",
                    t->name, where, t->reads[0].type == SNAP_FLOAT ? v[0].d : (double)v[0].i,
                    t->defaults[0]);
}

int snap_state_set_collect(snap *s, snap_set_list *list, unsigned sec, unsigned obj, int unit,
                           int core)
{
    for (unsigned i = 0; i < snap_setter_count; ++i) {
        const snap_setter *t = &snap_setters[i];
        if (t->section != sec || !snap_state_applies(s, core, t))
            continue;
        if ((t->flags & SNAP_IF_LIGHT0) && obj != GL_LIGHT0)
            continue;
        if ((t->flags & SNAP_IF_LIGHTN) && obj == GL_LIGHT0)
            continue;
        snap_set_call c = {t, obj, unit, {{0, 0}}};
        unsigned k = 0;
        for (unsigned r = 0; r < t->nreads; ++r) {
            read_one(sec, obj, &t->reads[r], &c.v[k]);
            k += t->reads[r].element >= 0 ? 1 : t->reads[r].count;
        }
        if (is_default(t, c.v))
            continue;
        if (!t->write) {
            say_unwritten(s, t, c.v, unit);
            continue;
        }
        if (GT_GROW(list->calls, list->cap, list->n + 1, 32) != 0)
            return -1;
        list->calls[list->n++] = c;
    }
    return 0;
}

void snap_state_set_write(const snap_set_list *list, unsigned sec, int unit)
{
    for (size_t i = 0; i < list->n; ++i) {
        const snap_set_call *c = &list->calls[i];
        if (c->set->section == sec && c->unit == unit)
            c->set->write(c->obj, c->v);
    }
}

void snap_state_set_free(snap_set_list *list)
{
    free(list->calls);
    memset(list, 0, sizeof *list);
}
