/* Which functions the current context provides: the tokens of specs/providers.py
 * checked as libepoxy's resolver checks its providers (same registry), so that what
 * passes here never makes epoxy abort: desktop GL x.y needs a desktop context of that
 * version or later; ES 1.0 an ES 1.x context; ES x.y (x >= 2) an ES context of that
 * version or later; an extension, its name in the context's extension list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <epoxy/gl.h>

#include "retrace_gl.h"

gl_avail *gl_avail_new(unsigned n)
{
    gl_avail *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->known = calloc(n ? n : 1, 1);
    if (!a->known) {
        free(a);
        return NULL;
    }
    a->n = n;
    a->desktop = epoxy_is_desktop_gl();
    a->version = epoxy_gl_version();
    return a;
}

void gl_avail_free(gl_avail *a)
{
    if (!a)
        return;
    free(a->known);
    free(a);
}

/* One token: "GL4.5", "ES1.0", "ES3.2" or an extension name. */
static bool provides(const gl_avail *a, const char *tok, size_t len)
{
    int major, minor;
    char api[3] = {0};
    if (len >= 5 && len < 8 && sscanf(tok, "%2[GLES]%d.%d", api, &major, &minor) == 3) {
        int v = major * 10 + minor;
        if (!strcmp(api, "GL"))
            return a->desktop && a->version >= v;
        if (!strcmp(api, "ES") && v < 20)
            return !a->desktop && a->version < 20;
        if (!strcmp(api, "ES"))
            return !a->desktop && a->version >= v;
    }
    char name[128];
    if (len >= sizeof name)
        return false;
    memcpy(name, tok, len);
    name[len] = '\0';
    return epoxy_has_gl_extension(name);
}

bool gl_avail_check(const gl_avail *a, const char *providers)
{
    const char *p = providers;
    while (*p) {
        size_t len = strcspn(p, " ");
        if (len && provides(a, p, len))
            return true;
        p += len;
        p += *p == ' ';
    }
    return false;
}
