/* gltrace view runs in a module, libgltrace_view.so, loaded only for it: the HTTP
 * library and what it pulls in (GnuTLS and a dozen more) would otherwise load with every
 * gltrace command (1 ms more for each `gltrace info`, 3.5 MB more resident). */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>

#include "gltrace_cmds.h"
#include "lib_path.h"

typedef int (*view_main_fn)(int argc, char **argv);

int cmd_view(int argc, char **argv)
{
    char path[PATH_MAX];
    gt_error err;
    gt_error_clear(&err);
    if (gltrace_find_lib("GLTRACE_VIEW_LIB", "libgltrace_view.so", path, sizeof path, &err) != 0) {
        fprintf(stderr, "gltrace view: %s\n", err.msg);
        return 1;
    }
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    view_main_fn fn = h ? (view_main_fn)(void (*)(void))dlsym(h, "gltrace_view_main") : NULL;
    if (!fn) {
        fprintf(stderr, "gltrace view: cannot load %s: %s\n", path,
                h ? "not gltrace's viewer" : dlerror());
        return 1;
    }
    return fn(argc, argv); /* the module stays loaded: its threads have ended by now */
}
